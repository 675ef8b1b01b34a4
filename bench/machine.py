"""How fast this machine runs Python right now.

The figures of a benchmark are only comparable between runs made at like speeds. On a shared
host the same code can run a fifth slower from one minute to the next, and neither the load
average nor the stolen time shows it. A fixed pure-Python loop, timed before and after each
section, shows a slower processor: a section whose two readings differ ran on a machine whose
speed changed. Equal readings prove less: work that waits on memory (a large cache of
matches, SQLite's pages) has been seen to slow while this loop did not.
"""

from __future__ import annotations

import time

ADDITIONS = 10_000_000


def reference_seconds() -> float:
    """Processor seconds of a fixed loop of additions (one core, no allocation to speak of)."""
    start = time.process_time()
    total = 0
    for i in range(ADDITIONS):
        total += i
    return time.process_time() - start


def describe(before: float, after: float) -> str:
    return (
        f"machine speed: {ADDITIONS // 1_000_000} million additions took {before:.2f} s before "
        f"this section and {after:.2f} s after (compare figures only between runs at like speeds)"
    )
