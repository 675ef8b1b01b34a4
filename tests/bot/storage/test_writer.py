"""The storage's writer thread: group commit, closing, and a write-ahead log that stays bounded."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from pathlib import Path

import pytest

from bot.storage import sqlite as storage
from tests import threads
from tests.waiting import until

FILLER = 64 * 1024  # bytes a sustained-write plan stores: sixteen pages


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
    with pytest.raises(storage.Closed):
        await db.transact(insert(99))
    with pytest.raises(storage.Closed):
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


async def test_the_wal_stays_bounded_under_sustained_writes_and_reads(db_file: Path) -> None:
    """Writes flat out while readers read, as the bot does: the log must start over again and
    again, so its file stays within a few checkpoints' worth, far below what was written.

    The thresholds are scaled down (a checkpoint every 64 pages, a limit of 2 MB instead of
    64 MB) so that a few seconds write many times the limit.
    """
    limit = 2 * 2**20
    db = await storage.Database.open(db_file, checkpoint_pages=64, wal_limit=limit)
    wal = Path(f"{db_file}-wal")
    largest = 0
    written = 0
    stop = asyncio.Event()

    def fill(n: int) -> storage.Plan[None]:
        def plan(conn: sqlite3.Connection) -> None:
            conn.execute("CREATE TABLE IF NOT EXISTS filler (n INTEGER PRIMARY KEY, b BLOB)")
            conn.execute("INSERT INTO filler VALUES (?, randomblob(?))", (n, FILLER))
            conn.execute("DELETE FROM filler WHERE n < ?", (n - 64,))  # the file stays small

        return plan

    async def writer(k: int) -> None:
        nonlocal largest, written
        for n in range(200):
            await db.transact(fill(4 * n + k))
            written += FILLER
            largest = max(largest, wal.stat().st_size)

    async def reader() -> int:
        reads = 0
        while not stop.is_set():
            # a read that takes a while, holding its snapshot: the worst case for a checkpoint
            await db.fetchall("SELECT n, length(b) FROM filler ORDER BY n")
            reads += 1
        return reads

    try:
        await db.transact(fill(-100))  # the table, before the readers look for it
        readers = [asyncio.ensure_future(reader()) for _ in range(2)]
        await asyncio.gather(*(writer(k) for k in range(4)))
        stop.set()
        assert min(await asyncio.gather(*readers)) > 0
        assert written >= 20 * limit  # 50 MB through a log that must stay under 2 MB
        assert largest < limit, f"the WAL reached {largest / 2**20:.1f} MB"
        busy, _, _ = await db.checkpoint("TRUNCATE")
        assert busy == 0 and wal.stat().st_size == 0
    finally:
        stop.set()
        await db.close()


def test_storage_uses_only_aiosqlites_public_api() -> None:
    source = Path(storage.__file__).read_text(encoding="utf-8")
    for private in ("._execute", "._conn", "._tx", "._thread.", "._connection"):
        assert f"reader{private}" not in source and f"aiosqlite{private}" not in source
