"""Pictures drawn in worker processes are the very pictures drawn here, each drawn once."""

from __future__ import annotations

import asyncio
import io

import pytest

import games
import rendering
from bot.discord.painter import Painter, PictureCache, Slots, worker_count
from tests.waiting import until


@pytest.mark.parametrize("processes", [0, 1])
async def test_workers_draw_the_same_bytes(processes: int) -> None:
    state = games.get("piquet").new_match(seed=4)
    painter = Painter(processes)
    try:
        hand = await painter.hand(state.view(0), True)
        table = await painter.table(state.view(None), ("Alice", "Bob"))
    finally:
        painter.close()
    assert hand == rendering.hand_png(state.view(0), four_colour=True)
    assert table == rendering.table_png(state.view(None), ("Alice", "Bob"))


async def test_a_bad_view_is_refused_from_a_worker_too() -> None:
    painter = Painter(1)
    try:
        with pytest.raises(ValueError):
            await painter.hand({"game": "poker"}, False)
    finally:
        painter.close()


async def test_a_dead_worker_is_replaced_and_the_picture_still_drawn() -> None:
    state = games.get("ecarte").new_match(seed=2)
    painter = Painter(1)
    try:
        await painter.hand(state.view(0), False)
        pool = painter.workers.pool
        assert pool is not None
        for process in list(pool._processes.values()):  # type: ignore[attr-defined]
            process.kill()
            process.join()
        assert await painter.hand(state.view(0), False) == rendering.hand_png(state.view(0))
        assert await painter.hand(state.view(1), False) == rendering.hand_png(state.view(1))
    finally:
        painter.close()


def test_worker_count_follows_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAPIS_RENDER_PROCESSES", "0")
    assert worker_count() == 0
    monkeypatch.setenv("TAPIS_RENDER_PROCESSES", "3")
    assert worker_count() == 3
    monkeypatch.delenv("TAPIS_RENDER_PROCESSES")
    assert 1 <= worker_count() <= 2


async def test_an_unchanged_picture_is_not_drawn_again() -> None:
    """The same hand (even from a view that moved on where the hand picture shows nothing of
    it) and the same table are drawn once; a changed one is drawn."""
    state = games.get("ecarte").new_match(seed=3)
    painter = Painter(0)
    try:
        waiting = 1 - (state.to_move or 0)
        first = await painter.hand(state.view(waiting), False)
        again = await painter.hand(dict(state.view(waiting), scores=[5, 7]), False)
        table = await painter.table(state.view(None), ("Alice", "Bob"))
        assert await painter.table(state.view(None), ("Alice", "Bob")) == table
        assert (painter.stats.drawn, painter.stats.reused) == (2, 2)
        assert again == first == rendering.hand_png(state.view(waiting))
        await painter.table(state.view(None), ("Alice", "Carol"))  # other names: redrawn
        await painter.hand(state.view(waiting), True)  # other colours: redrawn
        await painter.hand(state.view(1 - waiting), False)  # another hand: drawn
        assert (painter.stats.drawn, painter.stats.reused) == (5, 2)
    finally:
        painter.close()


async def test_a_picture_asked_for_twice_at_once_is_drawn_once() -> None:
    state = games.get("piquet").new_match(seed=5)
    painter = Painter(0)
    try:
        pictures = await asyncio.gather(
            *(painter.table(state.view(None), ("A", "B")) for _ in "abc")
        )
    finally:
        painter.close()
    assert len(set(pictures)) == 1
    assert (painter.stats.drawn, painter.stats.reused) == (1, 2)


def test_the_cache_keeps_the_latest_pictures_within_its_bytes() -> None:
    cache = PictureCache(limit=10)
    cache.put("a", b"1234")
    cache.put("b", b"1234")
    assert cache.get("a") == b"1234"  # now the most recently used
    cache.put("c", b"1234")  # 12 bytes: the least recently used, "b", goes
    assert cache.get("b") is None
    assert (cache.get("a"), cache.get("c"), cache.size) == (b"1234", b"1234", 8)
    cache.put("big", b"x" * 11)  # larger than the whole cache: not kept, nothing dropped
    assert cache.get("big") is None and len(cache) == 2


