"""Privacy on the fake Discord: no command reaches across servers, contexts are declared where
Discord reads them, leaving a server ends what was played there, and forget me."""

from __future__ import annotations

import logging
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

import games
from bot.discord.client import TapisBot
from bot.service import PlayerRef
from bot.service.privacy import FORGOTTEN_NAME
from bot.storage.sql import Connection
from bot.web.app import create_app
from tests.bot.discord.conftest import StartBot
from tests.bot.discord.driver import Table
from tests.fakediscord import FakeDiscord, FakeUser
from tests.fakediscord.server import Sent

OTHER_SERVER = 880_000_000_000_000_001
MISSING = 999_999_999  # no match's id


def _database(bot: TapisBot) -> Path:
    return Path(bot.settings.database)


def _written(bot: TapisBot) -> dict[str, list[Any]]:
    """Every row a match is made of, to prove a refusal wrote nothing."""
    conn = sqlite3.connect(_database(bot))
    try:
        return {
            table: conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
            for table in ("matches", "moves", "results", "ratings", "players", "outbox")
        }
    finally:
        conn.close()


async def _move_elsewhere(bot: TapisBot, *match_ids: int) -> None:
    """The matches become another server's (as if they had been played there)."""

    def plan(conn: Connection) -> None:
        for match_id in match_ids:
            conn.execute("UPDATE matches SET guild_id = ? WHERE id = ?", (OTHER_SERVER, match_id))
            conn.execute(
                "UPDATE results SET guild_id = ? WHERE match_id = ?", (OTHER_SERVER, match_id)
            )

    await bot.service.database.transact(plan)
    for match_id in match_ids:
        bot.service.store.cache.pop(match_id, None)


def _dm(fake: FakeDiscord, user: FakeUser) -> int:
    return int(fake._dm_channel(user.id)["id"])


async def _answer(
    fake: FakeDiscord, user: FakeUser, path: str, where: int | None, **values: Any
) -> Sent:
    handle = await fake.slash(user, path, channel_id=where, **values)
    return await handle.reply(30)


async def test_another_servers_match_is_unknown_to_every_command(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser, carol: FakeUser
) -> None:
    bot = await start_bot(dev_guild=False)  # offered everywhere, as once published
    running = await Table.open(fake, bot, "ecarte", "", alice, bob)
    over = await Table.open(fake, bot, "ecarte", "", alice, bob)
    _, sent = await bot.service.resign(over.match_id, bob.id)
    await bot.courier.send(sent)
    # A replay page of the finished match, posted here while it was this server's.
    page = await _answer(fake, alice, "replay", None, match=over.match_id, style="pages")
    assert not page.ephemeral
    challenge, _ = await bot.service.challenge(
        PlayerRef(alice.id, "Alice"), PlayerRef(bob.id, "Bob"), "ecarte",
        guild_id=OTHER_SERVER, channel_id=1,
    )  # fmt: skip
    await bot.courier.settled()
    await _move_elsewhere(bot, running.match_id, over.match_id)

    cases: list[tuple[str, int, dict[str, Any]]] = [
        ("replay", over.match_id, {}),
        ("tapis export", over.match_id, {}),
        ("board", running.match_id, {}),
        ("hand", running.match_id, {}),
        ("resign", running.match_id, {}),
        ("play", running.match_id, {"move": "propose"}),
        ("decline", challenge.id, {}),
        ("accept", challenge.id, {}),
    ]
    before = _written(bot)
    for path, match_id, extra in cases:
        unknown = await _answer(fake, carol, path, None, match=MISSING, **extra)
        assert unknown.ephemeral, path
        expected = unknown.content.replace(str(MISSING), str(match_id))
        places = [None] if path == "accept" else [None, _dm(fake, carol)]  # accept: servers only
        for where in places:
            said = await _answer(fake, carol, path, where, match=match_id, **extra)
            assert said.ephemeral and said.content == expected, (path, where, said.content)
            assert not said.files, path
        # A challenge is accepted on its own server only, even by the one it is for.
        if path == "accept":
            said = await _answer(fake, bob, path, None, match=match_id, **extra)
            assert said.content == unknown.content.replace(str(MISSING), str(match_id))
    # The buttons: the replay pager and the rematch under the result.
    pager = next(c for c in page.custom_ids() if c.endswith(":next"))
    pressed = await fake.press(carol, page, pager)
    told = await fake.wait_for(lambda s: s.token == pressed.token and s.kind == "followup")
    assert told.ephemeral and f"no match #{over.match_id}" in told.content
    result = await fake.wait_for(lambda s: any("rematch" in c for c in s.custom_ids()))
    rematch = next(c for c in result.custom_ids() if "rematch" in c)
    pressed = await fake.press(carol, result, rematch)
    told = await fake.wait_for(lambda s: s.token == pressed.token and s.kind == "followup")
    assert told.ephemeral and f"There is no match #{over.match_id}" in told.content
    assert _written(bot) == before  # nothing was written by any of them

    # A player sees their own match of elsewhere, privately, from here or from a DM.
    for where in (None, _dm(fake, alice)):
        own = await _answer(fake, alice, "replay", where, match=over.match_id)
        assert own.ephemeral and own.files
        own = await _answer(fake, alice, "board", where, match=running.match_id)
        assert own.ephemeral and own.files
    # Autocomplete offers nobody another's match.
    offered = await fake.autocomplete(carol, "replay", "match", match="")
    assert offered == []


SERVER_ONLY = {"tournament"}
"""Commands that need a server with the bot; ``/tapis`` (a server's settings) is offered in
its channels and in the bot's DM too; every other one anywhere (see bot/discord/installs.py)."""


