"""Worker processes never hold a task for ever, and a pool given up on leaves no worker behind."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time

from bot.process.workers import Workers
from tests.waiting import until


def _where() -> int:
    return os.getpid()


def _stuck_in_a_worker() -> str:
    """A task that never comes back from a worker process, and is done at once here."""
    if multiprocessing.parent_process() is not None:
        time.sleep(120)  # stuck: the behaviour under test, ended by the pool's patience
    return "done here"


def _alive(pid: int) -> bool:
    return any(child.pid == pid for child in multiprocessing.active_children())


async def test_tasks_run_in_worker_processes_or_in_threads() -> None:
    workers = Workers("test", 1, patience=60)
    threads = Workers("test", 0, patience=60)
    try:
        assert await workers.run(_where) != os.getpid()
        assert await threads.run(_where) == os.getpid()
        assert threads.pool is None
    finally:
        workers.close()
        threads.close()


async def test_a_task_that_never_comes_back_is_done_here_and_its_worker_ended() -> None:
    """Past the patience the task is done here, the stuck worker is ended (not left using a
    core for two minutes more), and the next task goes to a new worker."""
    workers = Workers("test", 1, patience=1.0)
    try:
        first = await workers.run(_where)
        stuck_pool = workers.pool
        assert await workers.run(_stuck_in_a_worker) == "done here"
        assert workers.pool is None
        await until(lambda: not _alive(first), "the stuck worker to end")
        assert await workers.run(_where) not in (first, os.getpid())
        assert workers.pool is not None and workers.pool is not stuck_pool
    finally:
        workers.close()


async def test_a_dead_worker_is_replaced_and_the_task_still_done() -> None:
    workers = Workers("test", 1, patience=60)
    try:
        first = await workers.run(_where)
        os.kill(first, signal.SIGKILL)
        await until(lambda: not _alive(first), "the pool to hear of it")
        assert await workers.run(_where) == os.getpid()  # the broken pool's task: done here
        assert await workers.run(_where) not in (first, os.getpid())  # then a new worker
    finally:
        workers.close()
