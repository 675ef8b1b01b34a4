"""Fixtures for the whole suite."""

from __future__ import annotations

import random

import pytest

import bot.service.life


@pytest.fixture(autouse=True)
def reproducible_deals(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Matches started in a test are dealt from seeds fixed by the test's name, so a failure
    replays exactly; in play, seeds are fresh and secret (bot.service.life.fresh_seed)."""
    seeds = random.Random(request.node.nodeid)
    monkeypatch.setattr(bot.service.life, "fresh_seed", lambda: seeds.randrange(2**62))
