"""The match store: matches and players as stored, read back, cached, and saved.

Every change to a match goes through :meth:`MatchStore.change`: under the match's lock it
loads the match (and everyone it speaks of), lets the caller decide the new row, and saves
it with :meth:`MatchStore.save`, the one ``UPDATE matches`` that writes the columns that
changed under the version check. The cache of read-back matches is filled only under a
match's lock and only with committed rows, so it never holds an older row than a writer left.

The verbs, each with one meaning: ``read`` a match from the database, ``peek`` at it for
reading (cache first), ``load`` it for changing it (its lock held), ``save`` a change.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import math
import os
import secrets
import socket
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import datetime
from operator import attrgetter
from typing import Any, Literal, TypeVar

import orjson

import games
from bot.process import metrics
from bot.service.values import (
    Change,
    Changed,
    Conflict,
    Delivery,
    Ending,
    Json,
    MatchRow,
    NotFound,
    People,
    PlayerProfile,
    PlayerRef,
)
from bot.storage.sql import Connection, Database, Row
from games import State
from games.words import N_

T = TypeVar("T")
log = logging.getLogger("tapis.service")

# SQLite stores integers in 64 signed bits: a larger id (typed, or forged in a button's
# custom id) cannot name any match, and binding it raises OverflowError. It is answered
# like any unknown id instead.
MAX_ID = 2**63 - 1


def unknown_match(match_id: int) -> NotFound:
    """The one answer for a match that does not exist *or* must not be seen from here."""
    return NotFound(N_("There is no match #{id}. `/matches` lists yours."), id=match_id)


# A match as read: its row, and its alarm from the side table of clocks (none: NULL).
SELECT_MATCHES = (
    "SELECT m.*, c.deadline AS alarm_deadline, c.reminder_at AS alarm_reminder"
    " FROM matches m LEFT JOIN clocks c ON c.match_id = m.id"
)


def storable_id(value: object) -> bool:
    """Whether ``value`` can be an id stored in SQLite (a positive 64-bit integer)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value <= MAX_ID


def dumps(data: object) -> str:
    """JSON as stored: compact and with sorted keys, so equal data is stored equal."""
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


def _said_ahead(row: MatchRow) -> None:
    """Work out now what a row's next move compares with (the last deal's breakdown, from
    the public view), so that the first move after a start costs no more than the others.
    A state whose view fails is left alone: its first use sets the match aside."""
    try:
        row.deal_said  # noqa: B018 (a cached property: reading it keeps it)
    except Exception:
        log.debug("match %s: no breakdown worked out ahead", row.id)


class Unreadable(Exception):
    """A stored match that cannot be read back; it will be set aside."""


class _Stale(Exception):
    """In a plan: the match is not as read (another process changed it); nothing written."""


# The words a change owes, made from what it decided: a list of deliveries made on the event
# loop before the writer sees the change, or (an ending's, which name its rating changes)
# an ``Ending`` made inside its transaction.
Words = Callable[[Changed[T]], "list[Delivery] | Ending[T]"]


def outbox_text(delivery: Delivery) -> str:
    """An outbox row's text: ``delivery.to_json()`` as JSON, written by orjson straight from
    the dataclass, with no copy of its views made first. Rows are only read back, never
    compared, so keys are not sorted; keys that are not strings are written as strings, as
    the standard encoder writes them."""
    if delivery.owed is not None:  # a hand not worded yet: what to word it from
        return orjson.dumps(delivery.owed_json(), option=orjson.OPT_NON_STR_KEYS).decode()
    return orjson.dumps(delivery, option=orjson.OPT_NON_STR_KEYS).decode()


# A delivery ready for the outbox: its JSON made before the transaction, so that the
# writer (the one thread every change waits for) only inserts text.
Encoded = tuple[int, str]


def encode(deliveries: list[Delivery]) -> list[Encoded]:
    """The outbox rows of ``deliveries``: made off the writer's thread."""
    return [(delivery.match_id, outbox_text(delivery)) for delivery in deliveries]


def post(conn: Connection, rows: list[Encoded], now: float) -> list[int]:
    """In a plan: store encoded deliveries in the outbox; their row ids, in order."""
    ids = []
    for match_id, text in rows:
        cursor = conn.execute(
            "INSERT INTO outbox (match_id, delivery, created_at) VALUES (?, ?, ?)",
            (match_id, text, now),
        )
        assert cursor.lastrowid is not None
        ids.append(cursor.lastrowid)
    return ids


