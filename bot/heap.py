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
over: :func:`tend` looks at the young objects every ``SWEEP_EVERY`` seconds (more often
under load, see :func:`next_pause`), a pass of about a millisecond, and freezes what
survives it, so no object is walked twice. A cycle is found if it becomes garbage before the
next pass; one that outlives a pass and is dropped later waits, frozen, for the full pass,
which walks everything once. Automatic passes stay on, with a threshold far above what
``SWEEP_EVERY`` lets build up, as a guard should the event loop be held up.

The full pass comes every ``FULL_EVERY`` seconds, or sooner once the frozen objects have grown
by ``GROWTH`` times their number after the last one (CPython's own rule for its oldest
generation, which it walks once a quarter more objects have reached it). Live matches replaced
move after move keep that number level, since a state freed by reference counting leaves the
frozen objects; what makes it grow is the process's live set, or garbage that only the
collector can free. discord.py makes much of that: an interaction and its response, a message
and its parts, a set of components and its buttons each hold themselves in a cycle, and under
load many live past a sweep (a move's handling takes longer than 0.1 s); the bot empties its
components once sent or pressed (``release`` in bot/discord/components.py), which leaves
discord.py's interactions for the full pass. On the fake Discord, 20 matches moving at 85-95 a
second left 250,000-530,000 such objects to each full pass of a 20-second pace (170,000-245,000
once discord.py's message cache was turned off and a cycle of the courier's own undone): left
for ten minutes, millions of objects and a pass of seconds to free them (the bot's memory grew
by some 4 MB a second, to 744 MB after 150 s; it now levels off at 220 MB). Growth bounds them
to a share of what is alive, whatever the load. ``FLOOR`` keeps a small process from passing
over everything for every few thousand objects: at that load a full pass took about half a
second every minute and a half (250,000 objects, some tens of megabytes, at most waiting for
it). With a floor of 100,000 the passes took 150-270 ms every 20-70 s, and more of the slowest
moves met one (whole-move p99 333 and 411 ms, against 258-300 ms for 10-minute passes alone).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import math
import time
from collections.abc import AsyncIterator
from typing import Any

try:
    import resource
except ImportError:  # Windows: no peak to read; the count alone decides
    resource = None  # type: ignore[assignment]

log = logging.getLogger(__name__)

SWEEP_EVERY = 0.1  # seconds between passes over the young objects, at most
# ... and at least: under load the pause shrinks so that a sweep takes about SWEEP_TAKES.
SWEEP_SHORTEST = 0.02
SWEEP_TAKES = 0.001
FULL_EVERY = 600.0  # seconds between passes over everything, at most
GROWTH = 0.5  # ... or once the frozen objects grew by this share since the last full pass
FLOOR = 250_000  # ... and by at least this many
# The frozen objects are counted (a walk over them all) only once the process's peak memory
# has grown by this factor since the last count: memory that only reuses what was freed
# before holds nothing new.
PEAK_GROWTH = 1.1
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


def sweep() -> int:
    """A pass over the objects made since the last one; what survives it is frozen. Returns at
    least how many more objects are frozen now: the collector's count of tracked objects made
    less those freed since its last pass (a count it never lets fall below zero, so it can
    only overstate), less those this pass freed."""
    young = gc.get_count()[0]
    freed = gc.collect(0)
    gc.freeze()
    return max(0, young - freed)


def full() -> int:
    """A pass over everything, frozen or not (how many objects it freed); then all that is
    alive is frozen again."""
    gc.unfreeze()
    freed = gc.collect()
    gc.freeze()
    return freed


def _peak() -> int | None:
    """The process's largest resident size so far (in the platform's unit), None where the
    platform does not say."""
    if resource is None:
        return None
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)


