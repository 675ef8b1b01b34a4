"""Fixtures for the whole suite."""

from __future__ import annotations

import os
import random

import pytest

import bot.service.life
from tests import pg


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """Workers for ``-n auto`` (``make test``): two per core, since most tests spend their
    time waiting on Discord's rate limits rather than computing; at most eight, each with a
    PostgreSQL server of its own."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(2, min(8, 2 * (cores or 1)))


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
