"""The SQLite file: pragmas, migrations applied once, the default path, backups, integrity
checks, and its writer thread (group commit, closing)."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import threading
from pathlib import Path

import pytest

from bot import config
from bot.__main__ import backup
from bot.service import MatchOver, MatchService
from bot.storage import sql
from bot.storage import sqlite as storage
from bot.storage.backends import open_database
from bot.storage.migrations import MIGRATIONS
from bot.storage.sql import Closed, Connection, Plan
from tests import pg, threads
from tests.bot.conftest import ALICE, FakeClock, play_random, rows, start_match, write
from tests.waiting import until


async def pragma(db: storage.Database, name: str) -> object:
    record = await db.fetchone(f"PRAGMA {name}")
    assert record is not None
    return record[0]


@pytest.mark.parametrize(("durable", "level"), [(False, 1), (True, 2)])
async def test_connections_are_set_up(db_file: Path, durable: bool, level: int) -> None:
    db = await storage.Database.open(db_file, durable=durable)
    try:
        assert await pragma(db, "journal_mode") == "wal"
        assert await pragma(db, "foreign_keys") == 1
        assert await pragma(db, "busy_timeout") == storage.BUSY_TIMEOUT_MS
        assert await pragma(db, "synchronous") == level  # NORMAL 1, FULL 2
        assert await pragma(db, "user_version") == len(MIGRATIONS)
    finally:
        await db.close()


async def test_migrations_run_once_and_a_newer_schema_is_refused(db_path: Path | str) -> None:
    if isinstance(db_path, str):
        db_path = pg.fresh_database(db_path)  # its schema is changed below
    db = await open_database(db_path)
    await db.transact(
        lambda conn: conn.execute(
            "INSERT INTO players (user_id, name, created_at, updated_at) VALUES (1, 'x', 0, 0)"
        )
    )
    await db.close()
    db = await open_database(db_path)  # a second open migrates nothing
    assert await db.fetchone("SELECT name FROM players") is not None
    await db.close()

    if isinstance(db_path, str):
        assert pg.query(db_path, "SELECT version FROM tapis_schema") == [(len(MIGRATIONS),)]
        write(db_path, "UPDATE tapis_schema SET version = ?", len(MIGRATIONS) + 1)
    else:
        conn = sqlite3.connect(db_path)
        conn.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
        conn.close()
    with pytest.raises(RuntimeError, match="newer than this program"):
        await open_database(db_path)


async def test_the_clocks_move_to_their_side_table(db_file: Path, clock: FakeClock) -> None:
    """Migration 5 on a database of version 4: the due times of live matches (a turn's
    deadline and reminder, a challenge's expiry) move to the clocks table, and none of a
    match over; the service then runs them as before."""
    conn = sqlite3.connect(db_file)
    for number, script in enumerate(MIGRATIONS[:4], start=1):
        conn.executescript(script)
        conn.execute(f"PRAGMA user_version = {number}")
    conn.execute(
        "INSERT INTO players (user_id, name, created_at, updated_at) VALUES (?, 'Alice', 0, 0)",
        (ALICE.user_id,),
    )
    at = clock().timestamp()
    for status, deadline, reminder in (
        ("challenge", at + 86_400, None),
        ("finished", at + 5, at + 1),
        ("declined", None, None),
    ):
        conn.execute(
            "INSERT INTO matches (game, challenger_id, status, deadline, reminder_at,"
            " created_at, updated_at) VALUES ('cinq-as', ?, ?, ?, ?, ?, ?)",
            (ALICE.user_id, status, deadline, reminder, at, at),
        )
    conn.commit()
    conn.close()

    service = await MatchService.open(db_file, now=clock)
    try:
        clocks = await service.database.fetchall("SELECT * FROM clocks")
        assert [tuple(row) for row in clocks] == [(1, at + 86_400, None)]
        assert await service.next_clock_event() == at + 86_400
        assert (await service.get(1)).deadline is not None
        clock.advance(days=1)
        (expired,) = await service.check_clocks()
        assert "expired" in expired.text and (await service.get(1)).status == "cancelled"
        assert await service.database.fetchall("SELECT * FROM clocks") == []
    finally:
        await service.close()


async def test_a_failed_plan_leaves_nothing_and_the_others_commit(db_path: Path | str) -> None:
    """Plans committed together: each in its own savepoint, so one failing is rolled back
    alone (here a foreign key refuses it) and the others are written."""

    def player(user_id: int) -> Plan[None]:
        def plan(conn: Connection) -> None:
            conn.execute(
                "INSERT INTO players (user_id, name, created_at, updated_at) VALUES (?, 'x', 0, 0)",
                (user_id,),
            )

        return plan

    def bad(conn: Connection) -> None:
        player(2)(conn)
        # a match whose challenger does not exist
        conn.execute(
            "INSERT INTO matches (game, challenger_id, status, created_at, updated_at)"
            " VALUES ('cinq-as', 99, 'challenge', 0, 0)"
        )

    db = await open_database(db_path)
    try:
        outcomes = await asyncio.gather(
            db.transact(player(1)),
            db.transact(bad),
            db.transact(player(3)),
            return_exceptions=True,
        )
        assert outcomes[0] is None and outcomes[2] is None
        assert isinstance(outcomes[1], sql.errors())
        ids = [row[0] for row in await db.fetchall("SELECT user_id FROM players ORDER BY 1")]
        assert ids == [1, 3]
    finally:
        await db.close()


def test_the_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """``bot/config.py`` reads them, for the bot and the sandbox alike; storage never does."""
    monkeypatch.delenv("TAPIS_DB", raising=False)
    assert config.database_path() == Path("data/tapis.db")
    monkeypatch.setenv("TAPIS_DB", "/tmp/elsewhere.db")
    assert config.database_path() == Path("/tmp/elsewhere.db")
    assert config.database_path({"TAPIS_DB": "  "}) == Path("data/tapis.db")
    monkeypatch.delenv("TAPIS_DURABLE", raising=False)
    monkeypatch.delenv("TAPIS_SYNCHRONOUS", raising=False)
    assert not config.durable()
    monkeypatch.setenv("TAPIS_DURABLE", "1")
    assert config.durable()
    assert config.durable({"TAPIS_SYNCHRONOUS": "full"})
    assert not config.durable({"TAPIS_DURABLE": "no"})
    assert "environ" not in Path(storage.__file__).read_text(encoding="utf-8")
    # A PostgreSQL address is kept whole (a path would fold its //).
    address = "postgresql://tapis:secret@db:5432/tapis"
    assert config.database({"TAPIS_DB": f" {address} "}) == address
    assert config.database({}) == Path("data/tapis.db")


async def test_verify_replays_and_sets_aside_a_tampered_match(
    db_path: Path, clock: FakeClock
) -> None:
    service = await MatchService.open(db_path, now=clock)
    try:
        tampered = await play_random(service, await start_match(service), random.Random(1), 6)
        gap = await play_random(service, await start_match(service), random.Random(2), 6)
        fine = await play_random(service, await start_match(service), random.Random(3), 6)
        assert await service.verify_all() == []
        # A different but readable state: a valid state from another point of the match.
        [(state,)] = rows(db_path, "SELECT state FROM matches WHERE id = ?", gap.id)
        write(db_path, "UPDATE matches SET state = ? WHERE id = ?", state, tampered.id)
        write(db_path, "DELETE FROM moves WHERE match_id = ? AND ply = 3", gap.id)
        assert sorted(await service.verify_all()) == [tampered.id, gap.id]
        info = await service.get(tampered.id)
        assert info.status == "corrupt"
        with pytest.raises(MatchOver, match="set aside"):
            await service.move(tampered.id, ALICE.user_id, "draw")
        # the others go on
        await play_random(service, fine, random.Random(4), 3)
        assert await service.verify(fine.id)
    finally:
        await service.close()
    problems = dict(rows(db_path, "SELECT id, problem FROM matches WHERE status = 'corrupt'"))
    assert "differs" in problems[tampered.id] and "skips" in problems[gap.id]


async def test_backups_are_consistent_copies(
    db_file: Path, tmp_path: Path, clock: FakeClock
) -> None:
    db_path = db_file  # a SQLite file's own (PostgreSQL has pg_dump)
    service = await MatchService.open(db_path, now=clock)
    infos = [
        await play_random(service, await start_match(service), random.Random(i), 5)
        for i in range(3)
    ]
    target = tmp_path / "copies" / "one.db"
    await service.database.backup(target)
    with pytest.raises(FileExistsError):
        await service.database.backup(target)
    # The command line's backup, while the service still has the file open.
    assert backup(db_path, tmp_path / "two.db") == 0
    assert backup(db_path, tmp_path / "two.db") == 1  # never overwrites
    assert backup(tmp_path / "none.db", tmp_path / "three.db") == 1
    await service.close()
    for copy in (target, tmp_path / "two.db"):
        other = await MatchService.open(copy, now=clock)
        try:
            for info in infos:
                assert await other.get(info.id) == info
                assert await other.verify(info.id)
        finally:
            await other.close()


async def test_a_file_that_is_not_a_database_is_refused_cleanly(tmp_path: Path) -> None:

    bad = tmp_path / "bad.db"
    bad.write_text("not a database, just words " * 100)
    before = threads.running()
    with pytest.raises(sqlite3.DatabaseError):
        await storage.Database.open(bad)
    # Its connection's thread has stopped (it would keep the process up).
    await until(lambda: not threads.left_since(before), "the connection's thread to stop")


def insert(value: int) -> storage.Plan[int]:
    def plan(conn: sqlite3.Connection) -> int:
        conn.execute("CREATE TABLE IF NOT EXISTS t (x INTEGER PRIMARY KEY)")
        conn.execute("INSERT INTO t (x) VALUES (?)", (value,))
        return value

    return plan


async def test_plans_that_arrive_together_share_one_transaction(db_file: Path) -> None:
    """While the writer is busy, the plans handed over wait and then commit together: one
    BEGIN IMMEDIATE for all of them, a savepoint each; every caller resumes after COMMIT."""
    db = await storage.Database.open(db_file)
    statements: list[str] = []
    release, taken = threading.Event(), threading.Event()

    def blocker(conn: sqlite3.Connection) -> None:
        conn.set_trace_callback(statements.append)
        taken.set()
        release.wait(10)  # holds the writer while the others are handed over

    def untrace(conn: sqlite3.Connection) -> None:
        conn.set_trace_callback(None)

    try:
        first = asyncio.ensure_future(db.transact(blocker))
        await until(taken.is_set, "the writer to take the blocker alone")
        others = [asyncio.ensure_future(db.transact(insert(n))) for n in range(10)]
        jobs = db._writer._jobs
        await until(lambda: jobs.qsize() == 10, "the ten to be handed over")
        assert not any(task.done() for task in others)
        release.set()
        assert await asyncio.gather(first, *others) == [None, *range(10)]
        await db.transact(untrace)
        # the blocker's own batch commits, then one transaction holds the ten
        assert statements.count("BEGIN IMMEDIATE") == 2
        assert statements.count("COMMIT") == 2
        assert statements.count("SAVEPOINT plan") == 11
        # committed by the time transact returned: another connection sees it
        other = sqlite3.connect(db_file)
        assert other.execute("SELECT COUNT(*) FROM t").fetchone()[0] == 10
        other.close()
    finally:
        release.set()
        await db.close()


async def test_close_commits_what_was_handed_over_and_stops_the_thread(db_file: Path) -> None:
    before = threads.running()
    db = await storage.Database.open(db_file)
    pending = [asyncio.ensure_future(db.transact(insert(n))) for n in range(50)]
    await asyncio.sleep(0)  # handed over
    await db.close()
    await db.close()  # twice is harmless
    assert await asyncio.gather(*pending) == list(range(50))
    with pytest.raises(Closed):
        await db.transact(insert(99))
    with pytest.raises(Closed):
        await db.fetchone("SELECT 1")
    assert not threads.left_since(before)
    # the WAL was folded back into the file
    assert not Path(f"{db_file}-wal").exists() or Path(f"{db_file}-wal").stat().st_size == 0
    other = sqlite3.connect(db_file)
    assert other.execute("SELECT COUNT(*) FROM t").fetchone()[0] == 50
    other.close()


async def test_a_plan_that_fails_outside_sqlite_is_rolled_back_alone(db_file: Path) -> None:
    db = await storage.Database.open(db_file)

    def broken(conn: sqlite3.Connection) -> None:
        insert(7)(conn)
        raise ValueError("the plan changed its mind")

    try:
        outcomes = await asyncio.gather(
            db.transact(insert(1)), db.transact(broken), db.transact(insert(2)),
            return_exceptions=True,
        )  # fmt: skip
        assert outcomes[0] == 1 and outcomes[2] == 2
        assert isinstance(outcomes[1], ValueError)
        assert [row[0] for row in await db.fetchall("SELECT x FROM t ORDER BY x")] == [1, 2]
        with pytest.raises(ValueError, match="one of"):
            await db.checkpoint("NOW")
    finally:
        await db.close()


def test_storage_uses_only_aiosqlites_public_api() -> None:
    source = Path(storage.__file__).read_text(encoding="utf-8")
    for private in ("._execute", "._conn", "._tx", "._thread.", "._connection"):
        assert f"reader{private}" not in source and f"aiosqlite{private}" not in source
