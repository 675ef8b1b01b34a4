"""The match service: the whole life of a match, in plain data, without Discord.

Every call takes ids and text and returns a :class:`MatchInfo` and the :class:`Delivery`
list the adapter must send, in order. The service speaks to the games only through the
engine contract (``games.get(name).new_match``, ``apply``, ``view``, ``to_json``/``from_json``),
so nothing here knows one game from another.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import secrets
import sqlite3
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, TypeVar

import aiosqlite

import games
from bot import clocks, logs, ratings
from bot.storage import Database
from games import State

Json = dict[str, Any]
T = TypeVar("T")
log = logging.getLogger("tapis.service")

ACTIVE = ("challenge", "active")
MAX_LISTED_MOVES = 12


def utcnow() -> datetime:
    """The wall clock, aware UTC; the service takes another one in tests."""
    return datetime.now(UTC)


def fresh_seed() -> int:
    """The seed of a new match's deals: unpredictable, so nobody can know the cards."""
    return secrets.randbits(62)


@dataclass(frozen=True)
class PlayerRef:
    """Who acts: a Discord user id, the display name to show, their locale."""

    user_id: int
    name: str
    locale: str = "en"


@dataclass(frozen=True)
class Delivery:
    """Something the adapter must send, in list order.

    - ``hand``: private to user ``to``: their hand from ``view`` (= ``state.view(seat)``), with
      buttons for ``view["legal_moves"]``; ``text`` says which match and whose turn.
    - ``board``: public, to the match's thread or channel: the table from ``view``
      (= ``state.view(None)``); ``text`` = last move, scores, whose turn; ``mention`` = to move.
    - ``notice``: public text to the match's thread or channel (challenge, start, result…).
    - ``dm``: private text to user ``to`` (a clock reminder, "your opponent resigned"…).

    Public deliveries never hold hidden information, in ``view`` or in ``text``.
    """

    kind: Literal["hand", "board", "notice", "dm"]
    match_id: int
    to: int | None
    text: str
    view: Json | None = None
    mention: int | None = None
    names: tuple[str, str] | None = None


@dataclass(frozen=True)
class MatchInfo:
    """One match as the adapter sees it (never the hidden state)."""

    id: int
    game: str
    status: str  # challenge | active | finished | declined | cancelled | aborted | corrupt
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    challenger: PlayerRef
    opponent: PlayerRef | None
    seats: tuple[PlayerRef, PlayerRef] | None
    options: Json
    days_per_move: int | None
    deadline: datetime | None
    to_move: int | None
    version: int
    result: Json | None

    def seat_of(self, user_id: int) -> int | None:
        """The seat ``user_id`` plays in this match, or None for anyone else."""
        if self.seats is None:
            return None
        for seat, player in enumerate(self.seats):
            if player.user_id == user_id:
                return seat
        return None


@dataclass(frozen=True)
class Standing:
    """One line of a leaderboard."""

    rank: int
    user_id: int
    name: str
    rating: float
    games: int
    wins: int
    losses: int
    draws: int


@dataclass(frozen=True)
class PlayerStats:
    """A player's record in one game (or all games) on one server (or everywhere)."""

    user_id: int
    name: str
    game: str | None
    guild_id: int | None
    rating: float | None  # None when ``game`` is None: ratings are per game
    rank: int | None  # None while unrated
    games: int
    wins: int
    losses: int
    draws: int
    streak: int  # > 0: wins in a row; < 0: losses in a row; 0 after a draw or no game
    losses_on_time: int
    resignations: int  # matches this player resigned
    wins_on_time: int = 0
    wins_by_resignation: int = 0


@dataclass(frozen=True)
class PlayerRecord:
    """What is remembered of a player: the name last seen and their preferences."""

    user_id: int
    name: str
    locale: str
    four_colour: bool
    dms_closed: bool
    extra: Json = field(default_factory=dict)


class ServiceError(Exception):
    """A request the service refuses; ``str(error)`` is a polite sentence for the user."""


class NotFound(ServiceError):
    """No such match (or game, or player)."""


class NotAPlayer(ServiceError):
    """Someone acted on a match they do not play in."""


class NotYourTurn(ServiceError):
    """A player moved while it is the opponent's turn."""


class MatchOver(ServiceError):
    """The match is no longer being played (finished, cancelled, aborted, set aside)."""


class Refused(ServiceError):
    """The engine refused the move (its message kept, plus what is legal), or a bad request."""


class Conflict(ServiceError):
    """The match changed while the request was made (a stale button, another process)."""


@dataclass(frozen=True)
class _Row:
    """A match as stored, with its state read back (``state`` is None before the start)."""

    id: int
    game: str
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    challenger_id: int
    opponent_id: int | None
    seat_ids: tuple[int, int] | None
    options: Json
    seed: int | None
    status: str
    version: int
    state: State | None
    to_move_id: int | None
    days_per_move: int | None
    deadline: float | None
    reminder_at: float | None
    result: Json | None
    rematch_of: int | None
    rated: bool

    def seat_of(self, user_id: int) -> int | None:
        if self.seat_ids is None:
            return None
        if self.seat_ids[0] == user_id:
            return 0
        if self.seat_ids[1] == user_id:
            return 1
        return None


class _Stale(Exception):
    """In a plan: the match is not as read (another process changed it); nothing written."""


def _expect_one(cursor: sqlite3.Cursor) -> None:
    """The optimistic check: the UPDATE found the match at the version it was read at."""
    if cursor.rowcount != 1:
        raise _Stale


class _Unreadable(Exception):
    """A stored match that cannot be read back; it will be set aside."""


def _row_from_record(record: aiosqlite.Row) -> _Row:
    """Read a ``matches`` row back, its state included; _Unreadable if it is damaged.

    A match already set aside is read leniently, without its state, so it can still be
    listed and shown as set aside.
    """
    if record["status"] == "corrupt":
        return _row_fields(record, record["game"], _loads_or(record["options"], {}), None, None)
    try:
        game = games.get(record["game"])
        options = json.loads(record["options"])
        if not isinstance(options, dict):
            raise ValueError("options are not a mapping")
        result = None if record["result"] is None else json.loads(record["result"])
        state = None if record["state"] is None else game.from_json(record["state"])
    except (KeyError, ValueError, TypeError) as error:
        raise _Unreadable(str(error) or type(error).__name__) from error
    if record["status"] == "active" and state is None:
        raise _Unreadable("an active match without a state")
    return _row_fields(record, game.name, options, result, state)


