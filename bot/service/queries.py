"""The read-only queries of the front ends (the site, ``/tapis replay``), through ``Reads``.

A front end never writes (a server's own "web on" switch is the service's, in
``bot.service.settings``) and never holds the database itself: it holds a :class:`Reads`, which
offers ``fetchone``/``fetchall`` and nothing else. So it reads through the database's reader
connection and cannot slow or block a move. Every query
here is bounded (a page, a LIMIT) and served by an index, so a page costs the same with ten
matches or a million.

Consent: the site shows only what was agreed to be public, and the one rule of what that
is lives in :func:`consented` (a match or result of a server that turned its pages on with
``/tapis web on``; outside any server, only when both players chose to be public) and
:data:`HIDDEN` (a player who asked to be hidden is named by no public page). Every query
the site reads through applies them; the Discord side reads the raw rows (``match``,
``recent_of`` with ``public=False``), where a server's own rules apply instead.

Seasons: a leaderboard is asked for through a :class:`Board` (a game and a scope). Today a
scope is everywhere or one server, all time; seasons will add a field there and a filter in
``leaderboard``, and the pages already carry the board's label.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final, Protocol

from bot.service.ratings import GLOBAL_SCOPE, Standing, displayed
from bot.storage.backends import open_database
from bot.storage.sql import Row, ranked

PAGE_SIZE: Final = 50
RECENT: Final = 20
MAX_ID: Final = 2**63 - 1  # SQLite's integers; anything larger is no row's id
# A finished match shows every hand; an aborted one ended before its first move. A match
# still being played, or one set aside as corrupt (whose log may not be trusted), never does.
REPLAYABLE: Final = frozenset({"finished", "aborted"})
SHOWN: Final = frozenset({"active", "finished", "aborted", "corrupt"})


class Reads(Protocol):
    """What a front end may ask of the database: reads of what is committed, never a write."""

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None: ...

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> Sequence[Row]: ...


@asynccontextmanager
async def reading(path: Path | str, *, durable: bool = False) -> AsyncIterator[Reads]:
    """The database at ``path`` opened for reading (``python -m bot web`` alone), then closed."""
    db = await open_database(path, durable=durable)
    try:
        yield db
    finally:
        await db.close()


HIDDEN: Final = -1  # players.web: hidden from the site by their own choice
PUBLIC: Final = 1  # players.web: their matches outside any server may be shown


def consented(row: str) -> str:
    """The site's one consent rule, as an SQL condition on ``row`` (an alias of ``matches``
    or ``results``: its ``guild_id`` and seats): a server's match is public while that server
    has its pages on; a match outside any server only if both players chose to be public."""
    return (
        f"(({row}.guild_id IS NOT NULL AND EXISTS (SELECT 1 FROM guild_settings consent"
        f" WHERE consent.guild_id = {row}.guild_id AND consent.web = 1))"
        f" OR ({row}.guild_id IS NULL"
        f" AND EXISTS (SELECT 1 FROM players c0 WHERE c0.user_id = {row}.seat0_id"
        f" AND c0.web = {PUBLIC})"
        f" AND EXISTS (SELECT 1 FROM players c1 WHERE c1.user_id = {row}.seat1_id"
        f" AND c1.web = {PUBLIC})))"
    )


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


async def leaderboard(db: Reads, board: Board, page: int) -> Page | None:
    """One page (1-based) of a leaderboard; None for a page past the last (page 1 always
    exists, empty when no one has played). Only players who did not hide are ranked.

    A server's board is its own ratings (the caller makes sure its pages are on). The board
    of everywhere ranks only results of servers whose pages are on: each player's ratings on
    those servers, weighted by the games played on each, and their records added up; a server
    turning its pages off takes its results out of it at once."""
    if board.guild_id is not None:
        source = "SELECT r.* FROM ratings r WHERE r.game = ? AND r.scope = ?"
        arguments: tuple[Any, ...] = (board.game, board.scope)
    else:
        source = _web_ratings("r.game = ?")
        arguments = (board.game,)
    shown = f" FROM ({source}) AS b JOIN players p USING (user_id) WHERE p.web <> {HIDDEN}"
    total_row = await db.fetchone("SELECT COUNT(*)" + shown, arguments)
    total = int(total_row[0]) if total_row else 0
    pages = max(1, -(-total // PAGE_SIZE))
    if page < 1 or page > pages:
        return None
    rows = await db.fetchall(
        "SELECT b.user_id, b.rating, b.games, b.wins, b.losses, b.draws, p.name" + shown
        + " ORDER BY b.rating DESC, b.games DESC, b.user_id LIMIT ? OFFSET ?",
        (*arguments, PAGE_SIZE, (page - 1) * PAGE_SIZE),
    )  # fmt: skip
    first = (page - 1) * PAGE_SIZE + 1
    standings = [
        replace(line, rating=displayed(line.rating)) for line in ranked(Standing, rows, first)
    ]
    return Page(standings, page, pages, total)


async def web_enabled(db: Reads, guild_id: int) -> bool:
    """Whether a server turned its pages on (``/tapis web on``); off unless it did."""
    row = await db.fetchone("SELECT web FROM guild_settings WHERE guild_id = ?", (guild_id,))
    return bool(row and row["web"])


def _web_ratings(where: str) -> str:
    """Each player's rating per game over the servers whose pages are on (see
    ``leaderboard``), for the ratings rows ``r`` that ``where`` picks."""
    return (
        "SELECT r.user_id, r.game, SUM(r.rating * r.games) / SUM(r.games) AS rating,"
        " SUM(r.games) AS games, SUM(r.wins) AS wins, SUM(r.losses) AS losses,"
        " SUM(r.draws) AS draws FROM ratings r"
        " JOIN guild_settings consent ON consent.guild_id = r.scope AND consent.web = 1"
        f" WHERE r.games > 0 AND {where} GROUP BY r.user_id, r.game"
    )


async def player(db: Reads, user_id: int) -> Player | None:
    """A player the site may show: not hidden, with a match it may show."""
    row = await db.fetchone(
        f"SELECT user_id, name FROM players p WHERE user_id = ? AND web <> {HIDDEN}"
        f" AND (EXISTS (SELECT 1 FROM results r WHERE r.seat0_id = p.user_id"
        f" AND {consented('r')}) OR EXISTS (SELECT 1 FROM results r"
        f" WHERE r.seat1_id = p.user_id AND {consented('r')}))",
        (user_id,),
    )
    return None if row is None else Player(row["user_id"], row["name"])


async def records(db: Reads, user_id: int) -> list[GameRecord]:
    """A player's rating and record in each game, over the servers whose pages are on; the
    streak is the one on the server where they played last."""
    rows = await db.fetchall(
        f"SELECT b.game, b.rating, b.games, b.wins, b.losses, b.draws,"
        f" (SELECT s.streak FROM ratings s JOIN guild_settings consent"
        f" ON consent.guild_id = s.scope AND consent.web = 1"
        f" WHERE s.user_id = b.user_id AND s.game = b.game"
        f" ORDER BY s.updated_at DESC LIMIT 1) AS streak"
        f" FROM ({_web_ratings('r.user_id = ?')}) AS b ORDER BY b.game",
        (user_id,),
    )
    return [
        GameRecord(r["game"], displayed(r["rating"]), r["games"], r["wins"], r["losses"],
                   r["draws"], r["streak"])
        for r in rows
    ]  # fmt: skip


async def history(db: Reads, user_id: int, game: str, limit: int = 500) -> list[Point]:
    """A player's rating after each rated match of a game, oldest first (at most the latest
    ``limit``), on the server whose pages are on where they played that game most."""
    rows = await db.fetchall(
        "SELECT h.games, h.rating, h.at FROM rating_history h WHERE h.user_id = ?"
        " AND h.game = ? AND h.scope = (SELECT r.scope FROM ratings r"
        " JOIN guild_settings consent ON consent.guild_id = r.scope AND consent.web = 1"
        " WHERE r.user_id = ? AND r.game = ? ORDER BY r.games DESC, r.scope LIMIT 1)"
        " ORDER BY h.games DESC LIMIT ?",
        (user_id, game, user_id, game, limit),
    )
    return [Point(r["games"], displayed(r["rating"]), r["at"]) for r in reversed(rows)]


_FINISHED = (
    "SELECT r.match_id, r.game, r.seat0_id, r.seat1_id, r.winner_seat, r.how, r.scores,"
    " r.finished_at, p0.name AS name0, p1.name AS name1, p0.web AS web0, p1.web AS web1,"
    " COALESCE(d1.first_leg, d2.first_leg) AS duplicate,"
    " CASE WHEN d1.first_leg IS NOT NULL THEN 1 WHEN d2.first_leg IS NOT NULL THEN 2 END AS leg"
    " FROM results r JOIN players p0 ON p0.user_id = r.seat0_id"
    " JOIN players p1 ON p1.user_id = r.seat1_id"
    " LEFT JOIN duplicates d1 ON d1.first_leg = r.match_id"
    " LEFT JOIN duplicates d2 ON d2.second_leg = r.match_id"
)


def _finished(row: Row, public: bool) -> Finished:
    names, seat_ids = _shown(row, public)
    scores = _json(row["scores"], [0, 0])
    pair = (
        (int(scores[0]), int(scores[1]))
        if isinstance(scores, list) and len(scores) == 2
        else (0, 0)
    )
    return Finished(
        match_id=row["match_id"],
        game=row["game"],
        names=names,
        seat_ids=seat_ids,
        winner=row["winner_seat"],
        how=row["how"],
        scores=pair,
        finished_at=row["finished_at"],
        duplicate=row["duplicate"],
        leg=row["leg"],
    )


def _shown(row: Row, public: bool) -> tuple[tuple[str, str], tuple[int, int]]:
    """The seats' names and ids as a page shows them: a player hidden from the site has
    neither on a public page (an empty name, which the page words as "a player", and id 0,
    no one's)."""
    names = (row["name0"] or "?", row["name1"] or "?")
    ids = (row["seat0_id"], row["seat1_id"])
    if not public:
        return names, ids
    hidden = (row["web0"] == HIDDEN, row["web1"] == HIDDEN)
    return (
        ("" if hidden[0] else names[0], "" if hidden[1] else names[1]),
        (0 if hidden[0] else ids[0], 0 if hidden[1] else ids[1]),
    )


async def recent_of(
    db: Reads, user_id: int, limit: int = RECENT, *, public: bool = False
) -> list[Finished]:
    """A player's latest finished matches, newest first (each seat's index, then merged);
    ``public``: only those the site may show, as it shows them."""
    only = f" AND {consented('r')}" if public else ""
    rows = await db.fetchall(
        # Each subquery named: PostgreSQL before 16 requires it (SQLite allows it).
        f"SELECT * FROM ({_FINISHED} WHERE r.seat0_id = ?{only} ORDER BY r.finished_at DESC"
        f" LIMIT ?) AS by_seat0 UNION ALL SELECT * FROM ({_FINISHED} WHERE r.seat1_id = ?{only}"
        " ORDER BY r.finished_at DESC LIMIT ?) AS by_seat1"
        " ORDER BY finished_at DESC, match_id DESC LIMIT ?",
        (user_id, limit, user_id, limit, limit),
    )
    return [_finished(row, public) for row in rows]


async def recent(db: Reads, limit: int = RECENT) -> list[Finished]:
    """The latest finished matches the site may show, as it shows them."""
    rows = await db.fetchall(
        f"{_FINISHED} WHERE {consented('r')} ORDER BY r.finished_at DESC LIMIT ?", (limit,)
    )
    return [_finished(row, True) for row in rows]


async def match(db: Reads, match_id: int, *, public: bool = False) -> Match | None:
    """A started match (live, over, or set aside); None otherwise. ``public``: only if the
    site may show it, with its players as the site shows them."""
    only = f" AND {consented('m')}" if public else ""
    row = await db.fetchone(
        "SELECT m.id, m.game, m.guild_id, m.status, m.seed, m.options, m.version, m.state,"
        " m.result, m.seat0_id, m.seat1_id, m.created_at, m.updated_at,"
        " p0.name AS name0, p1.name AS name1, p0.web AS web0, p1.web AS web1 FROM matches m"
        " LEFT JOIN players p0 ON p0.user_id = m.seat0_id"
        f" LEFT JOIN players p1 ON p1.user_id = m.seat1_id WHERE m.id = ?{only}",
        (match_id,),
    )
    if row is None or row["status"] not in SHOWN or row["seat0_id"] is None:
        return None
    names, seat_ids = _shown(row, public)
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
        seat_ids=seat_ids,
        names=names,
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


async def moves(db: Reads, match_id: int, upto: int | None = None) -> list[tuple[int, str]]:
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


async def unrated(db: Reads, user_id: int) -> list[UnratedRecord]:
    """A player's record in each game from their unrated matches the site may show: someone
    who has only played the computer still has a record of what they played (each seat's
    index, then counted)."""
    rows = await db.fetchall(
        "SELECT r.game, COUNT(*) AS games,"
        " SUM(CASE WHEN r.winner_seat = s.seat THEN 1 ELSE 0 END) AS wins,"
        " SUM(CASE WHEN r.winner_seat IS NULL THEN 1 ELSE 0 END) AS draws"
        " FROM (SELECT match_id, 0 AS seat FROM results WHERE seat0_id = ?"
        " UNION ALL SELECT match_id, 1 AS seat FROM results WHERE seat1_id = ?) AS s"
        " JOIN results r ON r.match_id = s.match_id JOIN matches m ON m.id = r.match_id"
        f" WHERE m.rated = 0 AND {consented('r')} GROUP BY r.game ORDER BY r.game",
        (user_id, user_id),
    )
    return [
        UnratedRecord(
            r["game"], int(r["games"]), int(r["wins"]),
            int(r["games"]) - int(r["wins"]) - int(r["draws"]), int(r["draws"]),
        )
        for r in rows
    ]  # fmt: skip


@dataclass(frozen=True)
class HintMark:
    """A hint asked in a match, as its replay shows it: who asked (a seat), and the move they
    asked it for (the ply that move made). What the hint said stays its player's."""

    ply: int
    seat: int


async def hints(db: Reads, match_id: int, upto: int | None = None) -> list[HintMark]:
    """The hints asked in a match, in the order of its moves, for the moves up to ply ``upto``
    if given (a hint asked at version ``v`` is for the move that makes ply ``v + 1``). Only
    who asked and when: never the move the hint named."""
    rows = await db.fetchall(
        "SELECT h.version, CASE WHEN h.user_id = m.seat0_id THEN 0 ELSE 1 END AS seat"
        " FROM hints h JOIN matches m ON m.id = h.match_id"
        " WHERE h.match_id = ? AND h.version < ? ORDER BY h.version, seat",
        (match_id, MAX_ID if upto is None else upto),
    )
    return [HintMark(int(row["version"]) + 1, int(row["seat"])) for row in rows]


async def review(db: Reads, match_id: int) -> dict[str, Any] | None:
    """A finished match's review as ``/review`` stored it, or None if none was made (or it
    cannot be read back)."""
    row = await db.fetchone("SELECT review FROM reviews WHERE match_id = ?", (match_id,))
    found = None if row is None else _json(row["review"], None)
    return found if isinstance(found, dict) else None
