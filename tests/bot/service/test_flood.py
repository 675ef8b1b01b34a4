"""The rate of challenges is a token bucket per player: a burst, then one more every so
often; a refusal takes nothing, and full buckets are forgotten."""

from __future__ import annotations

import pytest

from bot.service import MatchService, Refused
from bot.service.flood import ChallengeFlood
from bot.service.values import ChallengeLimits


async def test_a_burst_then_one_every_so_often(service: MatchService) -> None:
    limits = ChallengeLimits(burst=2, every_seconds=60)
    flood = ChallengeFlood(service.store.db, limits)
    for _ in range(2):
        await flood.check(1, None, 0.0)
        flood.spend(1, 0.0)
    with pytest.raises(Refused, match="too quickly"):
        await flood.check(1, None, 30.0)
    await flood.check(2, None, 30.0)  # another player's bucket is full
    with pytest.raises(Refused, match="too quickly"):
        await flood.check(1, None, 59.0)  # the refusals took nothing, nor gave
    await flood.check(1, None, 60.0)


async def test_full_buckets_are_forgotten(service: MatchService) -> None:
    flood = ChallengeFlood(service.store.db, ChallengeLimits(burst=1, every_seconds=1))
    for user_id in range(10_001):
        flood.spend(user_id, 0.0)
    flood.spend(20_000, 5.0)  # past the bound: the refilled ones go
    assert flood._buckets.keys() == {20_000}
