"""A tournament's standings lines: ranked by score then tie-breaks, byes counted, and who
left still listed, marked as gone."""

from __future__ import annotations

from bot.service.tournament_values import Entry, TournamentInfo, standing_lines


def _info(*players: Entry) -> TournamentInfo:
    return TournamentInfo(
        id=1, guild_id=77, channel_id=5, thread_id=None, name="Cup", game="ecarte",
        options={}, format="swiss", duplicate=False, rounds=2, days_per_move=None,
        creator_id=1, status="running", round=2, starts_at=None, players=players,
    )  # fmt: skip


def _game(
    seat0: int, seat1: int | None, points0: float, points1: float | None
) -> dict[str, object]:
    return {"seat0_id": seat0, "seat1_id": seat1, "points0": points0, "points1": points1}


def test_standings_rank_by_score_and_count_byes_and_leavers() -> None:
    info = _info(Entry(1, "Ana", 1, None), Entry(2, "Ben", 2, 2), Entry(3, "Cy", 3, None))
    played = [
        _game(1, 2, 1.0, 0.0),  # round 1: Ana beats Ben
        _game(3, None, 1.0, None),  # round 1: Cy has the bye
        _game(3, 1, 0.5, 0.5),  # round 2: Cy and Ana draw
    ]
    lines = standing_lines(info, played)
    assert [(line.rank, line.name, line.score) for line in lines] == [
        (1, "Ana", 1.5), (2, "Cy", 1.5), (3, "Ben", 0.0),
    ]  # fmt: skip
    ana, cy, ben = lines
    assert (ana.wins, ana.draws, ana.losses, ana.byes) == (1, 1, 0, 0)
    assert (cy.wins, cy.draws, cy.byes) == (0, 1, 1)
    assert ben.left and not ana.left and not cy.left


def test_no_games_yet_lists_everyone_in_starting_order() -> None:
    info = _info(Entry(5, "Ed", 1, None), Entry(4, "Di", 2, None))
    assert [line.name for line in standing_lines(info, [])] == ["Ed", "Di"]
