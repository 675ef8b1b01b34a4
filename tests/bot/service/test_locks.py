"""One lock per match: changes to one match come one after the other, other matches go on,
and a lock nobody holds or awaits is forgotten."""

from __future__ import annotations

import asyncio

from bot.service.locks import KeyedLocks


async def test_one_match_waits_for_its_lock_and_others_do_not() -> None:
    locks = KeyedLocks()
    order: list[str] = []

    async def change(key: int, name: str, pause: float) -> None:
        async with locks.hold(key):
            order.append(f"{name} in")
            await asyncio.sleep(pause)
            order.append(f"{name} out")

    await asyncio.gather(change(1, "a", 0.02), change(1, "b", 0), change(2, "c", 0))
    assert order.index("a out") < order.index("b in")
    assert order.index("c out") < order.index("a out")
    assert not locks.held(1) and not locks.held(2)


async def test_a_lock_is_let_go_when_its_holder_fails() -> None:
    locks = KeyedLocks()
    try:
        async with locks.hold(5):
            assert locks.held(5)
            raise RuntimeError
    except RuntimeError:
        pass
    assert not locks.held(5)
    async with locks.hold(5):
        pass
