"""Tournaments and duplicate matches as stored: every read and write of their tables
(``tournaments``, ``tournament_players``, ``tournament_games``, ``duplicates``), and the
match that starts at once, without a challenge, when a round is paired or a second leg is due.

Reads are methods of :class:`TournamentStore`; a write that is a transaction of its own is
one too. The writes that share a transaction with other steps (a line to the outbox, a
rating, the matches of a round) are functions of a connection, called inside the caller's
plan, so each step of a tournament is still written whole or not at all.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import games
from bot.service import clocks
from bot.service.rows import SELECT_MATCHES, dumps, row_from_stored
from bot.service.tournament_values import Entry, TournamentInfo
from bot.service.values import Json, MatchRow
from bot.storage.sql import Connection, Database, Row


class TournamentStore:
    """The reads of tournaments and duplicate matches, and their one-statement writes."""

    def __init__(self, db: Database) -> None:
        self._db = db

    # -- tournaments and their players ------------------------------------------------------
    async def row(self, tournament_id: int) -> Row | None:
        """The tournament's stored row (with its due time), or None."""
        found: Row | None = await self._db.fetchone(
            "SELECT * FROM tournaments WHERE id = ?", (tournament_id,)
        )
        return found

    async def info(self, stored: Row) -> TournamentInfo:
        """The tournament of a stored row, with its players in starting order."""
        entries = await self._db.fetchall(
            "SELECT t.user_id, t.place, t.left_round, p.name FROM tournament_players t"
            " JOIN players p USING (user_id) WHERE t.tournament_id = ? ORDER BY t.place",
            (stored["id"],),
        )
        return _info(stored, entries)

    async def of_server(self, guild_id: int, *, current: bool) -> list[int]:
        """The ids of a server's tournaments, newest first: open and running ones, or all."""
        sql = "SELECT id FROM tournaments WHERE guild_id = ?"
        if current:
            sql += " AND status IN ('open', 'running')"
        found = await self._db.fetchall(sql + " ORDER BY id DESC LIMIT 25", (guild_id,))
        return [row["id"] for row in found]

    async def current_count(self, guild_id: int) -> int:
        """How many of a server's tournaments are open or running."""
        opened = await self._db.fetchone(
            "SELECT COUNT(*) FROM tournaments WHERE guild_id = ? AND status IN ('open', 'running')",
            (guild_id,),
        )
        return 0 if opened is None else int(opened[0])

    async def set_thread(self, tournament_id: int, thread_id: int) -> None:
        def plan(conn: Connection) -> None:
            conn.execute(
                "UPDATE tournaments SET thread_id = ? WHERE id = ?", (thread_id, tournament_id)
            )

        await self._db.transact(plan)

    async def start_at(self, tournament_id: int, now: float) -> None:
        """Make an open tournament due ``now``: the task's next pass starts it."""

        def plan(conn: Connection) -> None:
            conn.execute(
                "UPDATE tournaments SET due_at = ? WHERE id = ? AND status = 'open'",
                (now, tournament_id),
            )

        await self._db.transact(plan)

    async def going_matches(self, tournament_id: int, user_id: int) -> list[int]:
        """The matches of ``user_id`` still going in the tournament, second legs included."""
        going = await self._db.fetchall(
            "SELECT m.id FROM tournament_games g JOIN matches m ON m.id = g.match_id"
            " WHERE g.tournament_id = ? AND m.status = 'active'"
            " AND (m.seat0_id = ? OR m.seat1_id = ?)"
            " UNION SELECT m.id FROM tournament_games g JOIN duplicates d"
            " ON d.first_leg = g.match_id JOIN matches m ON m.id = d.second_leg"
            " WHERE g.tournament_id = ? AND m.status = 'active'"
            " AND (m.seat0_id = ? OR m.seat1_id = ?)",
            (tournament_id, user_id, user_id, tournament_id, user_id, user_id),
        )
        return [match["id"] for match in going]

    # -- the task ---------------------------------------------------------------------------
    async def next_due(self) -> float | None:
        found = await self._db.fetchone(
            "SELECT MIN(due_at) FROM tournaments WHERE due_at IS NOT NULL"
            " AND status IN ('open', 'running')"
        )
        return None if found is None or found[0] is None else float(found[0])

    async def due(self, now: float) -> list[int]:
        """The tournaments to look at in a pass: those due to start, and every running one."""
        due = await self._db.fetchall(
            "SELECT id FROM tournaments WHERE status IN ('open', 'running')"
            " AND (due_at <= ? OR status = 'running')",
            (now,),
        )
        return [tournament["id"] for tournament in due]

    # -- rounds and their games -------------------------------------------------------------
    async def played(self, tournament_id: int, upto: int) -> Sequence[Row]:
        """The games with a result up to round ``upto``: seats and points."""
        found: Sequence[Row] = await self._db.fetchall(
            "SELECT seat0_id, seat1_id, points0, points1 FROM tournament_games"
            " WHERE tournament_id = ? AND round <= ? AND points0 IS NOT NULL",
            (tournament_id, upto),
        )
        return found

    async def history(self, tournament_id: int) -> Sequence[Row]:
        """Every game of the tournament so far, in order, as the Swiss pairing reads it."""
        found: Sequence[Row] = await self._db.fetchall(
            "SELECT round, seat0_id, seat1_id, points0, points1 FROM tournament_games"
            " WHERE tournament_id = ? ORDER BY round, board",
            (tournament_id,),
        )
        return found

    async def unscored(self) -> Sequence[Row]:
        """The games of running tournaments without points, with their match (or duplicate
        match) as it stands."""
        found: Sequence[Row] = await self._db.fetchall(
            "SELECT g.tournament_id, g.round, g.board, g.match_id, t.duplicate, m.status,"
            " m.result, m.seat0_id, d.winner_seat, d.finished_at FROM tournament_games g"
            " JOIN tournaments t ON t.id = g.tournament_id"
            " JOIN matches m ON m.id = g.match_id"
            " LEFT JOIN duplicates d ON d.first_leg = g.match_id"
            " WHERE g.points0 IS NULL AND t.status = 'running'"
        )
        return found

    async def score(self, scored: list[tuple[float, float, int, int, int]]) -> None:
        """Give games their points: (points0, points1, tournament, round, board) each."""

        def plan(conn: Connection) -> None:
            conn.executemany(
                "UPDATE tournament_games SET points0 = ?, points1 = ? WHERE tournament_id = ?"
                " AND round = ? AND board = ? AND points0 IS NULL",
                scored,
            )

        await self._db.transact(plan)

    async def open_games(self, tournament_id: int, number: int) -> int | None:
        """How many games of round ``number`` have no result yet."""
        open_games = await self._db.fetchone(
            "SELECT COUNT(*) FROM tournament_games WHERE tournament_id = ? AND round = ?"
            " AND points0 IS NULL",
            (tournament_id, number),
        )
        return None if open_games is None else int(open_games[0])

    async def finish(self, tournament_id: int, number: int, now: float) -> None:
        """The tournament is over after round ``number``."""

        def plan(conn: Connection) -> None:
            conn.execute(
                "UPDATE tournaments SET status = 'finished', due_at = NULL, updated_at = ?"
                " WHERE id = ? AND status = 'running' AND round = ?",
                (now, tournament_id, number),
            )

        await self._db.transact(plan)

    async def cancel(self, tournament_id: int, now: float) -> None:
        """The tournament never starts (too few players at its start time)."""

        def plan(conn: Connection) -> None:
            conn.execute(
                "UPDATE tournaments SET status = 'cancelled', due_at = NULL, updated_at = ?"
                " WHERE id = ? AND status = 'open'",
                (now, tournament_id),
            )

        await self._db.transact(plan)

    async def round_games(self, tournament_id: int, number: int) -> Sequence[Row]:
        """Round ``number``'s games by board: seats and match."""
        found: Sequence[Row] = await self._db.fetchall(
            "SELECT seat0_id, seat1_id, match_id FROM tournament_games WHERE tournament_id = ?"
            " AND round = ? ORDER BY board",
            (tournament_id, number),
        )
        return found

    # -- what is owed to the thread ---------------------------------------------------------
    async def unreported(self) -> Sequence[Row]:
        """Tournaments with standings or pairings not yet posted, or a cancellation untold."""
        found: Sequence[Row] = await self._db.fetchall(
            "SELECT id, guild_id FROM tournaments WHERE status IN ('running', 'finished')"
            " AND (reported < round OR announced < round)"
            " UNION SELECT id, guild_id FROM tournaments WHERE status = 'cancelled'"
            " AND announced = 0 ORDER BY id"
        )
        return found

    async def marks(self, tournament_id: int) -> Row | None:
        """The last round whose pairings were posted (``announced``) and whose standings were
        (``reported``)."""
        found: Row | None = await self._db.fetchone(
            "SELECT announced, reported FROM tournaments WHERE id = ?", (tournament_id,)
        )
        return found

    async def mark(self, tournament_id: int, column: str, number: int) -> None:
        """Set the mark ``column`` (``reported`` or ``announced``) to round ``number``."""

        def plan(conn: Connection) -> None:
            conn.execute(
                f"UPDATE tournaments SET {column} = ? WHERE id = ? AND {column} < ?",
                (number, tournament_id, number),
            )

        await self._db.transact(plan)

    async def unposted(self) -> Sequence[Row]:
        """Tournament matches not yet posted, with their tournament's name and place."""
        found: Sequence[Row] = await self._db.fetchall(
            "SELECT g.tournament_id, g.round, g.board, g.match_id, g.seat0_id, g.seat1_id,"
            " t.name, t.channel_id, t.game, t.guild_id FROM tournament_games g"
            " JOIN tournaments t ON t.id = g.tournament_id"
            " WHERE g.posted = 0 AND g.match_id IS NOT NULL ORDER BY g.tournament_id, g.round,"
            " g.board"
        )
        return found

    async def mark_posted(self, tournament_id: int, number: int, board: int) -> None:
        def plan(conn: Connection) -> None:
            conn.execute(
                "UPDATE tournament_games SET posted = 1 WHERE tournament_id = ? AND round = ?"
                " AND board = ?",
                (tournament_id, number, board),
            )

        await self._db.transact(plan)

    # -- duplicate matches ------------------------------------------------------------------
    async def register_duplicate(self, first_leg: int, rated: bool) -> None:
        def plan(conn: Connection) -> None:
            conn.execute(
                "INSERT INTO duplicates (first_leg, rated) VALUES (?, ?)", (first_leg, int(rated))
            )

        await self._db.transact(plan)

    async def duplicate(self, first_leg: int) -> Row | None:
        """The duplicate match of ``first_leg``: whether rated, and when finished."""
        found: Row | None = await self._db.fetchone(
            "SELECT rated, finished_at FROM duplicates WHERE first_leg = ?", (first_leg,)
        )
        return found

    async def legs(self, match_id: int) -> Row | None:
        found: Row | None = await self._db.fetchone(
            "SELECT first_leg, second_leg FROM duplicates WHERE first_leg = ? OR second_leg = ?",
            (match_id, match_id),
        )
        return found

    async def duplicates_due(self) -> Sequence[Row]:
        """Duplicate matches not over whose last leg so far has ended."""
        found: Sequence[Row] = await self._db.fetchall(
            "SELECT d.first_leg, d.second_leg FROM duplicates d JOIN matches m"
            " ON m.id = COALESCE(d.second_leg, d.first_leg)"
            " WHERE d.finished_at IS NULL AND m.status IN ('finished', 'aborted', 'corrupt')"
        )
        return found

    async def left_after(self, first_leg: int, seats: tuple[int, int]) -> int | None:
        """Which of ``seats`` left the tournament whose game is ``first_leg``, if one did."""
        gone = await self._db.fetchone(
            "SELECT p.user_id FROM tournament_games g JOIN tournament_players p"
            " ON p.tournament_id = g.tournament_id WHERE g.match_id = ?"
            " AND p.left_round IS NOT NULL AND p.user_id IN (?, ?)",
            (first_leg, *seats),
        )
        return None if gone is None else int(gone["user_id"])

    async def rated(self, first_leg: int) -> bool:
        """Whether the duplicate match of ``first_leg`` is rated (as one result)."""
        stored = await self._db.fetchone(
            "SELECT rated FROM duplicates WHERE first_leg = ?", (first_leg,)
        )
        return stored is not None and bool(stored["rated"])


