"""A tournament's rounds in the service: each game scored once its match is over, the next
round paired only when the last one is all scored, and a round-robin that still lists a
player who left scoring their games as forfeits, without a match."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import MatchService, PlayerRef

GUILD = 77
PLAYERS = [PlayerRef(1000 + i, name) for i, name in enumerate(["Ana", "Ben", "Cy"])]


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[MatchService]:
    opened = await MatchService.open(tmp_path / "t.db")
    yield opened
    await opened.close()


async def _round_robin(service: MatchService) -> int:
    info = await service.tournaments.create(
        PLAYERS[0], guild_id=GUILD, channel_id=5, name="Cup", game="ecarte", options=None,
        format_="round-robin", duplicate=False, rounds=None, days_per_move=None,
        starts_at=None,
    )  # fmt: skip
    for player in PLAYERS:
        await service.tournaments.join(info.id, player, GUILD)
    await service.tournaments.start(info.id, PLAYERS[0].user_id, GUILD, manager=False)
    await service.tournaments.step()
    return info.id


async def _games(service: MatchService, tournament: int) -> list[tuple[int, int, object]]:
    """(round, match or None, first seat's points) of every game, in order."""
    found = await service.database.fetchall(
        "SELECT round, match_id, points0 FROM tournament_games WHERE tournament_id = ?"
        " ORDER BY round, board",
        (tournament,),
    )
    return [(g["round"], g["match_id"], g["points0"]) for g in found]


async def test_a_round_is_paired_once_the_last_is_all_scored(service: MatchService) -> None:
    tournament = await _round_robin(service)
    info = await service.tournaments.get(tournament, GUILD)
    assert (info.status, info.round, info.rounds) == ("running", 1, 3)  # three: one bye each
    for number in (1, 2, 3):
        games = await _games(service, tournament)
        (match_id,) = [m for r, m, _ in games if r == number and m is not None]
        await service.tournaments.step()  # the match goes on: nothing moves
        assert (await service.tournaments.get(tournament, GUILD)).round == number
        match = await service.get(match_id)
        assert match.seats is not None
        await service.resign(match_id, match.seats[1].user_id)
        await service.tournaments.step()
    info = await service.tournaments.get(tournament, GUILD)
    assert (info.status, info.round) == ("finished", 3)
    games = await _games(service, tournament)
    # Each round: the match's first seat won by resignation, and a bye scored as a win.
    assert [(r, p) for r, _, p in games] == [(n, 1.0) for n in (1, 1, 2, 2, 3, 3)]
    lines = await service.tournaments.standings(tournament, GUILD)
    assert sum(line.score for line in lines) == 6.0 and sum(line.byes for line in lines) == 3


async def test_a_player_gone_from_a_round_robin_forfeits_the_games_left(
    service: MatchService,
) -> None:
    tournament = await _round_robin(service)
    games = await _games(service, tournament)
    (match_id,) = [m for _, m, _ in games if m is not None]
    match = await service.get(match_id)
    assert match.seats is not None
    leaver = match.seats[1].user_id
    _, _, resigned = await service.tournaments.leave(tournament, leaver, GUILD)
    assert resigned  # their match of the round is resigned for them
    for _ in range(3):
        await service.tournaments.step()
        for _, m, points in await _games(service, tournament):
            if m is not None and points is None:  # the two still in play theirs out
                going = await service.get(m)
                assert going.seats is not None and going.status == "active"
                await service.resign(m, going.seats[1].user_id)
    await service.tournaments.step()
    info = await service.tournaments.get(tournament, GUILD)
    assert (info.status, info.round) == ("finished", 3)
    gone = await service.database.fetchall(
        "SELECT seat0_id, seat1_id, points0, points1, match_id FROM tournament_games"
        " WHERE tournament_id = ? AND round > 1 AND (seat0_id = ? OR seat1_id = ?)",
        (tournament, leaver, leaver),
    )
    # Rounds 2 and 3 still pair the leaver: each such game is a forfeit won by the one
    # still in, with no match made (a bye of theirs is not written at all).
    assert gone and all(g["match_id"] is None and g["seat1_id"] is not None for g in gone)
    for g in gone:
        theirs, other = (
            (g["points0"], g["points1"])
            if g["seat0_id"] == leaver
            else (g["points1"], g["points0"])
        )
        assert (theirs, other) == (0.0, 1.0)
