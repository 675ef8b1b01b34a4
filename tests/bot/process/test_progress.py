"""Long operator commands say how far they are: a bar on a terminal, a line now and then in a
log, a summary at the end."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from bot.process.progress import EVERY, Progress, duration

ROOT = Path(__file__).resolve().parents[3]


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_in_a_log_a_line_every_few_seconds_with_the_time_left() -> None:
    out, clock = io.StringIO(), Clock()
    shown = Progress("Verifying", 1000, "matches", stream=out, terminal=False, clock=clock)
    for done in range(1, 1001):
        clock.now += 0.02  # 20 s in all
        shown.update(done)
    lines = out.getvalue().splitlines()
    assert 3 <= len(lines) <= 20 / EVERY + 1, lines  # not one a match
    assert lines[0].startswith("Verifying: ") and "/1,000 matches" in lines[0]
    assert "left)" in lines[0] and "\r" not in out.getvalue()
    # Half-way, half the time is left.
    other = Clock()
    half = Progress("Copying", 10, "rows", stream=io.StringIO(), terminal=False, clock=other)
    other.now += 30
    half.update(5)
    assert half.left() == 30.0
    took = shown.done("All replay.")
    assert out.getvalue().endswith("Verifying: 1,000 matches in 20 s. All replay.\n")
    assert round(took) == 20


def test_on_a_terminal_a_bar_redrawn_in_place() -> None:
    out, clock = io.StringIO(), Clock()
    shown = Progress("Backing up", 400, "KiB", stream=out, terminal=True, clock=clock)
    for done in range(0, 401, 100):
        clock.now += 1
        shown.update(done)
    drawn = out.getvalue()
    assert drawn.startswith("\r") and "█" in drawn and "\n" not in drawn
    assert "400/400 KiB (100%" in drawn
    shown.done()
    assert out.getvalue().endswith("\r\x1b[KBacking up: 400 KiB in 5.0 s.\n")


def test_durations_read_at_a_glance() -> None:
    assert [duration(s) for s in (3.24, 42, 75.2, 3725)] == [
        "3.2 s", "42 s", "1 min 15 s", "1 h 02 min",
    ]  # fmt: skip


def test_verify_and_backup_end_with_a_summary(tmp_path: Path) -> None:
    import asyncio

    from bot.service import MatchService, PlayerRef

    async def one_match() -> None:
        async with await MatchService.open(tmp_path / "t.db") as service:
            info, _ = await service.challenge(
                PlayerRef(1, "Ana"), PlayerRef(2, "Ben"), "piquet", guild_id=1, channel_id=2
            )
            await service.accept(info.id, PlayerRef(2, "Ben"))

    asyncio.run(one_match())
    env = {"PYTHONPATH": str(ROOT), "TAPIS_DB": str(tmp_path / "t.db")}
    for args, said in (
        (["verify"], "Verifying: 1 match in"),
        (["backup", str(tmp_path / "copy.db")], "Backing up: "),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "bot", *args], cwd=tmp_path, env=env,
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert said in done.stderr, done.stderr
