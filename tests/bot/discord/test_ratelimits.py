"""The courier within Discord's rate limits, against a fake Discord that enforces them: no
429 under a load that fits, turn notifications ahead of boards when it does not, the queue
drained without loss, deleted threads not asked again."""

from __future__ import annotations

import inspect
import random

import pytest

from bench.capacity import Tally, _Pictures
from bot.discord import courier as courier_module
from bot.discord.client import TapisBot
from bot.discord.config import ConfigError, Settings
from bot.discord.pacing import BUDGET_PER_SECOND
from bot.discord.painter import Painter
from bot.service import Delivery, MatchService, PlayerRef
from tests.bot.discord.conftest import StartBot
from tests.bot.discord.driver import Table
from tests.fakediscord import FakeDiscord, FakeUser
from tests.waiting import until


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
    # Discord allows 5 requests a second here, the courier 4 (its setting,
    # TAPIS_GLOBAL_REQUESTS_PER_SECOND): far less than is owed.
    bot = await start_bot(requests_per_second=4)
    fake.global_limit = 5
    matches = await _matches(fake, bot.service, ["ecarte", "piquet", "bezique"] * 2)
    owed = [d for m in matches for d in await _moves(bot.service, m, 3)]
    since, asked = len(fake.log), len(fake.requests)
    await bot.courier.deliver(owed)
    await _drained(bot)  # boards held in mid-turn went too
    sent = [s for s in fake.log[since:] if s.kind == "message"]
    assert not [r for r in fake.requests[asked:] if r.status == 429]
    # Every turn notification left before any board.
    kinds = ["dm" if s.dm_to is not None else "board" for s in sent]
    assert "dm" in kinds and "board" in kinds
    assert kinds.index("board") > max(i for i, k in enumerate(kinds) if k == "dm"), [
        (s.content[:60], s.at) for s in sent
    ]
    # One board per match, the latest, naming the moves of the boards it replaced.
    for match_id in matches:
        boards = [d for d in owed if d.kind == "board" and d.match_id == match_id]
        title = boards[-1].text.split("\n")[0]  # "**Écarté #1**": the match's own first line
        posted = [s for s in sent if s.dm_to is None and s.content.split("\n")[0] == title]
        assert len(posted) == 1, (title, posted)
        said = posted[0].content.split("\n")
        tail = boards[-1].text.split("\n")[1 + len(boards[-1].news) :]
        assert "\n".join(tail) in posted[0].content  # the scores and turn: the latest board's
        assert [line for line in said if line in _news(boards)] == [
            line for board in boards for line in board.news
        ]
    # Drained without loss: the outbox owes nothing.
    assert await bot.service.unsent() == []


async def test_the_global_budget_is_a_setting_the_courier_paces_by() -> None:
    """A bot Discord granted a higher global limit raises the courier's budget with
    ``TAPIS_GLOBAL_REQUESTS_PER_SECOND``; unset, it stays under the usual 50."""
    base = {"DISCORD_TOKEN": "t"}
    assert Settings.from_env(base).requests_per_second == BUDGET_PER_SECOND == 47
    assert TapisBot(Settings.from_env(base)).courier.gauge.per_second == BUDGET_PER_SECOND
    raised = Settings.from_env({**base, "TAPIS_GLOBAL_REQUESTS_PER_SECOND": " 1200 "})
    assert raised.requests_per_second == 1200
    bot = TapisBot(raised)
    assert bot.courier.gauge.per_second == 1200
    # And workers enough to keep that many requests going (Discord answers in some 150 ms).
    assert TapisBot(Settings.from_env(base)).courier.workers == courier_module.WORKERS == 8
    assert courier_module.workers_for(100) == 18 and bot.courier.workers == 64
    # The one gauge that sees every response is the one the courier asks for room.
    assert bot.http.http_trace is bot.courier.gauge.trace
    for wrong in ("0", "-5", "fifty", "2.5", "1000000"):
        with pytest.raises(ConfigError, match="TAPIS_GLOBAL_REQUESTS_PER_SECOND"):
            Settings.from_env({**base, "TAPIS_GLOBAL_REQUESTS_PER_SECOND": wrong})


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


async def _drained(bot: TapisBot) -> None:
    """Wait until everything owed went, the boards held in mid-turn too."""

    async def owes_nothing() -> bool:
        left = await bot.service.database.fetchone(
            "SELECT COUNT(*) AS n FROM outbox WHERE sent_at IS NULL"
        )
        return left is not None and left["n"] == 0

    await until(owes_nothing, "every message owed to go")
    await bot.courier.settled(timeout=60)


def _news(boards: list[Delivery]) -> set[str]:
    return {line for board in boards for line in board.news}


