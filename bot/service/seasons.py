"""Seasons: a server's table of results that starts afresh when the server says so.

Ratings measure skill and are never reset; a season table counts what was won since the
season began (a point a win, half a draw), so newcomers and regulars start a season level.
``count`` runs inside the transaction that rates a match, so a season table and the ratings
never disagree. A server that never started a season is in season 1.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.service.store import MatchStore
from bot.service.values import Refused
from bot.storage.sql import Connection, ranked


@dataclass(frozen=True)
class SeasonLine:
    """One line of a season table."""

    rank: int
    user_id: int
    name: str
    points: float
    games: int
    wins: int
    draws: int
    losses: int


@dataclass(frozen=True)
class Season:
    number: int
    started_at: float | None  # None: since the server's first match
    ended_at: float | None  # None: the current season


def current(conn: Connection, guild_id: int) -> int:
    """The number of the server's current season, in ``conn``'s transaction."""
    found = conn.execute(
        "SELECT MAX(number) FROM seasons WHERE guild_id = ? AND ended_at IS NULL", (guild_id,)
    ).fetchone()
    return int(found[0]) if found is not None and found[0] is not None else 1


def count(
    conn: Connection,
    game: str,
    guild_id: int | None,
    seat_ids: tuple[int, int],
    winner: int | None,
    now: float,
) -> None:
    """Count a rated result in the server's current season (a match outside any server
    belongs to no season)."""
    if guild_id is None:
        return
    season = current(conn, guild_id)
    for seat, user_id in enumerate(seat_ids):
        win = int(winner == seat)
        loss = int(winner is not None and winner != seat)
        draw = int(winner is None)
        conn.execute(
            "INSERT INTO season_scores (guild_id, season, game, user_id, games, wins, draws,"
            " losses, points, updated_at) VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?)"
            " ON CONFLICT (guild_id, season, game, user_id) DO UPDATE SET"
            " games = season_scores.games + 1, wins = season_scores.wins + excluded.wins,"
            " draws = season_scores.draws + excluded.draws,"
            " losses = season_scores.losses + excluded.losses,"
            " points = season_scores.points + excluded.points,"
            " updated_at = excluded.updated_at",
            (guild_id, season, game, user_id, win, draw, loss, win + 0.5 * draw, now),
        )


class Seasons:
    """Starting seasons and reading their tables."""

    def __init__(self, store: MatchStore) -> None:
        self._store = store
        self._db = store.db

    async def current(self, guild_id: int) -> Season:
        found = await self._db.fetchone(
            "SELECT number, started_at, ended_at FROM seasons WHERE guild_id = ?"
            " AND ended_at IS NULL ORDER BY number DESC LIMIT 1",
            (guild_id,),
        )
        if found is None:
            return Season(1, None, None)
        return Season(found["number"], found["started_at"], None)

    async def start_new(self, guild_id: int) -> tuple[Season, Season]:
        """Close the current season and open the next; (the one closed, the one opened)."""
        now = self._store.ts()

        def plan(conn: Connection) -> tuple[Season, Season]:
            number = current(conn, guild_id)
            stored = conn.execute(
                "SELECT started_at FROM seasons WHERE guild_id = ? AND number = ?",
                (guild_id, number),
            ).fetchone()
            if stored is None:
                conn.execute(
                    "INSERT INTO seasons (guild_id, number, started_at, ended_at)"
                    " VALUES (?, ?, 0, ?)",
                    (guild_id, number, now),
                )
                started = None
            else:
                conn.execute(
                    "UPDATE seasons SET ended_at = ? WHERE guild_id = ? AND number = ?",
                    (now, guild_id, number),
                )
                started = stored[0]
            conn.execute(
                "INSERT INTO seasons (guild_id, number, started_at) VALUES (?, ?, ?)",
                (guild_id, number + 1, now),
            )
            return Season(number, started, now), Season(number + 1, now, None)

        return await self._db.transact(plan)

    async def table(
        self, game: str, guild_id: int, season: int, limit: int = 10
    ) -> list[SeasonLine]:
        """A season's table for ``game``; Refused naming the seasons if there is no such one."""
        now = await self.current(guild_id)
        if not 1 <= season <= now.number:
            raise Refused(
                f"there is no season {season} on this server: its seasons are 1 to {now.number}"
                if now.number > 1
                else f"there is no season {season} on this server: it is in its first season"
            )
        stored = await self._db.fetchall(
            "SELECT s.*, p.name FROM season_scores s JOIN players p USING (user_id)"
            " WHERE s.guild_id = ? AND s.season = ? AND s.game = ?"
            " ORDER BY s.points DESC, s.games, s.user_id LIMIT ?",
            (guild_id, season, game, max(1, min(limit, 100))),
        )
        return ranked(SeasonLine, stored)
