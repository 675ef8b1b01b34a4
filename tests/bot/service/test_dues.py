"""What a due time does to a match, decided from the row alone: an unanswered challenge
expires, a player is reminded, then loses on time; a clock on a match no longer played
stops, and an alarm that rang early is set to the due times, all three saying nothing."""

from __future__ import annotations

from dataclasses import replace

from bot.service import MatchService, dues
from tests.bot.conftest import start_match


async def test_a_due_time_reminds_then_ends_on_time(service: MatchService) -> None:
    info = await start_match(service, days=1)
    row = await service.store.peek(info.id)
    assert row.state is not None and row.seat_ids is not None
    assert row.deadline is not None and row.reminder_at is not None
    found = dues.Due()
    assert dues.due_change(row, row.reminder_at - 1, row.reminder_at - 1, found) is None
    reminded = dues.due_change(row, row.reminder_at, row.reminder_at, found)
    assert reminded is not None and reminded.after.reminder_at is None and not reminded.touch
    assert found.seat == row.state.to_move and not (found.stopped or found.rearmed)
    lost = dues.due_change(row, row.deadline, row.deadline, found)
    assert lost is not None and lost.after.status == "finished" and lost.also is not None
    assert lost.after.result == {
        "winner": 1 - found.seat,
        "scores": list(row.state.scores),
        "how": "time",
        "timed_out": found.seat,
    }


async def test_what_the_clock_does_to_a_match_not_in_play(service: MatchService) -> None:
    info = await start_match(service, days=1)
    row = await service.store.peek(info.id)
    challenge = replace(row, status="challenge", state=None, seat_ids=None, deadline=100.0)
    found = dues.Due()
    expired = dues.due_change(challenge, 100.0, 100.0, found)
    assert expired is not None and expired.after.status == "cancelled"
    over = replace(row, status="finished", deadline=100.0, reminder_at=None, alarm=(100.0, None))
    stopped = dues.due_change(over, 100.0, 100.0, found)
    assert stopped is not None and found.stopped and stopped.after.deadline is None
    assert row.reminder_at is not None
    rang = row.reminder_at - 3600  # before either due time: moves put them later since
    early = replace(row, alarm=(rang, None))
    rearmed = dues.due_change(early, rang, rang, found)
    assert rearmed is not None and rearmed.after is early and found.rearmed
    assert not found.stopped
