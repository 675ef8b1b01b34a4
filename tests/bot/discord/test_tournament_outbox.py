"""A tournament's reports arrive exactly once, even when the bot is killed (SIGKILL) after the
round ended and before its report was posted, or after it was posted and before it was
marked; on SQLite and on PostgreSQL. And no module but the courier posts to Discord."""

from __future__ import annotations

import ast
import asyncio
import os
import signal
import sqlite3
import sys
from collections import Counter
from pathlib import Path

import asyncpg
import pytest

from bot.service import MatchService, PlayerRef
from tests.fakediscord import FakeDiscord, FakeUser
from tests.waiting import until

ROOT = Path(__file__).resolve().parents[3]

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")


async def _finished_tournament(
    fake: FakeDiscord, target: str, alice: FakeUser, bob: FakeUser
) -> int:
    """A round-robin of Alice and Bob whose one match Bob resigned: the tournament is over,
    everything said so far is marked sent, and the final standings are owed."""
    service = await MatchService.open(target)
    try:
        tournaments = service.tournaments
        a, b = PlayerRef(alice.id, "Alice"), PlayerRef(bob.id, "Bob")
        info = await tournaments.create(
            a, guild_id=fake.guild_id, channel_id=fake.channel_id, name="Cup", game="ecarte",
            options=None, format_="round-robin", duplicate=False, rounds=None,
            days_per_move=None, starts_at=None,
        )  # fmt: skip
        told = [(await tournaments.join(info.id, a, fake.guild_id))[1]]
        told.append((await tournaments.join(info.id, b, fake.guild_id))[1])
        await tournaments.start(info.id, alice.id, fake.guild_id, manager=False)
        told += await tournaments.step()
        for report in await tournaments.posts.reports():  # the pairings: said already
            await tournaments.posts.mark_reported(report)
        (posting,) = await tournaments.posts.postings()
        told += await tournaments.posts.opening(posting, None)
        _, resigned = await service.resign(posting.match_id, bob.id)
        told += resigned
        told += await tournaments.step()
        await service.delivered(told)
        (report,) = await tournaments.posts.reports()
        assert report.kind == "standings" and "Alice" in report.text
        return info.id
    finally:
        await service.close()


async def _reported(target: str, tournament: int) -> int:
    """The tournament's ``reported`` mark, read as another process would."""
    sql = "SELECT reported FROM tournaments WHERE id = "
    if target.startswith("postgresql"):
        conn = await asyncpg.connect(target)
        try:
            return int(await conn.fetchval(sql + "$1", tournament))
        finally:
            await conn.close()
    with sqlite3.connect(target) as conn:
        return int(conn.execute(sql + "?", (tournament,)).fetchone()[0])


async def _bot(
    fake: FakeDiscord, target: str, home: Path, log: Path, hold: str = ""
) -> asyncio.subprocess.Process:
    env = {
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": fake.token,
        "DISCORD_API_BASE": fake.api_base,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
        "TAPIS_DEV_GUILD": str(fake.guild_id),
        "TAPIS_DB": target,
        "TAPIS_RENDER_PROCESSES": "0",
    }
    # A held courier: the bot run with its courier wrapped to stop there (held_bot.py).
    command = ["-m", "tests.bot.discord.held_bot", f"post-{hold}"] if hold else ["-m", "bot"]
    fake.identified.clear()
    with log.open("ab") as err:
        process = await asyncio.create_subprocess_exec(
            sys.executable, *command,
            cwd=home, env=env, stdout=asyncio.subprocess.DEVNULL, stderr=err,
            start_new_session=True,
        )  # fmt: skip
    await asyncio.wait_for(fake.identified.wait(), 30)
    return process


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
@pytest.mark.parametrize("hold", ["before-send", "before-mark"])
async def test_a_rounds_report_is_shown_exactly_once_across_a_kill(
    fake: FakeDiscord,
    tmp_path: Path,
    alice: FakeUser,
    bob: FakeUser,
    request: pytest.FixtureRequest,
    backend: str,
    hold: str,
) -> None:
    target = (
        str(tmp_path / "tapis.db") if backend == "sqlite" else request.getfixturevalue("pg_url")
    )
    tournament = await _finished_tournament(fake, target, alice, bob)
    nonce = f"tr{tournament}s1"
    log = tmp_path / "bot.log"
    first = await _bot(fake, target, tmp_path, log, hold)
    try:
        # The bot stops for good at the crash point: before the post, or once it went.
        await until(lambda: f"the courier is held post-{hold}" in log.read_text(), "the hold")
        if hold == "before-mark":
            await until(lambda: any(s.payload.get("nonce") == nonce for s in fake.log), "a post")
    finally:
        os.killpg(first.pid, signal.SIGKILL)
        await first.wait()
    assert first.returncode == -signal.SIGKILL
    posted = [s for s in fake.log if s.payload.get("nonce") == nonce]
    assert len(posted) == (1 if hold == "before-mark" else 0)
    assert await _reported(target, tournament) == 0  # still owed

    second = await _bot(fake, target, tmp_path, log)
    try:
        await until(lambda: any(s.payload.get("nonce") == nonce for s in fake.log), "the post")

        async def marked() -> bool:
            return await _reported(target, tournament) == 1

        await until(marked, "the report marked")
    finally:
        second.send_signal(signal.SIGTERM)
        await second.wait()
    # Shown once: the post again after the kill carried the same nonce.
    shown = [s for s in fake.log if s.kind == "message" and s.payload.get("nonce") == nonce]
    assert len(shown) == 1, shown
    assert shown[0].channel_id == fake.channel_id and "Alice" in shown[0].content
    assert [name for name, _ in shown[0].files] == ["standings.png"]
    nonces = Counter(str(s.payload.get("nonce")) for s in fake.log if s.kind == "message")
    assert all(count == 1 for count in nonces.values()), nonces


SENDING = {"send", "send_message", "send_files", "send_file", "create_message"}
"""Discord's ways to post a message, as discord.py names them."""
ANSWERS = {"followup", "response"}
"""An interaction's own answer (``interaction.followup.send``, ``.response.send_message``):
the reply to the person who acted, which Discord does not count against the bot."""


def test_only_the_courier_posts_to_discord() -> None:
    """Every message the bot posts goes through the courier (paced, and with a nonce when the
    outbox owes it) and its transport; elsewhere only the answer to an interaction may be sent."""
    courier = {ROOT / "bot" / "discord" / "courier.py", ROOT / "bot" / "discord" / "transport.py"}
    offenders = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        if path in courier:
            continue
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            if node.func.attr not in SENDING:
                continue
            owner = node.func.value
            name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
            if name in ANSWERS or name.endswith("courier"):
                continue
            offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert offenders == [], offenders
