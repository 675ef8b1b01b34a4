"""SQLite storage on aiosqlite: one writer connection, one reader, WAL, numbered migrations.

Every write runs inside ``async with db.write() as conn:`` — one ``BEGIN IMMEDIATE``
transaction on the single writer connection, committed on exit, rolled back on any error —
so a write never waits on SQLITE_BUSY halfway through and nothing is ever half-written.
Reads go through a second connection: in WAL mode it sees every committed write and never
sees a transaction in progress. aiosqlite runs each connection in its own thread, so no
SQLite call blocks the event loop.

Durability: with WAL, a committed transaction survives the process being killed whatever
``synchronous`` says; ``durable=True`` (``synchronous=FULL``) also makes it survive a power
loss, at the price of one more fsync per commit.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.migrations import MIGRATIONS

DEFAULT_PATH = Path("data") / "tapis.db"
BUSY_TIMEOUT_MS = 5000


def default_path() -> Path:
    """``TAPIS_DB`` if set, else ``data/tapis.db``."""
    return Path(os.environ.get("TAPIS_DB") or DEFAULT_PATH)


def durable_from_env() -> bool:
    """``TAPIS_DURABLE=1`` (or ``TAPIS_SYNCHRONOUS=FULL``) asks for power-loss durability."""
    flag = os.environ.get("TAPIS_DURABLE", "").strip().lower()
    sync = os.environ.get("TAPIS_SYNCHRONOUS", "").strip().upper()
    return flag in ("1", "true", "yes", "on") or sync in ("FULL", "EXTRA")


class Database:
    """The database file, its writer and its reader."""

    def __init__(
        self, path: Path, writer: aiosqlite.Connection, reader: aiosqlite.Connection
    ) -> None:
        self.path = path
        self._writer = writer
        self._reader = reader
        self._write_lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path, *, durable: bool = False) -> Database:
        """Open (creating it and its folder if needed) and migrate the database at ``path``."""
        path = Path(path)
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        writer = await _connect(path, durable=durable)
        try:
            await migrate(writer)
            reader = await _connect(path, durable=durable)
        except BaseException:
            await writer.close()
            raise
        return cls(path, writer, reader)

    async def close(self) -> None:
        async with self._write_lock:
            await self._reader.close()
            await self._writer.close()

    @asynccontextmanager
    async def write(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction (``BEGIN IMMEDIATE``), committed on success."""
        async with self._write_lock:
            await self._writer.execute("BEGIN IMMEDIATE")
            try:
                yield self._writer
            except BaseException:
                await self._writer.rollback()
                raise
            await self._writer.commit()

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> aiosqlite.Row | None:
        async with self._reader.execute(sql, tuple(params)) as cursor:
            return await cursor.fetchone()

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[aiosqlite.Row]:
        async with self._reader.execute(sql, tuple(params)) as cursor:
            return list(await cursor.fetchall())

    async def backup(self, target: str | Path) -> None:
        """A consistent copy of the whole database at ``target`` (which must not exist)."""
        target = Path(target)
        if target.exists():
            raise FileExistsError(f"{target} already exists: choose a new file for the backup")
        target.parent.mkdir(parents=True, exist_ok=True)
        # VACUUM INTO reads one snapshot, so the copy is consistent while writes go on.
        await self._reader.execute("VACUUM INTO ?", (str(target),))


async def _connect(path: Path, *, durable: bool) -> aiosqlite.Connection:
    # isolation_level=None: the sqlite3 module opens no transaction by itself; write() does.
    conn = await aiosqlite.connect(path, isolation_level=None)
    conn.row_factory = aiosqlite.Row
    await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    await conn.execute("PRAGMA journal_mode = WAL")
    await conn.execute(f"PRAGMA synchronous = {'FULL' if durable else 'NORMAL'}")
    await conn.execute("PRAGMA foreign_keys = ON")
    return conn


async def schema_version(conn: aiosqlite.Connection) -> int:
    async with conn.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


async def migrate(conn: aiosqlite.Connection) -> int:
    """Apply every migration not applied yet, each in its own transaction; the new version."""
    version = await schema_version(conn)
    if version > len(MIGRATIONS):
        raise RuntimeError(
            f"the database is at schema version {version}, newer than this program "
            f"({len(MIGRATIONS)}): update Tapis before opening it"
        )
    for number in range(version + 1, len(MIGRATIONS) + 1):
        await conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have migrated while we waited for the lock.
            if await schema_version(conn) >= number:
                await conn.rollback()
                continue
            for statement in _statements(MIGRATIONS[number - 1]):
                await conn.execute(statement)
            await conn.execute(f"PRAGMA user_version = {number}")
        except BaseException:
            await conn.rollback()
            raise
        await conn.commit()
    return await schema_version(conn)


def _statements(script: str) -> list[str]:
    """Split a migration into statements (executescript would commit on its own)."""
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        if line.strip().startswith("--"):
            continue
        buffer += line
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        raise ValueError(f"incomplete statement in a migration: {buffer.strip()[:60]}")
    return statements
