"""Several bot processes: shard ranges from the environment, each process on one PostgreSQL."""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

import discord
import pytest

from bot.discord.client import ShardedTapisBot, TapisBot, make_bot
from bot.discord.config import ConfigError, Settings
from tests.fakediscord import FakeDiscord
from tests.waiting import until

ROOT = Path(__file__).resolve().parents[3]
PG = "postgresql://tapis:secret@db:5432/tapis"


def settings(**env: str) -> Settings:
    return Settings.from_env({"DISCORD_TOKEN": "t", **env})


def test_shard_ranges_are_read_and_checked() -> None:
    plain = settings()
    assert not plain.sharded and plain.shard_ids is None and plain.database_url is None
    everything = settings(TAPIS_SHARD_COUNT="4")
    assert everything.shard_ids == (0, 1, 2, 3) and everything.shard_count == 4
    some = settings(TAPIS_SHARD_COUNT="6", TAPIS_SHARD_IDS="4, 0-1", TAPIS_DB=PG)
    assert some.shard_ids == (0, 1, 4) and some.database_url == PG
    assert some.database_target == PG and "secret" not in repr(some)
    for env, words in [
        ({"TAPIS_SHARD_IDS": "0"}, "needs TAPIS_SHARD_COUNT"),
        ({"TAPIS_SHARD_COUNT": "0"}, "from 1 to"),
        ({"TAPIS_SHARD_COUNT": "two"}, "from 1 to"),
        ({"TAPIS_SHARD_COUNT": "2", "TAPIS_SHARD_IDS": "0-x"}, "numbers and ranges"),
        ({"TAPIS_SHARD_COUNT": "2", "TAPIS_SHARD_IDS": "1-0"}, "backwards"),
        ({"TAPIS_SHARD_COUNT": "2", "TAPIS_SHARD_IDS": "0,0"}, "twice"),
        ({"TAPIS_SHARD_COUNT": "2", "TAPIS_SHARD_IDS": "2"}, "from 0 to 1"),
        # Only some shards here means other processes, which a SQLite file cannot serve.
        ({"TAPIS_SHARD_COUNT": "2", "TAPIS_SHARD_IDS": "1"}, "PostgreSQL"),
    ]:
        with pytest.raises(ConfigError, match=words):
            settings(**env)


async def test_the_bot_is_sharded_as_the_settings_say() -> None:
    plain = make_bot(settings())
    some = make_bot(settings(TAPIS_SHARD_COUNT="4", TAPIS_SHARD_IDS="2-3", TAPIS_DB=PG))
    # Neither has logged in: nothing to close (a sharded client not started cannot be).
    assert type(plain) is TapisBot
    assert isinstance(some, ShardedTapisBot) and isinstance(some, discord.AutoShardedClient)
    assert some.shard_ids == [2, 3] and some.shard_count == 4


async def test_two_processes_serve_their_shards_on_one_postgresql(
    fake: FakeDiscord, tmp_path: Path, pg_url: str
) -> None:
    """``python -m bot`` twice, shards 0 and 1 of 2, on the same database: both connect (no
    lock file stops the second), each gets and answers only its own shard's commands (the
    fake routes a server's events to shard ``(guild_id >> 22) % 2``, as Discord does), and
    both stop cleanly."""
    alice = fake.add_user("Alice")
    home = 1  # the shard serving the fake's one server (DMs go to shard 0)
    fake.move_guild(home, 2)
    env = {
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": fake.token,
        "DISCORD_API_BASE": fake.api_base,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
        "TAPIS_DEV_GUILD": str(fake.guild_id),
        "TAPIS_DB": pg_url,
        "TAPIS_SHARD_COUNT": "2",
        # A crash in a C extension (a segmentation fault) then shows where each thread was.
        "PYTHONFAULTHANDLER": "1",
    }
    processes = []
    for shard in (0, 1):
        folder = tmp_path / f"shard{shard}"
        folder.mkdir()
        process = await asyncio.create_subprocess_exec(
            *(sys.executable, "-m", "bot"),
            cwd=folder,
            env={**env, "TAPIS_SHARD_IDS": str(shard)},
            stderr=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.DEVNULL,
        )
        processes.append(process)
    try:
        # Both connected, and each ready (its heartbeat written once its clocks started).
        beats = [tmp_path / f"shard{shard}" / "data" / "tapis.db.alive" for shard in (0, 1)]
        await until(
            lambda: len(fake._sockets) >= 2 and all(beat.exists() for beat in beats),
            "both shards connected and ready",
        )
        asked = await fake.slash(alice, "hand")
        answer = await asked.callback()
        assert answer.kind == "callback"  # answered, by one process (the logs say which)
        # Stopped once quiet: a stop in the middle of a request is another test's matter.
        # Quiet is no request for a while: nothing else says the bot has no more to send.
        for _ in range(40):
            made = len(fake.requests)
            await asyncio.sleep(0.25)
            if len(fake.requests) == made:
                break
    finally:
        for process in processes:
            process.send_signal(signal.SIGTERM)
        errors = [(await asyncio.wait_for(p.communicate(), 30))[1] for p in processes]
    for process, err in zip(processes, errors, strict=True):
        assert process.returncode == 0, err.decode()
        assert "Traceback" not in err.decode(), err.decode()[-3000:]
    told = [f"user={alice.id}" in err.decode() for err in errors]
    assert told == [shard == home for shard in (0, 1)], errors[home].decode()[-3000:]
    assert not list(tmp_path.rglob("*.lock"))  # the file lock is SQLite's alone


async def test_a_process_busy_on_postgresql_stops_cleanly_on_sigterm(pg_url: str) -> None:
    """SIGTERM in the middle of reads, writes and notifications on PostgreSQL: the process
    closes everything and exits 0, without a word on stderr. The signal comes at a different
    moment in each process, so that some land while a server reply is being read (a stop
    that interrupted that reading crashed the process, or left it hanging)."""
    env = {"PYTHONPATH": str(ROOT), "PYTHONFAULTHANDLER": "1"}
    processes = [
        await asyncio.create_subprocess_exec(
            *(sys.executable, "-m", "tests.bot.discord.busy_pg", pg_url),
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        for _ in range(4)
    ]
    try:
        for process in processes:
            assert process.stdout is not None
            assert await asyncio.wait_for(process.stdout.readline(), 60) == b"busy\n"
    finally:
        for number, process in enumerate(processes):
            # Not a wait for anything: the signal is meant to land at a different moment.
            await asyncio.sleep(0.05 * number)
            process.send_signal(signal.SIGTERM)
        errors = [(await asyncio.wait_for(p.communicate(), 30))[1].decode() for p in processes]
    for process, err in zip(processes, errors, strict=True):
        assert (process.returncode, err) == (0, ""), err[-3000:]
