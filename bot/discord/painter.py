"""Pictures drawn in worker processes, so the bot uses every core.

Drawing a hand or a table is Python work that holds the GIL: in threads, it shares one core
with the event loop, and under load every move waits for every other move's pictures. Worker
processes draw in parallel with the loop; a view goes in (a small dict) and PNG bytes come
out. ``TAPIS_RENDER_PROCESSES=0`` draws in threads instead (one process, fewer resources).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import games
import rendering

log = logging.getLogger(__name__)


def _hand(view: dict[str, Any], four_colour: bool) -> bytes:
    return rendering.hand_png(view, four_colour=four_colour)


def _table(view: dict[str, Any], names: tuple[str, str]) -> bytes:
    return rendering.table_png(view, names)


def _warm_up() -> None:
    """Load the fonts and draw a card of every game once in each worker, so no player's first
    picture waits for it; one card each keeps the worker's start short."""
    for game in games.registered():
        state = game.new_match(seed=0)
        view = state.view(1 - (state.to_move or 0))  # the seat not to move: nothing to mark
        rendering.hand_png({**view, "hand": view["hand"][:1]})


def worker_count() -> int:
    configured = os.environ.get("TAPIS_RENDER_PROCESSES", "").strip()
    if configured.isdigit():
        return int(configured)
    return min(2, os.cpu_count() or 1)


class Painter:
    """Draws hands and tables off the event loop, at most one picture per worker at a time."""

    def __init__(self, processes: int | None = None) -> None:
        self._processes = worker_count() if processes is None else processes
        self._pool: Executor | None = None
        self._slots = asyncio.Semaphore(max(1, self._processes or (os.cpu_count() or 1)))

    def _executor(self) -> Executor | None:
        if self._processes <= 0:
            return None
        if self._pool is None:
            # spawn: a fork of a process running an event loop and SQLite threads is unsafe.
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                self._processes, mp_context=context, initializer=_warm_up
            )
        return self._pool

    async def hand(self, view: dict[str, Any], four_colour: bool) -> bytes:
        return await self._draw(_hand, view, four_colour)

    async def table(self, view: dict[str, Any], names: tuple[str, str]) -> bytes:
        return await self._draw(_table, view, names)

    async def _draw(self, draw: Any, *args: Any) -> bytes:
        async with self._slots:
            pool = self._executor()
            if pool is None:
                picture: bytes = await asyncio.to_thread(draw, *args)
                return picture
            try:
                picture = await asyncio.get_running_loop().run_in_executor(pool, draw, *args)
                return picture
            except BrokenProcessPool:
                # A worker died (killed, out of memory): start afresh, draw this one here.
                log.warning("picture workers stopped; starting new ones")
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
                picture = await asyncio.to_thread(draw, *args)
                return picture

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
