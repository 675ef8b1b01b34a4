"""Tournaments in the service, without Discord: start times kept by the stored clock, polite
refusals, and nothing paired twice when passes overlap."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.service import Delivery, MatchService, PlayerRef, Refused, ServiceError

GUILD = 77


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def service(tmp_path: Path, clock: Clock) -> AsyncIterator[MatchService]:
    opened = await MatchService.open(tmp_path / "t.db", now=clock)
    yield opened
    await opened.close()


PLAYERS = [PlayerRef(1000 + i, name) for i, name in enumerate(["Ana", "Ben", "Cy", "Di", "Ed"])]


async def _open(service: MatchService, **terms: object) -> int:
    settings: dict[str, object] = {
        "guild_id": GUILD,
        "channel_id": 5,
        "name": "Cup",
        "game": "ecarte",
        "options": None,
        "format_": "swiss",
        "duplicate": False,
        "rounds": None,
        "days_per_move": None,
        "starts_at": None,
        **terms,
    }
    info = await service.tournaments.create(PLAYERS[0], **settings)  # type: ignore[arg-type]
    return info.id


async def test_a_start_time_starts_it_after_a_restart(
    service: MatchService, clock: Clock, tmp_path: Path
) -> None:
    starts = (clock.now + timedelta(hours=2)).timestamp()
    tournament = await _open(service, starts_at=starts)
    for player in PLAYERS:
        await service.tournaments.join(tournament, player, GUILD)
    await service.tournaments.step()
    assert (await service.tournaments.get(tournament, GUILD)).status == "open"
    assert await service.tournaments.next_due() == starts
    await service.close()
    clock.now += timedelta(hours=3)
    reopened = await MatchService.open(tmp_path / "t.db", now=clock)
    try:
        await asyncio.gather(reopened.tournaments.step(), reopened.tournaments.step())
        info = await reopened.tournaments.get(tournament, GUILD)
        assert info.status == "running" and info.round == 1 and info.rounds == 3
        games = await reopened.database.fetchall(
            "SELECT * FROM tournament_games WHERE tournament_id = ?", (tournament,)
        )
        # Five players: two matches and a bye, made once however many passes ran.
        assert len(games) == 3 and sum(g["match_id"] is None for g in games) == 1
        reports = await reopened.tournaments.posts.reports()
        assert [r.kind for r in reports] == ["pairings"]
        assert "has the bye" in reports[0].text
    finally:
        await reopened.close()


async def test_too_few_players_at_the_start_time_cancels_it(
    service: MatchService, clock: Clock
) -> None:
    tournament = await _open(service, starts_at=(clock.now + timedelta(minutes=5)).timestamp())
    await service.tournaments.join(tournament, PLAYERS[1], GUILD)
    clock.now += timedelta(minutes=6)
    await service.tournaments.step()
    assert (await service.tournaments.get(tournament, GUILD)).status == "cancelled"
    (report,) = await service.tournaments.posts.reports()
    assert "could not start" in report.text and "1 player." in report.text
    await service.tournaments.posts.mark_reported(report)
    assert await service.tournaments.posts.reports() == []


@pytest.mark.parametrize(
    ("terms", "words"),
    [
        ({"game": "chess"}, "no game called"),
        ({"options": {"target": 99}}, "target"),
        ({"format_": "knockout"}, "swiss or round-robin"),
        ({"format_": "round-robin", "rounds": 3}, "leave the rounds out"),
        ({"days_per_move": 99}, "days per move"),
        ({"starts_at": 0.0}, "has passed"),
    ],
)
async def test_bad_terms_are_refused_politely(
    service: MatchService, terms: dict[str, object], words: str
) -> None:
    with pytest.raises(Refused, match=words):
        await _open(service, **terms)


async def test_joining_leaving_and_starting_are_checked(service: MatchService) -> None:
    tournament = await _open(service)
    await service.tournaments.join(tournament, PLAYERS[0], GUILD)
    with pytest.raises(ServiceError, match="already in"):
        await service.tournaments.join(tournament, PLAYERS[0], GUILD)
    with pytest.raises(ServiceError, match="needs at least 2 players"):
        await service.tournaments.start(tournament, PLAYERS[0].user_id, GUILD, manager=False)
    with pytest.raises(ServiceError, match="no tournament #"):
        await service.tournaments.join(tournament, PLAYERS[1], GUILD + 1)  # another server
    with pytest.raises(ServiceError, match="not playing"):
        await service.tournaments.leave(tournament, PLAYERS[2].user_id, GUILD)
    info, news, _ = await service.tournaments.leave(tournament, PLAYERS[0].user_id, GUILD)
    assert info.players == () and "0 players now." in news.text


async def test_who_leaves_between_the_legs_of_a_duplicate_loses_it(
    service: MatchService,
) -> None:
    tournament = await _open(
        service, game="piquet", options={"deals": 1}, format_="round-robin", duplicate=True
    )
    for player in PLAYERS[:2]:
        await service.tournaments.join(tournament, player, GUILD)
    await service.tournaments.start(tournament, PLAYERS[0].user_id, GUILD, manager=False)
    await service.tournaments.step()
    (posting,) = await service.tournaments.posts.postings()
    await service.tournaments.posts.opening(posting, None)
    rng = random.Random(5)
    while (info := await service.get(posting.match_id)).status == "active":
        assert info.to_move is not None
        moves = await service.legal_moves(posting.match_id, info.to_move)
        await service.move(posting.match_id, info.to_move, rng.choice(moves))
    # The first leg is over; before the task starts the second, Ben leaves.
    _, news, resigned = await service.tournaments.leave(tournament, PLAYERS[1].user_id, GUILD)
    assert resigned == [] and "Ben leaves" in news.text
    (told,) = await service.tournaments.step()
    assert "Ana wins by resignation" in told.text
    assert await service.duplicates.legs(posting.match_id) == (posting.match_id, None)
    await service.tournaments.step()
    info_t = await service.tournaments.get(tournament, GUILD)
    assert info_t.status == "finished"
    lines = await service.tournaments.standings(tournament, GUILD)
    assert [(line.name, line.score) for line in lines] == [("Ana", 1.0), ("Ben", 0.0)]


async def _play_out(service: MatchService, match_id: int, seed: int) -> list[Delivery]:
    """Random legal moves until the match is over; the last move's deliveries."""
    rng = random.Random(seed)
    told: list[Delivery] = []
    while (info := await service.get(match_id)).status == "active":
        assert info.to_move is not None
        moves = await service.legal_moves(match_id, info.to_move)
        _, told = await service.move(match_id, info.to_move, rng.choice(moves))
    return told


