"""The store's caches keep the latest used and let the oldest go; a state is known again
only by the very text it was stored as."""

from __future__ import annotations

from dataclasses import replace

from bot.service import MatchService
from bot.service.cache import MatchCache, StateTexts
from tests.bot.conftest import start_match


async def test_the_cache_of_rows_lets_the_least_recently_used_go(service: MatchService) -> None:
    row = await service.store.peek((await start_match(service)).id)
    cache = MatchCache(2)
    for match_id in (1, 2, 1, 3):
        cache.keep(replace(row, id=match_id))
    assert list(cache) == [1, 3]
    assert cache[3].id == 3
    none = MatchCache(0)  # on a shared database: nothing kept
    none.keep(row)
    assert len(none) == 0


async def test_a_state_is_known_by_its_text_alone(service: MatchService) -> None:
    state = (await service.store.peek((await start_match(service)).id)).state
    assert state is not None
    text = state.to_json()
    known = StateTexts(2)
    known.keep(1, text, state)
    assert known.get(1, text) is state
    assert known.get(1, text + " ") is None and known.get(2, text) is None
    known.keep(2, text, state)
    known.get(1, text)  # 1 is now the latest used
    known.keep(3, text, state)
    assert known.get(2, text) is None and known.get(1, text) is state