def _loads_or(text: str | None, default: Any) -> Any:
    try:
        return default if text is None else json.loads(text)
    except ValueError:
        return default


def _row_fields(
    record: aiosqlite.Row, game: str, options: Json, result: Json | None, state: State | None
) -> _Row:
    seat0, seat1 = record["seat0_id"], record["seat1_id"]
    return _Row(
        id=record["id"],
        game=game,
        guild_id=record["guild_id"],
        channel_id=record["channel_id"],
        thread_id=record["thread_id"],
        challenger_id=record["challenger_id"],
        opponent_id=record["opponent_id"],
        seat_ids=None if seat0 is None or seat1 is None else (seat0, seat1),
        options=options if isinstance(options, dict) else {},
        seed=record["seed"],
        status=record["status"],
        version=record["version"],
        state=state,
        to_move_id=record["to_move_id"],
        days_per_move=record["days_per_move"],
        deadline=record["deadline"],
        reminder_at=record["reminder_at"],
        result=result,
        rematch_of=record["rematch_of"],
        rated=bool(record["rated"]),
    )


class _KeyedLocks:
    """One asyncio lock per match id, forgotten once nobody holds or awaits it."""

    def __init__(self) -> None:
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def hold(self, key: int) -> AsyncIterator[None]:
        lock, users = self._locks.get(key, (None, 0))
        if lock is None:
            lock = asyncio.Lock()
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users == 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)


def _dumps(data: object) -> str:
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


@functools.cache
def _game_title(name: str) -> str:
    return games.get(name).title


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?", ")")) else text + "."


def _listing(moves: list[str]) -> str:
    if not moves:
        return "no move is open to you now"
    shown = ", ".join(moves[:MAX_LISTED_MOVES])
    more = len(moves) - MAX_LISTED_MOVES
    return shown + (f" (and {more} more)" if more > 0 else "")


def _status_reason(row: _Row) -> str:
    return {
        "challenge": f"match #{row.id} has not started: the challenge is still open",
        "finished": f"match #{row.id} is over",
        "declined": f"the challenge #{row.id} was declined",
        "cancelled": f"the challenge #{row.id} was cancelled",
        "aborted": f"match #{row.id} was aborted",
        "corrupt": (
            f"match #{row.id} has been set aside because its stored record is damaged; "
            "your other matches are not affected"
        ),
    }.get(row.status, f"match #{row.id} is {row.status}")