async def test_a_bad_view_is_refused_before_anything_is_drawn() -> None:
    painter = Painter(0)
    try:
        with pytest.raises(ValueError, match="legal_moves"):
            await painter.hand({"game": "piquet", "hand": ["7S"], "legal_moves": 3}, False)
        with pytest.raises(ValueError, match="public view"):
            state = games.get("piquet").new_match(seed=4)
            await painter.table(state.view(0), ("A", "B"))
    finally:
        painter.close()
    assert painter.stats.drawn == 0


async def test_a_caller_going_away_does_not_stop_the_drawing_others_wait_for() -> None:
    state = games.get("bezique").new_match(seed=6)
    painter = Painter(0)
    try:
        first = asyncio.ensure_future(painter.table(state.view(None), ("A", "B")))
        second = asyncio.ensure_future(painter.table(state.view(None), ("A", "B")))
        await asyncio.sleep(0)
        first.cancel()
        assert await second == rendering.table_png(state.view(None), ("A", "B"))
        assert await painter.table(state.view(None), ("A", "B")) == await second
    finally:
        painter.close()
    assert (painter.stats.drawn, painter.stats.reused) == (1, 2)


async def _taken(slots: Slots, urgent: bool, order: list[str], name: str) -> None:
    await slots.take(urgent)
    order.append(name)


async def test_a_picture_someone_waits_on_goes_before_the_others() -> None:
    slots = Slots(1)
    await slots.take(False)  # a board being drawn
    order: list[str] = []
    waiting = [
        asyncio.ensure_future(_taken(slots, urgent, order, name))
        for urgent, name in ((False, "board 2"), (False, "board 3"), (True, "hand"))
    ]
    await asyncio.sleep(0)
    assert order == [] and slots.waiting == 3
    for urgent in (False, True, False):  # the first board done, then the hand, a board
        slots.give(urgent)
        await asyncio.sleep(0)
    await asyncio.gather(*waiting)
    assert order == ["hand", "board 2", "board 3"]


async def test_boards_never_take_every_slot() -> None:
    """Of six pictures at once, two boards at most: the pictures handed to a worker are
    drawn in turn, so a hand never queues there behind more than one board per worker."""
    slots = Slots(6, others=2)
    await slots.take(False)
    await slots.take(False)
    third = asyncio.ensure_future(slots.take(False))
    await asyncio.sleep(0)
    assert not third.done() and slots.free == 4
    for _ in range(4):
        await slots.take(True)  # the hands still find room at once
    assert slots.free == 0
    slots.give(True)  # a hand done: the room is kept for hands
    await asyncio.sleep(0)
    assert not third.done() and slots.free == 1
    slots.give(False)  # a board done: the next board goes
    await asyncio.sleep(0)
    assert third.done() and slots.free == 1


async def test_a_caller_gone_while_waiting_keeps_no_slot() -> None:
    slots = Slots(1)
    await slots.take(True)
    gone = asyncio.ensure_future(slots.take(True))
    after = asyncio.ensure_future(slots.take(False))
    await asyncio.sleep(0)
    gone.cancel()
    await asyncio.sleep(0)
    slots.give(True)
    await asyncio.wait_for(after, 1)
    slots.give(False)
    assert (slots.free, slots.waiting) == (1, 0)


async def test_several_pictures_go_to_each_worker_at_once() -> None:
    """A worker has its next picture at hand when it finishes one: the event loop's turn to
    hand it over is not spent with the worker idle."""
    painter = Painter(2)
    try:
        assert painter._slots.free == 6 and painter._slots.others_free == 2
    finally:
        painter.close()


async def _fill_slots(painter: Painter) -> int:
    """Take every slot of ``painter``, as pictures being drawn would: how many were taken."""
    taken = 0
    while painter._slots._room(True):
        await painter._slots.take(True)
        taken += 1
    return taken


