"""Integrity: a stored match must be what replaying its move log from its seed gives.

A match that does not verify is set aside (status "corrupt"), so nobody plays on from a
damaged stored match and nothing else is held up by it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import bot.service.lessons as lessons
import games
from bot.service import clocks
from bot.service.rows import SELECT_MATCHES, storable_id, unknown_match
from bot.service.store import MatchStore
from bot.service.values import Conflict, Refused
from bot.storage.sql import Connection, Row
from games.words import N_


@dataclass(frozen=True)
class SetAside:
    """A match set aside, as an operator lists them."""

    id: int
    game: str
    guild_id: int | None
    problem: str


def _moment(stored: Row) -> tuple[object, ...]:
    """What a writer changes with every move: equal twice, nothing was written between."""
    return (stored["version"], stored["status"], stored["state"])


class Integrity:
    def __init__(self, store: MatchStore) -> None:
        self._store = store

    async def verify(self, match_id: int) -> bool:
        """Replay the match's move log from its seed and compare with the stored state.

        A match that does not verify is set aside (status "corrupt"); False then. The bot
        may be playing on beside this (another process on the same file): the row and its
        log are two reads, and a move committed between them looks like a damaged match. So
        a match found wrong is read again, and set aside only if it is still as it was
        read, with a conditional update; one that moved on meanwhile is left to play.
        """
        if not storable_id(match_id):
            raise unknown_match(match_id)
        async with self._store.locks.hold(match_id):
            stored = await self._read(match_id)
            if stored["status"] == "corrupt":
                return False
            problem = await self._replay_problem(stored)
            if problem is None:
                return True
            again = await self._read(match_id)
            if _moment(again) != _moment(stored):
                return True  # moved on while read: alive, not damaged
            at = (stored["version"], stored["status"])
            return not await self._store.set_aside(match_id, problem, only_at=at)

    async def _read(self, match_id: int) -> Row:
        stored = await self._store.db.fetchone(f"{SELECT_MATCHES} WHERE m.id = ?", (match_id,))
        if stored is None:
            raise unknown_match(match_id)
        return stored

    async def set_aside(self) -> list[SetAside]:
        """Every match set aside, for an operator to look at (oldest first)."""
        rows = await self._store.db.fetchall(
            "SELECT id, game, guild_id, problem, updated_at FROM matches"
            " WHERE status = 'corrupt' ORDER BY id"
        )
        return [
            SetAside(r["id"], str(r["game"]), r["guild_id"], str(r["problem"] or "")) for r in rows
        ]

    async def restore(self, match_id: int) -> str:
        """Put a set-aside match back in play after an operator repaired it: its log must
        replay to its stored state first. The status it returns to follows from what is
        stored (a result: finished; a state: active; else an open challenge); an active
        match's clock starts a full period afresh. What was done, in words; Refused if it
        still does not replay.
        """
        if not storable_id(match_id):
            raise unknown_match(match_id)
        async with self._store.locks.hold(match_id):
            stored = await self._read(match_id)
            if stored["status"] != "corrupt":
                raise Refused(
                    N_("Match #{id} is not set aside (it is {status})."),
                    id=match_id,
                    status=stored["status"],
                )
            status = (
                "finished"
                if stored["result"] is not None
                else "active"
                if stored["state"] is not None
                else "challenge"
            )
            problem = await self._replay_problem(stored)
            if problem is not None:
                raise Refused(
                    N_("Match #{id} still does not replay: {problem}."),
                    id=match_id,
                    problem=str(problem).rstrip("."),
                )
            to_move = deadline = reminder = None
            if status == "active":
                state = games.get(stored["game"]).from_json(stored["state"])
                seats = (stored["seat0_id"], stored["seat1_id"])
                to_move = None if state.to_move is None else seats[state.to_move]
                deadline, reminder = clocks.deadline_after(
                    self._store.ts(), stored["days_per_move"]
                )
            now = self._store.ts()

            def plan(conn: Connection) -> bool:
                cursor = conn.execute(
                    "UPDATE matches SET status = ?, problem = NULL, to_move_id = ?,"
                    " deadline = ?, reminder_at = ?, updated_at = ?"
                    " WHERE id = ? AND status = 'corrupt' AND version = ?",
                    (status, to_move, deadline, reminder, now, match_id, stored["version"]),
                )
                if cursor.rowcount != 1:
                    return False
                conn.execute("DELETE FROM clocks WHERE match_id = ?", (match_id,))
                if deadline is not None:
                    conn.execute(
                        "INSERT INTO clocks (match_id, deadline, reminder_at) VALUES (?, ?, ?)",
                        (match_id, deadline, reminder),
                    )
                return True

            if not await self._store.db.transact(plan):
                raise Conflict(
                    N_("Match #{id} changed meanwhile. Use `/hand` to see it as it is now."),
                    id=match_id,
                )
            self._store.cache.pop(match_id, None)
        return f"match #{match_id} replays to its stored state and is {status} again"

    async def _replay_problem(self, stored: Row) -> str | None:
        """What is wrong with a stored match, or None if its log gives its state exactly."""
        moves = await self._store.db.fetchall(
            "SELECT ply, move FROM moves WHERE match_id = ? ORDER BY ply", (stored["id"],)
        )
        if stored["state"] is None:
            return "moves stored for a match that never started" if moves else None
        try:
            game = games.get(stored["game"])
            state = lessons.start_for(stored["game"], stored["seat1_id"]) or game.new_match(
                seed=stored["seed"], options=json.loads(stored["options"])
            )
        except (KeyError, ValueError, TypeError) as error:
            return f"cannot deal the match again: {error}"
        for expected, move in enumerate(moves, 1):
            if move["ply"] != expected:
                return f"the move log skips from ply {expected - 1} to {move['ply']}"
            try:
                state = state.apply(move["move"])
            except ValueError as error:
                return f"ply {expected} ({move['move']!r}) is refused on replay: {error}"
        if len(moves) != stored["version"]:
            return f"version {stored['version']} but {len(moves)} moves in the log"
        if not state.matches_stored(stored["state"]):
            return "the stored state differs from the replayed one"
        return None

    async def verify_all(
        self, *, active_only: bool = False, progress: Callable[[int, int], None] | None = None
    ) -> list[int]:
        """Verify every match (or every active one); the ids of those set aside.
        ``progress(done, total)`` is told after each match."""
        where = "status = 'active'" if active_only else "status NOT IN ('corrupt', 'challenge')"
        ids = await self._store.db.fetchall(f"SELECT id FROM matches WHERE {where} ORDER BY id")
        bad = []
        for done, match in enumerate(ids, 1):
            if not await self.verify(match["id"]):
                bad.append(match["id"])
            if progress is not None:
                progress(done, len(ids))
        return bad