def posted(deliveries: list[Delivery], ids: list[int]) -> list[Delivery]:
    """After the commit: each delivery with its outbox row id."""
    return [delivery.posted(outbox_id) for delivery, outbox_id in zip(deliveries, ids, strict=True)]


class StateTexts:
    """Each match's latest state with the text it is stored as, for the latest few matches:
    a match read back with that very text has that state (states are immutable, so it is
    shared), not parsed again.

    On a database other processes share, a match is read afresh for every use (see
    ``MatchStore``), and making its state from the text was most of a move's processor
    time; the text itself is the proof that nobody changed it meanwhile.
    """

    def __init__(self, size: int) -> None:
        self._size = size
        self._states: OrderedDict[int, tuple[str, State]] = OrderedDict()

    def get(self, match_id: int, text: str) -> State | None:
        known = self._states.get(match_id)
        if known is None or known[0] != text:
            return None
        self._states.move_to_end(match_id)
        return known[1]

    def keep(self, match_id: int, text: str, state: State) -> None:
        self._states[match_id] = (text, state)
        self._states.move_to_end(match_id)
        while len(self._states) > self._size:
            self._states.popitem(last=False)


def row_from_stored(stored: Row, known: StateTexts | None = None) -> MatchRow:
    """Read a ``matches`` row back, its state included; Unreadable if it is damaged.

    A match already set aside is read leniently, without its state, so it can still be
    listed and shown as set aside. ``known``: states already made from their text.
    """
    if stored["status"] == "corrupt":
        return _row_fields(
            stored, str(stored["game"]), _loads_or(stored["options"], {}), None, None
        )
    # Anything may be wrong in a damaged row: JSON nested past the recursion limit, a text
    # where a number belongs, an engine's own assertion on a state it never made. Whatever
    # it is, this one match is set aside and the caller's other matches go on.
    try:
        problem = _column_problem(stored)
        if problem is not None:
            raise Unreadable(problem)
        game = games.get(stored["game"])
        options = json.loads(stored["options"])
        if not isinstance(options, dict):
            raise ValueError("options are not a mapping")
        result = None if stored["result"] is None else json.loads(stored["result"])
        if result is not None and not isinstance(result, dict):
            raise ValueError("the result is not a mapping")
        text = stored["state"]
        state = None if text is None or known is None else known.get(stored["id"], text)
        if state is None and text is not None:
            state = game.from_json(text)
            if known is not None:
                known.keep(stored["id"], text, state)
    except Unreadable:
        raise
    except Exception as error:  # see above: any damage sets the match aside
        raise Unreadable(str(error)[:200] or type(error).__name__) from error
    if stored["status"] == "active" and state is None:
        raise Unreadable("an active match without a state")
    return _row_fields(stored, game.name, options, result, state)


_NUMBERS = ("deadline", "reminder_at", "alarm_deadline", "alarm_reminder")
_IDS: tuple[str, ...] = ("guild_id", "channel_id", "thread_id", "opponent_id", "seat0_id")
_IDS += ("seat1_id", "to_move_id", "rematch_of", "seed", "days_per_move")


def _column_problem(stored: Row) -> str | None:
    """What is wrong with the plain columns of a stored match, or None.

    SQLite keeps whatever type it is given in a column, so a row written by hand (or by a
    faulty tool) can hold text where a time or an id belongs; each is checked before use.
    """
    keys = stored.keys()
    for name in _NUMBERS:
        value = stored[name] if name in keys else None
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
            return f"its {name} is not a number"
    for name in ("challenger_id", "version"):
        if not isinstance(stored[name], int):
            return f"its {name} is not an integer"
    for name in _IDS:
        if stored[name] is not None and not isinstance(stored[name], int):
            return f"its {name} is not an integer"
    seats = (stored["seat0_id"], stored["seat1_id"])
    if stored["status"] in ("active", "finished") and None in seats:
        return "a started match with a seat missing"
    return None


def _loads_or(text: str | None, default: Any) -> Any:
    try:
        return default if text is None else json.loads(text)
    except (ValueError, TypeError, RecursionError):
        return default


