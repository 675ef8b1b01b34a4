"""Fixtures for the site's tests: a database of real finished matches, one live match, and
the site served over HTTP on 127.0.0.1.

The site reads the database, so its tests run on both: a SQLite file and the session's
PostgreSQL server (``backend``, as in tests/bot/conftest.py; the PostgreSQL half is skipped,
saying why, where no server can start). The browser tests read the same pages through the
same queries and run on SQLite alone, to keep the suite quick."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bench.web import FIRST_USER, GUILDS, populate
from bot.service import MatchService, PlayerRef
from bot.service.settings import set_web
from bot.web.app import create_app

FINISHED = 12  # three of each game
GUILD_OFF = GUILDS[1] + 1  # a server that never turned its pages on
LIVE_GAME = "piquet"  # one pack: a card code names one card, so "no hand card shown" is exact
ADA = PlayerRef(FIRST_USER + 1_000, "Ada")
BLAISE = PlayerRef(FIRST_USER + 1_001, "Blaise")


@dataclass
class World:
    service: MatchService
    finished: list[int]
    live: int
    guild_on: int
    guild_off: int


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def web_db(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> Path | str:
    """Where the site's database is: a SQLite file, or a PostgreSQL address."""
    if backend == "sqlite":
        return tmp_path / "web.db"
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture
async def world(web_db: Path | str) -> AsyncIterator[World]:
    service = await MatchService.open(web_db)
    finished = await populate(service.database, FINISHED, players=6)
    for guild in GUILDS:  # both servers' matches are public; a third server shows nothing
        await set_web(service.database, guild, True)
    info, _ = await service.challenge(
        ADA, BLAISE, LIVE_GAME, guild_id=GUILDS[1], channel_id=1, options={"deals": 1}
    )
    await service.accept(info.id, BLAISE)
    # A few moves, so the live table has something on it.
    for _ in range(3):
        state = await service.view_for(info.id, None)
        mover = ADA if (await service.get(info.id)).to_move == ADA.user_id else BLAISE
        legal = await service.legal_moves(info.id, mover.user_id)
        assert state["to_move"] is not None
        await service.move(info.id, mover.user_id, legal[0])
    yield World(service, finished, info.id, GUILDS[0], GUILD_OFF)
    await service.close()


@pytest.fixture
async def client(world: World) -> AsyncIterator[TestClient]:
    client = TestClient(TestServer(create_app(world.service.database, rate=None)))
    await client.start_server()
    yield client
    await client.close()
