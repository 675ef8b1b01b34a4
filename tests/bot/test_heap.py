"""The collector's pace for a long-running bot (bot/heap.py)."""

from __future__ import annotations

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


def test_settle_freezes_what_is_alive_and_spaces_out_passes(collector: None) -> None:
    alive = [Node() for _ in range(1000)]
    heap.settle()
    assert gc.get_freeze_count() >= len(alive)
    assert gc.get_threshold() == (heap.YOUNG, heap.MIDDLE, heap.OLD)
    assert heap.YOUNG > 700  # fewer passes than CPython's default


def test_what_is_made_later_is_still_collected(collector: None) -> None:
    heap.settle()
    first, second = Node(), Node()
    first.other, second.other = second, first  # a cycle: only the collector frees it
    gone = weakref.ref(first)
    del first, second
    gc.collect()
    assert gone() is None


def test_what_was_frozen_and_dropped_is_freed_by_reference_counting(collector: None) -> None:
    kept = Node()
    gone = weakref.ref(kept)
    heap.settle()
    del kept
    assert gone() is None
