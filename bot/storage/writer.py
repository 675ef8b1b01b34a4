"""What the two backends' writer threads share: a thread that owns its connection, takes the
plans handed to it from a queue, and hands each outcome back to the event loop that waits.

A connection belongs to one thread (``sqlite3`` checks it; an asyncpg connection belongs to
the event loop that made it), so each backend writes on threads of its own, and the event
loops of the service only hand plans over and wait for their outcomes. How a batch of plans
is committed is each backend's own (``bot.storage.sqlite``, ``bot.storage.postgres_writer``);
starting, stopping and handing outcomes back are the same for both, and live here.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import queue
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

MAX_BATCH = 256  # plans committed together at most
STOP = object()  # put on a writer's queue by stop(): finish what is queued, then end


@dataclass(slots=True)
class Job:
    """A plan handed to a writer, with where to send its outcome."""

    plan: Callable[[Any], Any]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Any]


class WriterThread:
    """A daemon thread that writes: a process that ends without closing its database must
    not hang on it, and the database's transactions keep what was written whole if the
    thread is cut short.

    The thread (``_run``, each backend's own) opens its connection, then settles ``_ready``
    (with the error that kept it from opening, if any), serves the queue until ``STOP``, and
    settles ``_stopped`` as its last act.
    """

    def __init__(self, name: str) -> None:
        self._jobs: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._ready: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._stopped: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._stopping = False

    def _run(self) -> None:
        raise NotImplementedError

    async def start(self) -> None:
        """Start the thread; once its connection is open (and the database migrated), return."""
        self._thread.start()
        try:
            await settled_by_thread(self._ready)
        except BaseException:  # failed, or cancelled (a stop while the bot starts)
            self._stopping = True
            self._jobs.put(STOP)
            await settled_by_thread(self._stopped)
            self._thread.join()
            raise

    async def stop(self) -> None:
        """Commit what is queued and close the connection; return once the thread ends."""
        if not self._stopping:
            self._stopping = True
            self._jobs.put(STOP)
        await settled_by_thread(self._stopped)
        # The thread settles _stopped as its last act; joining it is then immediate.
        self._thread.join()


async def settled_by_thread(future: concurrent.futures.Future[None]) -> None:
    """Wait for the writer thread to settle ``future``. Shielded: a waiter cancelled would
    otherwise cancel the future itself, and the thread, settling it later, would fail."""
    await asyncio.shield(asyncio.wrap_future(future))


def hand_back(outcomes: Iterable[tuple[Job, bool, Any]]) -> None:
    """On the writer thread: hand each job's outcome (whether it succeeded, and its value or
    its exception) to the job's event loop, one call per loop: one wake-up of a loop per batch."""
    by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], bool, Any]]] = {}
    for job, ok, value in outcomes:
        by_loop.setdefault(job.loop, []).append((job.future, ok, value))
    for loop, results in by_loop.items():
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody is waiting any more
            loop.call_soon_threadsafe(_deliver, results)


def _deliver(results: list[tuple[asyncio.Future[Any], bool, Any]]) -> None:
    """On the event loop: resolve each future not cancelled meanwhile."""
    for future, ok, value in results:
        if future.done():
            continue
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)
