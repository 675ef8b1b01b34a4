"""Matches played again through their engines, and the pictures of each move, cached.

A match is dealt again from its seed and options and its logged moves applied, so nothing
but the engine decides what a position was. What may be shown is decided here, once:

- a finished (or aborted) match shows every hand at every ply;
- any match shows its public table (``state.view(None)``) at any ply up to where it stands;
  a live match's page asks for nothing else, so it can show no hand and no stock order.

Pictures are drawn by ``rendering`` in a worker thread, never on the event loop, and kept in
a bounded cache keyed by (match, ply, kind, language): a finished match's pictures never
change, and a live one's earlier plies do not either. The pictures speak the reader's
language (its card letters and labels), so each language has pictures of its own.
"""

from __future__ import annotations

import asyncio
import io
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from PIL import Image

import games
import rendering
from bot.service import queries
from games import notation
from games.words import ENGLISH, Words

KINDS: Final = ("table", "hand0", "hand1")
CACHE_BYTES: Final = 64 * 1024 * 1024
CACHE_MATCHES: Final = 32


class Hidden(LookupError):
    """What was asked for may not be shown (a hand of a live match, a ply not yet played)."""


@dataclass(frozen=True)
class Line:
    """One ply of a match: the move that made it (None at the deal) and who made it."""

    ply: int
    seat: int | None
    move: str | None


@dataclass(frozen=True)
class Position:
    """What a finished match's replay shows at one ply besides its pictures."""

    hands: tuple[list[str], list[str]]
    scores: tuple[int, int]


class _Lru(OrderedDict[Any, Any]):
    """An OrderedDict used as a least-recently-used cache bounded by count and bytes."""

    def __init__(self, max_items: int, max_bytes: int | None = None) -> None:
        super().__init__()
        self.max_items = max_items
        self.max_bytes = max_bytes
        self.bytes = 0

    def get_fresh(self, key: Any) -> Any:
        value = self.get(key)
        if value is not None:
            self.move_to_end(key)
        return value

    def put(self, key: Any, value: Any) -> None:
        if key in self:
            self.bytes -= _size(self.pop(key))
        self[key] = value
        self.bytes += _size(value)
        while len(self) > self.max_items or (
            self.max_bytes is not None and self.bytes > self.max_bytes and len(self) > 1
        ):
            _, old = self.popitem(last=False)
            self.bytes -= _size(old)


def _size(value: Any) -> int:
    return len(value) if isinstance(value, bytes) else 0


class Replays:
    """States and pictures of the matches in one database, with their caches."""

    def __init__(self, db: queries.Reads, *, cache_bytes: int = CACHE_BYTES) -> None:
        self.db = db
        self._states: _Lru = _Lru(CACHE_MATCHES)
        self._frames: _Lru = _Lru(100_000, cache_bytes)
        self._drawing: dict[tuple[int, int, str, str, tuple[str, str]], asyncio.Future[bytes]] = {}
        self._draw_slots = asyncio.Semaphore(2)

    @property
    def cached_frames(self) -> int:
        return len(self._frames)

    # -- states ------------------------------------------------------------------------------

    async def states(self, match: queries.Match) -> list[Any]:
        """The states of a match from the deal (index 0) to its stored version.

        Cached per (match, version): a live match's next move makes a new entry."""
        states, _ = await self._replayed(match)
        return list(states)

    async def _replayed(
        self, match: queries.Match
    ) -> tuple[tuple[Any, ...], tuple[tuple[int, str], ...]]:
        key = (match.id, match.version)
        found = self._states.get_fresh(key)
        if found is None:
            log = tuple(await queries.moves(self.db, match.id, match.version))
            states = tuple(await asyncio.to_thread(_replay, match, list(log)))
            found = (states, log)
            self._states.put(key, found)
        return found  # type: ignore[no-any-return]

    async def lines(self, match: queries.Match) -> list[Line]:
        """Every ply of a finished match, from its log alone (no replay: a long match's page
        stays cheap). Only for a match that is over: its log may name cards that were face
        down, such as discards."""
        if not match.replayable:
            raise Hidden(f"match #{match.id} is not over: its moves are not shown")
        log = await queries.moves(self.db, match.id, match.version)
        return [Line(0, None, None)] + [
            Line(ply, seat, move) for ply, (seat, move) in enumerate(log, 1)
        ]

    async def position(self, match: queries.Match, ply: int) -> Position:
        """Both hands and the scores at ``ply`` of a finished match; the last ply is read
        from the stored state, any other is replayed."""
        if not match.replayable:
            raise Hidden(f"match #{match.id} is not over: its hands are not shown")
        if not 0 <= ply <= match.version:
            raise Hidden(f"match #{match.id} has no ply {ply}")
        if ply == match.version and match.state is not None:
            state = games.get(match.game).from_json(match.state)
        else:
            state = (await self.states(match))[ply]
        return Position(
            (list(state.view(0)["hand"]), list(state.view(1)["hand"])),
            (int(state.scores[0]), int(state.scores[1])),
        )

    # -- pictures ----------------------------------------------------------------------------

    async def frame(
        self, match: queries.Match, ply: int, kind: str, words: Words = ENGLISH
    ) -> bytes:
        """The picture ``kind`` (table, hand0, hand1) at ``ply`` in ``words``'s language;
        ``Hidden`` if not allowed."""
        if kind not in KINDS:
            raise Hidden(f"no picture called {kind!r}")
        if match.status not in ("active", *queries.REPLAYABLE):
            raise Hidden(f"match #{match.id} was set aside: it is not shown")
        if not 0 <= ply <= match.version:
            raise Hidden(f"match #{match.id} has no ply {ply}")
        if kind != "table" and not match.replayable:
            raise Hidden(f"match #{match.id} is not over: its hands are not shown")
        key = (match.id, ply, kind, words.lang, match.names)  # names: a player may hide
        cached = self._frames.get_fresh(key)
        if cached is not None:
            return bytes(cached)
        pending = self._drawing.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._drawing[key] = future
        try:
            states = await self.states(match)
            state = states[ply]
            async with self._draw_slots:
                picture = await asyncio.to_thread(_draw, state, kind, match.names, words)
            self._frames.put(key, picture)
            future.set_result(picture)
            return picture
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: a lone waiter must not log "never retrieved"
            raise
        finally:
            del self._drawing[key]


