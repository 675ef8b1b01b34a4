"""Tournaments in the service, without Discord: start times kept by the stored clock, polite
refusals, and nothing paired twice when passes overlap."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.service import MatchService, PlayerRef, Refused, ServiceError

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
