"""How the garbage collector looks at a long-running bot's memory.

A bot keeps its live matches in memory, and a move replaces its match's row and state with new
ones, which then live until that match's next move: seconds at 2,000 moves a second over
10,000 matches, days on a quiet server. That is the case CPython's generational collector
fits worst. Its passes are triggered by the *net* count of new objects (made minus freed), and
every move frees about as many as it makes, so a pass came only every second or two, over
40,000-55,000 young objects spread across memory: 20-65 ms during which nothing else ran (the
slowest percent of moves at a steady 2,000 a second took 45-240 ms instead of 11-19 ms with no
collector at all). The objects that survive it are the current states of matches, still
alive at the next pass of the middle generation, which walked them all again (200 ms).
And these passes found nothing to free: states, rows and views are freed by reference
counting as they are replaced.

So, once the live matches are read at start, :func:`settle` moves everything alive into the
collector's permanent generation (which it never walks) and takes the pace of the passes
over: :func:`tend` looks at the young objects every ``SWEEP_EVERY`` seconds, a pass of a
millisecond or two, and freezes what survives it, so no object is walked twice. A cycle is
found if it becomes garbage before the next pass, as nearly all do (an exception and its
frames); one that outlives a pass and is dropped later waits for the full pass
(``FULL_EVERY``), which walks everything once. Automatic passes stay on, with a threshold far
above what ``SWEEP_EVERY`` lets build up, as a guard should the event loop be held up.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time

log = logging.getLogger(__name__)

SWEEP_EVERY = 0.1  # seconds between passes over the young objects
FULL_EVERY = 600.0  # seconds between passes over everything
# Automatic passes, only as a guard: net new objects before one (CPython's default is 700),
# and passes of one generation before one of the next, far beyond what tend() leaves.
GUARD = 200_000
MIDDLE = 1_000
OLD = 1_000


def settle() -> None:
    """Collect once, freeze what is alive, and leave the regular passes to :func:`tend`."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(GUARD, MIDDLE, OLD)


def sweep() -> None:
    """A pass over the objects made since the last one; what survives it is frozen."""
    gc.collect(0)
    gc.freeze()


def full() -> int:
    """A pass over everything, frozen or not (how many objects it freed); then all that is
    alive is frozen again."""
    gc.unfreeze()
    freed = gc.collect()
    gc.freeze()
    return freed


async def tend(*, every: float = SWEEP_EVERY, full_every: float = FULL_EVERY) -> None:
    """Run the collector's passes until cancelled: a sweep every ``every`` seconds, a full pass
    every ``full_every``."""
    last_full = time.monotonic()
    while True:
        await asyncio.sleep(every)
        if time.monotonic() - last_full < full_every:
            sweep()
            continue
        start = time.monotonic()
        freed = full()
        last_full = time.monotonic()
        log.debug("full collection: %d objects freed in %.0f ms", freed, (last_full - start) * 1000)
