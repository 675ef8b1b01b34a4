"""A program that fails while the service is open still ends, with its error: no thread of the
database keeps the interpreter waiting at exit."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.service import MatchService, PlayerRef
from bot.storage.sql import Closed

ROOT = Path(__file__).resolve().parents[3]

FAILING = """
import asyncio, sys
from bot.service import MatchService, PlayerRef

async def main() -> None:
    service = await MatchService.open(sys.argv[1])
    await service.challenge(PlayerRef(1, "Ana"), PlayerRef(2, "Ben"), "piquet", guild_id=1,
                            channel_id=2)
    [][0]  # a script's own mistake, before it closes the service

asyncio.run(main())
"""


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_script_failing_before_close_exits_with_its_error(
    tmp_path: Path, request: pytest.FixtureRequest, backend: str
) -> None:
    target = str(tmp_path / "t.db") if backend == "sqlite" else request.getfixturevalue("pg_url")
    script = tmp_path / "script.py"
    script.write_text(FAILING)
    try:
        done = subprocess.run(
            [sys.executable, str(script), target],
            cwd=tmp_path, env={"PYTHONPATH": str(ROOT)},
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
    except subprocess.TimeoutExpired as hung:
        raise AssertionError("the script hung at exit instead of ending") from hung
    assert done.returncode == 1
    assert "IndexError" in done.stderr


async def test_the_service_closes_when_its_block_fails(tmp_path: Path) -> None:
    with pytest.raises(IndexError):
        async with await MatchService.open(tmp_path / "t.db") as service:
            await service.challenge(
                PlayerRef(1, "Ana"), PlayerRef(2, "Ben"), "piquet", guild_id=1, channel_id=2
            )
            [][0]
    with pytest.raises(Closed):
        await service.matches_of(1)
