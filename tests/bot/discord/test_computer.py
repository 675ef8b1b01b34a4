"""Playing the computer on the fake Discord: a whole match, its moves in the thread, and a
restart in the middle of its turn."""

from __future__ import annotations

import random
from pathlib import Path
from typing import cast

import pytest

import ai
import games
from bot.discord.config import ConfigError, Settings
from bot.service import MatchService, PlayerRef
from bot.service.computer import (
    COMPUTER_IDS,
    Computer,
    computer_player,
    level_description,
    level_of,
)
from games.words import ENGLISH
from tests.bot.discord.conftest import StartBot
from tests.bot.discord.driver import Table
from tests.fakediscord import FakeDiscord, FakeUser
from tests.waiting import until


async def test_a_whole_match_against_the_computer(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser
) -> None:
    bot = await start_bot()
    assert bot.computer is not None
    handle = await fake.slash(
        alice, "challenge", game="ecarte", opponent=fake.bot_user, level="easy"
    )
    started = await handle.finished()
    assert "started" in started.content, started.content
    assert level_description("easy", ENGLISH) in started.content  # what the level is like
    (info,) = await bot.service.matches_of(alice.id)
    assert info.status == "active" and info.thread_id is not None
    computer = computer_player("easy")
    assert info.seats is not None and computer in info.seats
    players = {alice.id: alice, computer.user_id: FakeUser(computer.user_id, computer.name)}
    table = Table(fake, bot, players, info.id, info.thread_id)
    rng = random.Random(3)
    for _ in range(400):
        await bot.computer.idle()  # its turns run in the background after each move
        info = await bot.service.get(table.match_id)
        if info.status != "active":
            break
        assert info.to_move == alice.id, "the computer left its turn unplayed"
        view = await bot.service.view_for(table.match_id, alice.id)
        made, _way = await table._make(alice, rng.choice(view["legal_moves"]), rng)
        await made.finished()
    assert info.status == "finished" and info.result is not None
    # Its moves appear in the thread like a player's, and nothing is sent to it privately.
    board = [s for s in fake.log if s.channel_id == info.thread_id and computer.name in s.content]
    assert any(f"{computer.name}: " in s.content for s in board)
    assert not [s for s in fake.log if fake.is_dm(s) and s.dm_to in COMPUTER_IDS.values()]
    assert await bot.service.leaderboard("ecarte", fake.guild_id) == []  # not rated
    # A rematch: the computer takes it at once, at the same level.
    offer = await fake.wait_for(lambda s: f"tapis:rematch:{info.id}" in s.custom_ids())
    press = await fake.press(alice, offer, f"tapis:rematch:{info.id}")
    answer = await press.finished()
    assert "started" in answer.content, answer.content
    again = [m for m in await bot.service.matches_of(alice.id) if m.id != info.id]
    assert len(again) == 1 and again[0].status == "active" and again[0].seats is not None
    assert computer in again[0].seats
    await bot.computer.idle()
    assert fake.unexpected == []


async def test_a_level_alone_is_explained(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser
) -> None:
    await start_bot()
    handle = await fake.slash(alice, "challenge", game="piquet", opponent=bob, level="strong")
    answer = await handle.finished()
    assert "level is for playing the computer" in answer.content


async def test_the_computer_takes_up_its_turn_after_a_restart(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, tmp_path: Path
) -> None:
    # A match left (by a stopped bot) with the computer to move.
    service = await MatchService.open(tmp_path / "tapis.db")
    computer = computer_player("normal")
    me = PlayerRef(alice.id, alice.name)
    info, _ = await service.challenge(
        me, computer, "ecarte", guild_id=fake.guild_id, channel_id=fake.channel_id, rated=False
    )
    info, _ = await service.accept(info.id, computer)
    rng = random.Random(1)
    while info.to_move != computer.user_id:
        legal = await service.legal_moves(info.id, alice.id)
        info, _ = await service.move(info.id, alice.id, rng.choice(legal))
    version = info.version
    await service.close()
    bot = await start_bot()
    assert bot.computer is not None
    match_id = info.id

    async def moved() -> bool:
        now = await bot.service.get(match_id)
        return now.version > version and now.to_move != computer.user_id

    await until(moved, "the computer to move")
    info = await bot.service.get(match_id)
    assert info.version > version and info.to_move == alice.id
    posted = await fake.wait_for(lambda s: fake.is_public(s) and f"{computer.name}: " in s.content)
    assert posted.channel_id == fake.channel_id  # its move is shown where the match lives


def test_the_computers_settings_and_identity() -> None:
    base = {"DISCORD_TOKEN": "t"}
    default = Settings.from_env(base)
    assert default.computer_pause == 1.5 and default.computer_processes == 1
    chosen = Settings.from_env(
        {**base, "TAPIS_COMPUTER_PAUSE": "0.25", "TAPIS_COMPUTER_PROCESSES": "0"}
    )
    assert chosen.computer_pause == 0.25 and chosen.computer_processes == 0
    with pytest.raises(ConfigError, match="TAPIS_COMPUTER_PAUSE"):
        Settings.from_env({**base, "TAPIS_COMPUTER_PAUSE": "soon"})
    with pytest.raises(ConfigError, match="TAPIS_COMPUTER_PROCESSES"):
        Settings.from_env({**base, "TAPIS_COMPUTER_PROCESSES": "-1"})
    with pytest.raises(ValueError, match="levels are easy, normal, strong"):
        computer_player("expert")
    assert [level_of(computer_player(lv).user_id) for lv in ("easy", "normal", "strong")] == [
        "easy",
        "normal",
        "strong",
    ]
    assert level_of(123456789012345678) is None


async def test_the_computer_decides_in_a_worker_process_as_it_would_here(tmp_path: Path) -> None:
    """The bot's way (a worker process) and the sandbox's tests' way (a thread) agree: a
    decision is fixed by the view and the seed."""
    service = await MatchService.open(tmp_path / "tapis.db")
    computer = Computer(service, processes=1)
    try:
        state = games.get("piquet").new_match(seed=11)
        seat = state.to_move
        assert seat is not None
        view = cast(dict[str, object], state.view(seat))
        here = ai.choose("piquet", view, "normal", 7)
        assert await computer.decide("piquet", view, "normal", 7) == here
        assert computer.workers.pool is not None  # it did go to a worker
    finally:
        await computer.close()
        await service.close()
