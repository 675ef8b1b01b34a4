"""Integrity: a stored match must be what replaying its move log from its seed gives.

A match that does not verify is set aside (status "corrupt"), so nobody plays on from a
damaged stored match and nothing else is held up by it.
"""

from __future__ import annotations

import json
import sqlite3

import games
from bot.service.store import MatchStore, storable_id, unknown_match


class Integrity:
    def __init__(self, store: MatchStore) -> None:
        self._store = store

    async def verify(self, match_id: int) -> bool:
        """Replay the match's move log from its seed and compare with the stored state.

        A match that does not verify is set aside (status "corrupt"); False then.
        """
        if not storable_id(match_id):
            raise unknown_match(match_id)
        async with self._store.locks.hold(match_id):
            stored = await self._store.db.fetchone(
                "SELECT * FROM matches WHERE id = ?", (match_id,)
            )
            if stored is None:
                raise unknown_match(match_id)
            if stored["status"] == "corrupt":
                return False
            problem = await self._replay_problem(stored)
            if problem is None:
                return True
            await self._store.set_aside(match_id, problem)
            return False

    async def _replay_problem(self, stored: sqlite3.Row) -> str | None:
        """What is wrong with a stored match, or None if its log gives its state exactly."""
        moves = await self._store.db.fetchall(
            "SELECT ply, move FROM moves WHERE match_id = ? ORDER BY ply", (stored["id"],)
        )
        if stored["state"] is None:
            return "moves stored for a match that never started" if moves else None
        try:
            game = games.get(stored["game"])
            state = game.new_match(seed=stored["seed"], options=json.loads(stored["options"]))
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
        if state.to_json() != stored["state"]:
            return "the stored state differs from the replayed one"
        return None

    async def verify_all(self, *, active_only: bool = False) -> list[int]:
        """Verify every match (or every active one); the ids of those set aside."""
        where = "status = 'active'" if active_only else "status NOT IN ('corrupt', 'challenge')"
        ids = await self._store.db.fetchall(f"SELECT id FROM matches WHERE {where} ORDER BY id")
        bad = []
        for match in ids:
            if not await self.verify(match["id"]):
                bad.append(match["id"])
        return bad
