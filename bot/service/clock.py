"""The clock task: one task over the due times stored with the matches, woken by an event.

Reminders and deadlines live in the ``clocks`` table (``reminder_at``, ``deadline``: one row
per match with a clock running, an open challenge's expiry in ``deadline``), never only in
memory, so a restart picks every clock up again. The task sleeps until the earliest
of them; a change that brings a due time sooner wakes it (:meth:`ClockTask.changed`). What to
do with a due match is not decided here but by ``handle`` (the match life's), so this module
knows nothing of games or words.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from contextlib import suppress

from bot.process import logs, metrics
from bot.service import clocks
from bot.service.store import MatchStore
from bot.service.values import Delivery, ServiceError
from bot.storage import sql

log = logging.getLogger("tapis.service")

_DATABASE_ERRORS = sql.errors()

Handle = Callable[[int, float], Awaitable[list[Delivery]]]


class ClockTask:
    """Finds the matches whose reminder or deadline is due and hands each to ``handle``."""

    def __init__(self, store: MatchStore, handle: Handle) -> None:
        self._store = store
        self._handle = handle
        self._wakeup = asyncio.Event()
        self._next: float | None = None

    def changed(self, when: float | None) -> None:
        """Wake the task if a turn now needs attention sooner than it planned."""
        if when is not None and (self._next is None or when < self._next):
            self._wakeup.set()

    def gone(self, when: float | None) -> None:
        """Wake the task if the time it planned to wake at is no longer due (a challenge
        answered before it expired), so that it plans its next wake anew."""
        if when is not None and when == self._next:
            self._wakeup.set()

    @property
    def planned(self) -> float | None:
        """When the task plans to look next (unix seconds), None if at rest."""
        return self._next

    def wake(self) -> None:
        """Make the task look again now (after the injected clock moved, in tests)."""
        self._wakeup.set()

    async def next_due(self) -> float | None:
        """The earliest pending reminder, deadline or challenge expiry (unix seconds), None if
        none."""
        # Each MIN is read from its index's first entry; a match has a row only while a
        # clock runs (a match that ends, or is set aside, loses it in the same transaction).
        earliest = await self._store.db.fetchone(
            "SELECT MIN(t) FROM (SELECT MIN(reminder_at) AS t FROM clocks"
            " UNION ALL SELECT MIN(deadline) FROM clocks) AS due"
        )
        return None if earliest is None or earliest[0] is None else float(earliest[0])

    async def check(self) -> list[Delivery]:
        """Handle every match with a reminder or deadline due; what to deliver.

        A match whose clock cannot be handled (a damaged stored match, an engine error) is set
        aside and the others go on; a database error is left for the next pass.
        """
        now = self._store.ts()
        due = await self._store.db.fetchall(
            "SELECT match_id AS id FROM clocks WHERE deadline <= ?"
            " UNION SELECT match_id FROM clocks WHERE reminder_at <= ?",
            (now, now),
        )
        deliveries: list[Delivery] = []
        # On a database several processes share, each due match is handled by the one that
        # claims it; the others skip it (and find it handled on their next pass).
        async with self._store.db.claim("clock", [m["id"] for m in due]) as mine:
            for match_id in mine:
                with logs.about_match(match_id):  # every line about this clock names the match
                    try:
                        deliveries += await self._handle(match_id, now)
                        metrics.clock_event("due")
                    except ServiceError as error:
                        log.warning("clock of match #%s: %s", match_id, error)
                    except _DATABASE_ERRORS:
                        raise
                    except Exception as error:
                        log.exception("clock of match #%s failed", match_id)
                        await self._store.set_aside(match_id, f"its clock failed: {error!r}")
        return deliveries

    async def run(self, deliver: Callable[[list[Delivery]], Awaitable[None]]) -> None:
        """Sleep to the earliest reminder or deadline, act, repeat.

        At start it first catches up with everything that fell due while nothing ran. A
        sooner deadline (a new move) wakes it. Cancel the task to stop it.
        """
        while True:
            self._wakeup.clear()
            try:
                deliveries = await self.check()
                due = await self.next_due()
            except Exception:
                log.exception("the clock task failed; it tries again in a minute")
                deliveries, due = [], self._store.ts() + clocks.RETRY_AFTER
            if deliveries:
                try:
                    await deliver(deliveries)
                except Exception:  # the adapter's trouble must not stop the clocks
                    log.exception("delivering %d clock message(s) failed", len(deliveries))
            self._next = due
            delay = clocks.MAX_SLEEP if due is None else due - self._store.ts()
            # Something still due right after a pass could not be handled: do not spin.
            delay = min(max(delay, clocks.MIN_SLEEP), clocks.MAX_SLEEP)
            with suppress(TimeoutError):
                await asyncio.wait_for(self._wakeup.wait(), timeout=delay)
