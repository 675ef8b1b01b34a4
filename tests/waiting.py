"""Waiting on a condition, never on a length of time.

A test that sleeps a fixed while and then asserts is slow when the machine is quiet and fails
when it is loaded. These helpers look at the condition again and again and return as soon as
it holds; the deadline is only a guard, reached when the awaited thing never happens, and
then the test fails saying what it waited for.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable

# Generous on purpose: a deadline only fails a test whose condition never comes true, so it
# costs nothing on a quiet machine and spares a loaded one a false failure.
DEADLINE = 60.0
# How often the condition is looked at: often enough that a test hardly waits past it.
POLL = 0.01


async def until(
    condition: Callable[[], object | Awaitable[object]],
    what: str,
    timeout: float = DEADLINE,
) -> None:
    """Return once ``condition()`` (a plain or an async function) is true; fail after
    ``timeout`` seconds naming ``what`` was awaited."""
    deadline = time.monotonic() + timeout
    while True:
        held = condition()
        if inspect.isawaitable(held):
            held = await held
        if held:
            return
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(POLL)


def until_sync(condition: Callable[[], object], what: str, timeout: float = DEADLINE) -> None:
    """:func:`until` for a test without an event loop (a thread, a process)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(POLL)
