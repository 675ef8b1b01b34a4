"""SQLite storage: a writer thread Tapis owns, a reader on aiosqlite, WAL, numbered migrations.

Writes. Every write is a *plan*: a plain function given the writer's ``sqlite3.Connection``,
run by ``await db.transact(plan)`` on the writer thread, so no SQLite call blocks the event
loop. The writer takes every plan waiting when it gets to work and commits them together
(group commit): one ``BEGIN IMMEDIATE`` transaction, each plan inside its own savepoint, so a
plan that fails is rolled back alone and the others commit; nothing is ever half-written, and
one fsync serves many moves. ``transact`` returns only once the transaction holding the plan
has committed. Plans that arrive while a batch commits form the next batch, so the busier the
bot, the more moves share each commit. Migrations run on the same thread, before any plan.

Reads go through a second connection, on aiosqlite's public API; in WAL mode it sees every
committed write and never a transaction in progress. Each read runs and fetches in one call
(``execute_fetchall``): an open statement holds its connection's read snapshot, so were a query
run in one hop and fetched in another, a concurrent query on the shared reader would run
inside that older snapshot and miss what was committed since (a match just created).

The write-ahead log's checkpoints are driven by the writer, between two batches, never inside
a move's commit (``bot.storage.wal``).

Durability: with WAL, a committed transaction survives the process being killed whatever
``synchronous`` says; ``durable=True`` (``synchronous=FULL``) also makes it survive a power
loss, at the price of one more fsync per commit. The settings themselves (``TAPIS_DB``,
``TAPIS_DURABLE``) are read by ``bot/config.py``, never here.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import queue
import sqlite3
import stat
import threading
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.storage.migrations import MIGRATIONS
from bot.storage.sql import Closed
from bot.storage.wal import CHECKPOINT_PAGES, MODES, WAL_LIMIT, Checkpoints
from bot.storage.writer import MAX_BATCH, STOP, Job, WriterThread, hand_back

BUSY_TIMEOUT_MS = 5000
T = TypeVar("T")
Plan = Callable[[sqlite3.Connection], T]


def private_file(path: Path) -> None:
    """Make sure the database at ``path`` is readable by its owner alone: it holds every
    player's hand. Folders created for it are 0700 and a new file is created 0600 before
    SQLite opens it (SQLite then gives its -wal and -shm files the same mode); an existing
    file open to others is narrowed to its owner. Folders that already exist are left as
    they are: they may be shared ones, such as /tmp.
    """
    missing = [p for p in (path.parent, *path.parent.parents) if not p.exists()]
    for folder in reversed(missing):
        folder.mkdir(mode=0o700, exist_ok=True)
        os.chmod(folder, 0o700)  # mkdir's mode is cut by the umask; this is not
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except FileExistsError:
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077:
            os.chmod(path, mode & 0o700)
    else:
        os.close(fd)
        os.chmod(path, 0o600)


class Database:
    """The database file, its writer thread and its reader."""

    # One process owns the file (bot/process/instance.py): what it read stays true until it writes.
    shared = False

    def __init__(self, path: Path, writer: _Writer, reader: aiosqlite.Connection) -> None:
        self.path = path
        self.durable = writer.durable
        self._writer = writer
        self._reader = reader
        self._closing: asyncio.Future[None] | None = None

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        durable: bool = False,
        checkpoint_pages: int = CHECKPOINT_PAGES,
        wal_limit: int = WAL_LIMIT,
    ) -> Database:
        """Open (creating it and its folder if needed) and migrate the database at ``path``.

        A file that is not a database, or whose schema is newer than this program, raises
        ``sqlite3.DatabaseError`` or ``RuntimeError`` with a message saying so, and leaves no
        thread behind.
        """
        path = Path(path)
        if str(path) != ":memory:":
            private_file(path)
        writer = _Writer(
            path, durable=durable, checkpoint_pages=checkpoint_pages, wal_limit=wal_limit
        )
        await writer.start()
        try:
            reader = await _connect_reader(path, durable=durable)
        except BaseException:
            await writer.stop()
            raise
        return cls(path, writer, reader)

    async def close(self) -> None:
        """Commit what was handed over, fold the WAL back into the file, stop the thread.

        Safe to call more than once; plans handed over before ``close`` are committed.
        """
        if self._closing is None:
            self._closing = asyncio.get_running_loop().create_future()
            try:
                # The reader first: the writer's last checkpoint then has no reader to wait for.
                await self._reader.close()
                await self._writer.stop()
            finally:
                self._closing.set_result(None)
        await asyncio.shield(self._closing)

    @property
    def describe(self) -> str:
        return str(self.path)

    @contextlib.asynccontextmanager
    async def claim(self, kind: str, ids: Iterable[int]) -> AsyncIterator[list[int]]:
        """Of ``ids``, those this process may work on alone: all of them, as no other
        process opens the file (see ``bot.storage.postgres.PgDatabase.claim``)."""
        yield list(ids)

    async def listen(self, channel: str, heard: Callable[[str | None], None]) -> None:
        """Nothing to hear: no other process writes to the file (see ``sql.Database``)."""

    def notify(self, conn: Any, channel: str, payload: str) -> None:
        """Nobody else to tell (see ``bot.storage.sql.Database``)."""

    async def transact(self, plan: Plan[T]) -> T:
        """Run ``plan(conn)`` in a write transaction; its result once committed.

        If the plan raises, what it wrote is rolled back and its exception raised here. A
        caller cancelled while waiting does not cancel the plan: once handed over it runs.
        """
        if self._closing is not None:
            raise Closed("the database is closed")
        result: T = await self._writer.submit(plan)
        return result

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
        """The first row of a query meant to return at most one (all its rows are read)."""
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        """Every row of a query, run and fetched in one hop (see the module's docstring)."""
        if self._closing is not None:
            raise Closed("the database is closed")
        rows = await self._reader.execute_fetchall(sql, tuple(params))
        return list(rows)  # sqlite3.Row each: see _connect_reader

    async def backup(self, target: str | Path) -> None:
        """A consistent copy of the whole database at ``target`` (which must not exist)."""
        target = Path(target)
        if target.exists():
            raise FileExistsError(f"{target} already exists: choose a new file for the backup")
        private_file(target)  # empty and 0600: VACUUM INTO fills an empty file as it is
        # VACUUM INTO reads one snapshot, so the copy is consistent while writes go on.
        try:
            await self._reader.execute_fetchall("VACUUM INTO ?", (str(target),))
        except BaseException:
            target.unlink(missing_ok=True)  # no empty file left to block the next try
            raise

    async def checkpoint(self, mode: str = "TRUNCATE") -> tuple[int, int, int]:
        """Checkpoint now on the writer, between batches: SQLite's (busy, log, copied) pages.

        The writer does this by itself as the log grows; this is for maintenance and tests.
        """
        if mode not in MODES:
            raise ValueError(f"a checkpoint is one of {', '.join(MODES)}, not {mode!r}")
        if self._closing is not None:
            raise Closed("the database is closed")
        outcome: tuple[int, int, int] = await self._writer.submit(
            lambda conn: self._writer.checkpoints.checkpoint(conn, mode), alone=True
        )
        return outcome


@dataclass(slots=True)
class _Job(Job):
    alone: bool = False  # run outside any transaction (checkpoints): never batched


class _Writer(WriterThread):
    """The one thread that writes, with its own ``sqlite3.Connection``.

    Jobs come in on a queue; the thread takes every waiting job (up to ``MAX_BATCH``) as one
    batch, commits it, hands each outcome back to its event loop in one call per batch, and
    checkpoints the WAL when it has grown enough. The connection is made, set up and migrated
    on the thread itself, so that sqlite3's same-thread check holds and a damaged file is
    reported by ``start``. Stopping checkpoints (TRUNCATE) before the connection closes.
    """

    def __init__(self, path: Path, *, durable: bool, checkpoint_pages: int, wal_limit: int):
        super().__init__("tapis-writer")
        self.path = path
        self.durable = durable
        self.checkpoints = Checkpoints(
            path,
            checkpoint_pages=checkpoint_pages,
            wal_limit=wal_limit,
            busy_timeout_ms=BUSY_TIMEOUT_MS,
        )

    def submit(self, plan: Plan[T], *, alone: bool = False) -> asyncio.Future[T]:
        if self._stopping:
            raise Closed("the database is closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._jobs.put(_Job(plan, loop, future, alone))
        return future

    # -- on the writer thread ---------------------------------------------------------------

    def _run(self) -> None:
        try:
            keep = self.checkpoints.wal_limit // 4
            conn = _connect_writer(self.path, durable=self.durable, keep=keep)
        except BaseException as error:
            self._ready.set_exception(error)
            self._stopped.set_result(None)
            return
        try:
            try:
                migrate(conn)
            except BaseException as error:
                self._ready.set_exception(error)
                return
            self._ready.set_result(None)
            self._serve(conn)
            self.checkpoints.close_copier()
            # Fold the WAL back into the file, so a closed database is one file.
            self.checkpoints.quietly(conn, "TRUNCATE")
        finally:
            conn.close()
            self._stopped.set_result(None)

    def _serve(self, conn: sqlite3.Connection) -> None:
        """Run jobs until the stop mark: batches of plans, and the odd job run alone."""
        carry: _Job | object | None = None
        while True:
            first = carry if carry is not None else self._jobs.get()
            carry = None
            if first is STOP:
                return
            assert isinstance(first, _Job)
            if first.alone:
                hand_back([(first, *_attempt(first.plan, conn))])
                continue
            batch = [first]
            while len(batch) < MAX_BATCH:
                try:
                    job = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if not isinstance(job, _Job) or job.alone:
                    carry = job  # after this batch, in the order it came
                    break
                batch.append(job)
            self._commit(conn, batch)
            self.checkpoints.committed()
            self.checkpoints.between_batches(conn, idle=carry is None and self._jobs.empty())

    def _commit(self, conn: sqlite3.Connection, batch: list[_Job]) -> None:
        """One transaction for the batch; each outcome sent back once it has committed."""
        try:
            outcomes = _run_batch(conn, [job.plan for job in batch])
        except BaseException as error:  # the transaction failed: no plan committed
            hand_back([(job, False, error) for job in batch])
        else:
            hand_back((job, ok, value) for job, (ok, value) in zip(batch, outcomes, strict=True))


def _attempt(plan: Plan[Any], conn: sqlite3.Connection) -> tuple[bool, Any]:
    try:
        return True, plan(conn)
    except Exception as error:
        return False, error


def _run_batch(conn: sqlite3.Connection, plans: list[Plan[Any]]) -> list[tuple[bool, Any]]:
    """On the writer thread: one transaction, each plan in a savepoint of its own."""
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


def _pragmas(durable: bool) -> list[str]:
    return [
        f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}",
        "PRAGMA journal_mode = WAL",
        f"PRAGMA synchronous = {'FULL' if durable else 'NORMAL'}",
        "PRAGMA foreign_keys = ON",
    ]


def _connect_writer(path: Path, *, durable: bool, keep: int) -> sqlite3.Connection:
    # isolation_level=None: the sqlite3 module opens no transaction by itself; the writer does.
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.row_factory = sqlite3.Row
        for pragma in _pragmas(durable):
            conn.execute(pragma).fetchall()
        # The writer checkpoints by itself, between batches (never inside a move's COMMIT);
        # an overgrown log file is cut back to this size whenever the log starts over.
        conn.execute("PRAGMA wal_autocheckpoint = 0")
        conn.execute(f"PRAGMA journal_size_limit = {keep}").fetchall()
    except BaseException:
        conn.close()
        raise
    return conn


async def _connect_reader(path: Path, *, durable: bool) -> aiosqlite.Connection:
    pending = aiosqlite.connect(path, isolation_level=None)
    # aiosqlite's thread is not a daemon: a program that fails before it closes the database
    # would wait for it at exit, for ever. Like the writer, it may be cut short: it only reads.
    thread = getattr(pending, "_thread", None)
    if isinstance(thread, threading.Thread) and not thread.is_alive():
        thread.daemon = True
    conn = await pending
    try:
        conn.row_factory = sqlite3.Row
        for pragma in _pragmas(durable):
            await conn.execute_fetchall(pragma)
    except BaseException:
        await conn.close()  # its thread would keep the process alive
        raise
    return conn


def schema_version(conn: sqlite3.Connection) -> int:
    row = conn.execute("PRAGMA user_version").fetchone()
    return int(row[0]) if row else 0


def migrate(conn: sqlite3.Connection) -> int:
    """Apply every migration not applied yet, each in its own transaction; the new version."""
    version = schema_version(conn)
    if version > len(MIGRATIONS):
        raise RuntimeError(
            f"the database is at schema version {version}, newer than this program "
            f"({len(MIGRATIONS)}): update Tapis before opening it"
        )
    for number in range(version + 1, len(MIGRATIONS) + 1):
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have migrated while we waited for the lock.
            if schema_version(conn) >= number:
                conn.execute("ROLLBACK")
                continue
            for statement in _statements(MIGRATIONS[number - 1]):
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {number}")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
    return schema_version(conn)


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
