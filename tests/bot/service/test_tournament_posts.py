"""What a tournament owes its thread: each report and each new match is handed out until it
is marked posted, then never again; standings come once a round is over."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import MatchService, PlayerRef

GUILD = 77
PLAYERS = [PlayerRef(1000 + i, name) for i, name in enumerate(["Ana", "Ben"])]


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[MatchService]:
    opened = await MatchService.open(tmp_path / "t.db")
    yield opened
    await opened.close()


async def test_reports_and_postings_are_owed_until_marked(service: MatchService) -> None:
    posts = service.tournaments.posts
    info = await service.tournaments.create(
        PLAYERS[0], guild_id=GUILD, channel_id=5, name="Cup", game="ecarte", options=None,
        format_="swiss", duplicate=False, rounds=None, days_per_move=None, starts_at=None,
    )  # fmt: skip
    for player in PLAYERS:
        await service.tournaments.join(info.id, player, GUILD)
    assert await posts.reports() == [] and await posts.postings() == []  # nothing paired yet
    await service.tournaments.start(info.id, PLAYERS[0].user_id, GUILD, manager=False)
    await service.tournaments.step()

    (pairings,) = await posts.reports()
    assert (pairings.kind, pairings.round, pairings.place) == ("pairings", 1, 5)
    assert "Ana" in pairings.text and "Ben" in pairings.text
    assert await posts.reports() == [pairings]  # owed again until marked
    await posts.mark_reported(pairings)
    assert await posts.reports() == []

    (posting,) = await posts.postings()
    assert posting.round == 1 and posting.channel_id == 5
    assert f"#{posting.match_id}" in posting.text and posting.thread_name.endswith(
        f"#{posting.match_id}"
    )
    opened = await posts.opening(posting, None)
    assert opened  # the board and hands of a match still going
    assert await posts.postings() == []

    await service.resign(posting.match_id, PLAYERS[1].user_id)
    await service.tournaments.step()
    (standings,) = await posts.reports()
    assert (standings.kind, standings.round) == ("standings", 1)
    assert [(line.name, line.score) for line in standings.lines] == [("Ana", 1.0), ("Ben", 0.0)]
    assert "Ana" in standings.text  # the final standings name the winner
    await posts.mark_reported(standings)
    await posts.mark_reported(standings)  # marked twice: still once
    assert await posts.reports() == []
