"""The collector's pace for a long-running bot (bot/heap.py)."""

from __future__ import annotations

import asyncio
import gc
import itertools
import time
import weakref
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot import heap


@pytest.fixture
def collector() -> Iterator[None]:
    """The test process's collector as it was, afterwards."""
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def kept_cycle() -> tuple[Node, weakref.ref[Node]]:
    """A pair of objects that only the collector can free once dropped: one of them, and a
    weak reference to it, dead once they are freed."""
    first, second = Node(), Node()
    first.other, second.other = second, first
    return first, weakref.ref(first)


def cycle() -> weakref.ref[Node]:
    """Such a pair, kept alive by nothing."""
    return kept_cycle()[1]


def test_settle_freezes_what_is_alive_and_leaves_automatic_passes_as_a_guard(
    collector: None,
) -> None:
    alive = [Node() for _ in range(1000)]
    heap.settle()
    assert gc.get_freeze_count() >= len(alive)
    assert gc.get_threshold() == (heap.GUARD, heap.MIDDLE, heap.OLD)
    assert gc.isenabled()


def test_a_sweep_frees_the_cycles_dropped_since_the_last(collector: None) -> None:
    heap.settle()
    gone = cycle()
    assert gone() is not None
    heap.sweep()
    assert gone() is None


def test_what_survives_a_sweep_is_frozen_and_a_full_pass_frees_it_once_dropped(
    collector: None,
) -> None:
    heap.settle()
    kept, gone = kept_cycle()
    frozen = gc.get_freeze_count()
    heap.sweep()
    assert gc.get_freeze_count() > frozen  # never walked again by a sweep
    del kept
    heap.sweep()
    assert gone() is not None  # frozen: left to the full pass
    assert heap.full() >= 2
    assert gone() is None
    assert gc.get_count()[0] < heap.GUARD


def test_what_was_frozen_and_dropped_is_freed_by_reference_counting(collector: None) -> None:
    kept = Node()
    gone = weakref.ref(kept)
    heap.settle()
    del kept
    assert gone() is None


async def freed(refs: list[weakref.ref[Node]], looks: int) -> bool:
    """Whether all of ``refs`` are freed within ``looks`` looks, 10 ms apart."""
    for _ in range(looks):
        if all(ref() is None for ref in refs):
            return True
        await asyncio.sleep(0.01)
    return all(ref() is None for ref in refs)


async def frozen_then_dropped(count: int = 500) -> list[weakref.ref[Node]]:
    """``count`` cycles kept past a sweep, so frozen, then dropped, as discord.py's messages
    and views are: garbage that only a full pass frees."""
    kept = [kept_cycle() for _ in range(count)]
    await asyncio.sleep(0.03)
    return [ref for _, ref in kept]


async def test_tend_sweeps_often_and_passes_over_everything_now_and_then(
    collector: None,
) -> None:
    heap.settle()
    async with heap.tended(every=0.01, full_every=0.5):
        soon = cycle()
        kept, later = kept_cycle()
        assert await freed([soon], 100)  # by a sweep
        del kept
        await asyncio.sleep(0.05)
        assert later() is not None  # it outlived a sweep: frozen until the full pass
        assert await freed([later], 300)


async def test_a_full_pass_comes_early_once_frozen_garbage_has_grown_enough(
    collector: None,
) -> None:
    """Frozen garbage is freed by a full pass long before ``full_every``."""
    heap.settle()
    async with heap.tended(every=0.01, full_every=3600, growth=0.0, floor=5000, peak_growth=1.0):
        gone = await frozen_then_dropped()
        for _ in range(50):
            if all(ref() is None for ref in gone):
                break
            await frozen_then_dropped()
        assert all(ref() is None for ref in gone)


