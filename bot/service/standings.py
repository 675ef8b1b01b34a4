"""Standings: how matches ended, the ratings they moved, leaderboards and players' results.

``write_result`` runs inside the transaction that ends a match, so a result and its
ratings are stored together or not at all; the rest only reads.
"""

from __future__ import annotations

import games
from bot.service import ratings, seasons
from bot.service.ratings import Standing
from bot.service.rows import dumps
from bot.service.store import MatchStore
from bot.service.values import MatchRow, NotFound, PlayerStats
from bot.storage.sql import Connection, ranked
from games.words import N_

_TOTALS = (
    "games",
    "wins",
    "losses",
    "draws",
    "losses_on_time",
    "resignations",
    "wins_on_time",
    "wins_by_resignation",
)


def write_result(conn: Connection, row: MatchRow, how: str, now: float) -> list[ratings.Change]:
    """Write how the match ended, and update both players' ratings, in ``conn``'s
    transaction (the one that ends the match)."""
    assert row.seat_ids is not None and row.result is not None
    if row.lesson:
        return []  # a lesson counts nowhere: no record, no rating, no web page
    winner = row.result.get("winner")
    winner = winner if winner in (0, 1) else None
    conn.execute(
        "INSERT INTO results (match_id, game, guild_id, seat0_id, seat1_id, winner_seat,"
        " how, scores, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            row.id,
            row.game,
            row.guild_id,
            *row.seat_ids,
            winner,
            how,
            dumps(row.result.get("scores")),
            now,
        ),
    )
    if not row.rated:
        return []
    seasons.count(conn, row.game, row.guild_id, row.seat_ids, winner, now)
    return ratings.rate_match(conn, row.game, row.guild_id, row.seat_ids, winner, how, now)


def game_name(game: str) -> str:
    """The registered name of ``game``; NotFound naming the games if there is none."""
    try:
        return games.get(game).name
    except KeyError:
        raise NotFound(
            N_("There is no game called “{game}”. The games are {names}."),
            game=game,
            names=", ".join(games.names()),
        ) from None


class Standings:
    """Leaderboards and players' results, read from the database."""

    def __init__(self, store: MatchStore) -> None:
        self._store = store
        self._db = store.db

    async def leaderboard(self, game: str, guild_id: int | None, limit: int = 10) -> list[Standing]:
        """The best ``limit`` players of ``game`` on a server (``guild_id``) or everywhere."""
        name = game_name(game)
        scope = ratings.GLOBAL_SCOPE if guild_id is None else guild_id
        stored = await self._db.fetchall(
            "SELECT r.*, p.name FROM ratings r JOIN players p USING (user_id)"
            " WHERE r.game = ? AND r.scope = ? ORDER BY r.rating DESC, r.games DESC, r.user_id"
            " LIMIT ?",
            (name, scope, max(1, min(limit, 100))),
        )
        return ranked(Standing, stored)

    async def stats(
        self, user_id: int, game: str | None = None, guild_id: int | None = None
    ) -> PlayerStats:
        """A player's results in one game (with rating and rank) or in all games together."""
        scope = ratings.GLOBAL_SCOPE if guild_id is None else guild_id
        name = (await self._store.people([user_id]))[user_id].name
        name_of_game = None if game is None else game_name(game)
        lines = await self._db.fetchall(
            "SELECT * FROM ratings WHERE user_id = ? AND scope = ?"
            + ("" if name_of_game is None else " AND game = ?"),
            (user_id, scope) if name_of_game is None else (user_id, scope, name_of_game),
        )
        total = {key: sum(line[key] for line in lines) for key in _TOTALS}
        rating = rank = None
        if name_of_game is not None and lines:
            rating = lines[0]["rating"]
            above = await self._db.fetchone(
                "SELECT COUNT(*) FROM ratings WHERE game = ? AND scope = ? AND rating > ?",
                (name_of_game, scope, rating),
            )
            rank = 1 + (above[0] if above else 0)
            streak = lines[0]["streak"]
        else:
            streak = await self._streak(user_id, guild_id)
        return PlayerStats(
            user_id=user_id,
            name=name,
            game=name_of_game,
            guild_id=guild_id,
            rating=rating,
            rank=rank,
            streak=streak,
            **total,
        )

    async def _streak(self, user_id: int, guild_id: int | None) -> int:
        """The current streak over every game, from the latest rated results."""
        results = await self._db.fetchall(
            "SELECT r.winner_seat, r.seat0_id FROM results r JOIN matches m ON m.id = r.match_id"
            " WHERE (r.seat0_id = ? OR r.seat1_id = ?) AND m.rated = 1"
            + ("" if guild_id is None else " AND r.guild_id = ?")
            + " ORDER BY r.finished_at DESC, r.match_id DESC LIMIT 500",
            (user_id, user_id) if guild_id is None else (user_id, user_id, guild_id),
        )
        streak = 0
        for result in results:
            if result["winner_seat"] is None:
                break
            won = (result["winner_seat"] == 0) == (result["seat0_id"] == user_id)
            if streak == 0:
                streak = 1 if won else -1
            elif (streak > 0) == won:
                streak += 1 if won else -1
            else:
                break
        return streak
