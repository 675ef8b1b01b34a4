"""The outbox: a move's messages arrive exactly once, even when the bot is killed (SIGKILL)
after the move was committed and before (or while) its messages went out."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import sys
from collections import Counter
from pathlib import Path

import pytest

from bot.discord import client
from bot.service import Delivery, MatchService, PlayerRef, wording
from games.words import ENGLISH
from tests.bot.conftest import FakeClock
from tests.bot.discord.conftest import StartBot
from tests.fakediscord import FakeDiscord, FakeUser
from tests.waiting import until

ROOT = Path(__file__).resolve().parents[3]

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")


async def _started_match(
    fake: FakeDiscord, db: Path, alice: FakeUser, bob: FakeUser
) -> tuple[FakeUser, FakeUser, str]:
    """A match between Alice and Bob in the fake's channel, its start and its first play
    already told; who is to move, the other, and the move that ends the mover's turn (a
    draw: Le 5 As's turn is a play then a draw)."""
    service = await MatchService.open(db)
    try:
        a, b = PlayerRef(alice.id, "Alice"), PlayerRef(bob.id, "Bob")
        info, told = await service.challenge(
            a, b, "cinq-as", guild_id=fake.guild_id, channel_id=fake.channel_id
        )
        info, more = await service.accept(info.id, b)
        mover, other = (alice, bob) if info.to_move == alice.id else (bob, alice)
        play = next(m for m in await service.legal_moves(info.id, mover.id) if m[:4] == "play")
        info, played = await service.move(info.id, mover.id, play)
        await service.delivered(told + more + played)
        draw = (await service.legal_moves(info.id, mover.id))[0]
        assert draw.startswith("draw"), draw
        return mover, other, draw
    finally:
        await service.close()


async def _bot(fake: FakeDiscord, db: Path, hold: str = "") -> asyncio.subprocess.Process:
    env = {
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": fake.token,
        "DISCORD_API_BASE": fake.api_base,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
        "TAPIS_DEV_GUILD": str(fake.guild_id),
        "TAPIS_DB": str(db),
    }
    # A held courier: the bot run with its courier wrapped to stop there (held_bot.py).
    command = ["-m", "tests.bot.discord.held_bot", hold] if hold else ["-m", "bot"]
    fake.identified.clear()
    with _log(db).open("ab") as err:  # the test reads where a held bot stopped
        process = await asyncio.create_subprocess_exec(
            sys.executable, *command,
            cwd=db.parent, env=env,
            stdout=asyncio.subprocess.DEVNULL, stderr=err,
            start_new_session=True,  # its own group: a crash takes its picture workers with it
        )  # fmt: skip
    await asyncio.wait_for(fake.identified.wait(), 30)
    return process


def _log(db: Path) -> Path:
    return db.parent / "bot.log"


def _outbox(db: Path) -> list[tuple[int, float | None]]:
    with sqlite3.connect(db) as conn:
        return list(conn.execute("SELECT id, sent_at FROM outbox ORDER BY id"))


def _version(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("SELECT version FROM matches").fetchone()[0])


@pytest.mark.parametrize("hold", ["before-send", "before-mark"])
async def test_a_move_is_told_exactly_once_across_a_kill(
    fake: FakeDiscord, tmp_path: Path, alice: FakeUser, bob: FakeUser, hold: str
) -> None:
    db = tmp_path / "tapis.db"
    mover, other, move = await _started_match(fake, db, alice, bob)
    already = {row_id for row_id, _ in _outbox(db)}
    first = await _bot(fake, db, hold)
    try:
        await fake.slash(mover, "play", move=move)
        await until(lambda: _version(db) == 2, "the move to be committed")
        owed = [row_id for row_id, _ in _outbox(db) if row_id not in already]
        assert len(owed) >= 3  # the board and both hands at least
        if hold == "before-mark":
            await until(lambda: any(s.payload.get("nonce") for s in fake.log), "a first send")
        held = f"the courier is held {hold}"
        await until(lambda: held in _log(db).read_text(), "the courier to be held")
    finally:
        os.killpg(first.pid, signal.SIGKILL)  # the bot and its workers, as a crash would
        await first.wait()
    assert first.returncode == -signal.SIGKILL
    # Nothing was marked but the mover's own hand, which is marked just before it goes in the
    # answer to the move (so that a crash never shows it twice).
    marked = [row_id for row_id, sent_at in _outbox(db) if row_id in owed and sent_at is not None]
    assert len(marked) == (1 if hold == "before-mark" else 0), _outbox(db)
    sent_before = [s for s in fake.log if s.payload.get("nonce")]
    assert bool(sent_before) == (hold == "before-mark")

    second = await _bot(fake, db)
    try:
        await until(
            lambda: all(sent_at is not None for _, sent_at in _outbox(db)), "the outbox to empty"
        )
    finally:
        second.send_signal(signal.SIGTERM)
        await second.wait()
    nonces = Counter(str(s.payload.get("nonce")) for s in fake.log if s.kind == "message")
    assert all(count == 1 for count in nonces.values()), nonces  # nothing shown twice
    # The board once, and the hand of the player whose turn it became once, by DM.
    moved = [s for s in fake.log if s.kind == "message" and s.payload.get("nonce")]
    assert {str(s.payload["nonce"]) for s in moved} <= {f"ob{row_id}" for row_id in owed}
    boards = [s for s in moved if s.dm_to is None]
    assert len(boards) == 1 and wording.move_text("cinq-as", move, ENGLISH) in boards[0].content
    assert [s.dm_to for s in moved if s.dm_to is not None] == [other.id]
    # The mover's own hand went in the answer to the move (marked before it went, so never
    # twice), or — the answer lost in the crash — waits for their turn or `/hand`.
    answers = [s for s in fake.log if s.kind == "followup" and s.files]
    assert len(answers) <= (1 if hold == "before-mark" else 0)
    # The hand sent after the restart carries the version it was drawn for (2).
    buttons = [c for s in moved if s.dm_to is not None for c in s.custom_ids()]
    assert buttons and all(c.split(":")[3] == "2" for c in buttons), buttons


