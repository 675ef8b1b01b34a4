"""Fixtures for the service tests: a real database and a clock we move by hand.

Every test that takes ``db_path`` (or ``service``) runs twice: on a SQLite file in tmp_path,
and on the session's PostgreSQL server (emptied for it); ``db_path`` is then the server's
address, which ``MatchService.open`` takes as well. Tests about the SQLite file itself take
``db_file`` instead.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

import games
from bot.service import MatchInfo, MatchService, PlayerRef
from tests import pg

ALICE = PlayerRef(100_000_000_000_000_001, "Alice")
BOB = PlayerRef(100_000_000_000_000_002, "Bob")
CAROL = PlayerRef(100_000_000_000_000_003, "Carol")
GUILD = 700_000_000_000_000_001
CHANNEL = 800_000_000_000_000_001
GAME = "cinq-as"  # the service's own tests use the model game; every game is played through
# in test_match_service.py and test_sandbox.py


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


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def db_file(tmp_path: Path) -> Path:
    """A SQLite database file (for what only a file has: backups, damage, locks)."""
    return tmp_path / "tapis.db"


@pytest.fixture
def db_path(backend: str, db_file: Path, request: pytest.FixtureRequest) -> Path | str:
    """Where the test's database is: a SQLite file, or a PostgreSQL address."""
    if backend == "sqlite":
        return db_file
    return str(request.getfixturevalue("pg_url"))


@pytest.fixture
async def service(db_path: Path | str, clock: FakeClock) -> AsyncIterator[MatchService]:
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


def rows(path: Path | str, sql: str, *params: object) -> list[tuple[object, ...]]:
    """Every row of ``sql`` (``?`` placeholders) on the test's database, whichever it is."""
    if isinstance(path, str):
        from bot.storage.dialect import translate

        return pg.query(path, translate(sql).text, *params)
    conn = sqlite3.connect(path)
    try:
        return [tuple(row) for row in conn.execute(sql, params)]
    finally:
        conn.close()


def write(path: Path | str, sql: str, *params: object) -> None:
    """Run one change (``?`` placeholders) on the test's database, committed at once."""
    if isinstance(path, str):
        from bot.storage.dialect import translate

        pg.query(path, translate(sql).text, *params)
        return
    conn = sqlite3.connect(path)
    try:
        with conn:
            conn.execute(sql, params)
    finally:
        conn.close()


def snapshot(path: Path | str) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table, to prove that a refused request wrote nothing."""
    if isinstance(path, str):
        return {
            table: pg.query(path, f"SELECT * FROM {table} ORDER BY 1, 2")
            for table in ("players", "matches", "moves", "results", "ratings")
        }
    conn = sqlite3.connect(path)
    try:
        return {
            table: conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()
            for table in ("players", "matches", "moves", "results", "ratings")
        }
    finally:
        conn.close()


def stored_state(path: Path | str, match_id: int) -> games.State:
    if isinstance(path, str):
        [(game, text)] = pg.query(path, "SELECT game, state FROM matches WHERE id = $1", match_id)
        return games.get(game).from_json(text)
    conn = sqlite3.connect(path)
    try:
        game, text = conn.execute(
            "SELECT game, state FROM matches WHERE id = ?", (match_id,)
        ).fetchone()
    finally:
        conn.close()
    return games.get(game).from_json(text)