async def test_commands_declare_where_they_work(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser
) -> None:
    bot = await start_bot(dev_guild=False)
    synced = {c["name"]: c for c in fake.commands[None]}
    assert synced.keys() >= SERVER_ONLY | {"tapis"}
    for name, command in synced.items():
        contexts = command.get("contexts")
        assert contexts is not None, f"/{name} does not say where it works"
        if name in SERVER_ONLY:
            assert contexts == [0], name  # never offered in a DM
        elif name == "tapis":
            assert sorted(contexts) == [0, 1], name
        else:
            assert sorted(contexts) == [0, 1, 2], name
    dm = _dm(fake, alice)
    with pytest.raises(AssertionError, match="not offered"):
        await fake.slash(alice, "tournament create", channel_id=dm, game="ecarte")
    # A server's settings asked from the bot's DM are told where they work, never "went wrong".
    for path, values in (
        ("tapis web", {"state": "on"}),
        ("tapis language", {"language": "fr"}),
        ("tapis season new", {}),
    ):
        said = await _answer(fake, alice, path, dm, **values)
        assert said.ephemeral and "went wrong" not in said.content, path
        assert "server" in said.content, (path, said.content)
    assert bot.is_ready()


async def test_leaving_a_server_ends_what_was_played_there(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser, carol: FakeUser
) -> None:
    bot = await start_bot()
    await bot.service.set_web(fake.guild_id, True)
    table = await Table.open(fake, bot, "ecarte", "", alice, bob)
    opened = await _answer(fake, carol, "tournament create", None, game="piquet")
    assert "went wrong" not in opened.content
    challenge = await _answer(fake, carol, "challenge", None, game="piquet", opponent=alice)
    assert challenge.ephemeral
    [(open_id,)] = (
        sqlite3.connect(_database(bot))
        .execute("SELECT id FROM matches WHERE status = 'challenge'")
        .fetchall()
    )
    since = len(fake.log)
    await fake.dispatch("GUILD_DELETE", {"id": str(fake.guild_id)})
    for user in (alice, bob):
        await fake.wait_for(
            lambda s, u=user: s.dm_to == u.id and "called off" in s.content, since=since
        )
    assert not await bot.service.database.fetchone(
        "SELECT 1 FROM guild_settings WHERE guild_id = ? AND web = 1", (fake.guild_id,)
    )
    assert (await bot.service.get(table.match_id)).status == "aborted"
    assert (await bot.service.get(open_id)).status == "cancelled"
    assert not await bot.service.database.fetchone(
        "SELECT 1 FROM results WHERE match_id = ?", (table.match_id,)
    )
    [(status,)] = (
        sqlite3.connect(_database(bot)).execute("SELECT status FROM tournaments").fetchall()
    )
    assert status == "cancelled"


async def test_forget_me_end_to_end(
    fake: FakeDiscord,
    start_bot: StartBot,
    alice: FakeUser,
    bob: FakeUser,
    caplog: pytest.LogCaptureFixture,
) -> None:
    bot = await start_bot()
    await bot.service.set_web(fake.guild_id, True)
    over = await Table.open(fake, bot, "ecarte", "", alice, bob)
    _, sent = await bot.service.resign(over.match_id, alice.id)
    await bot.courier.send(sent)
    running = await Table.open(fake, bot, "ecarte", "", alice, bob)
    await (await fake.slash(alice, "tapis cards", colours=4)).finished()
    await bot.courier.settled()

    asked = await _answer(fake, alice, "tapis privacy", None, choice="forget")
    assert asked.ephemeral and "resigned first" in asked.content
    confirm = next(c for c in asked.custom_ids() if ":confirm:" in c)
    caplog.clear()
    caplog.set_level(logging.INFO)
    pressed = await fake.press(alice, asked, confirm)
    done = await pressed.finished(30)
    assert "forgotten" in done.content
    await bot.courier.settled()
    # Bob, who stays, still has his history and replays.
    replay = await _answer(fake, bob, "replay", None, match=over.match_id)
    assert replay.files and FORGOTTEN_NAME in replay.content
    history = await bot.service.matches_of(bob.id, active_only=False)
    assert {m.id for m in history} >= {over.match_id, running.match_id}
    assert (await bot.service.get(running.match_id)).status == "finished"  # resigned first
    assert await bot.service.verify_all() == []

    secrets = (str(alice.id), alice.name)
    conn = sqlite3.connect(_database(bot))
    try:
        dump = "\n".join(conn.iterdump())
    finally:
        conn.close()
    for secret in secrets:
        assert secret not in dump
    logged = "\n".join(
        f"{r.getMessage()} {r.__dict__}" for r in caplog.records if r.levelno >= logging.INFO
    )
    for secret in secrets:
        assert secret not in logged
    # Every page of the site, every leaderboard.
    client = TestClient(TestServer(create_app(bot.service.database, rate=None)))
    await client.start_server()
    try:
        paths = ["/", f"/players/{bob.id}", f"/servers/{fake.guild_id}"]
        paths += [f"/games/{g}" for g in games.names()]
        paths += [f"/servers/{fake.guild_id}/{g}" for g in games.names()]
        for match_id in (over.match_id, running.match_id):
            paths += [f"/matches/{match_id}", f"/matches/{match_id}/export.tpn",
                      f"/matches/{match_id}/plies/0.json"]  # fmt: skip
        for path in paths:
            response = await client.get(path)
            assert response.status == 200, path
            text = await response.text()
            for secret in secrets:
                assert secret not in text, (path, secret)
            for link in re.findall(r'href="(/players/[0-9]+)"', text):
                assert (await client.get(link)).status == 200 or link.endswith(str(bob.id))
    finally:
        await client.close()
