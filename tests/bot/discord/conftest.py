"""The real bot against the fake Discord: fixtures and a small driver for whole matches."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bot.discord.client import Beside, TapisBot
from bot.discord.config import Settings, point_at
from bot.service import MatchService
from tests.fakediscord import FakeDiscord, FakeUser

StartBot = Callable[..., Awaitable[TapisBot]]


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    yield server
    await server.stop()
    # Whatever the test, the bot sent nothing that Discord would have refused.
    assert server.refused == [], server.refused


@pytest.fixture
async def start_bot(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[StartBot]:
    """Start a bot on the fake (a new client each call, the same database); stop them all."""
    running: list[tuple[TapisBot, asyncio.Task[None]]] = []
    # Pictures drawn in threads: each bot's worker processes would start by importing the
    # bot and drawing a card of every game, seconds that every test here would wait through.
    # The workers themselves are tested in test_painter.py, and in a real process by
    # test_startup.py and tests/release.
    monkeypatch.setenv("TAPIS_RENDER_PROCESSES", "0")
    settings = Settings(
        token=fake.token,
        api_base=fake.api_base,
        gateway_url=fake.gateway_url,
        dev_guild=fake.guild_id,
        database=tmp_path / "tapis.db",
        computer_pause=0.0,
        computer_processes=0,
    )

    async def start(
        service: MatchService | None = None,
        *,
        dev_guild: bool = True,
        beside: Beside | None = None,
        **changes: Any,
    ) -> TapisBot:
        """``changes``: settings other than the fixture's (``requests_per_second=4``);
        ``beside``: what the process serves beside the bot (``python -m bot``: the site)."""
        for bot, task in running:  # a restart: the old process is gone first
            if not bot.is_closed():
                await bot.close()
                await asyncio.gather(task, return_exceptions=True)
        chosen = replace(settings, **changes)
        chosen = chosen if dev_guild else replace(chosen, dev_guild=None)
        point_at(chosen)
        # One guild: no need to wait discord.py's 2 s for more guilds to arrive.
        bot = TapisBot(chosen, service=service, beside=beside, guild_ready_timeout=0.05)
        await bot.login(chosen.token)
        task = asyncio.create_task(bot.connect(reconnect=False))
        running.append((bot, task))
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        return bot

    yield start
    for bot, task in running:
        if not bot.is_closed():
            await bot.close()
        await asyncio.gather(task, return_exceptions=True)


@pytest.fixture
def alice(fake: FakeDiscord) -> FakeUser:
    return fake.add_user("Alice")


@pytest.fixture
def bob(fake: FakeDiscord) -> FakeUser:
    return fake.add_user("Bob")


@pytest.fixture
def carol(fake: FakeDiscord) -> FakeUser:
    return fake.add_user("Carol")
