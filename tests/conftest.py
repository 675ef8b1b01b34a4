"""Fixtures for the whole suite."""

from __future__ import annotations

import random

import pytest

import bot.service.life
from tests import pg


@pytest.fixture(scope="session")
def pg_server() -> str:
    """The session's PostgreSQL database (see tests/pg.py); the test is skipped, saying
    why, where no server can be started."""
    url, why = pg.server()
    if url is None:
        pytest.skip(why)
    return url


@pytest.fixture
def pg_url(pg_server: str) -> str:
    """The session's PostgreSQL database, emptied for this test."""
    return pg.empty(pg_server)


@pytest.fixture(autouse=True)
def reproducible_deals(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Matches started in a test are dealt from seeds fixed by the test's name, so a failure
    replays exactly; in play, seeds are fresh and secret (bot.service.life.fresh_seed)."""
    seeds = random.Random(request.node.nodeid)
    monkeypatch.setattr(bot.service.life, "fresh_seed", lambda: seeds.randrange(2**62))