class _Frozen:
    """What was frozen since the last full pass, and whether that calls for one now.

    The sweeps' own counts overstate the growth (by some 8,000 objects a second at 2,500
    moves a second, more with many moves in flight), and the exact count is a walk over
    every frozen object (20-80 ms for 160,000-420,000), which a busy service bench made
    every 3 s once it sat near the mark. So the objects are counted only when the sweeps say
    the mark is reached *and* the process's peak memory has grown by ``peak_growth`` since
    the last count: garbage that keeps growing must, sooner or later, take memory the
    process never had, and a heap that only replaces what it frees does not.
    """

    def __init__(self, growth: float, floor: int, peak_growth: float) -> None:
        self.growth, self.floor, self.peak_growth = growth, floor, peak_growth
        self.restart()

    def restart(self) -> None:
        """After a full pass: what is frozen now is what is alive."""
        self.alive = gc.get_freeze_count()
        self.grown = 0  # frozen since, at most
        self.peak = _peak()

    def grew(self, by: int) -> bool:
        """A sweep froze at most ``by`` more objects: whether a full pass is due."""
        self.grown += by
        mark = max(self.floor, self.growth * self.alive)
        if self.grown < mark or not self._new_peak():
            return False
        self.grown = gc.get_freeze_count() - self.alive
        return self.grown >= mark

    def _new_peak(self) -> bool:
        now = _peak()
        if self.peak is not None and now is not None and now < self.peak * self.peak_growth:
            return False
        self.peak = now
        return True


def next_pause(pause: float, took: float, *, longest: float, shortest: float) -> float:
    """The pause before the next sweep, after one that took ``took`` seconds following a
    pause of ``pause``.

    A sweep walks the objects made since the last one and still alive, about as many as the
    moves made meanwhile: at 5,000 moves a second, a sweep every 0.1 s took 3-4 ms, during
    which every move in flight waited (most of the slowest percent of moves met one). So
    the pause shrinks (to ``shortest`` at least) while sweeps take longer than
    ``SWEEP_TAKES`` and grows back (to ``longest``) as they get quicker: shorter sweeps
    cost a little more in all (at 0.02 s, 4 % fewer moves a second flat out) and hold each
    move up far less (the p99 of those moves 4.6-5.0 ms against 6.3-6.5). Not shorter for
    any load: an object alive at a sweep is frozen, and the bot's discord.py objects in
    cycles that outlive a sweep then wait for a full pass (at 0.02 s throughout, the bot
    under full load held some 20 % more memory). The square root steps there gently: a sweep
    also has a part that does not shrink with the pause (the moves in flight at that
    instant)."""
    if took <= 0:
        return longest
    wanted = pause * math.sqrt(SWEEP_TAKES / took)
    return min(longest, max(shortest, wanted))


async def tend(
    *,
    every: float = SWEEP_EVERY,
    shortest: float = SWEEP_SHORTEST,
    full_every: float = FULL_EVERY,
    growth: float = GROWTH,
    floor: int = FLOOR,
    peak_growth: float = PEAK_GROWTH,
) -> None:
    """Run the collector's passes until cancelled: a sweep every ``every`` seconds (down to
    ``shortest`` under load, see :func:`next_pause`), a full pass every ``full_every``, or as
    soon as the frozen objects grew by ``growth`` times their number after the last full pass
    (and by ``floor`` at least; see :class:`_Frozen`)."""
    last_full = time.monotonic()
    frozen = _Frozen(growth, floor, peak_growth)
    pause, shortest = every, min(shortest, every)
    while True:
        await asyncio.sleep(pause)
        began = time.perf_counter()
        more = sweep()
        pause = next_pause(pause, time.perf_counter() - began, longest=every, shortest=shortest)
        if time.monotonic() - last_full < full_every and not frozen.grew(more):
            continue
        start = time.monotonic()
        freed = full()
        last_full = time.monotonic()
        log.debug(
            "full collection: %d objects freed in %.0f ms (%d frozen since the last)",
            freed,
            (last_full - start) * 1000,
            frozen.grown,
        )
        frozen.restart()


@contextlib.asynccontextmanager
async def tended(**pace: Any) -> AsyncIterator[None]:
    """:func:`tend` running (with ``pace``, its keywords) for the duration of the block."""
    tending = asyncio.create_task(tend(**pace))
    await asyncio.sleep(0)  # started: it has counted what is frozen before the block runs
    try:
        yield
    finally:
        tending.cancel()
        await asyncio.gather(tending, return_exceptions=True)
