"""The courier within Discord's rate limits, against a fake Discord that enforces them: no
429 under a load that fits, turn notifications ahead of boards when it does not, the queue
drained without loss, deleted threads not asked again."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.discord import courier as courier_module
from bot.service import Delivery, MatchService, PlayerRef
from tests.bot.discord.conftest import StartBot
from tests.bot.discord.driver import Table
from tests.fakediscord import FakeDiscord, FakeUser


async def test_no_429_and_at_most_two_limited_requests_per_turn(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser, carol: FakeUser
) -> None:
    """Two matches at once, each move made as soon as it is answered: faster than a thread
    may be posted in (5 messages per 5 s), so the courier has to pace itself by the headers."""
    bot = await start_bot()
    tables = [
        await Table.open(fake, bot, "ecarte", "", alice, bob),
        await Table.open(fake, bot, "piquet", "deals=1", bob, carol),
    ]
    since = len(fake.requests)
    turns = 0
    rng = random.Random(4)
    # Turn about, each move as soon as the last is answered (one at a time, so that the
    # driver's secrecy checks read only their own match's messages).
    for _ in range(8):
        for table in tables:
            before = (await bot.service.get(table.match_id)).to_move
            if await table.step(rng, check_images=False):
                turns += (await bot.service.get(table.match_id)).to_move != before
    await bot.courier.settled()
    requests = fake.requests[since:]
    assert not [r for r in requests if r.status == 429], requests
    limited = [r for r in requests if r.limited and r.user_id is None]  # DM channels apart
    assert turns >= 6 and len(limited) <= 2 * turns, (len(limited), turns)


async def _matches(fake: FakeDiscord, service: MatchService, games: list[str]) -> list[int]:
    """Matches started and told, each in its own thread, its players all different."""
    found = []
    for index, game in enumerate(games):
        one, two = fake.add_user(f"N{index}"), fake.add_user(f"S{index}")
        a, b = PlayerRef(one.id, one.name), PlayerRef(two.id, two.name)
        info, told = await service.challenge(
            a, b, game, guild_id=fake.guild_id, channel_id=fake.channel_id
        )
        info, more = await service.accept(info.id, b)
        await service.delivered(told + more)
        await service.set_thread(info.id, fake.add_thread(fake.channel_id, f"m{index}"))
        found.append(info.id)
    return found


async def _moves(service: MatchService, match_id: int, count: int) -> list[Delivery]:
    rng = random.Random(match_id)
    owed: list[Delivery] = []
    for _ in range(count):
        info = await service.get(match_id)
        assert info.to_move is not None
        move = rng.choice(await service.legal_moves(match_id, info.to_move))
        owed += (await service.move(match_id, info.to_move, move))[1]
    return owed


async def test_overloaded_turns_go_first_boards_coalesce_and_nothing_is_lost(
    fake: FakeDiscord, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(courier_module, "MID_TURN_WAIT", 0.3)
    bot = await start_bot()
    # Discord allows 5 requests a second here, the courier 4: far less than is owed.
    fake.global_limit = 5
    bot.courier.gauge.per_second = 4
    matches = await _matches(fake, bot.service, ["ecarte", "piquet", "bezique"] * 2)
    owed = [d for m in matches for d in await _moves(bot.service, m, 3)]
    since, asked = len(fake.log), len(fake.requests)
    await bot.courier.deliver(owed)
    await bot.courier.settled(timeout=60)
    await asyncio.sleep(0.4)  # boards held in mid-turn are due now
    await bot.courier.settled(timeout=60)
    sent = [s for s in fake.log[since:] if s.kind == "message"]
    assert not [r for r in fake.requests[asked:] if r.status == 429]
    # Every turn notification left before any board.
    kinds = ["dm" if s.dm_to is not None else "board" for s in sent]
    assert "dm" in kinds and "board" in kinds
    assert kinds.index("board") > max(i for i, k in enumerate(kinds) if k == "dm"), [
        (s.content[:60], s.at) for s in sent
    ]
    # One board per match, the latest: never a stale one.
    for match_id in matches:
        last = [d for d in owed if d.kind == "board" and d.match_id == match_id][-1]
        title = last.text.split("\n")[0]  # "**Écarté #1**": the match's own first line
        posted = [s for s in sent if s.dm_to is None and s.content.split("\n")[0] == title]
        assert len(posted) == 1 and last.text in posted[0].content, (last.text, posted)
    # Drained without loss: the outbox owes nothing.
    assert await bot.service.unsent() == []


async def test_a_deleted_thread_is_asked_once(fake: FakeDiscord, start_bot: StartBot) -> None:
    bot = await start_bot()
    (match_id,) = await _matches(fake, bot.service, ["piquet"])
    thread = (await bot.service.get(match_id)).thread_id
    assert thread is not None
    del fake.channels[thread]  # deleted by a moderator
    for _ in range(3):
        await bot.courier.deliver(await _moves(bot.service, match_id, 1))
        await bot.courier.settled()
    refused = [r for r in fake.requests if r.channel_id == thread]
    assert [r.status for r in refused] == [404]
    assert await bot.service.unsent() == []
