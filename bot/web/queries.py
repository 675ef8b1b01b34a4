"""The site's read-only queries, through ``Database.fetchone``/``fetchall`` only.

The site never writes (but for a server's own "web on" switch, in ``bot.web.settings``), so it
reads through the database's reader connection and cannot slow or block a move. Every query
here is bounded (a page, a LIMIT) and served by an index, so a page costs the same with ten
matches or a million.

Seasons: a leaderboard is asked for through a :class:`Board` (a game and a scope). Today a
scope is everywhere or one server, all time; seasons will add a field there and a filter in
``leaderboard``, and the pages already carry the board's label.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any, Final

from bot.ratings import GLOBAL_SCOPE, Standing, displayed
from bot.sql import Database, Row, ranked

PAGE_SIZE: Final = 50
RECENT: Final = 20
MAX_ID: Final = 2**63 - 1  # SQLite's integers; anything larger is no row's id
# A finished match shows every hand; an aborted one ended before its first move. A match
# still being played, or one set aside as corrupt (whose log may not be trusted), never does.
REPLAYABLE: Final = frozenset({"finished", "aborted"})
SHOWN: Final = frozenset({"active", "finished", "aborted", "corrupt"})


@dataclass(frozen=True)
class Board:
    """Which leaderboard: a game, everywhere (``guild_id`` None) or on one server."""

    game: str
    guild_id: int | None = None

    @property
    def scope(self) -> int:
        return GLOBAL_SCOPE if self.guild_id is None else self.guild_id


@dataclass(frozen=True)
class Page:
    standings: list[Standing]
    page: int
    pages: int
    total: int


@dataclass(frozen=True)
class Player:
    user_id: int
    name: str


@dataclass(frozen=True)
class GameRecord:
    game: str
    rating: float
    games: int
    wins: int
    losses: int
    draws: int
    streak: int


@dataclass(frozen=True)
class Point:
    games: int
    rating: float
    at: float


@dataclass(frozen=True)
class Finished:
    """One line of a list of finished matches."""

    match_id: int
    game: str
    names: tuple[str, str]
    seat_ids: tuple[int, int]
    winner: int | None
    how: str
    scores: tuple[int, int]
    finished_at: float
    duplicate: int | None = None  # the first leg's id, when this is a leg of a duplicate match
    leg: int | None = None  # 1 or 2


@dataclass(frozen=True)
class Match:
    """A match as the site shows it: the row, the players' names, the move count."""

    id: int
    game: str
    guild_id: int | None
    status: str
    seed: int | None
    options: dict[str, Any]
    version: int
    state: str | None
    result: dict[str, Any] | None
    seat_ids: tuple[int, int] | None
    names: tuple[str, str]
    created_at: float
    updated_at: float

    @property
    def replayable(self) -> bool:
        return self.status in REPLAYABLE and self.state is not None


def valid_id(text: str) -> int | None:
    """A path's id as an int, or None if it cannot be any row's (not digits, too large)."""
    if not text.isascii() or not text.isdigit() or len(text) > 19:
        return None
    number = int(text)
    return number if 0 < number <= MAX_ID else None


