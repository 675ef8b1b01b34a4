"""`python -m bot` logs one line per record, with the match id on the lines about a match."""

from __future__ import annotations

import asyncio
import json
import signal
import sys
from pathlib import Path

from tests.fakediscord import FakeDiscord
from tests.waiting import until

ROOT = Path(__file__).resolve().parents[3]


async def boot_and_play(fake: FakeDiscord, cwd: Path, *args: str, env: dict[str, str]) -> str:
    """Run ``python -m bot`` on the fake, open a match by challenge and Accept, stop it once it
    has logged the Accept; returns what it logged."""
    alice, bob = fake.add_user("Alice"), fake.add_user("Bob")
    (cwd / ".env").write_text(
        f"DISCORD_TOKEN={fake.token}\nDISCORD_API_BASE={fake.api_base}\n"
        f"DISCORD_GATEWAY_URL={fake.gateway_url}\nTAPIS_DEV_GUILD={fake.guild_id}\n"
        "TAPIS_RENDER_PROCESSES=0\n"
    )
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *args,
        cwd=cwd,
        env={"PYTHONPATH": str(ROOT), **env},
        stderr=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    assert process.stderr is not None
    lines: list[str] = []

    async def read_until_accepted() -> None:
        assert process.stderr is not None
        while line := (await process.stderr.readline()).decode():
            lines.append(line)
            if "accept answered" in line:
                return
        raise AssertionError("the bot stopped before logging the Accept:\n" + "".join(lines))

    reader = asyncio.create_task(read_until_accepted())
    try:
        await asyncio.wait_for(fake.identified.wait(), 30)
        await _wait_synced(fake)
        handle = await fake.slash(alice, "challenge", game="ecarte", opponent=bob)
        await handle.finished(timeout=30)
        post = await fake.wait_for(lambda s: "tapis:accept" in " ".join(s.custom_ids()))
        match_id = int(post.custom_ids()[0].split(":")[-1])
        await fake.press(bob, post, f"tapis:accept:{match_id}")
        await asyncio.wait_for(reader, 30)
    finally:
        reader.cancel()
        process.send_signal(signal.SIGTERM)
        _, rest = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 0, "".join(lines)
    return "".join(lines) + (rest or b"").decode()


async def _wait_synced(fake: FakeDiscord) -> None:
    await until(lambda: fake.command_syncs, "the bot to sync its commands")


async def test_json_lines_name_the_match(fake: FakeDiscord, tmp_path: Path) -> None:
    out = await boot_and_play(fake, tmp_path, env={"TAPIS_LOG_FORMAT": "json"})
    records = [json.loads(line) for line in out.splitlines() if line.strip()]
    assert records, "nothing was logged"
    assert all({"ts", "level", "logger", "msg"} <= set(r) for r in records)
    accepted = [r for r in records if r["msg"] == "accept answered"]
    assert len(accepted) == 1 and accepted[0]["match"] == 1 and accepted[0]["user"]
    assert any(r["logger"].startswith("discord") for r in records)  # discord.py's lines too


async def test_text_lines_are_key_value_by_default(fake: FakeDiscord, tmp_path: Path) -> None:
    out = await boot_and_play(fake, tmp_path, env={})
    lines = [line for line in out.splitlines() if line.strip()]
    assert lines and all(" level=" in line and " logger=" in line for line in lines)
    about = [line for line in lines if 'msg="accept answered"' in line]
    assert len(about) == 1 and " match=1 " in about[0]
