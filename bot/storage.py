"""SQLite storage on aiosqlite: one writer connection, one reader, WAL, numbered migrations.

Every write is a *plan*: a plain function given the writer's ``sqlite3.Connection``, run by
``await db.transact(plan)`` in the writer connection's own thread (aiosqlite's), so no
SQLite call blocks the event loop and a whole write costs one hop to that thread. Plans that
arrive together are committed together (group commit): one ``BEGIN IMMEDIATE`` transaction,
each plan inside its own savepoint, so a plan that fails is rolled back alone and the others
commit; nothing is ever half-written, and one fsync serves many moves. ``transact`` returns
only once the transaction holding the plan has committed.
Reads go through a second connection: in WAL mode it sees every committed write and never
sees a transaction in progress.

Durability: with WAL, a committed transaction survives the process being killed whatever
``synchronous`` says; ``durable=True`` (``synchronous=FULL``) also makes it survive a power
loss, at the price of one more fsync per commit.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.migrations import MIGRATIONS

DEFAULT_PATH = Path("data") / "tapis.db"
BUSY_TIMEOUT_MS = 5000
# Checkpoints (copying the WAL back into the database, with an fsync) run on a connection
# of their own every so many commits, so no move waits for one in its COMMIT.
CHECKPOINT_EVERY = 500
MAX_BATCH = 256  # plans committed together at most

T = TypeVar("T")
Plan = Callable[[sqlite3.Connection], T]


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
        self,
        path: Path,
        writer: aiosqlite.Connection,
        reader: aiosqlite.Connection,
        *,
        durable: bool = False,
    ) -> None:
        self.path = path
        self.durable = durable
        self._writer = writer
        self._reader = reader
        self._write_lock = asyncio.Lock()
        self._pending: list[tuple[Plan[Any], asyncio.Future[Any]]] = []
        self._flusher: asyncio.Task[None] | None = None
        self._commits = 0
        self._checkpointer: aiosqlite.Connection | None = None
        self._checkpoint: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, path: str | Path, *, durable: bool = False) -> Database:
        """Open (creating it and its folder if needed) and migrate the database at ``path``."""
        path = Path(path)
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        writer = await _connect(path, durable=durable)
        try:
            await migrate(writer)
            await writer.execute("PRAGMA wal_autocheckpoint = 0")
            reader = await _connect(path, durable=durable)
        except BaseException:
            await writer.close()
            raise
        return cls(path, writer, reader, durable=durable)

    async def close(self) -> None:
        while self._flusher is not None:
            await asyncio.gather(self._flusher, return_exceptions=True)
        async with self._write_lock:
            if self._checkpoint is not None:
                await asyncio.gather(self._checkpoint, return_exceptions=True)
            if self._checkpointer is not None:
                await self._checkpointer.close()
            await self._reader.close()
            # Fold the WAL back into the file, so a closed database is one file.
            await self._writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            await self._writer.close()

    async def transact(self, plan: Plan[T]) -> T:
        """Run ``plan(conn)`` in a write transaction; its result once committed.

        If the plan raises, what it wrote is rolled back and its exception raised here.
        """
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._pending.append((plan, future))
        if self._flusher is None:
            self._flusher = asyncio.create_task(self._flush())
        return await future

    async def _flush(self) -> None:
        """Commit the waiting plans, a batch at a time, until none is left."""
        try:
            while self._pending:
                batch = self._pending[:MAX_BATCH]
                del self._pending[:MAX_BATCH]
                try:
                    async with self._write_lock:
                        # aiosqlite runs every call of a connection in that connection's
                        # thread through Connection._execute (the primitive all its methods
                        # use); giving it the whole batch makes one hop instead of one per
                        # statement.
                        outcomes = await self._writer._execute(  # type: ignore[no-untyped-call]
                            _run_batch, self._writer._conn, [plan for plan, _ in batch]
                        )
                except Exception as error:  # the transaction failed: no plan committed
                    for _, future in batch:
                        if not future.done():
                            future.set_exception(error)
                    continue
                for (_, future), (ok, value) in zip(batch, outcomes, strict=True):
                    if future.done():
                        continue
                    if ok:
                        future.set_result(value)
                    else:
                        future.set_exception(value)
                self._committed()
        finally:
            self._flusher = None

    def _committed(self) -> None:
        self._commits += 1
        if self._commits >= CHECKPOINT_EVERY and self._checkpoint is None:
            self._commits = 0
            self._checkpoint = asyncio.create_task(self._run_checkpoint())

    async def _run_checkpoint(self) -> None:
        """A PASSIVE checkpoint: it never blocks the writer, nor readers."""
        try:
            if self._checkpointer is None:
                self._checkpointer = await _connect(self.path, durable=self.durable)
            await self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except Exception:  # the next one will try again; the WAL only grows meanwhile
            logging.getLogger("tapis.storage").exception("checkpoint failed")
        finally:
            self._checkpoint = None

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
        row: sqlite3.Row | None = await self._read(_fetchone, sql, tuple(params))
        return row

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        rows: list[sqlite3.Row] = await self._read(_fetchall, sql, tuple(params))
        return rows

    async def _read(self, fetch: Callable[..., Any], sql: str, params: tuple[Any, ...]) -> Any:
        """Run a query and fetch its rows in one hop to the reader's thread.

        An open statement holds its connection's read snapshot: were a query executed in one
        hop and fetched in another, a concurrent query on the shared reader would run inside
        that older snapshot and miss what was committed since (a match just created).
        """
        return await self._reader._execute(  # type: ignore[no-untyped-call]
            fetch, self._reader._conn, sql, params
        )

    async def backup(self, target: str | Path) -> None:
        """A consistent copy of the whole database at ``target`` (which must not exist)."""
        target = Path(target)
        if target.exists():
            raise FileExistsError(f"{target} already exists: choose a new file for the backup")
        target.parent.mkdir(parents=True, exist_ok=True)
        # VACUUM INTO reads one snapshot, so the copy is consistent while writes go on.
        await self._reader.execute("VACUUM INTO ?", (str(target),))


def _fetchone(conn: sqlite3.Connection, sql: str, params: tuple[Any, ...]) -> Any:
    cursor = conn.execute(sql, params)
    try:
        return cursor.fetchone()
    finally:
        cursor.close()


def _fetchall(conn: sqlite3.Connection, sql: str, params: tuple[Any, ...]) -> list[Any]:
    cursor = conn.execute(sql, params)
    try:
        return cursor.fetchall()
    finally:
        cursor.close()


def _run_batch(conn: sqlite3.Connection, plans: list[Plan[Any]]) -> list[tuple[bool, Any]]:
    """In the writer's thread: one transaction, each plan in a savepoint of its own."""
    outcomes: list[tuple[bool, Any]] = []
    conn.execute("BEGIN IMMEDIATE")
    try:
        for plan in plans:
            conn.execute("SAVEPOINT plan")
            try:
                value = plan(conn)
            except Exception as error:
                conn.execute("ROLLBACK TO plan")
                conn.execute("RELEASE plan")
                outcomes.append((False, error))
            else:
                conn.execute("RELEASE plan")
                outcomes.append((True, value))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return outcomes


async def _connect(path: Path, *, durable: bool) -> aiosqlite.Connection:
    # isolation_level=None: the sqlite3 module opens no transaction by itself; write() does.
    conn = await aiosqlite.connect(path, isolation_level=None)
    try:
        conn.row_factory = aiosqlite.Row
        await conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        await conn.execute("PRAGMA journal_mode = WAL")
        await conn.execute(f"PRAGMA synchronous = {'FULL' if durable else 'NORMAL'}")
        await conn.execute("PRAGMA foreign_keys = ON")
    except BaseException:
        await conn.close()  # its thread would keep the process alive
        raise
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