async def test_a_burst_of_moves_is_told_in_the_thread_every_move_once_in_order(
    fake: FakeDiscord, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Moves far faster than a thread may be posted in: its boards coalesce, and the posts
    together still name every move, each once, in the order they were made."""
    monkeypatch.setattr(courier_module, "MID_TURN_WAIT", 0.3)
    bot = await start_bot()
    (match_id,) = await _matches(fake, bot.service, ["cinq-as"])
    thread = (await bot.service.get(match_id)).thread_id
    since = len(fake.log)
    boards: list[Delivery] = []
    for _ in range(24):  # a play and a draw each turn: boards held in mid-turn, too
        owed = await _moves(bot.service, match_id, 1)
        boards += [d for d in owed if d.kind == "board"]
        await bot.courier.deliver(owed)
    await _drained(bot)  # a board held in mid-turn went too
    posts = [s for s in fake.log[since:] if s.channel_id == thread and s.kind == "message"]
    assert 1 < len(posts) < len(boards)  # they did coalesce
    said = [line for post in posts for line in post.content.split("\n") if line in _news(boards)]
    assert said == [line for board in boards for line in board.news]
    assert await bot.service.unsent() == []


async def test_boards_held_at_a_stop_are_told_together_after_the_restart(
    fake: FakeDiscord, start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(courier_module, "MID_TURN_WAIT", 30.0)  # held past the stop
    bot = await start_bot()
    (match_id,) = await _matches(fake, bot.service, ["cinq-as"])
    thread = (await bot.service.get(match_id)).thread_id
    owed = await _moves(bot.service, match_id, 5)  # play, draw, play, draw, play: mid-turn
    boards = [d for d in owed if d.kind == "board"]
    await bot.courier.deliver(owed)  # at once, as a replay would: one board, carrying four
    await bot.courier.settled()
    assert not [s for s in fake.log if s.channel_id == thread]
    monkeypatch.setattr(courier_module, "MID_TURN_WAIT", 0.2)
    bot = await start_bot()  # the first stops with its board held: every board stays owed
    post = await fake.wait_for(lambda s: s.channel_id == thread, timeout=20)
    said = [line for line in post.content.split("\n") if line in _news(boards)]
    assert said == [line for board in boards for line in board.news]
    await bot.courier.settled()
    assert await bot.service.unsent() == []
    assert len([s for s in fake.log if s.channel_id == thread]) == 1


def test_the_capacity_bench_counts_a_turn_once_it_is_over() -> None:
    tally = Tally()
    assert tally.move("cinq-as", 1, 1, active=True)  # a play: the turn goes on
    assert not tally.move("cinq-as", 1, 2, active=True)  # the draw ends it
    assert tally.move("cinq-as", 2, 2, active=True)  # half a turn when the run stops
    assert not tally.move("ecarte", 1, 2, active=True)
    assert not tally.move("ecarte", 2, None, active=False)  # the last move ends a turn too
    assert tally.moves == {"cinq-as": 3, "ecarte": 2}
    assert tally.turns == {"cinq-as": 1, "ecarte": 2}
    assert tally.per_turn("cinq-as", 2) == 2.0 and tally.per_turn("piquet", 0) == 0.0


@pytest.mark.parametrize("name", ["hand", "table"])
def test_the_capacity_bench_draws_nothing_but_is_asked_as_the_painter_is(name: str) -> None:
    """Its stand-in takes every keyword the courier passes the painter, or the bench's
    deliveries fail instead of measuring the queue."""
    painter = inspect.signature(getattr(Painter, name)).parameters
    stand_in = inspect.signature(getattr(_Pictures, name)).parameters
    keywords = {n for n, p in painter.items() if p.kind is p.KEYWORD_ONLY}
    assert keywords <= set(stand_in)


async def test_a_dm_channel_is_opened_once_and_remembered_across_restarts(
    fake: FakeDiscord, start_bot: StartBot
) -> None:
    async def play(bot: TapisBot, match_id: int) -> set[int | None]:
        """Moves until both players were sent their turn; who was sent one."""
        since, told = len(fake.requests), set[int | None]()
        while len(told) < 2:
            owed = await _moves(bot.service, match_id, 1)
            boards = [d for d in owed if d.kind == "board"]  # the thread is not the point
            await bot.service.delivered(boards)
            await bot.courier.deliver([d for d in owed if d not in boards])
            await bot.courier.settled()
            new = fake.requests[since:]
            told |= {fake.dm_recipient(r.channel_id) for r in new if r.channel_id is not None}
            told.discard(None)  # the thread, or a channel Discord no longer knows
        return told

    bot = await start_bot()
    (match_id,) = await _matches(fake, bot.service, ["ecarte"])
    players = await play(bot, match_id)
    opened = {r.user_id for r in fake.requests if r.user_id is not None}
    assert opened == players  # each player's, once
    bot = await start_bot()  # a restart: a new process on the same database
    since = len(fake.requests)
    assert await play(bot, match_id) == players
    assert not [r for r in fake.requests[since:] if r.user_id is not None]  # none reopened
    # A remembered channel Discord no longer knows is opened afresh, once, and stored.
    for user_id in players:
        assert user_id is not None
        del fake.channels[fake.dm_channels.pop(user_id)]
    since = len(fake.requests)
    assert await play(bot, match_id) == players
    assert sorted(r.user_id for r in fake.requests[since:] if r.user_id is not None) == sorted(
        players
    )
    for user_id in players:
        assert user_id is not None
        stored = await bot.service.player(user_id)
        assert stored is not None and stored.dm_channel == fake.dm_channels[user_id]
