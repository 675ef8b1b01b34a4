"""Matches where the bot is no member: a group DM between friends, a server without Tapis.

Only the challenger installed Tapis to their account. Everything the conversation sees is
an answer to an interaction made there: the challenge card, then each move's board; each
player's hand is theirs alone (a private answer, or their DM with the bot). The fake refuses
what Discord would (a post of the bot's own there, a sixth follow-up, a token past 15
minutes), and the ``fake`` fixture fails a test for any refusal.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import games
from bot.discord.client import TapisBot
from bot.service import MatchService
from games.moves import move_cards
from tests.bot.discord.conftest import StartBot
from tests.bot.discord.driver import Table, _component, menu_values
from tests.fakediscord import FakeDiscord, FakeInteraction, FakeUser, Sent
from tests.waiting import until

HAND = "tapis:myhand:"


def short(game: str) -> str:
    return " ".join(f"{name}={value}" for name, value in games.get(game).short_options().items())


class TalkTable(Table):
    """A match in a conversation, played there: each move from the mover's private hand,
    asked with the latest board's *My hand*; each move's answer carries the new board."""

    last: FakeInteraction | None = None
    boards: int = 0

    @classmethod
    async def open_here(
        cls,
        fake: FakeDiscord,
        bot: TapisBot,
        game: str,
        challenger: FakeUser,
        opponent: FakeUser,
        channel: int,
        days: int | None = None,
    ) -> TalkTable:
        extra = {"days": days} if days else {}
        handle = await fake.slash(
            challenger, "challenge", channel, game=game, opponent=opponent, options=short(game),
            **extra,
        )  # fmt: skip
        card = await fake.wait_for(
            lambda s: s.token == handle.token and any("accept" in c for c in s.custom_ids()),
            since=handle.since,
        )
        assert fake.is_public(card) and f"<@{opponent.id}>" in card.content
        match_id = int(card.custom_ids()[0].split(":")[-1])
        press = await fake.press(opponent, card, f"tapis:accept:{match_id}")
        board = await fake.wait_for(
            lambda s: s.token == press.token and fake.is_public(s) and bool(s.files),
            since=press.since,
        )
        assert any(c.startswith(HAND) for c in board.custom_ids())
        await bot.courier.settled()
        info = await bot.service.get(match_id)
        assert info.status == "active" and info.talk and info.guild_id is None
        players = {challenger.id: challenger, opponent.id: opponent}
        return cls(fake, bot, players, match_id, channel)

    def latest_board(self) -> Sent:
        return next(
            s
            for s in reversed(self.fake.log)
            if s.channel_id == self.thread_id
            and self.fake.is_public(s)
            and f"{HAND}{self.match_id}" in s.custom_ids()
        )

    async def my_hand(self, user: FakeUser) -> Sent:
        """``user`` presses *My hand* on the latest board: their hand, privately."""
        press = await self.fake.press(user, self.latest_board(), f"{HAND}{self.match_id}")
        hand = await self.fake.wait_for(
            lambda s: s.token == press.token and s.kind == "followup" and s.reader == user.id,
            since=press.since,
        )
        assert hand.ephemeral and hand.files
        return hand

    async def _make(
        self, user: FakeUser, move: str, rng: random.Random
    ) -> tuple[FakeInteraction, str]:
        hand = await self.my_hand(user)
        ids = hand.custom_ids()
        verb = move.split()[0]
        button = next((c for c in ids if _component(c, "move", self.match_id) == move), "")
        pick = next((c for c in ids if _component(c, "pick", self.match_id) == verb), "")
        whole = next((c for c in ids if _component(c, "pick", self.match_id) == ""), "")
        if button:
            handle, way = await self.fake.press(user, hand, button), "button"
        elif pick:
            values = menu_values(hand, pick, move_cards(move))
            handle, way = await self.fake.choose(user, hand, pick, values), "select"
        elif whole:
            handle, way = await self.fake.choose(user, hand, whole, [move]), "select"
        else:
            handle, way = await self.fake.slash(user, "play", self.thread_id, move=move), "slash"
        self.last = handle
        return handle, way

    async def step(self, rng: random.Random, *, check_images: bool) -> bool:
        moved = await super().step(rng, check_images=check_images)
        if moved:
            assert self.last is not None
            token = self.last.token
            # The move's own answer carries the board, for everyone in the conversation.
            board = await self.fake.wait_for(
                lambda s: s.token == token and self.fake.is_public(s) and bool(s.files),
                since=self.last.since,
            )
            assert board.kind == "followup" and board.channel_id == self.thread_id
            self.boards += 1
        return moved


async def check_result(bot: TapisBot, fake: FakeDiscord, table: TalkTable, game: str) -> None:
    info = await bot.service.get(table.match_id)
    assert info.status == "finished" and info.result is not None and info.guild_id is None
    assert info.seats is not None
    for player in info.seats:
        everywhere = await bot.service.stats(player.user_id, game, None)
        assert everywhere.games == 1 and everywhere.rating is not None
        here = await bot.service.stats(player.user_id, game, fake.guild_id)
        assert here.games == 0  # no server's board
    assert await bot.service.leaderboard(game, fake.guild_id) == []
    assert fake.unexpected == []


# -- the normal suite: one short test per kind of place ---------------------------------------


@pytest.mark.parametrize("place", ["group DM", "server without the bot"])
async def test_a_match_where_the_bot_is_no_member(
    place: str, fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser
) -> None:
    fake.installed.add(alice.id)  # Bob never installed Tapis
    channel = fake.add_group_dm(alice, bob) if place == "group DM" else fake.add_outside_server()
    bot = await start_bot(dev_guild=False)
    game = "ecarte"
    table = await TalkTable.open_here(fake, bot, game, alice, bob, channel)
    rng = random.Random(3)
    for _ in range(3):
        assert await table.step(rng, check_images=True)
    assert table.boards == 3
    # Alice resigns, from her private question; the result answers it, in the conversation.
    question = await (await fake.slash(alice, "resign", channel)).finished()
    assert question.ephemeral
    confirm = next(c for c in question.custom_ids() if c.startswith("tapis:resign:confirm:"))
    press = await fake.press(alice, question, confirm)
    await fake.wait_for(
        lambda s: s.token == press.token and fake.is_public(s) and "resign" in s.content.lower(),
        since=press.since,
    )
    await bot.courier.settled()
    await check_result(bot, fake, table, game)
    # Never a post of the bot's own in the conversation.
    assert not [s for s in fake.log if s.kind == "message" and s.channel_id == channel]


async def test_resumed_after_a_restart_and_a_pause_of_twenty_minutes(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser
) -> None:
    fake.installed.add(alice.id)
    channel = fake.add_group_dm(alice, bob)
    bot = await start_bot(dev_guild=False)
    table = await TalkTable.open_here(fake, bot, "piquet", alice, bob, channel)
    rng = random.Random(5)
    assert await table.step(rng, check_images=False)
    # The bot restarts: the board's buttons still work, the next move's answer has the board.
    table.bot = bot = await start_bot(dev_guild=False)
    assert await table.step(rng, check_images=False)
    # Twenty minutes pass: every earlier token is dead; the next move brings its own.
    fake.advance(20 * 60)
    bot.courier.talks.clock = fake.now
    assert await table.step(rng, check_images=True)
    assert table.boards == 3


async def test_a_board_that_found_no_interaction_goes_with_the_next(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser
) -> None:
    """A move made from a DM hand after the conversation's last interaction died: its
    board waits in the outbox and is the first thing the next interaction there carries."""
    fake.installed.add(alice.id)
    channel = fake.add_group_dm(alice, bob)
    bot = await start_bot(dev_guild=False)
    table = await TalkTable.open_here(fake, bot, "ecarte", alice, bob, channel)
    fake.advance(20 * 60)
    bot.courier.talks.clock = fake.now
    info = await bot.service.get(table.match_id)
    mover = table.players[info.to_move or 0]
    legal = await bot.service.legal_moves(table.match_id, mover.id)
    since = len(fake.log)
    # Made as from the mover's DM hand: no interaction in the conversation goes with it.
    _, deliveries = await bot.service.move(table.match_id, mover.id, legal[0])
    await bot.courier.send(deliveries)
    other = next(u for u in table.players.values() if u is not mover)
    waiting = await bot.service.unsent_of(table.match_id)
    assert any(d.kind == "board" for d in waiting)
    await table.my_hand(other)
    board = await fake.wait_for(
        lambda s: fake.is_public(s) and bool(s.files) and s.channel_id == channel, since=since
    )
    assert board.kind == "followup"
    await bot.courier.settled()
    assert not [d for d in await bot.service.unsent_of(table.match_id) if d.kind == "board"]


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def test_the_clock_of_a_conversation_reminds_and_ends_by_dm(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser, tmp_path: Path
) -> None:
    """No post of the bot's can reach a conversation, so its clock speaks by DM: the
    reminder to the player to move, then the loss on time to both, across restarts; the
    conversation hears of the result with its next interaction."""
    fake.installed.add(alice.id)
    channel = fake.add_group_dm(alice, bob)
    clock, database = Clock(), tmp_path / "tapis.db"
    service = await MatchService.open(database, now=clock)
    bot = await start_bot(service, dev_guild=False)
    table = await TalkTable.open_here(fake, bot, "piquet", alice, bob, channel, days=1)
    info = await service.get(table.match_id)
    late = table.players[info.to_move or 0]
    other = next(u for u in table.players.values() if u is not late)
    await bot.close()
    await service.close()

    clock.now += timedelta(hours=13)  # the reminder, 12 hours before the deadline, is due
    since = len(fake.log)
    service = await MatchService.open(database, now=clock)
    bot = await start_bot(service, dev_guild=False)
    reminder = await fake.wait_for(lambda s: s.dm_to == late.id, since=since)
    assert f"#{table.match_id}" in reminder.content
    await bot.close()
    await service.close()

    clock.now += timedelta(hours=12)  # past the deadline: lost on time at the next start
    since = len(fake.log)
    service = await MatchService.open(database, now=clock)
    bot = await start_bot(service, dev_guild=False)
    told = await fake.wait_for(
        lambda s: s.dm_to == other.id and "time" in s.content.lower(), since=since
    )
    assert late.name in told.content and f"#{table.match_id}" in told.content
    info = await service.get(table.match_id)
    assert info.status == "finished" and info.result is not None
    assert info.result["how"] == "time"
    await bot.courier.settled()
    assert not [s for s in fake.log if s.kind == "message" and s.channel_id == channel]
    # The next interaction in the conversation carries the result there.
    since = len(fake.log)
    await (await fake.slash(alice, "board", channel, match=table.match_id)).finished()
    said = await fake.wait_for(
        lambda s: s.channel_id == channel and fake.is_public(s) and "is over" in s.content,
        since=since,
    )
    assert late.name in said.content and "time" in said.content

    async def all_said() -> bool:
        return await service.unsent_of(table.match_id) == []

    await until(all_said, "the conversation's owed messages marked sent")
    await bot.close()
    await service.close()


async def test_a_dm_that_cannot_go_waits_for_the_conversation_even_across_a_restart(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser, tmp_path: Path
) -> None:
    """The winner on time has closed their DMs: what the DM would have said is said in the
    conversation with its next interaction, once, though the bot restarted in between."""
    fake.installed.add(alice.id)
    channel = fake.add_group_dm(alice, bob)
    clock, database = Clock(), tmp_path / "tapis.db"
    service = await MatchService.open(database, now=clock)
    bot = await start_bot(service, dev_guild=False)
    table = await TalkTable.open_here(fake, bot, "ecarte", alice, bob, channel, days=1)
    info = await service.get(table.match_id)
    late = table.players[info.to_move or 0]
    winner = next(u for u in table.players.values() if u is not late)
    fake.dms_closed.add(winner.id)
    await bot.close()
    await service.close()

    clock.now += timedelta(hours=25)  # past the deadline: lost on time at the next start
    service = await MatchService.open(database, now=clock)
    bot = await start_bot(service, dev_guild=False)

    async def lost() -> bool:
        return (await service.get(table.match_id)).status == "finished"

    await until(lost, "the loss on time")
    await bot.courier.settled()
    owed = [
        d for d in await service.unsent_of(table.match_id) if d.to == winner.id and d.kind == "dm"
    ]
    assert owed, "the winner's DM waits in the outbox"
    await bot.close()
    await service.close()

    service = await MatchService.open(database, now=clock)  # a restart before anyone acts
    bot = await start_bot(service, dev_guild=False)
    await bot.courier.settled()
    since = len(fake.log)
    await (await fake.slash(alice, "board", channel, match=table.match_id)).finished()
    said = await fake.wait_for(
        lambda s: s.channel_id == channel and f"<@{winner.id}>" in s.content, since=since
    )
    assert fake.is_public(said) and late.name in said.content

    async def all_said() -> bool:
        return await service.unsent_of(table.match_id) == []

    await until(all_said, "every owed message marked sent")
    told = [
        s for s in fake.log[since:] if f"<@{winner.id}>" in s.content and s.channel_id == channel
    ]
    assert len(told) == 1
    await bot.close()
    await service.close()


async def test_forced_private_where_external_apps_are_off(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser
) -> None:
    """A server that turned *Use External Apps* off: every answer is private there; the
    challenge still goes through (/accept by an opponent who installed Tapis too) and each
    player still gets what is theirs, nothing refused."""
    fake.installed.update({alice.id, bob.id})
    channel = fake.add_outside_server(external_apps=False)
    bot = await start_bot(dev_guild=False)
    handle = await fake.slash(alice, "challenge", channel, game="ecarte", opponent=bob)
    card = await fake.wait_for(
        lambda s: s.token == handle.token and bool(s.custom_ids()), since=handle.since
    )
    assert card.ephemeral
    match_id = int(card.custom_ids()[0].split(":")[-1])
    accept = await fake.slash(bob, "accept", channel, match=match_id)
    await accept.finished()
    await bot.courier.settled()
    info = await bot.service.get(match_id)
    assert info.status == "active"
    assert not [s for s in fake.log if fake.is_public(s) and s.channel_id == channel]


async def test_the_synced_commands_say_where_they_are_offered(
    fake: FakeDiscord, start_bot: StartBot
) -> None:
    await start_bot(dev_guild=False)
    synced = {c["name"]: c for c in fake.commands[None]}
    anywhere = {"challenge", "accept", "decline", "play", "hand", "board", "resign"}
    anywhere |= {"matches", "replay", "rules", "hint", "review", "learn"}
    for name in anywhere:
        assert sorted(synced[name]["integration_types"]) == [0, 1], name
        assert sorted(synced[name]["contexts"]) == [0, 1, 2], name
    assert synced["tapis"]["integration_types"] == [0]
    assert sorted(synced["tapis"]["contexts"]) == [0, 1]
    assert synced["tournament"]["integration_types"] == [0]
    assert synced["tournament"]["contexts"] == [0]
    assert set(synced) == anywhere | {"tapis", "tournament"}


# -- whole matches, at Discord's pace ---------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("place", ["group DM", "server without the bot"])
@pytest.mark.parametrize("game", games.names())
async def test_a_whole_match_where_the_bot_is_no_member(
    game: str,
    place: str,
    fake: FakeDiscord,
    start_bot: StartBot,
    alice: FakeUser,
    bob: FakeUser,
) -> None:
    fake.installed.add(alice.id)
    channel = fake.add_group_dm(alice, bob) if place == "group DM" else fake.add_outside_server()
    bot = await start_bot(dev_guild=False)
    table = await TalkTable.open_here(fake, bot, game, alice, bob, channel)
    await table.play_out(seed=len(game))
    assert table.boards == table.moves
    await bot.courier.settled()
    await check_result(bot, fake, table, game)
    assert not [s for s in fake.log if s.kind == "message" and s.channel_id == channel]
