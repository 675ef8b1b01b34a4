"""A player's own choices about their data: ``/tapis privacy``.

- *hidden*: the web site names them "a player" and has no profile of them (``players.web``
  = -1, read by the site's one consent rule in ``bot.service.queries``); *public*: their matches
  outside any server may be shown when their opponent chose so too; *as their servers
  chose*, the default.
- *forget me*: their open challenges are withdrawn and their running matches resigned
  (each the usual way, its messages in the outbox), then, in one transaction, everything that
  names them goes: their row of ``players`` (name, DM channel, preferences, language) is
  replaced by a pseudonym's — a new id no Discord account can have (below zero) and a
  neutral name — wherever their matches, moves, results and tournaments name them, so their
  opponents' histories and every replay stay whole; their ratings, rating history and season
  scores are deleted (they leave every leaderboard); the outbox rows of their matches, which
  hold their name and id in the messages' text, are deleted.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Final

from bot.service.life import MatchLife
from bot.service.store import MatchStore
from bot.service.values import Delivery, ServiceError
from bot.storage.sql import Connection
from games.words import N_

log = logging.getLogger("tapis.privacy")

HIDDEN: Final = -1
AS_SERVERS: Final = 0
PUBLIC: Final = 1
CHOICES: Final = {"hidden": HIDDEN, "servers": AS_SERVERS, "public": PUBLIC}
# What a forgotten player is called, in every history that keeps their matches: a name, as
# stored names are, that reads the same in English, French and Swedish.
FORGOTTEN_NAME: Final = "—"


@dataclass(frozen=True)
class Forgotten:
    """What forgetting a player did: the matches resigned and challenges withdrawn (their
    messages to send), and how many matches now name the pseudonym instead."""

    resigned: list[int]
    withdrawn: list[int]
    matches: int
    deliveries: list[Delivery]


class Privacy:
    """The privacy choices of players, over the match store."""

    def __init__(self, store: MatchStore, life: MatchLife) -> None:
        self.store = store
        self.life = life

    async def choose(self, user_id: int, choice: int, name: str) -> None:
        """Store a player's choice about the web (``HIDDEN``, ``AS_SERVERS``, ``PUBLIC``)."""
        if choice not in CHOICES.values():
            raise ValueError(f"no such choice: {choice}")
        now = self.store.ts()

        def plan(conn: Connection) -> None:
            conn.execute(
                "INSERT INTO players (user_id, name, web, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE"
                " SET web = excluded.web, updated_at = excluded.updated_at",
                (user_id, name, choice, now, now),
            )

        await self.store.db.transact(plan)

    async def choice(self, user_id: int) -> int:
        row = await self.store.db.fetchone("SELECT web FROM players WHERE user_id = ?", (user_id,))
        return AS_SERVERS if row is None else int(row["web"])

    async def under_way(self, user_id: int) -> tuple[list[int], list[int]]:
        """The player's running matches and open challenges, for the confirmation."""
        rows = await self.store.db.fetchall(
            "SELECT id, status FROM matches WHERE status IN ('active', 'challenge')"
            " AND (seat0_id = ? OR seat1_id = ? OR challenger_id = ? OR opponent_id = ?)"
            " ORDER BY id",
            (user_id, user_id, user_id, user_id),
        )
        return (
            [row["id"] for row in rows if row["status"] == "active"],
            [row["id"] for row in rows if row["status"] == "challenge"],
        )

    async def forget(self, user_id: int) -> Forgotten:
        """Forget a player (see the module's text); safe to run again if interrupted."""
        deliveries: list[Delivery] = []
        resigned: list[int] = []
        withdrawn: list[int] = []
        for _ in range(3):  # a challenge may turn into a match meanwhile: look again
            running, open_challenges = await self.under_way(user_id)
            if not running and not open_challenges:
                break
            for match_id in open_challenges:
                info = await self.store.peek(match_id)
                try:
                    if info.challenger_id == user_id:
                        _, sent = await self.life.cancel(match_id, user_id)
                    else:
                        _, sent = await self.life.decline(match_id, user_id)
                except ServiceError:
                    continue  # accepted or gone meanwhile: the next look sees it
                withdrawn.append(match_id)
                deliveries += sent
            for match_id in running:
                try:
                    _, sent = await self.life.resign(match_id, user_id)
                except ServiceError:
                    continue  # ended meanwhile
                resigned.append(match_id)
                deliveries += sent
        matches = await self.store.db.transact(lambda conn: self._erase(conn, user_id))
        self.store.forget_player(user_id)
        log.info("a player asked to be forgotten: %d match(es) kept under a pseudonym", matches)
        return Forgotten(resigned, withdrawn, matches, deliveries)

    async def left_server(self, guild_id: int) -> list[Delivery]:
        """Tapis left server ``guild_id`` (removed, or the server deleted): its consent to
        the web ends at once, its tournaments are cancelled, its open challenges withdrawn
        and its matches under way called off, unrated (their threads are gone, and with
        them the players' table); the players are told by DM. What it owes, to send."""
        now = self.store.ts()

        def plan(conn: Connection) -> None:
            conn.execute(
                "INSERT INTO guild_settings (guild_id, web, updated_at) VALUES (?, 0, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET web = 0, updated_at = excluded.updated_at",
                (guild_id, now),
            )
            # Its tournaments cannot go on either: no one there can see them any longer.
            conn.execute(
                "UPDATE tournaments SET status = 'cancelled', due_at = NULL, updated_at = ?"
                " WHERE guild_id = ? AND status IN ('open', 'running')",
                (now, guild_id),
            )

        await self.store.db.transact(plan)
        rows = await self.store.db.fetchall(
            "SELECT id, status, challenger_id FROM matches WHERE guild_id = ?"
            " AND status IN ('active', 'challenge') ORDER BY id",
            (guild_id,),
        )
        deliveries: list[Delivery] = []
        for row in rows:
            try:
                if row["status"] == "challenge":
                    _, sent = await self.life.cancel(row["id"], row["challenger_id"])
                    deliveries += [d for d in sent if d.kind == "dm"]  # no channel left
                else:
                    deliveries += await self.life.call_off(row["id"])
            except ServiceError:
                continue  # answered or ended meanwhile
        log.info("left server %s: %d match(es) and challenge(s) ended", guild_id, len(rows))
        return deliveries

    def _erase(self, conn: Connection, user_id: int) -> int:
        """In one transaction: the player's data erased, their matches kept under a
        pseudonym; how many matches name the pseudonym."""
        left = conn.execute(
            "SELECT COUNT(*) FROM matches WHERE status IN ('active', 'challenge')"
            " AND (seat0_id = ? OR seat1_id = ? OR challenger_id = ? OR opponent_id = ?)",
            (user_id, user_id, user_id, user_id),
        ).fetchone()
        if left[0]:
            raise ServiceError(N_("A match of yours began meanwhile. Please ask again."))
        lowest = conn.execute("SELECT MIN(user_id) FROM players").fetchone()[0]
        pseudonym = min(int(lowest or 0), 0) - 1
        now = self.store.ts()
        conn.execute(
            "INSERT INTO players (user_id, name, web, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?)",
            (pseudonym, FORGOTTEN_NAME, HIDDEN, now, now),
        )
        ids = [
            row[0]
            for row in conn.execute(
                "SELECT id FROM matches WHERE seat0_id = ? OR seat1_id = ?"
                " OR challenger_id = ? OR opponent_id = ?",
                (user_id, user_id, user_id, user_id),
            ).fetchall()
        ]
        for table, columns in _NAMING.items():
            for column in columns:
                conn.execute(
                    f"UPDATE {table} SET {column} = ? WHERE {column} = ?", (pseudonym, user_id)
                )
        for table in ("ratings", "rating_history", "season_scores"):
            conn.execute(f"DELETE FROM {table} WHERE user_id = ?", (user_id,))
        conn.executemany("DELETE FROM outbox WHERE match_id = ?", [(i,) for i in ids])
        conn.execute("DELETE FROM players WHERE user_id = ?", (user_id,))
        return len(ids)


# Every column that names a player and stays, pointing at the pseudonym once they are gone.
_NAMING: Final[dict[str, tuple[str, ...]]] = {
    "matches": ("challenger_id", "opponent_id", "seat0_id", "seat1_id", "to_move_id"),
    "moves": ("user_id",),
    "results": ("seat0_id", "seat1_id"),
    "tournaments": ("creator_id",),
    "tournament_players": ("user_id",),
    "tournament_games": ("seat0_id", "seat1_id"),
}
