"""Pictures drawn in worker processes, so the bot uses every core, and each drawn once.

Drawing a hand or a table is Python work that holds the GIL: in threads, it shares one core
with the event loop, and under load every move waits for every other move's pictures. Worker
processes draw in parallel with the loop. ``TAPIS_RENDER_PROCESSES=0`` draws in threads
instead (one process, fewer resources).

Most of a match's pictures have been drawn before: the opponent's hand while it is not their
turn, a hand sent again with new words around it, a board asked for twice. So each picture is
keyed by what it shows — a hand by its scene (``rendering.hand_scene``: the cards, which are
lit, the words on it, the colours), a table by a digest of the public view and the names —
and kept in a cache bounded by bytes, dropping the least recently used. Only what a worker
needs travels to it: a hand's scene (a few dozen strings, where the view may carry 1,586 legal
discards) or a table's view as JSON bytes; PNG bytes come back.

A few pictures wait at each worker, so it never idles between two; what someone waits on (a
hand, a board asked for) is drawn before the boards the courier sends when it can.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import json
import logging
import os
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Final

import games
import rendering
from bot import i18n
from bot.process.workers import Workers

log = logging.getLogger(__name__)

CACHE_BYTES: Final = 48 * 1024 * 1024
"""Room for every picture of the matches being played at a busy moment, far less memory than
the bot's other needs (docs/performance.md)."""

IN_FLIGHT_PER_WORKER: Final = 3
"""Pictures handed to each worker process at once: while it draws one, the next ones wait in
its queue. Handing over a picture and its PNG back takes the event loop's turns, and under
load those took longer than the drawing itself: with one picture per worker, pictures
queued here while the workers stood idle most of the time."""

WORKER_PATIENCE: Final = 30.0
"""Seconds a picture waits for the workers: it takes tens of milliseconds and waits behind a
few others at most (the slots), so one not back in this long never will be, and is drawn
here instead (see bot/process/workers.py)."""

Drawn = tuple[bytes, float, float]
"""A picture from a worker: (PNG, seconds drawing, seconds encoding)."""


def _timed(draw: Callable[[], Any]) -> Drawn:
    start = time.perf_counter()
    image = draw()
    drawn = time.perf_counter()
    data = rendering.png(image)
    return data, drawn - start, time.perf_counter() - drawn


def _hand(scene: rendering.HandScene) -> Drawn:
    return _timed(lambda: rendering.scene_image(scene))


def _table(view_json: bytes, names: tuple[str, str], four_colour: bool, lang: str) -> Drawn:
    view = json.loads(view_json)
    words = i18n.words(lang)
    return _timed(lambda: rendering.table_image(view, names, four_colour=four_colour, words=words))


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


@dataclass
class PainterStats:
    """What the painter did since it started: logged when it closes, read by the benchmark."""

    drawn: int = 0
    reused: int = 0
    """Pictures asked for and found drawn already (in the cache, or being drawn)."""
    dropped: int = 0
    """Pictures not drawn after all: everyone who asked went away before a worker was free
    (a hand replaced by a newer one while it waited, say)."""
    draw_seconds: float = 0.0
    encode_seconds: float = 0.0
    bytes: int = 0
    """Bytes of the pictures drawn."""

    def fields(self) -> dict[str, float | int]:
        drawn = max(1, self.drawn)
        return {
            "drawn": self.drawn,
            "reused": self.reused,
            "dropped": self.dropped,
            "draw_ms": round(1000 * self.draw_seconds / drawn, 2),
            "encode_ms": round(1000 * self.encode_seconds / drawn, 2),
            "png_bytes": self.bytes // drawn,
        }


class Slots:
    """At most ``count`` pictures drawn at once, of which at most ``others`` nobody waits on
    (a board the courier sends when it can); a picture someone waits on (their hand, a board
    they asked for) goes before those, else first come, first served.

    The pictures handed to the worker processes are drawn in the order given, so under load a
    hand asked for after a dozen boards would wait for all of them: here it waits for at most
    ``others`` of them."""

    def __init__(self, count: int, others: int | None = None) -> None:
        self.free = count
        self.others_free = count if others is None else min(others, count)
        self._waiting: dict[bool, deque[asyncio.Future[None]]] = {
            True: deque(),
            False: deque(),
        }

    def _room(self, urgent: bool) -> bool:
        return self.free > 0 and (urgent or self.others_free > 0)

    def _grant(self, urgent: bool) -> None:
        self.free -= 1
        if not urgent:
            self.others_free -= 1

    async def take(self, urgent: bool) -> None:
        """Wait for a slot; :meth:`give` it back with the same ``urgent``."""
        queue = self._waiting[urgent]
        if not queue and self._room(urgent):
            self._grant(urgent)
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        queue.append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self.give(urgent)  # handed a slot just as it went away: passed on
            elif turn in queue:
                queue.remove(turn)
            raise

    def give(self, urgent: bool) -> None:
        self.free += 1
        if not urgent:
            self.others_free += 1
        for kind in (True, False):  # the urgent first
            queue = self._waiting[kind]
            while queue and self._room(kind):
                turn = queue.popleft()
                if not turn.done():
                    self._grant(kind)
                    turn.set_result(None)

    @property
    def waiting(self) -> int:
        return sum(len(queue) for queue in self._waiting.values())