async def test_a_second_bot_on_the_same_database_is_refused(
    fake: FakeDiscord, tmp_path: Path, alice: FakeUser, bob: FakeUser
) -> None:
    """...with a clear message, while backup and verify still work beside the first; the
    lock goes with the process (the test above restarts after a SIGKILL)."""
    db = tmp_path / "tapis.db"
    await _started_match(fake, db, alice, bob)
    first = await _bot(fake, db)
    env = {"PYTHONPATH": str(ROOT), "TAPIS_DB": str(db)}
    try:
        second = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot",
            cwd=tmp_path, env={**env, "DISCORD_TOKEN": fake.token},
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        _, err = await asyncio.wait_for(second.communicate(), 30)
        assert second.returncode == 2
        assert "another Tapis bot" in err.decode() and "already running" in err.decode()
        for args in (["backup", str(tmp_path / "copy.db")], ["verify"]):
            tool = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", *args,
                cwd=tmp_path, env=env,
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            )  # fmt: skip
            out, err = await asyncio.wait_for(tool.communicate(), 60)
            assert tool.returncode == 0, (args, out.decode(), err.decode())
        assert (tmp_path / "copy.db").exists()
        assert first.returncode is None  # the first bot runs on
    finally:
        first.send_signal(signal.SIGTERM)
        await first.wait()


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_a_running_bot_sends_what_another_process_left_unsent(
    fake: FakeDiscord,
    start_bot: StartBot,
    tmp_path: Path,
    alice: FakeUser,
    bob: FakeUser,
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
    backend: str,
) -> None:
    """Messages committed after this bot started, then left unsent (their process died):
    once old enough, the bot's sweep claims them and sends each once, with its nonce."""
    monkeypatch.setattr(client, "OUTBOX_SWEEP", 0.05)
    clock = FakeClock()
    target = tmp_path / "tapis.db" if backend == "sqlite" else request.getfixturevalue("pg_url")
    service = await MatchService.open(target, now=clock)
    bot = await start_bot(service)
    a, b = PlayerRef(alice.id, "Alice"), PlayerRef(bob.id, "Bob")
    info, told = await service.challenge(
        a, b, "ecarte", guild_id=fake.guild_id, channel_id=fake.channel_id
    )  # made "elsewhere": never handed to this bot's courier
    # A whole sweep came by after the challenge (a second began once the first was done)...
    sweeps = 0
    left_unsent = service.left_unsent

    async def counted() -> list[Delivery]:
        nonlocal sweeps
        sweeps += 1
        return await left_unsent()

    monkeypatch.setattr(service, "left_unsent", counted)
    await until(lambda: sweeps >= 2, "two sweeps")
    assert not [s for s in fake.log if s.kind == "message"]  # ...too fresh: maybe in flight
    clock.advance(seconds=service.store.UNSENT_GRACE + 1)
    await until(lambda: bool([s for s in fake.log if s.kind == "message"]), "the sweep")
    await bot.courier.settled()
    sent = [s for s in fake.log if s.kind == "message"]
    assert [s.payload.get("nonce") for s in sent] == [f"ob{d.outbox_id}" for d in told]
    assert f"#{info.id}" in sent[0].content
    assert await service.left_unsent() == []
    clock.advance(seconds=service.store.LEASE + 1)
    assert await service.left_unsent() == []  # marked sent: never claimed again
    await bot.close()
    await service.close()
