"""Worker processes that can never hold the bot up: the picture workers and the computer's.

A pool of worker processes can stop answering: a worker dies (killed, out of memory) and the
pool says so, or it is killed at a moment when the pool's own bookkeeping never hears of it,
or it is stuck in one task. Each task here waits at most ``patience`` seconds for the pool;
past that, or when the pool breaks, the pool is given up (its workers ended, so a stuck one
does not use a core for ever), the task is done in a thread instead, and the next task starts
new workers.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.queues import SimpleQueue
from typing import Any, TypeVar

from bot.process import metrics

log = logging.getLogger(__name__)

T = TypeVar("T")


def _started(pids: SimpleQueue[int], warm_up: Callable[[], None] | None) -> None:
    """In each new worker: say which process it is, then get ready for its first task."""
    pids.put(os.getpid())
    if warm_up is not None:
        warm_up()


class Workers:
    """``processes`` worker processes (none: every task runs in a thread), started when the
    first task comes; ``warm_up`` runs once in each, before its first task."""

    def __init__(
        self,
        what: str,
        processes: int,
        *,
        patience: float,
        warm_up: Callable[[], None] | None = None,
    ) -> None:
        self.what = what
        self.processes = processes
        self.patience = patience
        self._warm_up = warm_up
        self.pool: Executor | None = None
        self._pids: SimpleQueue[int] | None = None

    def executor(self) -> Executor | None:
        """The pool, started if need be; None when tasks run in threads."""
        if self.processes <= 0:
            return None
        if self.pool is None:
            # spawn: a fork of a process running an event loop and SQLite threads is unsafe.
            context = multiprocessing.get_context("spawn")
            self._pids = context.SimpleQueue()
            self.pool = ProcessPoolExecutor(
                self.processes,
                mp_context=context,
                initializer=_started,
                initargs=(self._pids, self._warm_up),
            )
        return self.pool

    async def run(self, task: Callable[..., T], *args: Any) -> T:
        """``task(*args)`` in a worker process, or in a thread if the workers fail it."""
        pool = self.executor()
        if pool is None:
            return await asyncio.to_thread(task, *args)
        try:
            running = asyncio.get_running_loop().run_in_executor(pool, task, *args)
            return await asyncio.wait_for(running, self.patience)
        except (BrokenProcessPool, TimeoutError):
            # Several tasks were in flight: the first to fail starts afresh, and no later one
            # throws away the new workers it started.
            if self.pool is pool:
                log.warning("%s workers stopped; starting new ones", self.what)
                metrics.worker_restarted(self.what)
                self.give_up()
            return await asyncio.to_thread(task, *args)

    def give_up(self) -> None:
        """Leave the current pool for a new one, and end its workers."""
        started = self._reported_pids()
        self.close()
        # Only this process's own children still running: never a process id reused since.
        for child in multiprocessing.active_children():
            if child.pid in started:
                child.kill()

    def _reported_pids(self) -> set[int]:
        """The process ids the current pool's workers have reported so far."""
        started: set[int] = set()
        while self._pids is not None and not self._pids.empty():
            started.add(self._pids.get())
        return started

    def close(self) -> None:
        """Stop taking tasks; each worker finishes the one it has and ends."""
        pool, pids = self.pool, self._pids
        self.pool = self._pids = None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        if pids is not None:
            pids.close()