# -- writes inside a caller's transaction ----------------------------------------------------


def insert_tournament(
    conn: Connection,
    guild_id: int,
    channel_id: int,
    name: str,
    game: str,
    options: Json | None,
    format_: str,
    duplicate: bool,
    rounds: int | None,
    days: int | None,
    creator_id: int,
    starts_at: float | None,
    now: float,
) -> int:
    """A new open tournament; its id."""
    cursor = conn.execute(
        "INSERT INTO tournaments (guild_id, channel_id, name, game, options, format,"
        " duplicate, rounds, days_per_move, creator_id, status, starts_at, due_at,"
        " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?,"
        " ?, ?)",
        (guild_id, channel_id, name, game, dumps(dict(options or {})), format_,
         int(duplicate), rounds, days, creator_id, starts_at, starts_at, now, now),
    )  # fmt: skip
    assert cursor.lastrowid is not None
    return cursor.lastrowid


def is_player(conn: Connection, tournament_id: int, user_id: int) -> bool:
    return bool(
        conn.execute(
            "SELECT 1 FROM tournament_players WHERE tournament_id = ? AND user_id = ?",
            (tournament_id, user_id),
        ).fetchone()
    )


def add_player(conn: Connection, tournament_id: int, user_id: int, now: float) -> None:
    """Enter ``user_id``, placed after everyone in already."""
    conn.execute(
        "INSERT INTO tournament_players (tournament_id, user_id, place, joined_at)"
        " SELECT ?, ?, COALESCE(MAX(place), 0) + 1, ? FROM tournament_players"
        " WHERE tournament_id = ?",
        (tournament_id, user_id, now, tournament_id),
    )


