"""A process killed (SIGKILL) in the middle of a stream of moves loses nothing it acknowledged."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from bot.service import MatchService
from tests.bot.conftest import rows

ROOT = Path(__file__).resolve().parents[3]

# The child plays random moves on many matches at once and prints one line per move *after*
# the service acknowledged it: "ack <match> <version> <move>".
CHILD = textwrap.dedent(
    """
    import asyncio, random, sys
    from bot.service import MatchService, PlayerRef

    async def player(service, rng, n):
        a, b = PlayerRef(10 + 2 * n, "A"), PlayerRef(11 + 2 * n, "B")
        while True:
            info, _ = await service.challenge(a, b, "cinq-as", guild_id=1, channel_id=2)
            info, _ = await service.accept(info.id, b)
            while info.status == "active":
                legal = await service.legal_moves(info.id, info.to_move)
                move = rng.choice(legal)
                info, _ = await service.move(info.id, info.to_move, move)
                print("ack", info.id, info.version, move, flush=True)

    async def main():
        service = await MatchService.open(sys.argv[1])
        print("ready", flush=True)
        await asyncio.gather(*(player(service, random.Random(n), n) for n in range(8)))

    asyncio.run(main())
    """
)


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
async def test_every_acknowledged_move_survives_a_kill(db_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(db_path)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )
    assert child.stdout is not None
    acks: list[tuple[int, int, str]] = []
    try:
        assert child.stdout.readline().strip() == "ready"
        deadline = time.monotonic() + 60
        while len(acks) < 1500 and time.monotonic() < deadline:
            line = child.stdout.readline()
            if not line:
                break
            _, match, version, move = line.rstrip("\n").split(" ", 3)
            acks.append((int(match), int(version), move))
        os.kill(child.pid, signal.SIGKILL)  # in the middle of the stream
        # Lines already printed were acknowledged too: read them all.
        for line in child.stdout:
            if line.startswith("ack "):
                _, match, version, move = line.rstrip("\n").split(" ", 3)
                acks.append((int(match), int(version), move))
    finally:
        child.kill()
        child.wait()
    assert child.returncode == -signal.SIGKILL
    assert len(acks) >= 100

    stored = {
        (match, ply): move
        for match, ply, move in rows(db_path, "SELECT match_id, ply, move FROM moves")
    }
    if not isinstance(db_path, str):
        conn = sqlite3.connect(db_path)
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        conn.close()
    for match, version, move in acks:
        assert stored.get((match, version)) == move

    service = await MatchService.open(db_path)
    try:
        assert await service.verify_all() == []
    finally:
        await service.close()