async def test_a_duplicate_offers_a_rematch_for_the_pair_not_under_a_leg(
    service: MatchService,
) -> None:
    ana, ben = PLAYERS[0], PLAYERS[1]
    info, _ = await service.challenge(
        ana, ben, "piquet", guild_id=GUILD, channel_id=5, options={"deals": 1}, duplicate=True
    )
    await service.accept(info.id, ben)
    ended = [d for d in await _play_out(service, info.id, 3) if d.kind == "notice"]
    assert ended and all(d.status == "finished" and d.leg for d in ended)
    with pytest.raises(Refused, match="one leg of a duplicate match"):
        await service.rematch(info.id, ana)
    await service.tournaments.step()  # the second leg starts
    pair = await service.duplicates.legs(info.id)
    assert pair is not None and pair[1] is not None
    second = pair[1]
    ended = [d for d in await _play_out(service, second, 4) if d.kind == "notice"]
    assert ended and all(d.leg for d in ended)
    (result,) = [d for d in await service.tournaments.step() if d.kind == "notice"]
    # The pair's result is where its rematch is offered, for the pair.
    assert result.match_id == second and result.status == "finished" and not result.leg
    again, told = await service.rematch(second, ben)
    assert again.status == "challenge" and again.challenger.user_id == ben.user_id
    assert await service.duplicates.legs(again.id) == (again.id, None)
    assert any("same deals" in d.text for d in told if d.kind == "notice"), told
    accepted, _ = await service.rematch(second, ana)  # Ana asks too: that accepts Ben's
    assert accepted.id == again.id and accepted.status == "active"
