"""The collector's pace for a long-running bot (bot/heap.py)."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

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


async def test_tend_sweeps_often_and_passes_over_everything_now_and_then(
    collector: None,
) -> None:
    heap.settle()
    tending = asyncio.create_task(heap.tend(every=0.01, full_every=0.5))
    try:
        soon = cycle()
        kept, later = kept_cycle()
        for _ in range(100):
            await asyncio.sleep(0.01)
            if soon() is None:
                break
        assert soon() is None  # by a sweep
        del kept
        await asyncio.sleep(0.05)
        assert later() is not None  # it outlived a sweep: frozen until the full pass
        for _ in range(300):
            await asyncio.sleep(0.01)
            if later() is None:
                break
        assert later() is None
    finally:
        tending.cancel()
        await asyncio.gather(tending, return_exceptions=True)