def warm_up(positions: int = 12, stop: threading.Event | None = None) -> None:
    """Draw a few positions of one random match of each game, so the card faces every
    picture is made of are drawn once before the first visitor waits for them (``rendering``
    caches faces; a cold face costs more than the rest of a picture)."""
    import random

    for name in games.names():
        state = games.get(name).new_match(seed=0)
        chooser = random.Random(0)
        seen = [state]
        while state.to_move is not None and len(seen) < 400:
            state = state.apply(chooser.choice(state.legal_moves()))
            seen.append(state)
        for index in range(0, len(seen), max(1, len(seen) // positions)):
            for kind in KINDS:
                if stop is not None and stop.is_set():
                    return
                _draw(seen[index], kind, ("A", "B"))


def _replay(match: queries.Match, log: list[tuple[int, str]]) -> list[Any]:
    """Deal the match and apply its log; a log the engine refuses is a ValueError."""
    game = games.get(match.game)
    state = game.new_match(seed=match.seed or 0, options=match.options or None)
    states = [state]
    for seat, move in log:
        if state.to_move != seat:
            raise ValueError(f"match #{match.id}: the log has seat {seat} move out of turn")
        state = state.apply(move)
        states.append(state)
    return states


def _draw(state: Any, kind: str, names: tuple[str, str], words: Words = ENGLISH) -> bytes:
    """A picture for spectators: the table, or a hand named by its owner in the third person
    ("Alice to play", "Bob's discards"): nobody who looks at a replay is that player."""
    if kind == "table":
        return rendering.table_png(state.view(None), names, words=words)
    seat = int(kind[-1])
    return rendering.hand_png(state.view(seat), words=words, owner=names[seat])


def composite(
    state: Any,
    names: tuple[str, str],
    width: int = 640,
    words: Words = ENGLISH,
    kinds: tuple[str, ...] = ("hand0", "table", "hand1"),
) -> Image.Image:
    """One picture of a finished match's position, its ``kinds`` stacked: by default seat 0's
    hand, the table, seat 1's hand, each hand beside its owner's side of the table (every table
    draws seat 0 on top), scaled to ``width`` (for the animated replay and the pager in
    Discord); a review shows the table and the hand of the player who chose."""
    parts = [
        Image.open(io.BytesIO(_draw(state, kind, names, words))).convert("RGB") for kind in kinds
    ]
    full = max(part.width for part in parts)
    height = sum(part.height for part in parts)
    sheet = Image.new("RGB", (full, height), (20, 60, 40))
    top = 0
    for part in parts:
        sheet.paste(part, ((full - part.width) // 2, top))
        top += part.height
    scale = width / full
    return sheet.resize((width, round(height * scale)), Image.Resampling.LANCZOS)


# -- export -----------------------------------------------------------------------------------


def export(match: queries.Match, log: list[tuple[int, str]]) -> str:
    """A finished match in the Tapis notation (``docs/notation.md``)."""
    if not match.replayable:
        raise Hidden(f"match #{match.id} is not over: its moves are exported once it ends")
    result = match.result or {}
    tags = {
        "Game": match.game,
        "Seed": str(match.seed or 0),
        "Options": _options_text(match.options),
        "Match": str(match.id),
        "Seat0": match.names[0],
        "Seat1": match.names[1],
        "Date": datetime.fromtimestamp(match.created_at, UTC).strftime("%Y-%m-%d"),
        "Result": notation.result_tag(result) if match.status == "finished" else "*",
        "How": str(result.get("how", "play")) if match.status == "finished" else "aborted",
    }
    scores = result.get("scores")
    if isinstance(scores, list) and len(scores) == 2:
        tags["Scores"] = f"{scores[0]} {scores[1]}"
    return notation.write(notation.Record(tags, [(seat, move) for seat, move in log]))


def _options_text(options: dict[str, Any]) -> str:
    return json.dumps(options, sort_keys=True, separators=(", ", ": "))