class PictureCache:
    """PNG bytes by key, the least recently used dropped first once ``limit`` bytes are held."""

    def __init__(self, limit: int = CACHE_BYTES) -> None:
        self.limit = limit
        self.size = 0
        self._pictures: OrderedDict[Hashable, bytes] = OrderedDict()

    def __len__(self) -> int:
        return len(self._pictures)

    def get(self, key: Hashable) -> bytes | None:
        picture = self._pictures.get(key)
        if picture is not None:
            self._pictures.move_to_end(key)
        return picture

    def put(self, key: Hashable, picture: bytes) -> None:
        if len(picture) > self.limit:
            return  # would push out everything else and stay alone
        old = self._pictures.pop(key, None)
        if old is not None:
            self.size -= len(old)
        self._pictures[key] = picture
        self.size += len(picture)
        while self.size > self.limit:
            _, dropped = self._pictures.popitem(last=False)
            self.size -= len(dropped)


class Painter:
    """Draws hands and tables off the event loop, a few pictures per worker process at a time
    (one per thread when drawing in threads), and never the same picture twice while it is
    in the cache."""

    def __init__(self, processes: int | None = None, cache_bytes: int = CACHE_BYTES) -> None:
        count = worker_count() if processes is None else processes
        self.workers = Workers("picture", count, patience=WORKER_PATIENCE, warm_up=_warm_up)
        if count > 0:
            # Boards one per worker at most: a hand waits for one board per worker at worst.
            self._slots = Slots(count * IN_FLIGHT_PER_WORKER, others=count)
        else:
            self._slots = Slots(os.cpu_count() or 1)
        self.cache = PictureCache(cache_bytes)
        self._drawing: dict[Hashable, asyncio.Future[bytes]] = {}
        self._askers: dict[Hashable, int] = {}  # callers awaiting each drawing
        self._begun: set[Hashable] = set()  # drawings that hold a slot: they run to the end
        self.stats = PainterStats()

    async def hand(
        self, view: dict[str, Any], four_colour: bool, lang: str = "en", *, urgent: bool = True
    ) -> bytes:
        """The hand picture of ``view`` in ``lang``; ValueError (before any drawing) if it
        cannot be drawn. Its scene holds its words already in that language. ``urgent``:
        someone waits on it (see :class:`Slots`)."""
        scene = rendering.hand_scene(view, four_colour=four_colour, words=i18n.words(lang))
        return await self._picture(("hand", scene), urgent, _hand, scene)

    async def table(
        self,
        view: dict[str, Any],
        names: tuple[str, str],
        four_colour: bool = False,
        lang: str = "en",
        *,
        urgent: bool = True,
    ) -> bytes:
        """The table picture of the public ``view``, with the players' ``names``, in ``lang``;
        ``urgent``: someone waits on it (see :class:`Slots`)."""
        data = json.dumps(view, sort_keys=True, separators=(",", ":")).encode()
        digest = hashlib.blake2b(data, digest_size=20)
        digest.update(json.dumps([names, four_colour, lang]).encode())
        key = ("table", digest.digest())
        return await self._picture(key, urgent, _table, data, names, four_colour, lang)

    async def _picture(
        self, key: Hashable, urgent: bool, draw: Callable[..., Drawn], *args: Any
    ) -> bytes:
        cached = self.cache.get(key)
        if cached is not None:
            self.stats.reused += 1
            return cached
        drawing = self._drawing.get(key)
        if drawing is None:
            # A task of its own: a caller that goes away (a cancelled send) does not stop the
            # drawing that others may be waiting for, and the picture is kept all the same.
            drawing = asyncio.ensure_future(self._drawn(key, urgent, draw, *args))
            self._drawing[key] = drawing
            drawing.add_done_callback(functools.partial(self._settled, key))
        else:  # the same picture asked for twice at once: drawn once
            self.stats.reused += 1
        self._askers[key] = self._askers.get(key, 0) + 1
        try:
            return await asyncio.shield(drawing)
        finally:
            self._gone(key, drawing)

    def _gone(self, key: Hashable, drawing: asyncio.Future[bytes]) -> None:
        """One caller fewer awaits ``drawing``. If none is left and no worker has it yet, it
        is dropped: under load, a hand replaced by a newer one before a worker was free is
        never drawn. One that has begun is finished and kept (it may be asked for again)."""
        left = self._askers.get(key, 1) - 1
        if left > 0:
            self._askers[key] = left
            return
        self._askers.pop(key, None)
        if not drawing.done() and key not in self._begun:
            drawing.cancel()
            self.stats.dropped += 1
            if self._drawing.get(key) is drawing:
                del self._drawing[key]  # now: the next to ask starts a drawing of its own

    async def _drawn(
        self, key: Hashable, urgent: bool, draw: Callable[..., Drawn], *args: Any
    ) -> bytes:
        await self._slots.take(urgent)
        self._begun.add(key)
        try:
            picture, draw_s, encode_s = await self.workers.run(draw, *args)
        finally:
            self._begun.discard(key)
            self._slots.give(urgent)
        self.cache.put(key, picture)
        self.stats.drawn += 1
        self.stats.draw_seconds += draw_s
        self.stats.encode_seconds += encode_s
        self.stats.bytes += len(picture)
        return picture

    def _settled(self, key: Hashable, drawing: asyncio.Future[bytes]) -> None:
        if self._drawing.get(key) is drawing:
            del self._drawing[key]
        if not drawing.cancelled():
            drawing.exception()  # seen here: the callers that asked have it raised, if any

    def close(self) -> None:
        self.workers.close()
        if self.stats.drawn or self.stats.reused:
            log.info("pictures", extra=self.stats.fields())