def drop_player(conn: Connection, tournament_id: int, user_id: int) -> None:
    conn.execute(
        "DELETE FROM tournament_players WHERE tournament_id = ? AND user_id = ?",
        (tournament_id, user_id),
    )


def mark_left(conn: Connection, tournament_id: int, user_id: int, number: int) -> None:
    """``user_id`` left during round ``number``: paired no more, their results kept."""
    conn.execute(
        "UPDATE tournament_players SET left_round = ? WHERE tournament_id = ? AND user_id = ?",
        (number, tournament_id, user_id),
    )


def count_players(conn: Connection, tournament_id: int) -> int:
    row = conn.execute(
        "SELECT COUNT(*) AS n FROM tournament_players WHERE tournament_id = ?", (tournament_id,)
    ).fetchone()
    return int(row["n"]) if row is not None else 0


def begin_round(conn: Connection, tournament_id: int, number: int, rounds: int, now: float) -> bool:
    """Move the tournament to round ``number`` of ``rounds``; False if another pass did."""
    moved = conn.execute(
        "UPDATE tournaments SET status = 'running', round = ?, rounds = ?,"
        " due_at = NULL, updated_at = ? WHERE id = ? AND round = ?",
        (number, rounds, now, tournament_id, number - 1),
    )
    return bool(moved.rowcount == 1)


