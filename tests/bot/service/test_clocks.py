"""Turn clocks with an injected clock: reminders, losses on time, restarts (no real waiting)."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta
from pathlib import Path

import pytest

from bot.service import Delivery, MatchService, clocks, dues
from tests.bot.conftest import ALICE, BOB, FakeClock, play_random, start_match, write
from tests.waiting import until


async def test_a_move_starts_the_clock_of_the_player_to_move(
    service: MatchService, clock: FakeClock
) -> None:
    info = await start_match(service, days=3)
    assert info.deadline == clock.now + timedelta(days=3)
    first_reminder = (info.deadline - timedelta(hours=12)).timestamp()
    clock.advance(hours=5)
    info = await play_random(service, info, random.Random(1), moves=1)
    assert info.deadline == clock.now + timedelta(days=3)
    untimed = await start_match(service)
    assert untimed.deadline is None
    # The move put the due times later and left the match's alarm as it was, so the clock
    # task still looks at the first reminder's time; it finds nothing due then, says
    # nothing, and sets the alarm to the turn's own reminder.
    assert await service.next_clock_event() == first_reminder
    clock.advance(days=2, hours=7)
    assert await service.check_clocks() == []
    assert await service.next_clock_event() == (info.deadline - timedelta(hours=12)).timestamp()
    assert await service.verify(info.id)


async def test_reminder_then_loss_on_time(service: MatchService, clock: FakeClock) -> None:
    info = await start_match(service, days=1)
    assert info.to_move is not None
    late = info.to_move
    assert await service.check_clocks() == []

    clock.advance(hours=12, minutes=1)
    (reminder,) = await service.check_clocks()
    assert reminder.kind == "dm" and reminder.to == late
    assert "Reminder" in reminder.text and "11 hours" in reminder.text
    assert await service.check_clocks() == []  # never twice

    clock.advance(hours=12)
    deliveries = await service.check_clocks()
    assert [d.kind for d in deliveries] == ["notice", "board", "dm"]
    assert "ran out of time" in deliveries[0].text and deliveries[2].to == late
    info = await service.get(info.id)
    winner = 1 - info.seat_of(late)  # type: ignore[operator]
    assert info.status == "finished" and info.result is not None
    assert info.result["how"] == "time" and info.result["winner"] == winner
    assert info.deadline is None
    assert await service.next_clock_event() is None
    loser = await service.stats(late, "cinq-as")
    assert loser.losses == 1 and loser.losses_on_time == 1 and loser.resignations == 0
    other = ALICE.user_id if late == BOB.user_id else BOB.user_id
    assert (await service.stats(other, "cinq-as")).wins_on_time == 1
    assert await service.verify(info.id)


async def test_a_move_in_time_puts_off_the_deadline(
    service: MatchService, clock: FakeClock
) -> None:
    info = await start_match(service, days=1)
    clock.advance(hours=20)
    info = await play_random(service, info, random.Random(2), moves=1)
    clock.advance(hours=10)
    assert await service.check_clocks() == []
    assert (await service.get(info.id)).status == "active"


async def test_the_clock_task_sleeps_to_the_earliest_and_is_woken(
    service: MatchService, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    delivered: asyncio.Queue[Delivery] = asyncio.Queue()

    async def deliver(deliveries: list[Delivery]) -> None:
        for delivery in deliveries:
            delivered.put_nowait(delivery)

    # Each pass of the task ends by asking when to look next: the test waits on that answer.
    passes: asyncio.Queue[float | None] = asyncio.Queue()
    next_due = service.clock.next_due

    async def watched() -> float | None:
        due = await next_due()
        passes.put_nowait(due)
        return due

    monkeypatch.setattr(service.clock, "next_due", watched)
    task = asyncio.create_task(service.run_clocks(deliver))
    try:
        assert await asyncio.wait_for(passes.get(), 5) is None  # nothing to wait for
        info = await start_match(service, days=7)
        # Woken by the new deadline, it now sleeps until the reminder.
        reminder_at = clock.now + timedelta(days=7) - timedelta(hours=12)
        await until(lambda: service.clock_next == reminder_at.timestamp(), "the reminder planned")
        sooner = await start_match(service, days=1)
        sooner_at = (clock.now + timedelta(hours=12)).timestamp()
        await until(lambda: service.clock_next == sooner_at, "the sooner reminder planned")

        clock.advance(days=1, minutes=1)
        service.wake_clocks()
        kinds = [(await asyncio.wait_for(delivered.get(), 5)).kind for _ in range(3)]
        assert kinds == ["notice", "board", "dm"]
        assert (await service.get(sooner.id)).result["how"] == "time"  # type: ignore[index]
        assert (await service.get(info.id)).status == "active"
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task


async def test_clocks_survive_a_restart(db_path: Path, clock: FakeClock) -> None:
    service = await MatchService.open(db_path, now=clock)
    info = await start_match(service, days=3)
    await service.close()

    clock.advance(days=2, hours=13)  # past the reminder while nothing ran
    service = await MatchService.open(db_path, now=clock)
    delivered: list[Delivery] = []
    got = asyncio.Event()

    async def deliver(deliveries: list[Delivery]) -> None:
        delivered.extend(deliveries)
        got.set()

    task = asyncio.create_task(service.run_clocks(deliver))
    try:
        await asyncio.wait_for(got.wait(), 5)
        assert [d.kind for d in delivered] == ["dm"] and delivered[0].to == info.to_move
        planned = info.deadline.timestamp() if info.deadline else None
        await until(lambda: service.clock_next == planned, "the deadline planned")  # then
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        await service.close()

    clock.advance(days=1)  # and past the deadline, after another restart
    service = await MatchService.open(db_path, now=clock)
    try:
        deliveries = await service.check_clocks()
        assert [d.kind for d in deliveries] == ["notice", "board", "dm"]
    finally:
        await service.close()


async def test_a_damaged_match_does_not_stop_the_clocks(
    service: MatchService, db_path: Path, clock: FakeClock
) -> None:
    broken = await start_match(service, days=1)
    fine = await start_match(service, days=1)
    write(db_path, "UPDATE matches SET state = '{' WHERE id = ?", broken.id)
    service.store.cache.clear()  # as after a restart
    clock.advance(days=2)
    deliveries = await service.check_clocks()
    assert {d.match_id for d in deliveries} == {fine.id}
    assert (await service.get(fine.id)).status == "finished"
    assert (await service.get(broken.id)).status == "corrupt"


def test_clock_arithmetic() -> None:
    assert clocks.check_days(None) is None and clocks.check_days(0) is None
    assert clocks.check_days(7) == 7
    for bad in (-1, 31, 1.5, "3", True):
        with pytest.raises(ValueError, match="days per move"):
            clocks.check_days(bad)
    assert clocks.deadline_after(0.0, None) == (None, None)
    assert clocks.deadline_after(0.0, 1) == (86_400.0, 43_200.0)
    assert clocks.deadline_after(0.0, 3) == (3 * 86_400.0, 3 * 86_400.0 - 43_200.0)
    assert clocks.describe_left(2 * 86_400 + 3 * 3600) == "2 days 3 hours"
    assert clocks.describe_left(40 * 60) == "40 minutes"
    assert clocks.describe_left(-5) == "less than a minute"


async def test_a_failing_delivery_does_not_stop_the_clock_task(
    service: MatchService, clock: FakeClock
) -> None:
    calls: list[list[Delivery]] = []
    second = asyncio.Event()

    async def deliver(deliveries: list[Delivery]) -> None:
        calls.append(deliveries)
        if len(calls) == 1:
            raise ConnectionError("Discord is down")
        second.set()

    first = await start_match(service, days=1)
    await start_match(service, days=3)
    clock.advance(hours=13)
    task = asyncio.create_task(service.run_clocks(deliver))
    try:
        await until(lambda: calls, "the first delivery")
        assert calls[0][0].match_id == first.id
        clock.advance(days=3)
        service.wake_clocks()
        await asyncio.wait_for(second.wait(), 5)
        assert task.done() is False
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def test_a_match_whose_clock_fails_is_set_aside(
    service: MatchService, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = await start_match(service, days=1)
    fine = await start_match(service, days=1)
    original = dues.end_without_move

    def failing_end(row, *args):  # type: ignore[no-untyped-def]
        if row.id == broken.id:
            raise RuntimeError("engine trouble")
        return original(row, *args)

    monkeypatch.setattr(dues, "end_without_move", failing_end)
    clock.advance(days=2)
    deliveries = await service.check_clocks()
    assert {d.match_id for d in deliveries} == {fine.id}
    assert (await service.get(broken.id)).status == "corrupt"
    assert await service.next_clock_event() is None  # nothing left to spin on
