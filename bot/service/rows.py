"""A match as stored: its row read back (its state included) and checked, and the columns
a change writes.

SQLite keeps whatever it is given in a column, and a row may have been written by hand or by
a faulty tool: every column is checked as it is read, and a row that cannot be read is
``Unreadable``, so that one match is set aside while the others go on. What is written is
as plain: JSON with sorted keys, and only the columns that changed.
"""

from __future__ import annotations

import functools
import json
from operator import attrgetter
from typing import Any

import games
from bot.service.cache import StateTexts
from bot.service.values import Json, MatchRow, NotFound, PlayerProfile
from bot.storage.sql import Row
from games import State
from games.words import N_

# SQLite stores integers in 64 signed bits: a larger id (typed, or forged in a button's
# custom id) cannot name any match, and binding it raises OverflowError. It is answered
# like any unknown id instead.
MAX_ID = 2**63 - 1


def unknown_match(match_id: int) -> NotFound:
    """The one answer for a match that does not exist *or* must not be seen from here."""
    return NotFound(N_("There is no match #{id}. `/matches` lists yours."), id=match_id)


# A match as read: its row, its alarm from the side table of clocks (none: NULL), and
# whether its challenge allowed hints (a row of ``coached``).
SELECT_MATCHES = (
    "SELECT m.*, c.deadline AS alarm_deadline, c.reminder_at AS alarm_reminder,"
    " h.match_id AS coached_id FROM matches m LEFT JOIN clocks c ON c.match_id = m.id"
    " LEFT JOIN coached h ON h.match_id = m.id"
)


def storable_id(value: object) -> bool:
    """Whether ``value`` can be an id stored in SQLite (a positive 64-bit integer)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value <= MAX_ID


def dumps(data: object) -> str:
    """JSON as stored: compact and with sorted keys, so equal data is stored equal."""
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


class Unreadable(Exception):
    """A stored match that cannot be read back; it will be set aside."""


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
        hints=_coached(stored),
    )


def _talks(stored: Row) -> bool:
    """Whether the match lives in a conversation (``Place.talk``); a row's keys, not its
    values, are what ``in`` must look at (``in`` on a row looks at its values)."""
    keys = stored.keys()
    return "talk" in keys and stored["talk"] == 1


def _coached(stored: Row) -> bool:
    """Whether the match's challenge allowed hints: a row of ``coached`` was read with it."""
    keys = stored.keys()
    return "coached_id" in keys and stored["coached_id"] is not None


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


@functools.cache
def update_sql(columns: tuple[str, ...]) -> str:
    """The UPDATE for these columns under the version check (a handful of shapes in all)."""
    sets = ", ".join(f"{column} = ?" for column in columns)
    return f"UPDATE matches SET {sets} WHERE id = ? AND version = ? AND status = ?"


def profile_from_stored(stored: Row) -> PlayerProfile:
    return PlayerProfile(
        user_id=stored["user_id"],
        name=stored["name"],
        locale=stored["locale"],
        four_colour=bool(stored["four_colour"]),
        dms_closed=bool(stored["dms_closed"]),
        dm_channel=stored["dm_channel"],
    )
