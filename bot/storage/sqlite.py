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

The write-ahead log. SQLite's own checkpoints keep it bounded, but they run inside the commit
that fills the log, so that commit and every move queued behind the writer wait for the
copying and its fsyncs: at the service's floor those waits set the slowest moves
(docs/performance.md, "Bespoke mechanisms"). So the writer drives the checkpoints. Once the
log has grown by about ``checkpoint_pages`` pages (at once if no plan waits, else at twice
that, so moves go first), a helper thread copies the bulk of it (a PASSIVE checkpoint on its
own connection, which no move waits for) while the writer goes on; the writer then finishes
the job itself between two batches, copying only what was written meanwhile, so the
log starts over at the next commit. Python's sqlite3 has no WAL hook to count pages, so each
checkpoint's report (pages in the log) teaches the writer how many pages a commit adds. Most
finishing checkpoints are PASSIVE (they never wait); after one that could not copy
everything (a reader held an old snapshot), and every ``RESTART_EVERY``-th time, a RESTART,
which waits briefly for readers so that the log surely starts over. The file's size guards
all of this: past half of ``wal_limit`` bytes the writer waits for the copy under way and
restarts the log at once (TRUNCATE past the limit itself), which holds writes back rather
than let the file grow. ``journal_size_limit`` (a quarter of the limit) makes SQLite cut an
overgrown file back when the log starts over; below it the file is reused in place, which is
cheaper than appending, whose fsyncs must also record the file's new size.

Durability: with WAL, a committed transaction survives the process being killed whatever
``synchronous`` says; ``durable=True`` (``synchronous=FULL``) also makes it survive a power
loss, at the price of one more fsync per commit. The settings themselves (``TAPIS_DB``,
``TAPIS_DURABLE``) are read by ``bot/config.py``, never here.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
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

BUSY_TIMEOUT_MS = 5000
MAX_BATCH = 256  # plans committed together at most
# A checkpoint once the log holds about this many new pages (4 MB at 4 KiB a page, SQLite's
# own default): often enough that each copies little, rarely enough that their fsyncs (and
# the writer's short pause to finish each) cost little.
CHECKPOINT_PAGES = 1000
RESTART_EVERY = 16  # every so many checkpoints, a RESTART: the log surely starts over
WAL_LIMIT = 64 * 2**20  # bytes: the WAL file stays below (see the module's docstring)
# When plans are waiting, a due checkpoint is put off (moves first) until the log holds
# this many times the pages that make it due.
PUT_OFF = 2
# The writer finishes a checkpoint itself once what is left to copy is below this share of
# ``checkpoint_pages``; until then (and at most COPY_ROUNDS times) the helper copies again.
LEFT_TO_FINISH = 1 / 16
COPY_ROUNDS = 3
# How long a RESTART or TRUNCATE the writer starts by itself may wait for readers to move to
# the newest snapshot: moves wait meanwhile, so not long; if it gives up, the next one retries.
CHECKPOINT_WAIT_MS = 20

log = logging.getLogger("tapis.storage")

T = TypeVar("T")
Plan = Callable[[sqlite3.Connection], T]


class Closed(RuntimeError):
    """The database was closed: nothing more can be written or read through it."""


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
        if mode not in _MODES:
            raise ValueError(f"a checkpoint is one of {', '.join(_MODES)}, not {mode!r}")
        if self._closing is not None:
            raise Closed("the database is closed")
        outcome: tuple[int, int, int] = await self._writer.submit(
            lambda conn: self._writer.checkpoint(conn, mode), alone=True
        )
        return outcome


_MODES = ("PASSIVE", "FULL", "RESTART", "TRUNCATE")


@dataclass(slots=True)
class _Job:
    """A plan handed to the writer, with where to send its outcome."""

    plan: Plan[Any]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Any]
    alone: bool = False  # run outside any transaction (checkpoints): never batched


_STOP = object()  # put on the writer's queue by stop(): finish what is queued, then end


