"""One lock per match: changes to one match come one after the other, other matches go on,
and a lock nobody holds or awaits is forgotten."""

from __future__ import annotations

import asyncio

from bot.service.locks import KeyedLocks


async def test_one_match_waits_for_its_lock_and_others_do_not() -> None:
    locks = KeyedLocks()
    order: list[str] = []
    go_on = asyncio.Event()

    async def change(key: int, name: str, until: asyncio.Event | None = None) -> None:
        async with locks.hold(key):
            order.append(f"{name} in")
            if until is not None:
                await until.wait()
            order.append(f"{name} out")

    first = asyncio.create_task(change(1, "a", go_on))
    await asyncio.sleep(0)  # a's turn: it takes match 1's lock and waits there
    second = asyncio.create_task(change(1, "b"))
    await change(2, "c")  # another match goes on meanwhile
    assert order == ["a in", "c in", "c out"]  # b still waits for a
    go_on.set()
    await asyncio.gather(first, second)
    assert order == ["a in", "c in", "c out", "a out", "b in", "b out"]
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
