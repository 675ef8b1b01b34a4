"""A match's alarm follows its due times, and is written only if it still holds what was
read."""

from __future__ import annotations

from dataclasses import replace

from bot.service import MatchService
from bot.service.alarms import alarm_for, clock_write
from tests.bot.conftest import start_match


async def test_the_alarm_follows_the_due_times(service: MatchService) -> None:
    info = await start_match(service, days=1)
    row = await service.store.peek(info.id)
    reminded = replace(row, reminder_at=None)
    assert row.alarm == (row.deadline, row.reminder_at)
    assert alarm_for(reminded, 0.0) == (row.deadline, None)
    assert alarm_for(replace(row, deadline=None, reminder_at=None), 0.0) is None
    # A move puts the due times later and keeps the alarm while it is still to ring.
    assert row.deadline is not None and row.reminder_at is not None
    later = replace(row, deadline=row.deadline + 60, reminder_at=row.reminder_at + 60)
    assert alarm_for(later, row.reminder_at - 1, keep=True) == row.alarm
    assert alarm_for(later, row.reminder_at, keep=True) == (later.deadline, later.reminder_at)
    assert alarm_for(later, 0.0) == (later.deadline, later.reminder_at)


def test_the_clock_row_is_written_only_as_read() -> None:
    assert clock_write(7, (100.0, 50.0), (100.0, 50.0)) is None
    assert clock_write(7, (100.0, 50.0), None) == ("DELETE FROM clocks WHERE match_id = ?", (7,))
    assert clock_write(7, None, (100.0, None)) == (
        "INSERT INTO clocks (match_id, deadline, reminder_at) VALUES (?, ?, ?)",
        (7, 100.0, None),
    )
    assert clock_write(7, (100.0, 50.0), (100.0, None)) == (
        "UPDATE clocks SET deadline = ?, reminder_at = ? WHERE match_id = ?"
        " AND deadline = ? AND reminder_at = ?",
        (100.0, None, 7, 100.0, 50.0),
    )
    assert clock_write(7, (100.0, None), (200.0, 150.0)) == (
        "UPDATE clocks SET deadline = ?, reminder_at = ? WHERE match_id = ?"
        " AND deadline = ? AND reminder_at IS NULL",
        (200.0, 150.0, 7, 100.0),
    )
