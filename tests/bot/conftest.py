"""Fixtures for the service tests: a real SQLite file in tmp_path and a clock we move by hand."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import games
from bot.service import MatchInfo, MatchService, PlayerRef

ALICE = PlayerRef(100_000_000_000_000_001, "Alice")
BOB = PlayerRef(100_000_000_000_000_002, "Bob")
CAROL = PlayerRef(100_000_000_000_000_003, "Carol")
GUILD = 700_000_000_000_000_001
CHANNEL = 800_000_000_000_000_001
GAME = "cinq-as"  # the service's own tests use the model game; every game is played through
# in test_service.py and test_sandbox.py


class FakeClock:
    """An injected clock: time moves only when the test says so."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta: float) -> None:
        self.now += timedelta(**delta)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "tapis.db"


@pytest.fixture
async def service(db_path: Path, clock: FakeClock) -> AsyncIterator[MatchService]:
    service = await MatchService.open(db_path, now=clock)
    yield service
    await service.close()


async def start_match(
    service: MatchService,
    game: str | None = None,
    *,
    days: int | None = None,
    guild_id: int | None = GUILD,
    first: PlayerRef = ALICE,
    second: PlayerRef = BOB,
) -> MatchInfo:
    """A started match of ``game`` (GAME by default)."""
    info, _ = await service.challenge(
        first,
        second,
        game or GAME,
        guild_id=guild_id,
        channel_id=CHANNEL,
        days_per_move=days,
    )
    info, _ = await service.accept(info.id, second)
    return info


async def play_random(
    service: MatchService, info: MatchInfo, rng: random.Random, moves: int | None = None
) -> MatchInfo:
    """Play random legal moves until the match ends (or ``moves`` have been played)."""
    played = 0
    while info.status == "active" and (moves is None or played < moves):
        assert info.to_move is not None
        legal = await service.legal_moves(info.id, info.to_move)
        info, _ = await service.move(info.id, info.to_move, rng.choice(legal))
        played += 1
    return info


def snapshot(path: Path) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, to prove that a refused request wrote nothing."""
    conn = sqlite3.connect(path)
    try:
        return {
            table: conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
            for table in ("players", "matches", "moves", "results", "ratings")
        }
    finally:
        conn.close()


def stored_state(path: Path, match_id: int) -> games.State:
    conn = sqlite3.connect(path)
    try:
        game, text = conn.execute(
            "SELECT game, state FROM matches WHERE id = ?", (match_id,)
        ).fetchone()
    finally:
        conn.close()
    return games.get(game).from_json(text)