def _number_or_none(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _id_or_none(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _row_fields(
    stored: Row, game: str, options: Json, result: Json | None, state: State | None
) -> MatchRow:
    # Checked already for a readable row; for one set aside, a damaged column reads as empty.
    seat0, seat1 = _id_or_none(stored["seat0_id"]), _id_or_none(stored["seat1_id"])
    return MatchRow(
        id=stored["id"],
        game=game,
        guild_id=_id_or_none(stored["guild_id"]),
        channel_id=_id_or_none(stored["channel_id"]),
        thread_id=_id_or_none(stored["thread_id"]),
        challenger_id=_id_or_none(stored["challenger_id"]) or 0,
        opponent_id=_id_or_none(stored["opponent_id"]),
        seat_ids=None if seat0 is None or seat1 is None else (seat0, seat1),
        options=options if isinstance(options, dict) else {},
        seed=_id_or_none(stored["seed"]),
        status=stored["status"],
        version=_id_or_none(stored["version"]) or 0,
        state=state,
        to_move_id=_id_or_none(stored["to_move_id"]),
        days_per_move=_id_or_none(stored["days_per_move"]),
        deadline=_number_or_none(stored["deadline"]),
        reminder_at=_number_or_none(stored["reminder_at"]),
        result=result,
        rematch_of=stored["rematch_of"],
        rated=bool(stored["rated"]),
        alarm=_alarm(stored),
        talk=_talks(stored),
    )


def _talks(stored: Row) -> bool:
    """Whether the match lives in a conversation (``Place.talk``); a row's keys, not its
    values, are what ``in`` must look at (``in`` on a row looks at its values)."""
    keys = stored.keys()
    return "talk" in keys and stored["talk"] == 1


def _alarm(stored: Row) -> tuple[float | None, float | None] | None:
    """The row of clocks read with a match (None if it has none)."""
    keys = stored.keys()
    if "alarm_deadline" not in keys:  # read without its clocks (a row set aside)
        return None
    deadline, reminder = stored["alarm_deadline"], stored["alarm_reminder"]
    if deadline is None and reminder is None:
        return None
    return _number_or_none(deadline), _number_or_none(reminder)


# The columns a change may write that are fields of a row as they are; the seats and the
# result are stored otherwise (two columns, JSON), the alarm in the side table of clocks.
# A match's id, game, guild and channel, challenger, options, clock and rating terms never
# change once made.
_PLAIN: tuple[str, ...] = ("status", "opponent_id", "seed", "version", "to_move_id")
_PLAIN += ("thread_id", "deadline", "reminder_at")
_read_plain = attrgetter(*_PLAIN)
_FIXED: tuple[str, ...] = ("id", "game", "guild_id", "channel_id", "challenger_id", "options")
_FIXED += ("days_per_move", "rematch_of", "rated")
_read_fixed = attrgetter(*_FIXED)


def changed_columns(before: MatchRow, after: MatchRow) -> dict[str, object]:
    """The stored columns that differ from ``before`` to ``after``, encoded for storing.

    Run for every move, so it compares whole tuples read in one go (attrgetter) before
    looking at any column alone.
    """
    if _read_fixed(before) != _read_fixed(after):
        name = next(n for n in _FIXED if getattr(before, n) != getattr(after, n))
        raise ValueError(f"a match's {name} never changes")
    columns: dict[str, object] = {}
    old, new = _read_plain(before), _read_plain(after)
    if old != new:
        for column, was, now in zip(_PLAIN, old, new, strict=True):
            if was != now:
                columns[column] = now
    if after.seat_ids != before.seat_ids:
        seats = after.seat_ids or (None, None)
        columns["seat0_id"], columns["seat1_id"] = seats
    if after.result != before.result:
        columns["result"] = None if after.result is None else dumps(after.result)
    if after.state is not before.state:  # states are immutable: a new one is a new object
        columns["state"] = None if after.state is None else after.state.to_json()
    return columns


Alarm = tuple[float | None, float | None]


def alarm_for(row: MatchRow, now: float, *, keep: bool = False) -> Alarm | None:
    """The alarm ``row`` needs: none without due times; else, if it may ``keep`` the one it
    holds, that one while it rings in the future and no later than the first due time;
    else its due times.

    A move keeps it: a move only puts the due times later, so the alarm (and the two
    indexes of clocks) stay as they are, and ring early at worst, to be set to the due times
    then. Any other change sets it exactly: a challenge accepted, a match over, and a clock's
    own claims (a reminder sent), whose write must find the alarm it read, so that of two
    processes claiming one due time, the second conflicts."""
    due = (row.deadline, row.reminder_at)
    if due == (None, None):
        return None
    held = row.alarm
    if keep and held is not None and now < _first(held) <= _first(due):
        return held
    return due


def _first(times: Alarm) -> float:
    return min(t for t in times if t is not None) if times != (None, None) else float("inf")


def clock_write(
    match_id: int, was: Alarm | None, now: Alarm | None
) -> tuple[str, tuple[object, ...]] | None:
    """The write that takes the match's row of clocks from ``was`` to ``now`` (None if the
    same): an insert, a delete, or an update that finds the row only if it still holds the
    alarm read, so that of two processes claiming the same due time (one reminder, one loss
    on time), one writes and the other conflicts."""
    if was == now:
        return None
    if now is None:
        return "DELETE FROM clocks WHERE match_id = ?", (match_id,)
    if was is None:
        return (
            "INSERT INTO clocks (match_id, deadline, reminder_at) VALUES (?, ?, ?)",
            (match_id, *now),
        )
    held = [value for value in was if value is not None]
    return _clock_update((was[0] is not None, was[1] is not None)), (*now, match_id, *held)


@functools.cache
def _clock_update(held: tuple[bool, bool]) -> str:
    """The UPDATE of a row of clocks that still holds the due times read (``held``: whether
    each of deadline and reminder was set): four shapes in all."""
    checks = " AND ".join(
        f"{column} = ?" if set_ else f"{column} IS NULL"
        for column, set_ in zip(("deadline", "reminder_at"), held, strict=True)
    )
    return f"UPDATE clocks SET deadline = ?, reminder_at = ? WHERE match_id = ? AND {checks}"


@functools.cache
def _update_sql(columns: tuple[str, ...]) -> str:
    """The UPDATE for these columns under the version check (a handful of shapes in all)."""
    sets = ", ".join(f"{column} = ?" for column in columns)
    return f"UPDATE matches SET {sets} WHERE id = ? AND version = ? AND status = ?"


class KeyedLocks:
    """One asyncio lock per match id, forgotten once nobody holds or awaits it."""

    def __init__(self) -> None:
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}

    def held(self, key: int) -> bool:
        """Whether anyone holds or awaits the lock of ``key``."""
        return key in self._locks

    def hold(self, key: int) -> _Hold:
        """``async with locks.hold(key):`` runs its block holding the lock of ``key``."""
        return _Hold(self._locks, key)


class _Hold:
    """Holding one key's lock: a plain class rather than ``asynccontextmanager``, whose
    generator and wrappers cost more than the lock itself, on every move."""

    __slots__ = ("_key", "_lock", "_locks")

    def __init__(self, locks: dict[int, tuple[asyncio.Lock, int]], key: int) -> None:
        self._locks = locks
        self._key = key
        self._lock: asyncio.Lock | None = None

    async def __aenter__(self) -> None:
        lock, users = self._locks.get(self._key, (None, 0))
        if lock is None:
            lock = asyncio.Lock()
        self._locks[self._key] = (lock, users + 1)
        try:
            await lock.acquire()
        except BaseException:
            self._leave(lock)
            raise
        self._lock = lock

    async def __aexit__(self, *exc: object) -> None:
        lock = self._lock
        assert lock is not None
        lock.release()
        self._leave(lock)

    def _leave(self, lock: asyncio.Lock) -> None:
        lock, users = self._locks[self._key]
        if users == 1:
            del self._locks[self._key]
        else:
            self._locks[self._key] = (lock, users - 1)


class MatchStore:
    """Matches and players in one SQLite database, with a cache of both."""

    CACHE_SIZE = 20_000  # matches whose state is kept read back (a few kB each)
    SHARED_STATES = 20_000  # on a shared database, matches whose state is kept with its text

    def __init__(self, db: Database, now: Callable[[], datetime]) -> None:
        self.db = db
        self._now = now
        self.locks = KeyedLocks()
        self.cache: OrderedDict[int, MatchRow] = OrderedDict()
        self._people: dict[int, PlayerProfile] = {}
        # Who claims outbox rows from here, as stored with a claim: for a person reading the
        # table (which process held a row); claims are decided by their lease alone.
        self._claimer = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        if db.shared:
            # Other processes change matches too (PostgreSQL): a match kept from an earlier
            # read may be stale, so each is read afresh under its lock; the version check in
            # ``save`` is what makes a move count once, whichever process gets it.
            self.CACHE_SIZE = 0
        # What is read afresh need not be parsed again: states by their stored text.
        self.states: StateTexts | None = StateTexts(self.SHARED_STATES) if db.shared else None

    def ts(self) -> float:
        return self._now().timestamp()

    # -- players ----------------------------------------------------------------------------
    async def people(self, user_ids: Iterable[int]) -> dict[int, PlayerProfile]:
        """The profiles of ``user_ids`` (an unknown player gets a made-up name)."""
        ids = tuple(user_ids)
        missing = [user_id for user_id in ids if user_id not in self._people]
        if missing:
            marks = ", ".join("?" * len(missing))
            for stored in await self.db.fetchall(
                f"SELECT * FROM players WHERE user_id IN ({marks})", missing
            ):
                self._people[stored["user_id"]] = _profile(stored)
        return {
            user_id: self._people.get(user_id) or PlayerProfile.unknown(user_id) for user_id in ids
        }

    async def profile(self, user_id: int) -> PlayerProfile | None:
        """The stored profile of a player, read afresh (None if never seen)."""
        stored = await self.db.fetchone("SELECT * FROM players WHERE user_id = ?", (user_id,))
        if stored is None:
            return None
        profile = self._people[user_id] = _profile(stored)
        return profile

    def remember(self, conn: Connection, players: Iterable[PlayerRef], now: float) -> None:
        """In a plan: store the players' names as last seen (unless already known)."""
        for player in players:
            known = self._people.get(player.user_id)
            if known is not None and known.seen_as(player) is known:
                continue
            conn.execute(
                "INSERT INTO players (user_id, name, locale, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE"
                " SET name = excluded.name, locale = excluded.locale,"
                " updated_at = excluded.updated_at",
                (player.user_id, player.name, player.locale, now, now),
            )

    def remembered(self, players: Iterable[PlayerRef]) -> None:
        """After a commit that remembered ``players``: the cache follows."""
        for player in players:
            known = self._people.get(player.user_id)
            if known is not None:
                self._people[player.user_id] = known.seen_as(player)

    async def set_flag(
        self, user_id: int, column: Literal["four_colour", "dms_closed"], value: bool
    ) -> None:
        """Store one of a player's yes/no settings (``four_colour``, ``dms_closed``)."""
        now = self.ts()

        def plan(conn: Connection) -> None:
            conn.execute(
                f"INSERT INTO players (user_id, name, {column}, created_at, updated_at)"
                f" VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE"
                f" SET {column} = excluded.{column}, updated_at = excluded.updated_at",
                (user_id, f"player {user_id}", int(value), now, now),
            )

        await self.db.transact(plan)
        known = self._people.get(user_id)
        if known is not None:
            if column == "four_colour":
                self._people[user_id] = replace(known, four_colour=value)
            else:
                self._people[user_id] = replace(known, dms_closed=value)

    def forget_player(self, user_id: int) -> None:
        """After a player was forgotten: nothing kept here names them any longer (the rows
        of their matches are read again, naming their pseudonym)."""
        self._people.pop(user_id, None)
        for match_id in [i for i, row in self.cache.items() if user_id in row.user_ids]:
            del self.cache[match_id]

    async def set_dm_channel(self, user_id: int, channel_id: int) -> None:
        """Store a player's DM channel with the bot (it stays the same for good)."""
        now = self.ts()

        def plan(conn: Connection) -> None:
            conn.execute(
                "INSERT INTO players (user_id, name, dm_channel, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE"
                " SET dm_channel = excluded.dm_channel, updated_at = excluded.updated_at",
                (user_id, f"player {user_id}", channel_id, now, now),
            )

        await self.db.transact(plan)
        known = self._people.get(user_id)
        if known is not None:
            self._people[user_id] = replace(known, dm_channel=channel_id)

    # -- reading matches --------------------------------------------------------------------
    async def read(self, match_id: int) -> MatchRow:
        """The committed match from the database (NotFound if none); a damaged one is set
        aside on the way and comes back with status "corrupt"."""
        try:
            return row_from_stored(await self.read_stored(match_id), self.states)
        except Unreadable as error:
            await self.set_aside(match_id, str(error))
        return row_from_stored(await self.read_stored(match_id), self.states)

    async def read_stored(self, match_id: int) -> Row:
        if not storable_id(match_id):
            raise unknown_match(match_id)
        stored = await self.db.fetchone(f"{SELECT_MATCHES} WHERE m.id = ?", (match_id,))
        if stored is None:
            raise unknown_match(match_id)
        return stored

    async def peek(self, match_id: int) -> MatchRow:
        """The match for reading: from the cache, else read under its lock (only the lock's
        holder may fill the cache, so it never takes an older row than a writer left)."""
        row = self.cache.get(match_id)
        if row is not None:
            return row
        if not storable_id(match_id):  # never a lock (nor a cache slot) for a forged id
            raise unknown_match(match_id)
        async with self.locks.hold(match_id):
            return await self.load(match_id)

    async def peek_with_people(self, match_id: int) -> tuple[MatchRow, People]:
        row = await self.peek(match_id)
        return row, await self.people(row.user_ids)

    async def load(self, match_id: int) -> MatchRow:
        """The match for changing it; the caller holds its lock."""
        row = self.cache.get(match_id)
        if row is None:
            row = await self.read(match_id)
            self.keep(row)
        else:
            self.cache.move_to_end(match_id)
        return row

    async def warm(self, *, chunk: int = 100) -> int:
        """Read the live matches into the cache, newest first, as long as it has room; how
        many were added.

        Without this, each match's first move after a start reads its row and parses its
        state on the event loop: with thousands of live matches, most moves for a good while
        after a restart are first moves. Rows are read a chunk at a time and parsed one by
        one, yielding between, so moves go on meanwhile. A row is kept only if the cache
        lacks it and nobody holds its lock: a change under way, or one made since the read,
        has left a row at least as new.
        A damaged row is skipped here and set aside when first used.
        """
        added = 0
        below = MAX_ID
        while len(self.cache) < self.CACHE_SIZE:
            # By id, downwards: the primary key's order, so no chunk sorts the whole table.
            found = await self.db.fetchall(
                f"{SELECT_MATCHES} WHERE m.id < ? AND m.status = 'active'"
                " ORDER BY m.id DESC LIMIT ?",
                (below, chunk),
            )
            if not found:
                break
            below = found[-1]["id"]
            for stored in found:
                await asyncio.sleep(0)  # one parse at a time between other work
                match_id = stored["id"]
                if match_id in self.cache or self.locks.held(match_id):
                    continue
                try:
                    row = row_from_stored(stored)
                except Unreadable:
                    continue
                _said_ahead(row)
                if len(self.cache) >= self.CACHE_SIZE:
                    break
                self.cache[match_id] = row
                self.cache.move_to_end(match_id, last=False)  # the oldest go first
                added += 1
        return added

    def keep(self, row: MatchRow) -> None:
        self.cache[row.id] = row
        self.cache.move_to_end(row.id)
        while len(self.cache) > self.CACHE_SIZE:
            self.cache.popitem(last=False)

    # -- writing matches --------------------------------------------------------------------
    async def create(
        self,
        row: MatchRow,
        players: tuple[PlayerRef, ...],
        words: Callable[[MatchRow], list[Delivery]] | None = None,
    ) -> tuple[MatchRow, list[Delivery]]:
        """Store a new challenge (``row`` with any id) and remember its players; the row
        as stored, with its id, and the deliveries ``words`` made of it (in the outbox).

        Its words name the id the insert gives, so they are made in the transaction (one
        notice, once per match)."""
        now = self.ts()
        alarm = alarm_for(row.but(alarm=None), now)  # a new match: its due times

        def plan(conn: Connection) -> tuple[int, list[Delivery], list[int]]:
            self.remember(conn, players, now)
            cursor = conn.execute(
                "INSERT INTO matches (game, guild_id, channel_id, challenger_id, opponent_id,"
                " options, status, days_per_move, rated, rematch_of, deadline, reminder_at,"
                " created_at, updated_at, talk)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    row.game,
                    row.guild_id,
                    row.channel_id,
                    row.challenger_id,
                    row.opponent_id,
                    dumps(row.options),
                    row.status,
                    row.days_per_move,
                    int(row.rated),
                    row.rematch_of,
                    row.deadline,
                    row.reminder_at,
                    now,
                    now,
                    int(row.talk),
                ),
            )
            assert cursor.lastrowid is not None
            made = replace(row, id=cursor.lastrowid, alarm=alarm)
            if alarm is not None:
                conn.execute(
                    "INSERT INTO clocks (match_id, deadline, reminder_at) VALUES (?, ?, ?)",
                    (made.id, *alarm),
                )
            deliveries = [] if words is None else words(made)
            return made.id, deliveries, post(conn, encode(deliveries), now)

        match_id, deliveries, ids = await self.db.transact(plan)
        deliveries = posted(deliveries, ids)
        self.remembered(players)
        row = replace(row, id=match_id, alarm=alarm)
        async with self.locks.hold(match_id):
            self.keep(row)
        return row, deliveries

    # -- the outbox -------------------------------------------------------------------------
    # Rows younger than this may be in the hands of the live process that committed them (it
    # sends right after its commit): only older ones are claimed, except by a lone process
    # at its start (SQLite), when nothing can be in flight.
    UNSENT_GRACE = 120.0
    # How long a claimed row is its claimer's: time enough to send a claim's rows through
    # Discord's rate limits, and short enough that a row resent after its claimer died goes
    # out while Discord still remembers its nonce (a few minutes).
    LEASE = 120.0
    CLAIM_LIMIT = 500  # rows claimed at once at most: the rest go with the next claim

    async def unsent(self, *, at_start: bool = False) -> list[Delivery]:
        """Deliveries stored and not yet marked sent, now this process's to send (oldest
        first): each claimed for ``LEASE`` seconds, so no other process sends it meanwhile.

        ``at_start``: this process has just started and sent nothing yet. On a database no
        other process opens (SQLite), every unsent row is then a dead process's, whatever
        its age or its claim, and all are taken at once.
        """
        now = self.ts()
        lone = at_start and not self.db.shared
        cutoff = math.inf if lone else now - self.UNSENT_GRACE
        free_after = math.inf if lone else now  # a lease that ended before this is free
        token = self._claimer
        # On PostgreSQL, rows another transaction is claiming are skipped, not waited for,
        # so processes claiming at once share the rows out; SQLite's one writer claims alone.
        lock = " FOR UPDATE SKIP LOCKED" if self.db.shared else ""
        sql = (
            "UPDATE outbox SET claimed_by = ?, claimed_until = ? WHERE id IN (SELECT id FROM"
            " outbox WHERE sent_at IS NULL AND created_at < ? AND (claimed_until IS NULL OR"
            f" claimed_until < ?) ORDER BY id LIMIT ?{lock}) RETURNING id, delivery"
        )
        params = (token, now + self.LEASE, cutoff, free_after, self.CLAIM_LIMIT)

        def plan(conn: Connection) -> list[Row]:
            return conn.execute(sql, params).fetchall()

        found = sorted(await self.db.transact(plan), key=lambda row: int(row["id"]))
        unsent = []
        for stored in found:
            try:
                delivery = Delivery.from_json(json.loads(stored["delivery"]))
            except (ValueError, TypeError, KeyError) as error:
                log.error("outbox row %s unreadable (%s): dropped", stored["id"], error)
                await self.mark_sent([stored["id"]])
                continue
            unsent.append(replace(delivery, outbox_id=stored["id"]))
        return unsent

    async def unsent_of(self, match_id: int) -> list[Delivery]:
        """One match's deliveries stored and not yet marked sent, oldest first (claimed or
        not: the caller sends them as the answer to an interaction made in that match)."""
        rows = await self.db.fetchall(
            "SELECT id, delivery FROM outbox WHERE match_id = ? AND sent_at IS NULL ORDER BY id",
            (match_id,),
        )
        found = []
        for stored in rows:
            try:
                delivery = Delivery.from_json(json.loads(stored["delivery"]))
            except (ValueError, TypeError, KeyError):
                continue  # the start-up's replay drops it (see ``unsent``)
            found.append(replace(delivery, outbox_id=stored["id"]))
        return found

    async def mark_sent(self, outbox_ids: Iterable[int]) -> None:
        """Note these outbox rows sent, so no start-up ever sends them again."""
        ids = [(self.ts(), outbox_id) for outbox_id in outbox_ids]
        if not ids:
            return

        def plan(conn: Connection) -> None:
            conn.executemany("UPDATE outbox SET sent_at = ? WHERE id = ?", ids)

        await self.db.transact(plan)

    async def prune_outbox(self, older_than: float) -> int:
        """Forget rows sent before ``older_than`` (unix seconds); how many."""

        def plan(conn: Connection) -> int:
            return conn.execute(
                "DELETE FROM outbox WHERE sent_at IS NOT NULL AND sent_at < ?", (older_than,)
            ).rowcount

        return await self.db.transact(plan)

    async def change(
        self,
        match_id: int,
        decide: Callable[[MatchRow, People, float], Change[T] | None],
        *,
        also_people: tuple[int, ...] = (),
        words: Words[T] | None = None,
    ) -> Changed[T] | None:
        """Load the match under its lock, ask ``decide`` for the change (it may refuse with a
        ServiceError, or return None for no change), save it; what was done.

        ``decide`` gets the match, its people and the time: one time for the whole change,
        taken once the match is held, so its stored times and its words agree.

        ``also_people``: more players ``decide`` may need to name (one accepting a challenge).
        ``words``: the deliveries the change owes, made from what it did; they are stored in
        the outbox in the change's transaction and come back in ``Changed.deliveries``.
        """
        async with self.locks.hold(match_id):
            before = await self.load(match_id)
            people = await self.people((*before.user_ids, *also_people))
            now = self.ts()
            change = decide(before, people, now)
            if change is None:
                return None
            people = {**people}
            for player in change.remember:
                people[player.user_id] = people.get(
                    player.user_id, PlayerProfile.unknown(player.user_id)
                ).seen_as(player)
            return await self.save(before, change, now, people, words)

    async def save(
        self,
        before: MatchRow,
        change: Change[T],
        now: float,
        people: People,
        words: Words[T] | None = None,
    ) -> Changed[T]:
        """Write what changed from ``before`` to ``change.after`` (and ``change.also``, and
        the deliveries ``words`` makes of it, in the outbox) in one transaction, if the match
        is still as read; Conflict otherwise, and nothing written.

        The words are made here, on the event loop, before the transaction, and stored as
        ready text: the writer, which every change in the process waits for, does no more
        than write. Only an ending's words (an ``Ending``) are made inside the transaction,
        since they name the rating changes ``also`` wrote there. Words are pure; if they
        fail, nothing is written. The caller holds the match's lock; the cache keeps the
        saved row.
        """
        after = change.after
        moved = after.version != before.version and after.status == before.status
        alarm = alarm_for(after, now, keep=moved)
        clock = clock_write(before.id, before.alarm, alarm)
        if alarm != after.alarm:
            after = after.but(alarm=alarm)
        columns = changed_columns(before, after)
        if change.touch:
            columns["updated_at"] = now
        sql = _update_sql(tuple(columns))
        params = (*columns.values(), before.id, before.version, before.status)
        also = change.also
        decided: Changed[T] = Changed(before, after, people, now, None)
        made = [] if words is None else words(decided)
        ready = None if isinstance(made, Ending) else encode(made)

        def plan(conn: Connection) -> tuple[T | None, list[Delivery], list[int]]:
            self.remember(conn, change.remember, now)  # first: the match may refer to them
            if columns and conn.execute(sql, params).rowcount != 1:
                raise _Stale
            if clock is not None and conn.execute(*clock).rowcount != 1:
                raise _Stale
            found = None if also is None else also(conn)
            if isinstance(made, Ending):
                ending = _legs_marked(conn, after.id, made.make(found))
                return found, ending, post(conn, encode(ending), now)
            assert ready is not None
            return found, made, post(conn, ready, now)

        try:
            found, deliveries, ids = await self.db.transact(plan)
        except _Stale:
            self.cache.pop(before.id, None)
            raise Conflict(
                N_("Match #{id} changed meanwhile. Use `/hand` to see it as it is now."),
                id=before.id,
            ) from None
        self.remembered(change.remember)
        self.keep(after)
        text = columns.get("state")
        if self.states is not None and isinstance(text, str) and after.state is not None:
            self.states.keep(after.id, text, after.state)  # the next read finds it
        return Changed(before, after, people, now, found, posted(deliveries, ids))

    async def set_aside(
        self, match_id: int, problem: str, *, only_at: tuple[int, str] | None = None
    ) -> bool:
        """Flag a damaged match so no one plays it and nothing else is held up by it; whether
        it was flagged.

        ``only_at`` = (version, status): only if the match is still there, as it was when
        found wrong — another process (the bot, beside ``verify``) may have moved it on
        meanwhile, and a match caught mid-move is not damaged. Not a :meth:`save`: the
        stored row may not even read back.
        """
        self.cache.pop(match_id, None)
        now = self.ts()
        sql = (
            "UPDATE matches SET status = 'corrupt', problem = ?, to_move_id = NULL,"
            " updated_at = ? WHERE id = ?"
        )
        params: tuple[object, ...] = (problem[:500], now, match_id)
        if only_at is not None:
            sql += " AND version = ? AND status = ?"
            params += only_at

        def plan(conn: Connection) -> bool:
            if conn.execute(sql, params).rowcount != 1:
                return False
            conn.execute("DELETE FROM clocks WHERE match_id = ?", (match_id,))  # no clock runs
            return True

        done = await self.db.transact(plan)
        if done:
            log.error("match #%s set aside: %s", match_id, problem)
            metrics.set_aside()
        return bool(done)


def _legs_marked(conn: Connection, match_id: int, ending: list[Delivery]) -> list[Delivery]:
    """In an ending's transaction: if the match is a leg of a duplicate match, its ending's
    words say so (no rematch under a leg: the pair's result offers one)."""
    if not any(d.kind == "notice" for d in ending):
        return ending
    leg = conn.execute(
        "SELECT 1 FROM duplicates WHERE first_leg = ? OR second_leg = ?", (match_id, match_id)
    ).fetchone()
    return ending if leg is None else [replace(d, leg=True) for d in ending]


def _profile(stored: Row) -> PlayerProfile:
    return PlayerProfile(
        user_id=stored["user_id"],
        name=stored["name"],
        locale=stored["locale"],
        four_colour=bool(stored["four_colour"]),
        dms_closed=bool(stored["dms_closed"]),
        dm_channel=stored["dm_channel"],
    )
