"""A match's alarm: the row of the side table of clocks that makes the clock task look at
it, and the write that keeps that row true to the match's due times.

The alarm is what the clock task's index reads; a match's own due times are in its row. A
write of the alarm finds the row only if it still holds what was read, so that a due time
is claimed once even by two processes at a time.
"""

from __future__ import annotations

import functools

from bot.service.values import MatchRow

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