class MatchService:
    """The match service over one SQLite database (see ``open``).

    Concurrency: every change to a match runs under that match's lock: it reads the match,
    asks the engine, then writes the move, the new state (and, at the end, the result and
    ratings) atomically — one savepoint of a group-committed transaction — with an ``UPDATE``
    that also checks the version it read (optimistic), so a move is applied exactly once even
    if another process shares the file. It returns once that is committed. Matches are kept
    in a cache of read-back states, filled only under their lock and only with committed rows.
    """

    CACHE_SIZE = 20_000  # matches whose state is kept read back (a few kB each)

    def __init__(self, db: Database, now: Callable[[], datetime]) -> None:
        self._db = db
        self._now = now
        self._locks = _KeyedLocks()
        self._cache: OrderedDict[int, _Row] = OrderedDict()
        self._players: dict[int, PlayerRef] = {}
        self._clock_wakeup = asyncio.Event()
        self._clock_next: float | None = None

    # -- opening and closing --------------------------------------------------------------
    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        durable: bool = False,
        now: Callable[[], datetime] = utcnow,
    ) -> MatchService:
        """The service over the database at ``path``, created and migrated if needed.

        ``durable=True`` sets ``synchronous=FULL``: an acknowledged move then survives a
        power loss too, not only a killed process.
        """
        return cls(await Database.open(path, durable=durable), now)

    async def close(self) -> None:
        await self._db.close()

    @property
    def database(self) -> Database:
        return self._db

    def _ts(self) -> float:
        return self._now().timestamp()

    # -- players --------------------------------------------------------------------------
    def _remember(self, conn: sqlite3.Connection, *players: PlayerRef) -> None:
        """In a plan: store the players' names as last seen (unless already known)."""
        now = self._ts()
        for player in players:
            if self._players.get(player.user_id) == player:
                continue
            conn.execute(
                "INSERT INTO players (user_id, name, locale, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE"
                " SET name = excluded.name, locale = excluded.locale,"
                " updated_at = excluded.updated_at",
                (player.user_id, player.name, player.locale, now, now),
            )

    async def _ref(self, user_id: int) -> PlayerRef:
        ref = self._players.get(user_id)
        if ref is None:
            record = await self._db.fetchone(
                "SELECT user_id, name, locale FROM players WHERE user_id = ?", (user_id,)
            )
            if record is None:
                return PlayerRef(user_id, f"player {user_id}")
            ref = PlayerRef(record["user_id"], record["name"], record["locale"])
            self._players[user_id] = ref
        return ref

    async def player(self, user_id: int) -> PlayerRecord | None:
        record = await self._db.fetchone("SELECT * FROM players WHERE user_id = ?", (user_id,))
        if record is None:
            return None
        return PlayerRecord(
            user_id=record["user_id"],
            name=record["name"],
            locale=record["locale"],
            four_colour=bool(record["four_colour"]),
            dms_closed=bool(record["dms_closed"]),
        )

    async def _set_flag(self, user_id: int, column: str, value: bool) -> None:
        now = self._ts()

        def plan(conn: sqlite3.Connection) -> None:
            conn.execute(
                f"INSERT INTO players (user_id, name, {column}, created_at, updated_at)"
                f" VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE"
                f" SET {column} = excluded.{column}, updated_at = excluded.updated_at",
                (user_id, f"player {user_id}", int(value), now, now),
            )

        await self._db.transact(plan)

    async def set_preferences(self, user_id: int, *, four_colour: bool | None = None) -> None:
        if four_colour is not None:
            await self._set_flag(user_id, "four_colour", four_colour)

    async def set_dms_closed(self, user_id: int, closed: bool) -> None:
        await self._set_flag(user_id, "dms_closed", closed)

    # -- reading matches ------------------------------------------------------------------
    async def _fetch(self, match_id: int) -> _Row:
        """The committed match from the database (NotFound if none); a damaged one is set
        aside on the way and comes back with status "corrupt"."""
        record = await self._record(match_id)
        try:
            return _row_from_record(record)
        except _Unreadable as error:
            await self._set_aside(match_id, str(error))
        return _row_from_record(await self._record(match_id))

    async def _record(self, match_id: int) -> aiosqlite.Row:
        record = await self._db.fetchone("SELECT * FROM matches WHERE id = ?", (match_id,))
        if record is None:
            raise NotFound(f"there is no match #{match_id}")
        return record

    async def _peek(self, match_id: int) -> _Row:
        """The match for reading: from the cache, else read under its lock (only the lock's
        holder may fill the cache, so it never takes an older row than a writer left)."""
        row = self._cache.get(match_id)
        if row is not None:
            return row
        async with self._locks.hold(match_id):
            return await self._load(match_id)

    async def _load(self, match_id: int) -> _Row:
        """The match for changing it; the caller holds its lock."""
        row = self._cache.get(match_id)
        if row is None:
            row = await self._fetch(match_id)
            self._keep(row)
        else:
            self._cache.move_to_end(match_id)
        return row

    def _keep(self, row: _Row) -> None:
        self._cache[row.id] = row
        self._cache.move_to_end(row.id)
        while len(self._cache) > self.CACHE_SIZE:
            self._cache.popitem(last=False)

    async def _set_aside(self, match_id: int, problem: str) -> None:
        """Flag a damaged match so no one plays it and nothing else is held up by it."""
        log.error("match #%s set aside: %s", match_id, problem)
        self._cache.pop(match_id, None)
        now = self._ts()

        def plan(conn: sqlite3.Connection) -> None:
            conn.execute(
                "UPDATE matches SET status = 'corrupt', problem = ?, deadline = NULL,"
                " reminder_at = NULL, to_move_id = NULL, updated_at = ? WHERE id = ?",
                (problem[:500], now, match_id),
            )

        await self._db.transact(plan)

    async def _info(self, row: _Row) -> MatchInfo:
        challenger = await self._ref(row.challenger_id)
        opponent = None if row.opponent_id is None else await self._ref(row.opponent_id)
        seats = None
        if row.seat_ids is not None:
            seats = (await self._ref(row.seat_ids[0]), await self._ref(row.seat_ids[1]))
        return MatchInfo(
            id=row.id,
            game=row.game,
            status=row.status,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            thread_id=row.thread_id,
            challenger=challenger,
            opponent=opponent,
            seats=seats,
            options=dict(row.options),
            days_per_move=row.days_per_move,
            deadline=clocks.to_datetime(row.deadline),
            to_move=row.to_move_id,
            version=row.version,
            result=None if row.result is None else dict(row.result),
        )

    async def get(self, match_id: int) -> MatchInfo:
        return await self._info(await self._peek(match_id))

    async def match_in_thread(self, thread_id: int) -> MatchInfo | None:
        record = await self._db.fetchone(
            "SELECT id FROM matches WHERE thread_id = ? ORDER BY id DESC LIMIT 1", (thread_id,)
        )
        return None if record is None else await self.get(record["id"])

    async def matches_of(self, user_id: int, *, active_only: bool = True) -> list[MatchInfo]:
        """A player's matches: theirs to move first, then the most recently changed."""
        statuses = ACTIVE if active_only else (*ACTIVE, "finished", "aborted", "corrupt")
        marks = ", ".join("?" * len(statuses))
        records = await self._db.fetchall(
            f"SELECT id FROM matches WHERE id IN ("
            f" SELECT id FROM matches WHERE seat0_id = ? AND status IN ({marks})"
            f" UNION SELECT id FROM matches WHERE seat1_id = ? AND status IN ({marks})"
            f" UNION SELECT id FROM matches WHERE challenger_id = ? AND status IN ({marks})"
            f" UNION SELECT id FROM matches WHERE opponent_id = ? AND status IN ({marks}))"
            f" ORDER BY to_move_id = ? DESC, updated_at DESC, id DESC LIMIT 100",
            [x for _ in range(4) for x in (user_id, *statuses)] + [user_id],
        )
        infos = []
        for record in records:
            try:
                infos.append(await self.get(record["id"]))
            except MatchOver:
                continue  # set aside while we looked: the others go on
        return infos

    async def _started(self, match_id: int) -> tuple[_Row, State]:
        row = await self._peek(match_id)
        if row.state is None:
            raise MatchOver(_status_reason(row))
        return row, row.state

    async def view_for(self, match_id: int, user_id: int | None) -> Json:
        """The view of ``user_id`` if they play in the match, else the public view."""
        row, state = await self._started(match_id)
        return state.view(None if user_id is None else row.seat_of(user_id))

    async def legal_moves(self, match_id: int, user_id: int) -> list[str]:
        row = await self._peek(match_id)
        seat = row.seat_of(user_id)
        if row.status != "active" or row.state is None or seat is None:
            return []
        return row.state.legal_moves() if row.state.to_move == seat else []

    async def hand_delivery(self, match_id: int, user_id: int) -> Delivery:
        row, state = await self._started(match_id)
        seat = row.seat_of(user_id)
        if seat is None:
            raise NotAPlayer(f"you do not play in match #{match_id}, so you have no hand there")
        return await self._hand(row, state, seat)

    async def board_delivery(self, match_id: int) -> Delivery:
        row, state = await self._started(match_id)
        return await self._board(row, state)

    # -- deliveries -----------------------------------------------------------------------
    async def _names(self, row: _Row) -> tuple[str, str]:
        assert row.seat_ids is not None
        return (await self._ref(row.seat_ids[0])).name, (await self._ref(row.seat_ids[1])).name

    def _title(self, row: _Row) -> str:
        return f"{_game_title(row.game)} #{row.id}"

    async def _board(self, row: _Row, state: State) -> Delivery:
        """The public table: only ``view(None)``, and text made only from it."""
        view = state.view(None)
        names = await self._names(row)
        parts = [self._title(row)]
        last = view.get("last_move")
        if isinstance(last, dict) and last.get("seat") in (0, 1) and last.get("move"):
            parts.append(f"{names[last['seat']]}: {last['move']}")
        scores = view.get("scores") or [0, 0]
        parts.append(f"{names[0]} {scores[0]} – {scores[1]} {names[1]}")
        mention = None
        if row.status == "active" and state.to_move is not None:
            mention = row.seat_ids[state.to_move] if row.seat_ids else None
            parts.append(f"{names[state.to_move]} to play" + self._clock_text(row))
        elif row.result is not None:
            parts.append(self._result_text(row, names))
        return Delivery("board", row.id, None, " · ".join(parts), view, mention, names)

    async def _hand(self, row: _Row, state: State, seat: int) -> Delivery:
        """One player's hand: ``view(seat)``, and text made only from it."""
        assert row.seat_ids is not None
        view = state.view(seat)
        names = await self._names(row)
        opponent = names[1 - seat]
        parts = [f"{self._title(row)} against {opponent}"]
        last = view.get("last_move")
        if isinstance(last, dict) and last.get("seat") in (0, 1) and last.get("move"):
            who = "you" if last["seat"] == seat else opponent
            parts.append(f"last move, {who}: {last['move']}")
        if row.status != "active" or state.to_move is None:
            parts.append(_status_reason(row))
        elif state.to_move == seat:
            parts.append("your turn" + self._clock_text(row))
        else:
            parts.append(f"{opponent}'s turn")
        return Delivery("hand", row.id, row.seat_ids[seat], " · ".join(parts), view, None, names)

    def _clock_text(self, row: _Row) -> str:
        if row.deadline is None:
            return ""
        left = clocks.describe_left(row.deadline - self._ts())
        return f" (within {left}, by {clocks.format_deadline(row.deadline)})"

    def _result_text(self, row: _Row, names: tuple[str, str]) -> str:
        result = row.result or {}
        scores = result.get("scores") or [0, 0]
        score = f"{scores[0]} – {scores[1]}"
        winner = result.get("winner")
        how = result.get("how", "play")
        if winner not in (0, 1):
            return f"a draw, {score}"
        if how == "resignation":
            return f"{names[1 - winner]} resigned: {names[winner]} wins ({score})"
        if how == "time":
            return f"{names[1 - winner]} ran out of time: {names[winner]} wins ({score})"
        return f"{names[winner]} wins, {score}"

    async def _progress(self, row: _Row) -> list[Delivery]:
        """After a change in play: the board, then each player's hand."""
        assert row.state is not None
        return [
            await self._board(row, row.state),
            await self._hand(row, row.state, 0),
            await self._hand(row, row.state, 1),
        ]

    async def _ending(self, row: _Row, changes: list[ratings.Change]) -> list[Delivery]:
        assert row.state is not None
        names = await self._names(row)
        text = f"{self._title(row)} is over: {self._result_text(row, names)}."
        if changes:
            # The server's ratings where there is one, else everywhere.
            change = changes[-1]
            where = "on this server" if change.scope != ratings.GLOBAL_SCOPE else "overall"
            moved = ", ".join(
                f"{names[seat]} {change.after[seat].shown:.2f} "
                f"({change.after[seat].shown - change.before[seat].shown:+.2f})"
                for seat in (0, 1)
            )
            text += f" {_game_title(row.game)} ratings {where}: {moved}."
        return [
            Delivery("notice", row.id, None, text, names=names),
            await self._board(row, row.state),
        ]

    # -- challenges -----------------------------------------------------------------------
    async def challenge(
        self,
        challenger: PlayerRef,
        opponent: PlayerRef | None,
        game: str,
        *,
        guild_id: int | None,
        channel_id: int | None,
        options: Json | None = None,
        days_per_move: int | None = None,
        rated: bool = True,
        rematch_of: int | None = None,
    ) -> tuple[MatchInfo, list[Delivery]]:
        """Challenge ``opponent``, or anyone when it is None (an open challenge).

        ``rated=False`` keeps the match out of ratings (the local sandbox's practice games).
        """
        try:
            rules = games.get(game)
        except KeyError:
            raise Refused(
                f"there is no game called {game!r}; the games are {', '.join(games.names())}"
            ) from None
        try:
            rules.check_options(options)
            days = clocks.check_days(days_per_move)
        except ValueError as error:
            raise Refused(f"{error}.") from None
        if opponent is not None and opponent.user_id == challenger.user_id:
            raise Refused("you cannot challenge yourself: name another player, or anyone")
        now = self._ts()

        def plan(conn: sqlite3.Connection) -> int | None:
            self._remember(conn, challenger, *([opponent] if opponent else []))
            cursor = conn.execute(
                "INSERT INTO matches (game, guild_id, channel_id, challenger_id, opponent_id,"
                " options, status, days_per_move, rated, rematch_of, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, 'challenge', ?, ?, ?, ?, ?)",
                (
                    rules.name,
                    guild_id,
                    channel_id,
                    challenger.user_id,
                    None if opponent is None else opponent.user_id,
                    _dumps(dict(options or {})),
                    days,
                    int(rated),
                    rematch_of,
                    now,
                    now,
                ),
            )
            return cursor.lastrowid

        match_id = await self._db.transact(plan)
        self._note_players(challenger, opponent)
        assert match_id is not None
        info = await self.get(match_id)
        terms = self._terms(rules.title, options or {}, days)
        if opponent is None:
            text = (
                f"{challenger.name} offers a game of {terms} to anyone "
                f"(match #{match_id}): accept it to play."
            )
        else:
            text = (
                f"{challenger.name} challenges {opponent.name} to {terms} "
                f"(match #{match_id}): {opponent.name}, accept or decline."
            )
        mention = None if opponent is None else opponent.user_id
        return info, [Delivery("notice", match_id, None, text, mention=mention)]

    def _note_players(self, *players: PlayerRef | None) -> None:
        for player in players:
            if player is not None:
                self._players[player.user_id] = player

    @staticmethod
    def _terms(title: str, options: Json, days: int | None) -> str:
        extra = [f"{name} {value}" for name, value in sorted(options.items())]
        extra.append(f"{days} day{'s' if days != 1 else ''} per move" if days else "no clock")
        return f"{title} ({', '.join(extra)})"

    async def _challenge_row(self, match_id: int) -> _Row:
        row = await self._load(match_id)
        if row.status != "challenge":
            raise MatchOver(
                f"match #{match_id} is no longer an open challenge ({_status_reason(row)})"
                if row.status != "active"
                else f"match #{match_id} has already started"
            )
        return row

    async def accept(self, match_id: int, user: PlayerRef) -> tuple[MatchInfo, list[Delivery]]:
        """Accept a challenge: the match starts at once, dealt from a fresh random seed."""
        async with self._locks.hold(match_id):
            row = await self._challenge_row(match_id)
            if user.user_id == row.challenger_id:
                raise Refused("you cannot accept your own challenge (you may cancel it)")
            if row.opponent_id is not None and row.opponent_id != user.user_id:
                challenged = await self._ref(row.opponent_id)
                raise NotAPlayer(f"this challenge is for {challenged.name}, not for you")
            seed = fresh_seed()
            state = games.get(row.game).new_match(seed=seed, options=row.options)
            seats = (row.challenger_id, user.user_id)
            now = self._ts()
            deadline, reminder = clocks.deadline_after(now, row.days_per_move)
            to_move = None if state.to_move is None else seats[state.to_move]
            state_json = state.to_json()

            def plan(conn: sqlite3.Connection) -> None:
                self._remember(conn, user)
                cursor = conn.execute(
                    "UPDATE matches SET status = 'active', opponent_id = ?, seat0_id = ?,"
                    " seat1_id = ?, seed = ?, state = ?, version = 0, to_move_id = ?,"
                    " deadline = ?, reminder_at = ?, updated_at = ?"
                    " WHERE id = ? AND status = 'challenge'",
                    (
                        user.user_id,
                        *seats,
                        seed,
                        state_json,
                        to_move,
                        deadline,
                        reminder,
                        now,
                        match_id,
                    ),
                )
                _expect_one(cursor)

            await self._write(match_id, plan)
            self._note_players(user)
            row = replace(
                row,
                status="active",
                opponent_id=user.user_id,
                seat_ids=seats,
                seed=seed,
                state=state,
                version=0,
                to_move_id=to_move,
                deadline=deadline,
                reminder_at=reminder,
            )
            self._keep(row)
        self._clock_changed(reminder)
        names = await self._names(row)
        starter = "" if state.to_move is None else f" {names[state.to_move]} plays first."
        text = (
            f"{user.name} accepts: {_game_title(row.game)}, {names[0]} against {names[1]} "
            f"(match #{row.id}).{starter}"
        )
        notice = Delivery("notice", row.id, None, text, mention=row.challenger_id, names=names)
        return await self._info(row), [notice, *await self._progress(row)]

    async def _write(self, match_id: int, plan: Callable[[sqlite3.Connection], T]) -> T:
        """Commit ``plan``, a change to one match; Conflict if the match changed under us."""
        try:
            return await self._db.transact(plan)
        except _Stale:
            self._cache.pop(match_id, None)
            raise Conflict(
                f"match #{match_id} changed meanwhile: look at it again and retry"
            ) from None

    async def _close_challenge(
        self, match_id: int, user_id: int, status: str
    ) -> tuple[MatchInfo, list[Delivery]]:
        async with self._locks.hold(match_id):
            row = await self._challenge_row(match_id)
            if status == "declined":
                if row.opponent_id is None:
                    raise NotAPlayer("an open challenge cannot be declined: leave it, or accept it")
                if user_id != row.opponent_id:
                    raise NotAPlayer("only the player challenged can decline this challenge")
            elif user_id != row.challenger_id:
                raise NotAPlayer("only the player who made this challenge can cancel it")
            now = self._ts()

            def plan(conn: sqlite3.Connection) -> None:
                cursor = conn.execute(
                    "UPDATE matches SET status = ?, updated_at = ?"
                    " WHERE id = ? AND status = 'challenge'",
                    (status, now, match_id),
                )
                _expect_one(cursor)

            await self._write(match_id, plan)
            row = replace(row, status=status)
            self._keep(row)
        who = (await self._ref(user_id)).name
        verb = "declines" if status == "declined" else "cancels"
        text = f"{who} {verb} the challenge #{match_id} ({_game_title(row.game)})."
        return await self._info(row), [Delivery("notice", match_id, None, text)]

    async def decline(self, match_id: int, user_id: int) -> tuple[MatchInfo, list[Delivery]]:
        return await self._close_challenge(match_id, user_id, "declined")

    async def cancel(self, match_id: int, user_id: int) -> tuple[MatchInfo, list[Delivery]]:
        return await self._close_challenge(match_id, user_id, "cancelled")

    async def set_thread(self, match_id: int, thread_id: int) -> None:
        async with self._locks.hold(match_id):
            row = await self._load(match_id)
            now = self._ts()

            def plan(conn: sqlite3.Connection) -> None:
                conn.execute(
                    "UPDATE matches SET thread_id = ?, updated_at = ? WHERE id = ?",
                    (thread_id, now, match_id),
                )

            await self._write(match_id, plan)
            self._keep(replace(row, thread_id=thread_id))

    async def rematch(self, match_id: int, user: PlayerRef) -> tuple[MatchInfo, list[Delivery]]:
        """Ask the same opponent for another match on the same terms; if they asked first,
        this accepts their rematch."""
        row = await self._peek(match_id)
        seat = row.seat_of(user.user_id)
        if seat is None or row.seat_ids is None:
            raise NotAPlayer(f"you did not play match #{match_id}, so you cannot ask a rematch")
        if row.status != "finished":
            raise Refused(f"a rematch follows a finished match, and {_status_reason(row)}")
        pending = await self._db.fetchone(
            "SELECT id, challenger_id FROM matches WHERE rematch_of = ? AND status = 'challenge'"
            " ORDER BY id DESC LIMIT 1",
            (match_id,),
        )
        if pending is not None:
            if pending["challenger_id"] == user.user_id:
                raise Refused(
                    f"you have already asked for a rematch (match #{pending['id']}): "
                    "waiting for your opponent"
                )
            return await self.accept(pending["id"], user)
        opponent = await self._ref(row.seat_ids[1 - seat])
        return await self.challenge(
            user,
            opponent,
            row.game,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            options=row.options,
            days_per_move=row.days_per_move,
            rated=row.rated,
            rematch_of=row.id,
        )

    # -- play -----------------------------------------------------------------------------
    def _playing(self, row: _Row, user_id: int) -> tuple[int, State]:
        """The seat of ``user_id`` in an active match; NotAPlayer or MatchOver otherwise."""
        seat = row.seat_of(user_id)
        if seat is None:
            if row.status == "challenge":
                raise MatchOver(_status_reason(row))
            raise NotAPlayer(f"you do not play in match #{row.id}")
        if row.status != "active" or row.state is None or row.state.to_move is None:
            raise MatchOver(_status_reason(row))
        return seat, row.state

    async def move(
        self,
        match_id: int,
        user_id: int,
        move: str,
        *,
        expected_version: int | None = None,
    ) -> tuple[MatchInfo, list[Delivery]]:
        """Play ``move`` for ``user_id``: stored with the new state in one transaction.

        ``expected_version`` (the version a button was drawn at) refuses a stale move with
        Conflict instead of applying it to a position the player did not see.
        """
        async with self._locks.hold(match_id):
            row = await self._load(match_id)
            seat, state = self._playing(row, user_id)
            if state.to_move != seat:
                opponent = await self._ref(row.seat_ids[1 - seat]) if row.seat_ids else None
                who = opponent.name if opponent else "your opponent"
                raise NotYourTurn(f"it is {who}'s turn in match #{match_id}, not yours")
            if expected_version is not None and expected_version != row.version:
                raise Conflict(
                    f"match #{match_id} has moved on since that was shown: look at it again"
                )
            try:
                after = state.apply(move)
                canonical = state.canonical(move)
            except ValueError as error:
                raise Refused(
                    f"{_sentence(str(error))} Moves open to you: {_listing(state.legal_moves())}."
                ) from None
            row, changes = await self._store_move(row, seat, user_id, canonical, after)
        self._clock_changed(row.reminder_at)
        info = await self._info(row)
        if row.status == "finished":
            return info, await self._ending(row, changes)
        return info, await self._progress(row)

    async def _store_move(
        self, row: _Row, seat: int, user_id: int, move: str, after: State
    ) -> tuple[_Row, list[ratings.Change]]:
        assert row.seat_ids is not None
        now = self._ts()
        result = after.result
        finished = result is not None or after.to_move is None
        if finished:
            result = {**(result or {}), "how": "play"}
            deadline = reminder = to_move = None
        else:
            deadline, reminder = clocks.deadline_after(now, row.days_per_move)
            to_move = row.seat_ids[after.to_move] if after.to_move is not None else None
        version = row.version + 1
        before = row
        row = replace(
            row,
            version=version,
            state=after,
            status="finished" if finished else "active",
            to_move_id=to_move,
            deadline=deadline,
            reminder_at=reminder,
            result=result,
        )
        state_json = after.to_json()
        ended = row

        def plan(conn: sqlite3.Connection) -> list[ratings.Change]:
            cursor = conn.execute(
                "UPDATE matches SET version = ?, state = ?, status = ?, to_move_id = ?,"
                " deadline = ?, reminder_at = ?, result = ?, updated_at = ?"
                " WHERE id = ? AND version = ? AND status = 'active'",
                (
                    version,
                    state_json,
                    ended.status,
                    to_move,
                    deadline,
                    reminder,
                    None if result is None else _dumps(result),
                    now,
                    ended.id,
                    before.version,
                ),
            )
            _expect_one(cursor)
            conn.execute(
                "INSERT INTO moves (match_id, ply, seat, user_id, move, at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (ended.id, version, seat, user_id, move, now),
            )
            return _record_result(conn, ended, "play", now) if finished else []

        changes = await self._write(row.id, plan)
        self._keep(row)
        return row, changes

    async def _end(
        self, row: _Row, winner: int, how: str, extra: Json
    ) -> tuple[_Row, list[ratings.Change]]:
        """End an active match without a move (a resignation, a loss on time)."""
        assert row.state is not None
        now = self._ts()
        result = {"winner": winner, "scores": list(row.state.scores), "how": how, **extra}
        before = row
        row = replace(
            row, status="finished", result=result, to_move_id=None, deadline=None, reminder_at=None
        )
        ended = row

        def plan(conn: sqlite3.Connection) -> list[ratings.Change]:
            cursor = conn.execute(
                "UPDATE matches SET status = 'finished', result = ?, to_move_id = NULL,"
                " deadline = NULL, reminder_at = NULL, updated_at = ?"
                " WHERE id = ? AND version = ? AND status = 'active'",
                (_dumps(result), now, ended.id, before.version),
            )
            _expect_one(cursor)
            return _record_result(conn, ended, how, now)

        changes = await self._write(row.id, plan)
        self._keep(row)
        return row, changes

    async def resign(self, match_id: int, user_id: int) -> tuple[MatchInfo, list[Delivery]]:
        async with self._locks.hold(match_id):
            row = await self._load(match_id)
            seat, _ = self._playing(row, user_id)
            row, changes = await self._end(row, 1 - seat, "resignation", {"resigned": seat})
        assert row.seat_ids is not None
        names = await self._names(row)
        dm = Delivery(
            "dm",
            row.id,
            row.seat_ids[1 - seat],
            f"{names[seat]} resigned {self._title(row)}: you win.",
            names=names,
        )
        return await self._info(row), [*await self._ending(row, changes), dm]

    async def abort(self, match_id: int, user_id: int) -> tuple[MatchInfo, list[Delivery]]:
        """Call a match off before its first move: no result, no rating."""
        async with self._locks.hold(match_id):
            row = await self._load(match_id)
            seat, _ = self._playing(row, user_id)
            if row.version > 0:
                raise Refused(
                    f"match #{match_id} has begun ({row.version} move"
                    f"{'s' if row.version != 1 else ''} played): it can no longer be aborted, "
                    "but you may resign"
                )
            now = self._ts()

            def plan(conn: sqlite3.Connection) -> None:
                cursor = conn.execute(
                    "UPDATE matches SET status = 'aborted', to_move_id = NULL, deadline = NULL,"
                    " reminder_at = NULL, updated_at = ?"
                    " WHERE id = ? AND version = 0 AND status = 'active'",
                    (now, match_id),
                )
                _expect_one(cursor)

            await self._write(match_id, plan)
            row = replace(row, status="aborted", to_move_id=None, deadline=None, reminder_at=None)
            self._keep(row)
        assert row.seat_ids is not None
        names = await self._names(row)
        text = f"{names[seat]} aborted {self._title(row)} before the first move; it is not rated."
        dm = Delivery("dm", row.id, row.seat_ids[1 - seat], text, names=names)
        return await self._info(row), [Delivery("notice", row.id, None, text, names=names), dm]

    # -- results and ratings --------------------------------------------------------------
    async def leaderboard(self, game: str, guild_id: int | None, limit: int = 10) -> list[Standing]:
        """The best ``limit`` players of ``game`` on a server (``guild_id``) or everywhere."""
        name = self._game_name(game)
        scope = ratings.GLOBAL_SCOPE if guild_id is None else guild_id
        records = await self._db.fetchall(
            "SELECT r.*, p.name FROM ratings r JOIN players p USING (user_id)"
            " WHERE r.game = ? AND r.scope = ? ORDER BY r.rating DESC, r.games DESC, r.user_id"
            " LIMIT ?",
            (name, scope, max(1, min(limit, 100))),
        )
        return [
            Standing(
                rank=rank,
                user_id=record["user_id"],
                name=record["name"],
                rating=record["rating"],
                games=record["games"],
                wins=record["wins"],
                losses=record["losses"],
                draws=record["draws"],
            )
            for rank, record in enumerate(records, 1)
        ]

    @staticmethod
    def _game_name(game: str) -> str:
        try:
            return games.get(game).name
        except KeyError:
            raise NotFound(
                f"there is no game called {game!r}; the games are {', '.join(games.names())}"
            ) from None

    async def stats(
        self, user_id: int, game: str | None = None, guild_id: int | None = None
    ) -> PlayerStats:
        """A player's record in one game (with rating and rank) or in all games together."""
        scope = ratings.GLOBAL_SCOPE if guild_id is None else guild_id
        name = (await self._ref(user_id)).name
        game_name = None if game is None else self._game_name(game)
        records = await self._db.fetchall(
            "SELECT * FROM ratings WHERE user_id = ? AND scope = ?"
            + ("" if game_name is None else " AND game = ?"),
            (user_id, scope) if game_name is None else (user_id, scope, game_name),
        )
        total = {
            key: sum(record[key] for record in records)
            for key in (
                "games",
                "wins",
                "losses",
                "draws",
                "losses_on_time",
                "resignations",
                "wins_on_time",
                "wins_by_resignation",
            )
        }
        rating = rank = None
        if game_name is not None and records:
            rating = records[0]["rating"]
            above = await self._db.fetchone(
                "SELECT COUNT(*) FROM ratings WHERE game = ? AND scope = ? AND rating > ?",
                (game_name, scope, rating),
            )
            rank = 1 + (above[0] if above else 0)
            streak = records[0]["streak"]
        else:
            streak = await self._streak(user_id, guild_id)
        return PlayerStats(
            user_id=user_id,
            name=name,
            game=game_name,
            guild_id=guild_id,
            rating=rating,
            rank=rank,
            streak=streak,
            **total,
        )

    async def _streak(self, user_id: int, guild_id: int | None) -> int:
        """The current streak over every game, from the latest rated results."""
        records = await self._db.fetchall(
            "SELECT r.winner_seat, r.seat0_id FROM results r JOIN matches m ON m.id = r.match_id"
            " WHERE (r.seat0_id = ? OR r.seat1_id = ?) AND m.rated = 1"
            + ("" if guild_id is None else " AND r.guild_id = ?")
            + " ORDER BY r.finished_at DESC, r.match_id DESC LIMIT 500",
            (user_id, user_id) if guild_id is None else (user_id, user_id, guild_id),
        )
        streak = 0
        for record in records:
            if record["winner_seat"] is None:
                break
            won = (record["winner_seat"] == 0) == (record["seat0_id"] == user_id)
            if streak == 0:
                streak = 1 if won else -1
            elif (streak > 0) == won:
                streak += 1 if won else -1
            else:
                break
        return streak

    # -- clocks ---------------------------------------------------------------------------
    def _clock_changed(self, when: float | None) -> None:
        """Wake the clock task if a turn now needs attention sooner than it planned."""
        if when is not None and (self._clock_next is None or when < self._clock_next):
            self._clock_wakeup.set()

    @property
    def clock_next(self) -> float | None:
        """When the clock task plans to look next (unix seconds), None if at rest."""
        return self._clock_next

    def wake_clocks(self) -> None:
        """Make the clock task look again now (after the injected clock moved, in tests)."""
        self._clock_wakeup.set()

    async def next_clock_event(self) -> float | None:
        """The earliest pending reminder or deadline (unix seconds), None if none."""
        record = await self._db.fetchone(
            "SELECT MIN(t) FROM (SELECT MIN(reminder_at) AS t FROM matches"
            " WHERE status = 'active' AND reminder_at IS NOT NULL"
            " UNION ALL SELECT MIN(deadline) FROM matches"
            " WHERE status = 'active' AND deadline IS NOT NULL)"
        )
        return None if record is None or record[0] is None else float(record[0])

    async def check_clocks(self) -> list[Delivery]:
        """Send due reminders and end the matches whose deadline has passed; what to deliver.

        A match whose clock cannot be handled (a damaged record, an engine error) is set
        aside and the others go on; a database error is left for the next pass.
        """
        now = self._ts()
        records = await self._db.fetchall(
            "SELECT id FROM matches WHERE status = 'active' AND deadline <= ?"
            " UNION SELECT id FROM matches WHERE status = 'active' AND reminder_at <= ?",
            (now, now),
        )
        deliveries: list[Delivery] = []
        for record in records:
            with logs.about_match(record["id"]):  # every line about this clock names the match
                try:
                    deliveries += await self._check_clock(record["id"], now)
                except ServiceError as error:
                    log.warning("clock of match #%s: %s", record["id"], error)
                except sqlite3.Error:
                    raise
                except Exception as error:
                    log.exception("clock of match #%s failed", record["id"])
                    await self._set_aside(record["id"], f"its clock failed: {error!r}")
        return deliveries

    async def _check_clock(self, match_id: int, now: float) -> list[Delivery]:
        async with self._locks.hold(match_id):
            row = await self._load(match_id)
            if row.status != "active" or row.state is None or row.seat_ids is None:
                return []
            to_move = row.state.to_move
            if to_move is None:
                return []
            if row.deadline is not None and row.deadline <= now:
                row, changes = await self._end(row, 1 - to_move, "time", {"timed_out": to_move})
                ended = True
            elif row.reminder_at is not None and row.reminder_at <= now:
                version = row.version

                def plan(conn: sqlite3.Connection) -> None:
                    cursor = conn.execute(
                        "UPDATE matches SET reminder_at = NULL"
                        " WHERE id = ? AND version = ? AND status = 'active'",
                        (match_id, version),
                    )
                    _expect_one(cursor)

                await self._write(match_id, plan)
                row = replace(row, reminder_at=None)
                self._keep(row)
                ended = False
            else:
                return []
        names = await self._names(row)
        seat_ids = row.seat_ids
        assert seat_ids is not None
        if ended:
            loser = seat_ids[to_move]
            dm = Delivery(
                "dm",
                row.id,
                loser,
                f"You ran out of time in {self._title(row)}: {names[1 - to_move]} wins.",
                names=names,
            )
            return [*await self._ending(row, changes), dm]
        assert row.deadline is not None
        text = (
            f"Reminder: it is your turn in {self._title(row)} against {names[1 - to_move]}. "
            f"Move within {clocks.describe_left(row.deadline - now)} "
            f"(by {clocks.format_deadline(row.deadline)}) or you lose on time."
        )
        return [Delivery("dm", row.id, seat_ids[to_move], text, names=names)]

    async def run_clocks(self, deliver: Callable[[list[Delivery]], Awaitable[None]]) -> None:
        """The one clock task: sleep to the earliest reminder or deadline, act, repeat.

        At start it first catches up with everything that fell due while nothing ran. A
        sooner deadline (a new move) wakes it. Cancel the task to stop it.
        """
        while True:
            self._clock_wakeup.clear()
            try:
                deliveries = await self.check_clocks()
                due = await self.next_clock_event()
            except Exception:
                log.exception("the clock task failed; it tries again in a minute")
                deliveries, due = [], self._ts() + clocks.RETRY_AFTER
            if deliveries:
                try:
                    await deliver(deliveries)
                except Exception:  # the adapter's trouble must not stop the clocks
                    log.exception("delivering %d clock message(s) failed", len(deliveries))
            self._clock_next = due
            delay = clocks.MAX_SLEEP if due is None else due - self._ts()
            # Something still due right after a pass could not be handled: do not spin.
            delay = min(max(delay, clocks.MIN_SLEEP), clocks.MAX_SLEEP)
            with suppress(TimeoutError):
                await asyncio.wait_for(self._clock_wakeup.wait(), timeout=delay)

    # -- integrity ------------------------------------------------------------------------
    async def verify(self, match_id: int) -> bool:
        """Replay the match's move log from its seed and compare with the stored state.

        A match that does not verify is set aside (status "corrupt"); False then.
        """
        async with self._locks.hold(match_id):
            record = await self._db.fetchone("SELECT * FROM matches WHERE id = ?", (match_id,))
            if record is None:
                raise NotFound(f"there is no match #{match_id}")
            if record["status"] == "corrupt":
                return False
            problem = await self._replay_problem(record)
            if problem is None:
                return True
            await self._set_aside(match_id, problem)
            return False

    async def _replay_problem(self, record: aiosqlite.Row) -> str | None:
        """What is wrong with a stored match, or None if its log gives its state exactly."""
        moves = await self._db.fetchall(
            "SELECT ply, move FROM moves WHERE match_id = ? ORDER BY ply", (record["id"],)
        )
        if record["state"] is None:
            return "moves stored for a match that never started" if moves else None
        try:
            game = games.get(record["game"])
            state = game.new_match(seed=record["seed"], options=json.loads(record["options"]))
        except (KeyError, ValueError, TypeError) as error:
            return f"cannot deal the match again: {error}"
        for expected, move in enumerate(moves, 1):
            if move["ply"] != expected:
                return f"the move log skips from ply {expected - 1} to {move['ply']}"
            try:
                state = state.apply(move["move"])
            except ValueError as error:
                return f"ply {expected} ({move['move']!r}) is refused on replay: {error}"
        if len(moves) != record["version"]:
            return f"version {record['version']} but {len(moves)} moves in the log"
        if state.to_json() != record["state"]:
            return "the stored state differs from the replayed one"
        return None

    async def verify_all(self, *, active_only: bool = False) -> list[int]:
        """Verify every match (or every active one); the ids of those set aside."""
        where = "status = 'active'" if active_only else "status NOT IN ('corrupt', 'challenge')"
        records = await self._db.fetchall(f"SELECT id FROM matches WHERE {where} ORDER BY id")
        bad = []
        for record in records:
            if not await self.verify(record["id"]):
                bad.append(record["id"])
        return bad


def _record_result(
    conn: sqlite3.Connection, row: _Row, how: str, now: float
) -> list[ratings.Change]:
    """Write how the match ended, and update both players' ratings, in ``conn``'s
    transaction (the one that ends the match)."""
    assert row.seat_ids is not None and row.result is not None
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
            _dumps(row.result.get("scores")),
            now,
        ),
    )
    if not row.rated:
        return []
    return ratings.record(conn, row.game, row.guild_id, row.seat_ids, winner, how, now)
