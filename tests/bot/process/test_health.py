"""The heartbeat behind the Docker HEALTHCHECK (`python -m bot health`)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot import __main__ as entry
from bot.process import health


def test_a_fresh_heartbeat_is_healthy_and_a_stale_or_missing_one_is_not(tmp_path: Path) -> None:
    path = health.heartbeat_path(tmp_path / "tapis.db")
    assert path.name == "tapis.db.alive"
    assert "no heartbeat" in (health.problem(path) or "")
    health.beat(path)
    assert health.problem(path) is None
    old = path.stat().st_mtime - health.STALE_AFTER - 5
    os.utime(path, (old, old))
    assert "old" in (health.problem(path) or "")
    health.stop(path)
    assert not path.exists()


def test_the_health_command_exits_by_the_heartbeat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "tapis.db"
    assert entry.main(["--db", str(db), "health"]) == 1
    assert "unhealthy" in capsys.readouterr().out
    health.beat(health.heartbeat_path(db))
    assert entry.main(["--db", str(db), "health"]) == 0
