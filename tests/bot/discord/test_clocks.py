"""Turn clocks on Discord: a reminder by DM, then the loss on time in the thread — both
delivered by a bot started after they fell due, as after a restart."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.service import MatchService
from tests.bot.discord.conftest import StartBot
from tests.bot.discord.driver import Table
from tests.fakediscord import FakeDiscord, FakeUser


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def test_reminder_then_loss_on_time_survive_restarts(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser, tmp_path: Path
) -> None:
    clock = Clock()
    database = tmp_path / "tapis.db"
    service = await MatchService.open(database, now=clock)
    bot = await start_bot(service)
    table = await Table.open(fake, bot, "piquet", "deals=1", alice, bob, days=1)
    info = await service.get(table.match_id)
    late = table.players[info.to_move]
    await bot.close()
    await service.close()

    # Down for 13 hours: the reminder (12 hours before the deadline) fell due meanwhile.
    clock.now += timedelta(hours=13)
    since = len(fake.log)
    service = await MatchService.open(database, now=clock)
    bot = await start_bot(service)
    reminder = await fake.wait_for(lambda s: s.dm_to == late.id, since=since)
    assert f"#{table.match_id}" in reminder.content
    await bot.close()
    await service.close()

    # Down past the deadline: the next start declares the loss on time, in the thread.
    clock.now += timedelta(hours=12)
    since = len(fake.log)
    service = await MatchService.open(database, now=clock)
    bot = await start_bot(service)
    lost = await fake.wait_for(
        lambda s: s.channel_id == table.thread_id and "time" in s.content.lower(), since=since
    )
    assert late.name in lost.content
    info = await service.get(table.match_id)
    assert info.status == "finished" and info.result is not None
    await bot.close()
    await service.close()


async def test_a_late_move_is_refused_and_the_loss_on_time_told(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser, tmp_path: Path
) -> None:
    """Two days late, before the clock task came by (it sleeps until woken): the mover is
    told it is too late, and the thread hears of the loss on time, once."""
    clock = Clock()
    service = await MatchService.open(tmp_path / "tapis.db", now=clock)
    bot = await start_bot(service)
    table = await Table.open(fake, bot, "piquet", "deals=1", alice, bob, days=1)
    info = await service.get(table.match_id)
    late = table.players[info.to_move]
    move = (await service.legal_moves(table.match_id, late.id))[0]
    clock.now += timedelta(hours=48)
    since = len(fake.log)
    handle = await fake.slash(late, "play", move=move, match=table.match_id)
    refusal = await fake.wait_for(
        lambda s: s.token == handle.token and "too late" in s.content.lower()
    )
    assert refusal.ephemeral or fake.is_dm(refusal) or refusal.kind in ("followup", "edit")
    lost = await fake.wait_for(
        lambda s: s.channel_id == table.thread_id and "time" in s.content.lower(), since=since
    )
    assert late.name in lost.content
    info = await service.get(table.match_id)
    assert info.status == "finished" and info.result is not None
    assert info.result["how"] == "time" and info.version == 0
    await bot.close()
    await service.close()
