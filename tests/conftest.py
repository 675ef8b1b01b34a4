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


# The longest tests (minutes each on a loaded machine), longest first: when the suite runs
# side by side they start first, so that none starts last and keeps one worker busy after
# the others are done.
LONGEST = (
    "tests/release/",
    "tests/games/test_conformance.py::test_random_playouts_finish",
    "tests/bot/discord/test_matches.py::",
    "tests/bot/discord/test_behaviour.py::test_the_bot_restarted_mid_match_continues_it",
    "tests/bot/service/test_match_service.py::test_a_whole_match_of_every_game_through_the_",
    "tests/bot/sandbox/test_sandbox.py::test_a_whole_match_in_the_sandbox",
)


def _rank(item: pytest.Item) -> int:
    return next((n for n, start in enumerate(LONGEST) if item.nodeid.startswith(start)), 99)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if os.environ.get("PYTEST_XDIST_WORKER"):  # each worker collects, in the same order
        items.sort(key=_rank)


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
