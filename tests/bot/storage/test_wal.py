"""The write-ahead log's checkpoints, driven by the writer: the log stays bounded."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from bot.storage import sqlite as storage

FILLER = 64 * 1024  # bytes a sustained-write plan stores: sixteen pages


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