def add_game(
    conn: Connection, tournament_id: int, number: int, board: int, seats: tuple[int, int],
    match_id: int,
) -> None:  # fmt: skip
    conn.execute(
        "INSERT INTO tournament_games (tournament_id, round, board, seat0_id,"
        " seat1_id, match_id) VALUES (?, ?, ?, ?, ?, ?)",
        (tournament_id, number, board, *seats, match_id),
    )


def add_forfeit(
    conn: Connection, tournament_id: int, number: int, board: int, seats: tuple[int, int],
    points: tuple[float, float],
) -> None:  # fmt: skip
    """A game scored without a match (one or both players gone), posted already."""
    conn.execute(
        "INSERT INTO tournament_games (tournament_id, round, board, seat0_id,"
        " seat1_id, points0, points1, posted) VALUES (?, ?, ?, ?, ?, ?, ?, 1)",
        (tournament_id, number, board, *seats, *points),
    )


def add_bye(
    conn: Connection, tournament_id: int, number: int, board: int, user_id: int, points: float
) -> None:
    conn.execute(
        "INSERT INTO tournament_games (tournament_id, round, board, seat0_id,"
        " points0, points1, posted) VALUES (?, ?, ?, ?, ?, 0, 1)",
        (tournament_id, number, board, user_id, points),
    )