class _Writer:
    """The one thread that writes, with its own ``sqlite3.Connection``.

    Jobs come in on a queue; the thread takes every waiting job (up to ``MAX_BATCH``) as one
    batch, commits it, hands each outcome back to its event loop in one call per batch, and
    checkpoints the WAL when it has grown enough. The connection is made, set up and migrated
    on the thread itself, so that sqlite3's same-thread check holds and a damaged file is
    reported by ``start``. The thread is a daemon: a process that ends without ``close``
    must not hang on it, and SQLite's transactions keep the file whole if it is cut short.
    """

    def __init__(self, path: Path, *, durable: bool, checkpoint_pages: int, wal_limit: int):
        self.path = path
        self.durable = durable
        self.wal = Path(f"{path}-wal")
        self.checkpoint_pages = max(1, checkpoint_pages)
        self.wal_limit = wal_limit
        self._jobs: queue.SimpleQueue[_Job | object] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="tapis-writer", daemon=True)
        self._ready: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._stopped: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._stopping = False
        # The checkpoint policy's state (touched only on the writer thread).
        self._commits = 0
        self._measured_at = 0  # commits when the last checkpoint started
        # A first guess, measured by each checkpoint; high, so that the first one comes soon.
        self._pages_per_commit = checkpoint_pages / 8
        self._last_log = 0  # pages in the log at the last checkpoint
        self._complete = True  # whether the last checkpoint copied the whole log
        self._checkpoints = 0  # by the writer
        # The helper thread that copies the bulk of the log while the writer goes on; created
        # at the first checkpoint, so a database that fails to open leaves no thread behind.
        self._copier: concurrent.futures.ThreadPoolExecutor | None = None
        self._copier_conn: sqlite3.Connection | None = None  # used on the helper thread only
        self._copying: concurrent.futures.Future[tuple[int, int, int] | None] | None = None
        self._copy_started = 0  # commits when the copy started
        self._copy_rounds = 0  # copies since the writer's last checkpoint

    async def start(self) -> None:
        """Start the thread; once the database is open, set up and migrated, return."""
        self._thread.start()
        try:
            await asyncio.wrap_future(self._ready)
        except BaseException:
            self._stopping = True
            self._jobs.put(_STOP)
            await asyncio.wrap_future(self._stopped)
            self._thread.join()
            raise

    async def stop(self) -> None:
        """Commit what is queued, checkpoint (TRUNCATE) and close; return once the thread ends."""
        if not self._stopping:
            self._stopping = True
            self._jobs.put(_STOP)
        await asyncio.wrap_future(self._stopped)
        # The thread sets _stopped as its last act; joining it is then immediate.
        self._thread.join()

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
            conn = _connect_writer(self.path, durable=self.durable, keep=self.wal_limit // 4)
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
            self._close_copier()
            # Fold the WAL back into the file, so a closed database is one file.
            self._checkpoint_quietly(conn, "TRUNCATE")
        finally:
            conn.close()
            self._stopped.set_result(None)

    def _serve(self, conn: sqlite3.Connection) -> None:
        """Run jobs until the stop mark: batches of plans, and the odd job run alone."""
        carry: _Job | object | None = None
        while True:
            first = carry if carry is not None else self._jobs.get()
            carry = None
            if first is _STOP:
                return
            assert isinstance(first, _Job)
            if first.alone:
                _settle(first.loop, [(first.future, *_attempt(first.plan, conn))])
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
            self._commits += 1
            self._maybe_checkpoint(conn, idle=carry is None and self._jobs.empty())

    def _commit(self, conn: sqlite3.Connection, batch: list[_Job]) -> None:
        """One transaction for the batch; each outcome sent back once it has committed."""
        try:
            outcomes = _run_batch(conn, [job.plan for job in batch])
        except BaseException as error:  # the transaction failed: no plan committed
            settled = [(job.future, False, error) for job in batch]
        else:
            settled = [
                (job.future, ok, value) for job, (ok, value) in zip(batch, outcomes, strict=True)
            ]
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], bool, Any]]] = {}
        for job, outcome in zip(batch, settled, strict=True):
            by_loop.setdefault(job.loop, []).append(outcome)
        for loop, outcomes_of_loop in by_loop.items():
            _settle(loop, outcomes_of_loop)

    def _maybe_checkpoint(self, conn: sqlite3.Connection, *, idle: bool) -> None:
        """Between batches: start, go on with or finish a checkpoint as the log has grown.

        Copying the log into the database, with its fsyncs, takes long: done here, every
        move arriving meanwhile would wait. So the bulk of it is copied by a
        helper thread while the writer goes on (again while much was written meanwhile), and
        the writer finishes the job here, copying only what is left, so the log starts over.
        """
        size = _size(self.wal)  # a high-water mark: the log may be shorter than its file
        if size > self.wal_limit // 2:
            # Writes outrun the copies (or a long read held the log): the writer waits for
            # the copy under way, then starts the log over itself.
            self._checkpoint_here(conn, "TRUNCATE" if size > self.wal_limit else "RESTART")
            return
        if self._copying is not None:
            if not self._copying.done():
                return
            self._copied()
        grown = (self._commits - self._measured_at) * self._pages_per_commit
        if self._copy_rounds:  # a copy has ended
            if grown > self.checkpoint_pages * LEFT_TO_FINISH and self._copy_rounds < COPY_ROUNDS:
                self._start_copy()
            else:
                periodic = self._checkpoints % RESTART_EVERY == RESTART_EVERY - 1
                restart = periodic or not self._complete
                self._checkpoint_here(conn, "RESTART" if restart else "PASSIVE")
        elif grown >= self.checkpoint_pages * (1 if idle else PUT_OFF):
            self._start_copy()

    def _copied(self) -> None:
        """A copy has ended: learn from its report."""
        assert self._copying is not None
        outcome = self._copying.result()
        self._copying = None
        if outcome is not None:
            self._learn(outcome, self._copy_started)

    def _start_copy(self) -> None:
        if self._copier is None:
            self._copier = concurrent.futures.ThreadPoolExecutor(1, "tapis-checkpoint")
        self._copy_started = self._commits
        self._copy_rounds += 1
        self._copying = self._copier.submit(self._copy)

    def _copy(self) -> tuple[int, int, int] | None:
        """On the helper thread: a PASSIVE checkpoint, on a connection of its own."""
        try:
            if self._copier_conn is None:
                self._copier_conn = sqlite3.connect(self.path, isolation_level=None)
            busy, pages, copied = self._copier_conn.execute(
                "PRAGMA wal_checkpoint(PASSIVE)"
            ).fetchone()
        except sqlite3.Error:  # the writer's own checkpoint will copy what is left
            log.exception("checkpoint failed")
            return None
        return int(busy), int(pages), int(copied)

    def _close_copier(self) -> None:
        """On the writer thread, when stopping: let a copy end, then end the helper."""
        if self._copier is None:
            return
        self._copier.submit(self._close_copier_conn).result()
        self._copier.shutdown(wait=True)
        self._copier = None
        self._copying = None

    def _close_copier_conn(self) -> None:
        if self._copier_conn is not None:
            self._copier_conn.close()
            self._copier_conn = None

    def _checkpoint_here(self, conn: sqlite3.Connection, mode: str) -> None:
        """A checkpoint on the writer, between batches; RESTART and TRUNCATE wait only briefly
        for readers, since moves wait meanwhile (if one gives up, the next one retries)."""
        if mode == "PASSIVE":
            self._checkpoint_quietly(conn, mode)
            return
        conn.execute(f"PRAGMA busy_timeout = {CHECKPOINT_WAIT_MS}").fetchall()
        try:
            self._checkpoint_quietly(conn, mode)
        finally:
            conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}").fetchall()

    def _checkpoint_quietly(self, conn: sqlite3.Connection, mode: str) -> None:
        try:
            self.checkpoint(conn, mode)
        except sqlite3.Error:  # the next one will try again; the log only grows meanwhile
            log.exception("%s checkpoint failed", mode)

    def checkpoint(self, conn: sqlite3.Connection, mode: str) -> tuple[int, int, int]:
        """A checkpoint on the writer's connection, after any copy under way has ended (two
        checkpoints never run at once); it ends the current round of copies."""
        if self._copying is not None:
            concurrent.futures.wait([self._copying])
            self._copied()
        busy, pages, copied = conn.execute(f"PRAGMA wal_checkpoint({mode})").fetchone()
        outcome = int(busy), int(pages), int(copied)
        self._learn(outcome, self._commits)
        self._copy_rounds = 0
        self._checkpoints += 1
        return outcome

    def _learn(self, outcome: tuple[int, int, int], commits: int) -> None:
        """From a checkpoint's report, the pages a commit adds to the log.

        After a complete checkpoint the log starts over at the next commit, so what it holds
        at the next one was added since; after an incomplete one it grew from where it was.
        """
        busy, pages, copied = outcome
        added = pages if self._complete else pages - self._last_log
        if commits > self._measured_at and added > 0:
            measured = max(1.0, added / (commits - self._measured_at))
            self._pages_per_commit = (self._pages_per_commit + measured) / 2
        self._complete = busy == 0 and pages == copied
        self._last_log = pages
        self._measured_at = commits


def _attempt(plan: Plan[Any], conn: sqlite3.Connection) -> tuple[bool, Any]:
    try:
        return True, plan(conn)
    except Exception as error:
        return False, error


def _settle(
    loop: asyncio.AbstractEventLoop, outcomes: list[tuple[asyncio.Future[Any], bool, Any]]
) -> None:
    """Hand outcomes to their event loop in one call (one wake-up of the loop per batch)."""
    with contextlib.suppress(RuntimeError):  # a closed loop: nobody is waiting any more
        loop.call_soon_threadsafe(_deliver, outcomes)


def _deliver(outcomes: list[tuple[asyncio.Future[Any], bool, Any]]) -> None:
    """On the event loop: resolve each future not cancelled meanwhile."""
    for future, ok, value in outcomes:
        if future.done():
            continue
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)


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


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


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
