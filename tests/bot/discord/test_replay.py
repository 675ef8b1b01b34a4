"""`/replay`, `/tapis export` and `/tapis web` against the fake Discord."""

from __future__ import annotations

import io
import socket

import aiohttp
import pytest
from PIL import Image

from bench.web import populate
from bot.service import MatchService, queries
from bot.storage.sql import Connection
from bot.web import beside_bot
from games import notation
from tests.bot.discord.conftest import StartBot
from tests.fakediscord import FakeDiscord, FakeUser


async def _played_here(service: MatchService, count: int, guild_id: int, players: int) -> list[int]:
    """``count`` finished matches, played on the fake Discord's server (a server's matches
    are opened there only)."""
    ids = await populate(service.database, count, players=players)

    def plan(conn: Connection) -> None:
        conn.execute("UPDATE matches SET guild_id = ?", (guild_id,))
        conn.execute("UPDATE results SET guild_id = ?", (guild_id,))

    await service.database.transact(plan)
    return ids


async def test_replay_animates_a_short_match_and_pages_a_long_one(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, tmp_path: object
) -> None:
    bot = await start_bot()
    ids = await _played_here(bot.service, 8, fake.guild_id, 4)
    versions = {
        i: (await queries.match(bot.service.database, i)).version  # type: ignore[union-attr]
        for i in ids
    }
    short = min(ids, key=lambda i: versions[i])
    long = max(ids, key=lambda i: versions[i])
    assert versions[short] <= 60 < versions[long]

    handle = await fake.slash(alice, "replay", match=short, fps=4)
    sent = await handle.finished(60)
    name, data = sent.files[0]
    assert name.endswith(".gif") and len(data) <= 8 * 1024 * 1024
    animation = Image.open(io.BytesIO(data))
    assert animation.n_frames == versions[short] + 1  # the deal, then one frame a move

    handle = await fake.slash(alice, "replay", match=long)
    page = await handle.finished(60)
    assert page.files and f"move 0 of {versions[long]}" in page.content
    next_id = next(c for c in page.custom_ids() if c.endswith(":next"))
    await start_bot()  # a restart: the buttons are rebuilt from their custom ids
    pressed = await fake.press(alice, page, next_id)
    edited = await pressed.finished(60)
    assert f"Move 1 of {versions[long]}" in edited.content and edited.files


async def test_a_live_match_is_not_replayed_nor_exported(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser
) -> None:
    from tests.bot.discord.driver import Table

    bot = await start_bot()
    table = await Table.open(fake, bot, "ecarte", "", alice, bob)
    answer = await (await fake.slash(alice, "replay", match=table.match_id)).finished()
    assert "still being played" in answer.content and not answer.files
    answer = await (await fake.slash(alice, "tapis export", match=table.match_id)).finished()
    assert "still being played" in answer.content and not answer.files
    answer = await (await fake.slash(alice, "replay", match=999_999)).finished()
    assert "no match #999999" in answer.content


async def test_export_and_web_switch(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser
) -> None:
    bot = await start_bot()
    service: MatchService = bot.service
    ids = await _played_here(service, 2, fake.guild_id, 3)
    answer = await (await fake.slash(alice, "tapis export", match=ids[0])).finished()
    assert answer.ephemeral
    record = notation.read(answer.files[0][1].decode())
    assert notation.replay(record).ok
    assert not await queries.web_enabled(service.database, fake.guild_id)
    await (await fake.slash(alice, "tapis web", state="on")).finished()
    assert await queries.web_enabled(service.database, fake.guild_id)
    await (await fake.slash(alice, "tapis web", state="off")).finished()
    assert not await queries.web_enabled(service.database, fake.guild_id)


async def test_the_bot_serves_the_site_when_asked(
    start_bot: StartBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.socket() as probe:  # a free port
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv("TAPIS_WEB_PORT", str(port))
    bot = await start_bot(beside=beside_bot)  # as the entry point hands it in
    await populate(bot.service.database, 1, players=2)
    async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}/") as page:
        assert page.status == 200 and "Latest matches" in await page.text()
    await bot.close()
    with pytest.raises(aiohttp.ClientConnectionError):
        async with aiohttp.ClientSession() as http:
            await http.get(f"http://127.0.0.1:{port}/")