def add_duplicate(conn: Connection, first_leg: int) -> None:
    """A tournament's duplicate match, its first leg just made: rated as one result, the
    stored default."""
    conn.execute("INSERT INTO duplicates (first_leg) VALUES (?)", (first_leg,))


def second_leg_taken(conn: Connection, first_leg: int) -> bool:
    """Whether the second leg was made already (or the duplicate match is gone)."""
    taken = conn.execute(
        "SELECT second_leg FROM duplicates WHERE first_leg = ?", (first_leg,)
    ).fetchone()
    return taken is None or taken[0] is not None


def set_second_leg(conn: Connection, first_leg: int, second_leg: int) -> None:
    conn.execute(
        "UPDATE duplicates SET second_leg = ? WHERE first_leg = ?", (second_leg, first_leg)
    )


def write_duplicate(
    conn: Connection, first_leg: int, margin: float | None, winner: int | None, how: str,
    now: float,
) -> bool:  # fmt: skip
    """Write a duplicate match's one result; False if another pass wrote it already."""
    done = conn.execute(
        "UPDATE duplicates SET margin = ?, winner_seat = ?, how = ?, finished_at = ?"
        " WHERE first_leg = ? AND finished_at IS NULL",
        (margin, winner, how, now, first_leg),
    )
    return bool(done.rowcount == 1)


def start_match(
    conn: Connection,
    game: str,
    options: Json,
    guild_id: int | None,
    channel_id: int | None,
    thread_id: int | None,
    seats: tuple[int, int],
    days: int | None,
    seed: int,
    rated: bool,
    now: float,
) -> MatchRow:
    """A match that starts at once (no challenge: the pairing is the invitation)."""
    state = games.get(game).new_match(seed=seed, options=options)
    deadline, reminder = clocks.deadline_after(now, days)
    to_move = None if state.to_move is None else seats[state.to_move]
    cursor = conn.execute(
        "INSERT INTO matches (game, guild_id, channel_id, thread_id, challenger_id, opponent_id,"
        " seat0_id, seat1_id, options, seed, status, version, state, to_move_id, days_per_move,"
        " rated, deadline, reminder_at, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', 0, ?, ?, ?, ?, ?, ?, ?, ?)",
        (game, guild_id, channel_id, thread_id, seats[0], seats[1], seats[0], seats[1],
         dumps(dict(options)), seed, state.to_json(), to_move, days, int(rated), deadline,
         reminder, now, now),
    )  # fmt: skip
    if deadline is not None or reminder is not None:  # a turn clock runs: its own row
        conn.execute(
            "INSERT INTO clocks (match_id, deadline, reminder_at) VALUES (?, ?, ?)",
            (cursor.lastrowid, deadline, reminder),
        )
    stored = conn.execute(f"{SELECT_MATCHES} WHERE m.id = ?", (cursor.lastrowid,)).fetchone()
    return row_from_stored(stored)


def as_object(text: str | None) -> Json:
    """Stored JSON text as an object; {} for none, or for anything else."""
    try:
        value = json.loads(text) if text else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _info(stored: Row, entries: Sequence[Any]) -> TournamentInfo:
    return TournamentInfo(
        id=stored["id"],
        guild_id=stored["guild_id"],
        channel_id=stored["channel_id"],
        thread_id=stored["thread_id"],
        name=stored["name"],
        game=stored["game"],
        options=as_object(stored["options"]),
        format=stored["format"],
        duplicate=bool(stored["duplicate"]),
        rounds=stored["rounds"],
        days_per_move=stored["days_per_move"],
        creator_id=stored["creator_id"],
        status=stored["status"],
        round=stored["round"],
        starts_at=stored["starts_at"],
        players=tuple(Entry(e["user_id"], e["name"], e["place"], e["left_round"]) for e in entries),
    )