async def test_objects_replaced_one_by_one_bring_no_full_pass(
    collector: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Live objects replaced by new ones, as moves replace states, are counted as growth by
    the sweeps but not by the frozen objects: no pass over everything for them."""
    live = [Node() for _ in range(2000)]
    heap.settle()
    passes: list[int] = []
    monkeypatch.setattr(heap, "full", lambda: passes.append(1) or 0)
    async with heap.tended(every=0.01, full_every=3600, growth=0.0, floor=1000, peak_growth=1.0):
        for _ in range(40):
            # All freed first, then made again: the collector's count of objects, which
            # cannot fall below zero, sees only the making.
            live.clear()
            live.extend(Node() for _ in range(2000))
            await asyncio.sleep(0.01)
    assert passes == []


def test_a_sweep_says_at_least_how_many_objects_it_froze(collector: None) -> None:
    heap.settle()
    before = gc.get_freeze_count()
    kept = [Node() for _ in range(500)]
    dropped = [cycle() for _ in range(100)]
    said = heap.sweep()
    assert gc.get_freeze_count() - before >= len(kept)
    assert said >= gc.get_freeze_count() - before
    assert all(ref() is None for ref in dropped)


async def test_frozen_objects_are_counted_only_once_memory_reaches_a_new_peak(
    collector: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Counting the frozen objects walks them all: while the process's memory stays under its
    peak (it reuses what it freed), no count and no full pass; past it, both."""
    heap.settle()
    peak = [1000]
    monkeypatch.setattr(heap, "_peak", lambda: peak[0])
    counted: list[int] = []
    real_count = gc.get_freeze_count

    def count() -> int:
        counted.append(1)
        return real_count()

    monkeypatch.setattr(heap.gc, "get_freeze_count", count)
    async with heap.tended(every=0.01, full_every=3600, growth=0.0, floor=5000):
        gone = await frozen_then_dropped()
        for _ in range(30):
            await frozen_then_dropped()
        assert len(counted) == 1  # tend's own count at its start
        assert all(ref() is not None for ref in gone)  # frozen, not passed over yet
        peak[0] = 1200
        assert await freed(gone, 100)
        assert len(counted) >= 2


@given(
    pause=st.floats(0.02, 0.1),
    took=st.floats(0.0, 0.05),
    later=st.floats(0.0, 0.05),
)
def test_the_pause_between_sweeps_shrinks_as_they_take_longer_within_its_bounds(
    pause: float, took: float, later: float
) -> None:
    """Under load a sweep comes sooner, so each holds the moves in flight up less; never
    more often than every 0.02 s, never less than every 0.1 s."""
    quick, slow = sorted((took, later))
    after_quick = heap.next_pause(pause, quick, longest=0.1, shortest=0.02)
    after_slow = heap.next_pause(pause, slow, longest=0.1, shortest=0.02)
    assert 0.02 <= after_slow <= after_quick <= 0.1


def test_a_sweep_slower_than_wanted_brings_the_next_sooner_and_a_quick_one_later() -> None:
    wanted = heap.SWEEP_TAKES
    assert heap.next_pause(0.1, 4 * wanted, longest=0.1, shortest=0.02) == pytest.approx(0.05)
    assert heap.next_pause(0.05, wanted, longest=0.1, shortest=0.02) == pytest.approx(0.05)
    assert heap.next_pause(0.05, wanted / 4, longest=0.1, shortest=0.02) == pytest.approx(0.1)
    assert heap.next_pause(0.03, 100 * wanted, longest=0.1, shortest=0.02) == 0.02


async def test_tend_sweeps_more_often_while_sweeps_take_long(
    collector: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sweeps that take long (a busy process) come sooner than ``every``."""
    heap.settle()
    times: list[float] = []
    real_sweep = heap.sweep

    def slow_sweep() -> int:
        times.append(asyncio.get_running_loop().time())
        spent = real_sweep()
        busy_until = time.perf_counter() + 4 * heap.SWEEP_TAKES
        while time.perf_counter() < busy_until:
            pass
        return spent

    monkeypatch.setattr(heap, "sweep", slow_sweep)
    async with heap.tended(every=0.1, shortest=0.02, full_every=3600):
        await asyncio.sleep(0.6)
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert len(times) >= 8  # at 0.1 s apart, 0.6 s would have held 6
    assert min(gaps[-3:]) < 0.07  # at 0.1 s apart, none
