"""What a due time does to a match: an unanswered challenge expires, a player short of time
is reminded, one out of time loses; a clock left on a match no longer played is stopped, and
an alarm that rang early is set anew.

Pure decisions and words, like the life's, for the clock task's pass over a match
(``MatchLife.check_clock``); a loss on time ends the match without a move, as a resignation
or a move too late does (``end_without_move``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import bot.service.endings as endings
import bot.service.notices as notices
from bot.service import ratings
from bot.service.alarms import alarm_for
from bot.service.standings import write_result
from bot.service.values import Change, Changed, Delivery, Ending, Json, MatchRow

# What a change's words are: deliveries, or an ending's, made once its ratings are written.
Words = list[Delivery] | Ending[list[ratings.Change]]


def end_without_move(
    row: MatchRow, winner: int, how: str, extra: Json, now: float
) -> Change[list[ratings.Change]]:
    """End an active match without a move (a resignation, a loss on time)."""
    assert row.state is not None
    result = {"winner": winner, "scores": list(row.state.scores), "how": how, **extra}
    ended = replace(
        row, status="finished", result=result, to_move_id=None, deadline=None, reminder_at=None
    )
    return Change(ended, also=lambda conn: write_result(conn, ended, how, now))


@dataclass
class Due:
    """What the clock decided for a match: whose seat it acted on, and whether it only
    stopped a stray clock or set the alarm anew (both say nothing)."""

    seat: int = 0
    stopped: bool = False
    rearmed: bool = False


def due_change(
    row: MatchRow, now: float, due: float, found: Due
) -> Change[list[ratings.Change]] | None:
    """The change a match due at ``due`` needs, noted in ``found``: a loss on time past its
    deadline, else its reminder; if neither is due (its alarm rang early: moves have put its
    due times later since it was set), its alarm set anew to its due times."""
    found.rearmed = found.stopped = False  # decided afresh if the match changed meanwhile
    change = _act(row, now, due, found)
    if change is None and alarm_for(row, now) != row.alarm:
        found.rearmed = True
        return Change(row, touch=False)  # saving it writes the alarm alarm_for gives
    return change


def _act(row: MatchRow, now: float, due: float, found: Due) -> Change[list[ratings.Change]] | None:
    if row.status == "challenge" and row.deadline is not None and row.deadline <= due:
        return Change(replace(row, status="cancelled", deadline=None))  # unanswered
    if row.status not in ("challenge", "active"):
        if row.deadline is None and row.reminder_at is None:
            return None
        # A clock left running on a match no longer played (written by hand, or by
        # an older program): stopped, so the task does not wake for it again.
        found.stopped = True
        return Change(replace(row, deadline=None, reminder_at=None), touch=False)
    if row.status != "active" or row.state is None or row.seat_ids is None:
        return None
    if row.state.to_move is None:
        return None
    seat = found.seat = row.state.to_move
    if row.deadline is not None and row.deadline <= due:
        return end_without_move(row, 1 - seat, "time", {"timed_out": seat}, now)
    if row.reminder_at is not None and row.reminder_at <= due:
        return Change(replace(row, reminder_at=None), touch=False)
    return None


def due_words(
    done: Changed[list[ratings.Change]], found: Due, due: float, hours: float, public: str
) -> Words:
    """What the change ``due_change`` decided owes: an expired challenge's notice, a loss on
    time's ending, a reminder; nothing for a clock stopped or an alarm set anew."""
    row, people, seat = done.after, done.people, found.seat
    if found.stopped or found.rearmed:
        return []
    if row.status == "cancelled":
        return notices.challenge_expired(row, people, hours, public)
    if row.status == "finished":
        return Ending(
            lambda changes: endings.timed_out(row, people, seat, changes or [], due, public)
        )
    return notices.reminder(row, people, seat, due)
