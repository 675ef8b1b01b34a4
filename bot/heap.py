"""How often the garbage collector looks at a long-running bot's memory.

A bot keeps its live matches in memory: with 10,000 of them cached, one full collection of
CPython's cycle collector walks every one of their objects and takes about 100 ms, and at
2,000 moves a second one came every half second. Every move waiting meanwhile took that
pause, which decided the slowest percent of moves. The collector found nothing to free in
those passes: states, rows and views are freed by reference counting as they are replaced.

So once the live matches are read at start, :func:`settle` moves everything alive into the
collector's permanent generation (which it never walks) and lets the young generations fill
further before each pass. Objects made later are still collected as before; what was frozen
and later dropped is freed by reference counting as usual, only a cycle among them would
stay (and none is made on the hot path).
"""

from __future__ import annotations

import gc

# Allocations between two passes over the youngest objects (CPython's default is 700): a
# move allocates a few thousand, so the default meant several passes per move.
YOUNG = 20_000
# Passes of one generation before one of the next (CPython's defaults are 10 and 10).
MIDDLE = 20
OLD = 100


def settle() -> None:
    """Collect once, freeze what is alive, and space the collector's passes out."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, MIDDLE, OLD)