async def leaderboard(db: Database, board: Board, page: int) -> Page | None:
    """One page (1-based) of a leaderboard; None for a page past the last (page 1 always
    exists, empty when no one has played)."""
    total_row = await db.fetchone(
        "SELECT COUNT(*) FROM ratings WHERE game = ? AND scope = ?", (board.game, board.scope)
    )
    total = int(total_row[0]) if total_row else 0
    pages = max(1, -(-total // PAGE_SIZE))
    if page < 1 or page > pages:
        return None
    rows = await db.fetchall(
        "SELECT r.user_id, r.rating, r.games, r.wins, r.losses, r.draws, p.name"
        " FROM ratings r JOIN players p USING (user_id)"
        " WHERE r.game = ? AND r.scope = ? ORDER BY r.rating DESC, r.games DESC, r.user_id"
        " LIMIT ? OFFSET ?",
        (board.game, board.scope, PAGE_SIZE, (page - 1) * PAGE_SIZE),
    )
    first = (page - 1) * PAGE_SIZE + 1
    standings = [
        replace(line, rating=displayed(line.rating)) for line in ranked(Standing, rows, first)
    ]
    return Page(standings, page, pages, total)


async def web_enabled(db: Database, guild_id: int) -> bool:
    """Whether a server turned its pages on (``/tapis web on``); off unless it did."""
    row = await db.fetchone("SELECT web FROM guild_settings WHERE guild_id = ?", (guild_id,))
    return bool(row and row["web"])


async def player(db: Database, user_id: int) -> Player | None:
    row = await db.fetchone("SELECT user_id, name FROM players WHERE user_id = ?", (user_id,))
    return None if row is None else Player(row["user_id"], row["name"])


async def records(db: Database, user_id: int) -> list[GameRecord]:
    """A player's rating and record in each game they played, everywhere."""
    rows = await db.fetchall(
        "SELECT game, rating, games, wins, losses, draws, streak FROM ratings"
        " WHERE user_id = ? AND scope = ? ORDER BY game",
        (user_id, GLOBAL_SCOPE),
    )
    return [
        GameRecord(r["game"], displayed(r["rating"]), r["games"], r["wins"], r["losses"],
                   r["draws"], r["streak"])
        for r in rows
    ]  # fmt: skip


async def history(db: Database, user_id: int, game: str, limit: int = 500) -> list[Point]:
    """A player's rating after each rated match of a game, everywhere, oldest first (at most
    the latest ``limit``)."""
    rows = await db.fetchall(
        "SELECT games, rating, at FROM rating_history WHERE user_id = ? AND game = ?"
        " AND scope = ? ORDER BY games DESC LIMIT ?",
        (user_id, game, GLOBAL_SCOPE, limit),
    )
    return [Point(r["games"], displayed(r["rating"]), r["at"]) for r in reversed(rows)]


_FINISHED = (
    "SELECT r.match_id, r.game, r.seat0_id, r.seat1_id, r.winner_seat, r.how, r.scores,"
    " r.finished_at, p0.name AS name0, p1.name AS name1,"
    " COALESCE(d1.first_leg, d2.first_leg) AS duplicate,"
    " CASE WHEN d1.first_leg IS NOT NULL THEN 1 WHEN d2.first_leg IS NOT NULL THEN 2 END AS leg"
    " FROM results r JOIN players p0 ON p0.user_id = r.seat0_id"
    " JOIN players p1 ON p1.user_id = r.seat1_id"
    " LEFT JOIN duplicates d1 ON d1.first_leg = r.match_id"
    " LEFT JOIN duplicates d2 ON d2.second_leg = r.match_id"
)


def _finished(row: Row) -> Finished:
    scores = _json(row["scores"], [0, 0])
    pair = (
        (int(scores[0]), int(scores[1]))
        if isinstance(scores, list) and len(scores) == 2
        else (0, 0)
    )
    return Finished(
        match_id=row["match_id"],
        game=row["game"],
        names=(row["name0"], row["name1"]),
        seat_ids=(row["seat0_id"], row["seat1_id"]),
        winner=row["winner_seat"],
        how=row["how"],
        scores=pair,
        finished_at=row["finished_at"],
        duplicate=row["duplicate"],
        leg=row["leg"],
    )


async def recent_of(db: Database, user_id: int, limit: int = RECENT) -> list[Finished]:
    """A player's latest finished matches, newest first (each seat's index, then merged)."""
    rows = await db.fetchall(
        # Each subquery named: PostgreSQL before 16 requires it (SQLite allows it).
        f"SELECT * FROM ({_FINISHED} WHERE r.seat0_id = ? ORDER BY r.finished_at DESC LIMIT ?)"
        f" AS by_seat0 UNION ALL SELECT * FROM ({_FINISHED} WHERE r.seat1_id = ?"
        " ORDER BY r.finished_at DESC LIMIT ?) AS by_seat1"
        " ORDER BY finished_at DESC, match_id DESC LIMIT ?",
        (user_id, limit, user_id, limit, limit),
    )
    return [_finished(row) for row in rows]


async def recent(db: Database, limit: int = RECENT) -> list[Finished]:
    rows = await db.fetchall(f"{_FINISHED} ORDER BY r.finished_at DESC LIMIT ?", (limit,))
    return [_finished(row) for row in rows]


async def match(db: Database, match_id: int) -> Match | None:
    """A match the site may show (started: live, over, or set aside); None otherwise."""
    row = await db.fetchone(
        "SELECT m.id, m.game, m.guild_id, m.status, m.seed, m.options, m.version, m.state,"
        " m.result, m.seat0_id, m.seat1_id, m.created_at, m.updated_at,"
        " p0.name AS name0, p1.name AS name1 FROM matches m"
        " LEFT JOIN players p0 ON p0.user_id = m.seat0_id"
        " LEFT JOIN players p1 ON p1.user_id = m.seat1_id WHERE m.id = ?",
        (match_id,),
    )
    if row is None or row["status"] not in SHOWN or row["seat0_id"] is None:
        return None
    options = _json(row["options"], {})
    result = _json(row["result"], None)
    return Match(
        id=row["id"],
        game=row["game"],
        guild_id=row["guild_id"],
        status=row["status"],
        seed=row["seed"],
        options=options if isinstance(options, dict) else {},
        version=row["version"],
        state=row["state"],
        result=result if isinstance(result, dict) else None,
        seat_ids=(row["seat0_id"], row["seat1_id"]),
        names=(row["name0"] or "?", row["name1"] or "?"),
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


async def moves(db: Database, match_id: int, upto: int | None = None) -> list[tuple[int, str]]:
    """The move log, ``(seat, move)`` in order, up to ply ``upto`` if given."""
    rows = await db.fetchall(
        "SELECT seat, move FROM moves WHERE match_id = ? AND ply <= ? ORDER BY ply",
        (match_id, MAX_ID if upto is None else upto),
    )
    return [(row["seat"], row["move"]) for row in rows]


def _json(text: str | None, default: Any) -> Any:
    if not text:
        return default
    try:
        return json.loads(text)
    except ValueError:
        return default


@dataclass(frozen=True)
class UnratedRecord:
    """A player's matches of a game that no rating counts (against the computer)."""

    game: str
    games: int
    wins: int
    losses: int
    draws: int


async def unrated(db: Database, user_id: int) -> list[UnratedRecord]:
    """A player's record in each game from their unrated matches: someone who has only played
    the computer still has a record of what they played (each seat's index, then counted)."""
    rows = await db.fetchall(
        "SELECT r.game, COUNT(*) AS games,"
        " SUM(CASE WHEN r.winner_seat = s.seat THEN 1 ELSE 0 END) AS wins,"
        " SUM(CASE WHEN r.winner_seat IS NULL THEN 1 ELSE 0 END) AS draws"
        " FROM (SELECT match_id, 0 AS seat FROM results WHERE seat0_id = ?"
        " UNION ALL SELECT match_id, 1 AS seat FROM results WHERE seat1_id = ?) AS s"
        " JOIN results r ON r.match_id = s.match_id JOIN matches m ON m.id = r.match_id"
        " WHERE m.rated = 0 GROUP BY r.game ORDER BY r.game",
        (user_id, user_id),
    )
    return [
        UnratedRecord(
            r["game"], int(r["games"]), int(r["wins"]),
            int(r["games"]) - int(r["wins"]) - int(r["draws"]), int(r["draws"]),
        )
        for r in rows
    ]  # fmt: skip
