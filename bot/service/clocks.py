"""Turn clocks: when a player must move by, and when to remind them.

A match may have a time control of whole days per move (none, or 1, 3, 7 …). Each move
starts the clock again for whoever must act next; a reminder goes out before the deadline,
and a player still to move at the deadline loses on time. Deadlines are stored with the
match (unix seconds, UTC), never only in memory, so a restart picks every clock up again.
"""

from __future__ import annotations

import functools
from datetime import UTC, datetime, timedelta
from typing import Final

from games.refusals import Refusal
from games.words import ENGLISH, N_, Words

DAY: Final = 86_400.0
MAX_DAYS_PER_MOVE: Final = 30
REMINDER_BEFORE: Final = 12 * 3600.0  # or half the time, whichever is less
MAX_SLEEP: Final = 3600.0  # the clock task looks again at least hourly (clock jumps, drift)
MIN_SLEEP: Final = 0.05  # between two passes of the clock task, at least
RETRY_AFTER: Final = 60.0  # after a failed pass (the database busy or gone)


def check_days(days: object) -> int | None:
    """``days_per_move`` as given to a challenge; ValueError saying what is accepted."""
    if days is None or days == 0:
        return None
    if isinstance(days, bool) or not isinstance(days, int):
        raise Refusal(
            N_("days per move must be a whole number of days, not “{value}”"), value=str(days)
        )
    if not 1 <= days <= MAX_DAYS_PER_MOVE:
        raise Refusal(
            N_("days per move must be from 1 to {most} (or none), not {value}"),
            most=MAX_DAYS_PER_MOVE,
            value=days,
        )
    return days


def deadline_after(now: float, days: int | None) -> tuple[float | None, float | None]:
    """(deadline, reminder time) for a turn starting at ``now``; (None, None) without clock."""
    if days is None:
        return None, None
    period = days * DAY
    deadline = now + period
    return deadline, deadline - min(REMINDER_BEFORE, period / 2)


def to_datetime(timestamp: float | None) -> datetime | None:
    return None if timestamp is None else datetime.fromtimestamp(timestamp, UTC)


def describe_left(seconds: float, words: Words = ENGLISH) -> str:
    """'2 days 3 hours', '5 hours', '40 minutes' — time left, in words."""
    key = (round(max(0.0, seconds)), words)
    said = _LEFT.get(key)
    if said is None:
        if len(_LEFT) >= 4096:
            _LEFT.clear()
        said = _LEFT[key] = _describe_left(key[0], words)
    return said


# Every move's board tells the time left, nearly always the same few whole periods (a fresh
# turn's days): said once per language and number of seconds, not once per move.
_LEFT: dict[tuple[int, Words], str] = {}


def _describe_left(seconds: int, words: Words) -> str:
    left = timedelta(seconds=seconds)
    days, hours, minutes = left.days, left.seconds // 3600, left.seconds % 3600 // 60
    parts: list[str] = []
    if days:
        parts.append(words.ngettext("{n} day", "{n} days", days).format(n=words.number(days)))
    if hours:
        parts.append(words.ngettext("{n} hour", "{n} hours", hours).format(n=hours))
    if not days and minutes:
        parts.append(words.ngettext("{n} minute", "{n} minutes", minutes).format(n=minutes))
    return " ".join(parts) or words.gettext("less than a minute")


def format_deadline(timestamp: float) -> str:
    """'2026-05-01 14:05 UTC': to the minute, so worked out once per minute, not per move."""
    return _minute_text(int(timestamp // 60))


@functools.lru_cache(maxsize=1024)
def _minute_text(minute: int) -> str:
    return datetime.fromtimestamp(minute * 60, UTC).strftime("%Y-%m-%d %H:%M UTC")
