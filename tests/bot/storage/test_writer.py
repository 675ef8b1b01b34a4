"""What both writer threads share: outcomes handed back to the loop that waits, and a thread
that fails to open ends at once, leaving nothing behind."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bot.storage.writer import STOP, Job, WriterThread, hand_back
from tests import threads


async def test_outcomes_reach_the_loop_that_waits_and_skip_a_cancelled_caller() -> None:
    loop = asyncio.get_running_loop()
    done, failed, cancelled = (loop.create_future() for _ in range(3))
    cancelled.cancel()
    jobs = [Job(lambda conn: None, loop, future) for future in (done, failed, cancelled)]
    error = ValueError("the plan changed its mind")
    thread = threading.Thread(
        target=hand_back, args=([(jobs[0], True, 7), (jobs[1], False, error), (jobs[2], True, 1)],)
    )
    thread.start()
    thread.join()
    assert await done == 7
    with pytest.raises(ValueError, match="changed its mind"):
        await failed
    assert cancelled.cancelled()


async def test_an_outcome_for_a_closed_loop_is_dropped() -> None:
    other = asyncio.new_event_loop()
    future = other.create_future()
    other.close()
    hand_back([(Job(lambda conn: None, other, future), True, 1)])  # no error: nobody waits
    assert not future.done()


class Refused(WriterThread):
    """A writer whose connection cannot be made."""

    def _run(self) -> None:
        self._ready.set_exception(OSError("no database there"))
        self._stopped.set_result(None)


class Serving(WriterThread):
    """A writer that waits for the stop mark, then ends."""

    def _run(self) -> None:
        self._ready.set_result(None)
        self.seen = self._jobs.get()
        self._stopped.set_result(None)


async def test_a_writer_that_cannot_open_raises_and_leaves_no_thread() -> None:
    before = threads.running()
    with pytest.raises(OSError, match="no database there"):
        await Refused("test-writer").start()
    assert not threads.left_since(before)


async def test_a_writer_stops_once_and_its_thread_ends() -> None:
    before = threads.running()
    writer = Serving("test-writer")
    await writer.start()
    await writer.stop()
    await writer.stop()  # twice is harmless
    assert not threads.left_since(before)
    assert writer.seen is STOP  # what it served: the stop mark alone
