"""The fake Discord is faithful enough for the real discord.py client: it connects, syncs
commands, and answers a slash command through a deferred interaction and a follow-up."""

from __future__ import annotations

import asyncio

import discord
import pytest
import yarl
from discord import app_commands

from tests.fakediscord import FakeDiscord
from tests.waiting import until


async def test_real_client_connects_and_answers_a_slash_command() -> None:
    fake = FakeDiscord()
    await fake.start()
    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    alice = fake.add_user("Alice")
    client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05)
    tree = app_commands.CommandTree(client)

    @tree.command(description="Say hello to someone")
    async def hello(interaction: discord.Interaction, member: discord.User) -> None:
        await interaction.response.defer(ephemeral=True)
        await interaction.followup.send(f"hello {member.name}", ephemeral=True)

    await client.login(fake.token)
    await tree.sync()
    task = asyncio.create_task(client.connect(reconnect=False))
    try:
        await asyncio.wait_for(client.wait_until_ready(), 10)
        handle = await fake.slash(alice, "hello", member=alice)
        first = await handle.callback()
        assert first.callback_type == 5 and first.ephemeral
        reply = await handle.reply()
        assert reply.content == "hello Alice" and reply.ephemeral
        assert not fake.is_public(reply)
        assert fake.unexpected == []
    finally:
        await client.close()
        task.cancel()
        await fake.stop()


async def test_heartbeats_are_acknowledged_and_the_session_stays_up() -> None:
    fake = FakeDiscord(heartbeat_ms=50)
    await fake.start()
    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05)
    await client.login(fake.token)
    task = asyncio.create_task(client.connect(reconnect=False))
    try:
        await asyncio.wait_for(client.wait_until_ready(), 10)
        await until(lambda: fake.heartbeats >= 3, "three heartbeats")
        assert not task.done() and client.latency < 1.0  # every beat was acknowledged
    finally:
        await client.close()
        task.cancel()
        await fake.stop()


async def test_a_wrong_token_is_refused_like_discord_does() -> None:
    fake = FakeDiscord()
    await fake.start()
    discord.http.Route.BASE = fake.api_base
    client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.05)
    try:
        with pytest.raises(discord.LoginFailure):
            await client.login("not-the-token")
    finally:
        await client.close()
        await fake.stop()


async def test_rate_limits_are_answered_as_discord_documents_them() -> None:
    """5 messages per 5 s in a channel, then 429 of scope user; past the global limit, 429
    of scope global; a busy resource, scope shared (not counted toward the ban)."""
    import aiohttp

    fake = FakeDiscord()
    await fake.start()
    fake.global_limit = 8
    url = f"{fake.api_base}/channels/{fake.channel_id}/messages"
    auth = {"Authorization": f"Bot {fake.token}"}
    try:
        async with aiohttp.ClientSession(headers=auth) as http:
            left = []
            for _ in range(5):
                async with http.post(url, json={"content": "hi"}) as reply:
                    assert reply.status == 200
                    left.append(reply.headers["X-RateLimit-Remaining"])
                    assert reply.headers["X-RateLimit-Limit"] == "5"
                    assert float(reply.headers["X-RateLimit-Reset-After"]) <= 5
                    assert reply.headers["X-RateLimit-Bucket"]
            assert left == ["4", "3", "2", "1", "0"]
            async with http.post(url, json={"content": "hi"}) as reply:
                body = await reply.json()
                assert reply.status == 429 and reply.headers["X-RateLimit-Scope"] == "user"
                assert reply.headers["X-RateLimit-Remaining"] == "0" and reply.headers["Via"]
                assert body["global"] is False and 0 < body["retry_after"] <= 5
            other = fake.add_channel("autre")
            fake.shared_busy.add(other)
            async with http.post(
                f"{fake.api_base}/channels/{other}/messages", json={"content": "hi"}
            ) as reply:
                assert reply.status == 429 and reply.headers["X-RateLimit-Scope"] == "shared"
            async with http.get(f"{fake.api_base}/users/@me") as reply:
                assert reply.status == 200  # the 8th request of the second
            async with http.get(f"{fake.api_base}/users/@me") as reply:
                body = await reply.json()
                assert reply.status == 429 and reply.headers["X-RateLimit-Scope"] == "global"
                assert reply.headers["X-RateLimit-Global"] == "true" and body["global"] is True
                assert int(reply.headers["Retry-After"]) >= 1
    finally:
        await fake.stop()
    statuses = [(r.status, r.scope, r.invalid) for r in fake.requests]
    assert statuses.count((429, "user", True)) == 1
    assert statuses.count((429, "shared", False)) == 1
    assert statuses.count((429, "global", True)) == 1