async def test_a_picture_nobody_waits_for_any_more_is_not_drawn() -> None:
    """A hand replaced by a newer one while every worker was busy is dropped, not drawn; asked
    for again later, it is drawn afresh."""
    state = games.get("piquet").new_match(seed=7)
    painter = Painter(0)
    try:
        taken = await _fill_slots(painter)
        asked = asyncio.ensure_future(painter.hand(state.view(0), False))
        await until(lambda: painter._slots.waiting == 1, "the hand to wait for a slot")
        asked.cancel()
        await asyncio.sleep(0)
        for _ in range(taken):
            painter._slots.give(True)
        slots = painter._slots
        await until(lambda: slots.free == taken and slots.waiting == 0, "every slot free")
        assert (painter.stats.drawn, painter.stats.dropped) == (0, 1)
        assert await painter.hand(state.view(0), False) == rendering.hand_png(state.view(0))
        assert (painter.stats.drawn, painter.stats.dropped) == (1, 1)
    finally:
        painter.close()


async def test_a_picture_begun_is_finished_and_kept_when_its_caller_goes() -> None:
    state = games.get("cinq-as").new_match(seed=8)
    painter = Painter(0)
    try:
        asked = asyncio.ensure_future(painter.table(state.view(None), ("A", "B")))
        # Begun, or (on a busy machine) already drawn between two looks: either way the
        # picture must be counted once and kept.
        await until(lambda: painter._begun or asked.done(), "the drawing to begin")
        asked.cancel()
        await until(lambda: not painter._drawing, "the drawing to end")
        assert (painter.stats.drawn, painter.stats.dropped) == (1, 0)
        assert await painter.table(state.view(None), ("A", "B")) == rendering.table_png(
            state.view(None), ("A", "B")
        )
        assert painter.stats.reused == 1
    finally:
        painter.close()


async def test_a_picture_dropped_for_one_caller_is_still_drawn_for_another() -> None:
    """Dropped only when nobody waits: a second caller keeps the drawing alive, and a caller
    arriving just after a drop starts a drawing of its own instead of inheriting the
    cancelled one."""
    state = games.get("ecarte").new_match(seed=9)
    painter = Painter(0)
    try:
        taken = await _fill_slots(painter)
        first = asyncio.ensure_future(painter.hand(state.view(0), False))
        second = asyncio.ensure_future(painter.hand(state.view(0), False))
        await until(lambda: painter._slots.waiting == 1, "the hand to wait for a slot")
        first.cancel()
        await asyncio.sleep(0)
        assert painter.stats.dropped == 0
        second.cancel()
        await asyncio.sleep(0)
        assert painter.stats.dropped == 1
        third = asyncio.ensure_future(painter.hand(state.view(0), False))
        for _ in range(taken):
            painter._slots.give(True)
        assert await asyncio.wait_for(third, 10) == rendering.hand_png(state.view(0))
        assert (painter.stats.drawn, painter.stats.dropped) == (1, 1)
    finally:
        painter.close()


def test_pictures_are_compared_by_their_pixels_not_their_deflated_bytes() -> None:
    """The same rows deflated two ways (two levels of zlib write two different streams, as
    ISA-L's deflate once did from one call to the next) are the same picture; one pixel
    changed is not."""
    import zlib

    from PIL import Image

    from rendering import encode
    from tests.bot.discord.driver import same_picture

    state = games.get("ecarte").new_match(seed=5)
    png = rendering.table_png(state.view(None), ("Alice", "Bob"))
    picture = Image.open(io.BytesIO(png))
    rows = picture.crop((-1, 0, picture.width, picture.height)).tobytes()
    start = png.index(b"IDAT") - 4
    end = start + 12 + int.from_bytes(png[start : start + 4], "big")
    data = zlib.compress(rows, 9)
    crc = zlib.crc32(b"IDAT" + data).to_bytes(4, "big")
    other = png[:start] + len(data).to_bytes(4, "big") + b"IDAT" + data + crc + png[end:]
    assert other != png and same_picture(other, png)
    changed = picture.copy()
    changed.putpixel((0, 0), (changed.getpixel((0, 0)) + 1) % 256)  # type: ignore[operator]
    assert not same_picture(encode.png(changed), png)
