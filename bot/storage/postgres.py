"""PostgreSQL storage (asyncpg): the same plans and reads as SQLite, for several bot processes.

Chosen by ``TAPIS_DB=postgresql://…`` (see ``bot/storage/sql.py``). What the service sees is what
``bot.storage.sqlite.Database`` offers: ``transact(plan)`` runs a plan inside a write
transaction and returns once it has committed, ``fetchone``/``fetchall`` read what is committed.

Writes. A plan is a plain (not async) function, written once for both backends against the
small DB-API part ``sqlite3`` offers. Here it runs on a writer thread of its own, with its own
event loop and asyncpg connection: the plan's ``execute`` calls go through an adapter that
turns ``?`` into ``$1, $2…``, runs the statement on that loop and hands back a cursor-like
result; plain INSERTs wait and go to the server together, so that a move costs four round
trips to write (see ``_Adapter``). As on SQLite, the writer takes every plan waiting and
commits them together (group commit), each in a savepoint of its own when there are
several, so one that fails is rolled back alone; the moves of a busy bot share a commit
(and its fsync) on the server too.

Several processes. Each process has its own writer; the server orders them. A move is applied
exactly once because every change of a match is an ``UPDATE … WHERE version = ?`` (see
``MatchStore.save``): under READ COMMITTED, a second writer's UPDATE of the same row waits for
the first to commit, then finds the version gone and changes nothing, and the service answers
that the match changed meanwhile. Two batches that touch the same rows in opposite orders (two
players' ratings) may deadlock; PostgreSQL then fails one statement, and its plan is run again
in the next transaction, so the caller never sees it. What one process must do alone (a clock
that fell due, replaying the outbox) is claimed with ``FOR UPDATE SKIP LOCKED`` or, where the
work spans several transactions, a session advisory lock (:meth:`PgDatabase.claim`).

Reads go through a small asyncpg pool on the caller's event loop. Processes tell each other
of a change they cannot see otherwise (a server's language) with NOTIFY, heard on a
connection kept for LISTEN (:meth:`PgDatabase.listen`).

Migrations are the SQLite ones (``bot.storage.migrations``), turned into PostgreSQL's spelling by
``migrations.for_postgres``; the schema version is kept in ``tapis_schema``. Processes that
start together migrate one at a time (an advisory lock), and a database newer than this
program is refused with the same sentence as a SQLite file.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import logging
import queue
import re
import threading
import zlib
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import asyncpg

from bot.storage.migrations import MIGRATIONS, for_postgres
from bot.storage.sql import Connection, redact
from bot.storage.sqlite import Closed

log = logging.getLogger("tapis.storage")

T = TypeVar("T")

MAX_BATCH = 256  # plans committed together at most
RETRIES = 5  # a plan failed by a deadlock is run again this many times at most
READERS = 4  # connections in the read pool
# Writer threads, each with its own connection. A plan costs a few round trips to the server,
# each one waited for; with one writer, those waits would cap a process's moves per second
# whatever the server could do, so several run side by side. Two plans on one match never
# run at once all the same: the store holds the match's lock until its plan has committed.
WRITERS = 4
# Seconds a closing database waits for a connection to close politely (a read to finish,
# the server to answer goodbye) before cutting it off: a stop must end well within the
# time ``docker stop`` gives before killing the process (10 s).
CLOSE_WAIT = 3.0
# Every advisory lock Tapis takes has this first key, so it never meets another program's.
LOCK_SPACE = 0x7A915
_MIGRATING = 0  # the advisory lock's second key while migrating
# Errors after which running the same plan again may succeed: the server chose this
# transaction to break a deadlock, or a serialisation failure.
_RETRYABLE = (asyncpg.DeadlockDetectedError, asyncpg.SerializationError)


# -- the SQL dialect ----------------------------------------------------------------------
# Tables whose ``id`` the database numbers: an INSERT into one returns the new id, which a
# plan reads as ``cursor.lastrowid`` the way SQLite hands it. Found in the migrations
# themselves, so a table added by a later migration needs nothing here.
_NUMBERED = frozenset(
    name.lower()
    for script in MIGRATIONS
    for name in re.findall(
        r"CREATE TABLE\s+(\w+)\s*\(\s*id\s+INTEGER\s+PRIMARY\s+KEY", script, re.IGNORECASE
    )
)
_INSERT_INTO = re.compile(r"^\s*INSERT\s+INTO\s+(\w+)", re.IGNORECASE)
_RETURNS_ROWS = re.compile(r"^\s*(SELECT|WITH|VALUES)\b|\bRETURNING\b", re.IGNORECASE)


# Numbered tables whose ids nobody reads but as unique tags (an outbox row's id is its
# message's nonce): their ids are taken from the table's sequence a block at a time, so that
# an INSERT into one needs no answer from the server (see ``_Adapter``). Ids of the others
# (a match's number, shown to players) stay in order, without gaps, each given by its INSERT.
_TAGGED = frozenset({"outbox"})
IDS_PER_BLOCK = 64
# A plain INSERT of one row of placeholders (and plain numbers or NULL): what can wait
# (see ``_Adapter``). Anything more (ON CONFLICT, a SELECT, RETURNING) runs at once.
_PLAIN_INSERT = re.compile(
    r"^\s*INSERT\s+INTO\s+(\w+)\s*\(([\w\s,]+)\)\s*VALUES\s*"
    r"\(((?:\s*(?:\$\d+|-?\d+(?:\.\d+)?|NULL)\s*,)*\s*(?:\$\d+|-?\d+(?:\.\d+)?|NULL)\s*)\)\s*$",
    re.IGNORECASE,
)
_PLACEHOLDER = re.compile(r"\$(\d+)")


@dataclass(frozen=True, slots=True)
class _Statement:
    text: str  # with $n placeholders
    rows: bool  # whether it returns rows (fetched) rather than a status (executed)
    numbered: bool  # an INSERT given ``RETURNING id`` here, for ``lastrowid``
    # An INSERT that may wait to be sent with the plan's next statements (see ``_Adapter``);
    # for a tagged table, this is its text with the id as its first placeholder, and
    # ``tagged`` names the table whose sequence gives the id.
    deferred: str | None = None
    tagged: str | None = None


@functools.lru_cache(maxsize=512)
def translate(sql: str) -> _Statement:
    """A statement written with ``?`` placeholders, as PostgreSQL takes it."""
    text = _placeholders(sql)
    plain = _PLAIN_INSERT.match(text)
    if plain:
        table = plain.group(1).lower()
        if table in _TAGGED:
            shifted = _PLACEHOLDER.sub(lambda m: f"${int(m.group(1)) + 1}", plain.group(3))
            deferred = f"INSERT INTO {table} (id, {plain.group(2)}) VALUES ($1, {shifted})"
            return _Statement(text, False, False, deferred, table)
        if table not in _NUMBERED:
            return _Statement(text, False, False, text)
    numbered = False
    found = _INSERT_INTO.match(text)
    if found and found.group(1).lower() in _NUMBERED and not _RETURNS_ROWS.search(text):
        text += " RETURNING id"
        numbered = True
    return _Statement(text, bool(_RETURNS_ROWS.search(text)), numbered)


def _placeholders(sql: str) -> str:
    """``?`` → ``$1``, ``$2``…, leaving quoted text alone."""
    out: list[str] = []
    number = 0
    quote: str | None = None
    for char in sql:
        if quote is not None:
            if char == quote:
                quote = None
        elif char in ("'", '"'):
            quote = char
        elif char == "?":
            number += 1
            out.append(f"${number}")
            continue
        out.append(char)
    return "".join(out)


def combined(texts: Sequence[str], counts: Sequence[int]) -> str:
    """Several INSERTs (each with ``counts[n]`` placeholders) as one statement: each a
    data-modifying WITH query, its placeholders numbered after the ones before, and the
    rows each inserted as the one row returned (every row is inserted whatever its place)."""
    parts: list[str] = []
    offset = 0
    for number, (text, count) in enumerate(zip(texts, counts, strict=True)):
        moved = _PLACEHOLDER.sub(functools.partial(_renumber, offset), text)
        parts.append(f"s{number} AS ({moved} RETURNING 1)")
        offset += count
    counted = ", ".join(f"(SELECT count(*) FROM s{n})" for n in range(len(texts)))
    return f"WITH {', '.join(parts)} SELECT {counted}"


def _renumber(offset: int, found: re.Match[str]) -> str:
    return f"${int(found.group(1)) + offset}"


class _Ids:
    """Ids for tagged tables, a block at a time from each table's sequence, handed out in
    order to every writer of the process (a lock: writers are threads)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._left: dict[str, list[int]] = {}

    def take(self, table: str, fetch: Callable[[str], list[int]]) -> int:
        with self._lock:
            left = self._left.setdefault(table, [])
            if not left:
                # nextval is never rolled back: an id is never given twice, even if the
                # transaction that took the block fails (gaps cost nothing here).
                left.extend(
                    reversed(
                        fetch(
                            f"SELECT nextval(pg_get_serial_sequence('{table}', 'id'))"
                            f" FROM generate_series(1, {IDS_PER_BLOCK})"
                        )
                    )
                )
            return left.pop()


class _Cursor:
    """What a plan's ``execute`` returns: the rows (all fetched), the count, the new id.

    A deferred INSERT's cursor knows its id at once; its count (and any error) once the
    statements waiting have been sent, which reading it does first."""

    __slots__ = ("_adapter", "_rowcount", "_rows", "lastrowid")

    def __init__(
        self,
        rows: list[Any],
        rowcount: int,
        lastrowid: int | None,
        adapter: _Adapter | None = None,
    ) -> None:
        self._rows = rows
        self._rowcount = rowcount
        self.lastrowid = lastrowid
        self._adapter = adapter  # set while the statement waits to be sent

    @property
    def rowcount(self) -> int:
        if self._adapter is not None:
            self._adapter.flush()
        return self._rowcount

    def fetchone(self) -> Any:
        if self._adapter is not None:
            self._adapter.flush()
        return self._rows[0] if self._rows else None

    def fetchall(self) -> list[Any]:
        if self._adapter is not None:
            self._adapter.flush()
        return list(self._rows)

    def __iter__(self) -> Iterator[Any]:
        return iter(self.fetchall())


def _count(status: str) -> int:
    """The row count in a command's status ("UPDATE 1", "INSERT 0 1"); -1 if it has none."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


MAX_WAITING = 64  # deferred statements sent together at most


class _Adapter:
    """The connection a plan is given on the writer thread: each call runs one statement on
    the writer's own event loop, there and then (the thread has nothing else to do) — except
    plain INSERTs, which wait.

    Each statement sent is a round trip to the server, waited for; a move's plan writes its
    match (whose count it must read at once: the version check), its move and the messages
    it owes. The INSERTs need no answer but whether they failed: they wait, and are sent
    together as one statement before the plan's next statement that is not one of them, or
    when the plan reads one's count, or when the plan ends (``flush``). A failure then
    fails the plan just the same, its savepoint or transaction rolled back; what a plan
    reads always comes after what it wrote before. Ids a deferred INSERT needs come from a
    block taken ahead (``_Ids``).
    """

    def __init__(self, conn: asyncpg.Connection, loop: asyncio.AbstractEventLoop, ids: _Ids):
        self._conn = conn
        self._loop = loop
        self._ids = ids
        self._waiting: list[tuple[str, tuple[Any, ...], _Cursor]] = []

    def execute(self, sql: str, parameters: Any = (), /) -> _Cursor:
        statement = translate(sql)
        args = tuple(parameters)
        if statement.deferred is not None:
            lastrowid = None
            if statement.tagged is not None:
                lastrowid = self._ids.take(statement.tagged, self._fetch_ids)
                args = (lastrowid, *args)
            cursor = _Cursor([], -1, lastrowid, self)
            self._waiting.append((statement.deferred, args, cursor))
            if len(self._waiting) >= MAX_WAITING:
                self.flush()
            return cursor
        self.flush()
        if statement.rows:
            rows = self._loop.run_until_complete(self._conn.fetch(statement.text, *args))
            lastrowid = rows[0][0] if statement.numbered and rows else None
            return _Cursor(rows, len(rows), lastrowid)
        status = self._loop.run_until_complete(self._conn.execute(statement.text, *args))
        return _Cursor([], _count(status), None)

    def executemany(self, sql: str, parameters: Iterable[Any], /) -> _Cursor:
        self.flush()
        statement = translate(sql)
        rows = [tuple(p) for p in parameters]
        if rows:
            self._loop.run_until_complete(self._conn.executemany(statement.text, rows))
        return _Cursor([], -1, None)

    def flush(self) -> None:
        """Send the INSERTs waiting, as one statement; each cursor gets its count."""
        if not self._waiting:
            return
        waiting, self._waiting = self._waiting, []
        for _, _, cursor in waiting:
            cursor._adapter = None
        if len(waiting) == 1:
            text, args, cursor = waiting[0]
            status = self._loop.run_until_complete(self._conn.execute(text, *args))
            cursor._rowcount = _count(status)
            return
        text = combined([w[0] for w in waiting], [len(w[1]) for w in waiting])
        args = tuple(arg for w in waiting for arg in w[1])
        counts = self._loop.run_until_complete(self._conn.fetchrow(text, *args))
        assert counts is not None
        for (_, _, cursor), count in zip(waiting, counts, strict=True):
            cursor._rowcount = int(count)

    def forget(self) -> None:
        """The plan failed: what waits is dropped with its savepoint or transaction."""
        for _, _, cursor in self._waiting:
            cursor._adapter = None
        self._waiting = []

    def _fetch_ids(self, sql: str) -> list[int]:
        rows = self._loop.run_until_complete(self._conn.fetch(sql))
        return [int(row[0]) for row in rows]


# -- the database -------------------------------------------------------------------------


class PgDatabase:
    """A PostgreSQL database: a writer thread with its connection, and a read pool."""

    shared = True  # other processes write to it too
    # A commit is flushed to disk before the server acknowledges it (synchronous_commit's
    # default), so every acknowledged move survives a power loss.
    durable = True

    def __init__(self, dsn: str, writers: list[_Writer], pool: asyncpg.Pool) -> None:
        self.dsn = dsn
        self._writers = writers
        self._pool = pool
        self._closing: asyncio.Future[None] | None = None
        # Notifications (LISTEN): one connection of their own, made at the first listen.
        self._heard: dict[str, list[Callable[[str | None], None]]] = {}
        self._listener: asyncpg.Connection | None = None
        self._relinking: asyncio.Task[None] | None = None

    @property
    def describe(self) -> str:
        return redact(self.dsn)

    async def listen(self, channel: str, heard: Callable[[str | None], None]) -> None:
        """``heard(payload)`` for each notification on ``channel`` (see ``sql.Database``):
        PostgreSQL's LISTEN on a connection kept for it. If that connection is lost, it is
        made again (retrying while the server is away), then everyone is told ``None``:
        what was notified meanwhile was missed."""
        if self._closing is not None:
            raise Closed("the database is closed")
        self._heard.setdefault(channel, []).append(heard)
        if self._listener is None:
            await self._link()
        elif not self._listener.is_closed():
            await self._listener.add_listener(channel, self._relay)
        # A connection being made again listens to every channel once it is back.

    def notify(self, conn: Connection, channel: str, payload: str) -> None:
        """In a plan: PostgreSQL's NOTIFY, sent by the server when the transaction commits
        (and dropped with it, or with the plan's savepoint, if they are rolled back)."""
        conn.execute("SELECT pg_notify(?, ?)", (channel, payload))

    async def _link(self) -> None:
        listener = await asyncpg.connect(self.dsn)
        try:
            for channel in self._heard:
                await listener.add_listener(channel, self._relay)
        except BaseException:
            await listener.close()
            raise
        listener.add_termination_listener(self._unlinked)
        self._listener = listener

    def _relay(self, _conn: object, _pid: int, channel: str, payload: str) -> None:
        for heard in self._heard.get(channel, ()):
            heard(payload)

    def _unlinked(self, _conn: object) -> None:
        if self._closing is None and (self._relinking is None or self._relinking.done()):
            self._relinking = asyncio.get_running_loop().create_task(self._relink())

    async def _relink(self) -> None:
        """The listening connection was lost: make it again, then say something was missed."""
        wait = 0.2
        while self._closing is None:
            try:
                await self._link()
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as error:
                log.warning("listening for changes: no server (%s); trying again", error)
                await asyncio.sleep(wait)
                wait = min(wait * 2, 30.0)
                continue
            for hearers in self._heard.values():
                for heard in hearers:
                    heard(None)
            return

    @classmethod
    async def open(cls, dsn: str, *, readers: int = READERS, writers: int = WRITERS) -> PgDatabase:
        """Connect to the server at ``dsn`` and migrate its database.

        An unreachable server, refused credentials or a database newer than this program
        raise (``OSError``, ``asyncpg.PostgresError``, ``RuntimeError``) with a message
        saying so, and leave no thread behind.
        """
        started: list[_Writer] = []
        ids = _Ids()  # one for all the writers: ids in the order they are taken
        try:
            for number in range(max(1, writers)):
                writer = _Writer(dsn, ids, migrate=number == 0)  # the first migrates, alone
                await writer.start()
                started.append(writer)
            pool = await asyncpg.create_pool(
                dsn, min_size=1, max_size=max(1, readers), reset=_keep_session
            )
        except BaseException:
            for writer in started:
                await writer.stop()
            raise
        return cls(dsn, started, pool)

    async def close(self) -> None:
        """Commit what was handed over, then close every connection, each on the event loop
        that owns it. Safe to call twice (the second call waits for the first).

        In this order, each step taken whatever became of the one before:

        1. the listening connection, and any attempt to make it again: a notification heard
           from now on would start a read on the pool being closed;
        2. the writer threads: each commits the plans already handed to it, closes its own
           connection on its own event loop (an asyncpg connection belongs to the loop that
           made it; touched from another thread, its protocol may be changed by two threads
           at once) and ends; each is joined, so that no thread outlives the database;
        3. the read pool, on this loop, which made it: reads under way may finish, for
           ``CLOSE_WAIT`` seconds at most; then what is left is cut off.
        """
        if self._closing is None:
            self._closing = asyncio.get_running_loop().create_future()
            try:
                try:
                    await self._unlink()
                finally:
                    try:
                        for writer in self._writers:
                            await writer.stop()
                    finally:
                        await self._close_pool()
            finally:
                self._closing.set_result(None)
        await asyncio.shield(self._closing)

    async def _unlink(self) -> None:
        if self._relinking is not None:
            self._relinking.cancel()
            await asyncio.gather(self._relinking, return_exceptions=True)
        listener, self._listener = self._listener, None
        if listener is not None and not listener.is_closed():
            try:
                await listener.close(timeout=CLOSE_WAIT)
            except BaseException:
                listener.terminate()  # the server is gone or slow: no goodbye then
                raise

    async def _close_pool(self) -> None:
        try:
            # asyncpg's pool closes itself at once (terminate) if this is cut short.
            await asyncio.wait_for(self._pool.close(), CLOSE_WAIT)
        except TimeoutError:
            log.warning("closing the database: reads still running were cut off")

    async def transact(self, plan: Callable[[Connection], T]) -> T:
        """Run ``plan(conn)`` in a write transaction; its result once committed (see
        ``bot.storage.sqlite.Database.transact``: the same promise)."""
        if self._closing is not None:
            raise Closed("the database is closed")
        # The writer with the fewest plans waiting: plans that come together still share a
        # commit, and no plan waits behind a long queue while another writer is idle.
        writer = min(self._writers, key=_Writer.waiting)
        result: T = await writer.submit(plan)
        return result

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Any:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> Sequence[Any]:
        if self._closing is not None:
            raise Closed("the database is closed")
        rows: list[Any] = await self._pool.fetch(translate(sql).text, *params)
        return rows

    @contextlib.asynccontextmanager
    async def claim(self, kind: str, ids: Iterable[int]) -> AsyncIterator[list[int]]:
        """Of ``ids`` (matches due on the clock, say), those no other process is working
        on, held for this process until the block ends: a session advisory lock each, taken
        without waiting (another process's are skipped), released at the end even if the
        block fails. For work that spans several transactions, where a row lock cannot be
        held throughout. ``kind`` keeps claims of different things apart."""
        space = zlib.crc32(kind.encode()) & 0x7FFFFFFF
        async with self._pool.acquire() as conn:
            mine: list[int] = []
            try:
                for key in ids:
                    # The lock's two keys are 32-bit; ids beyond share a lock, which costs
                    # only waiting, never a wrong answer (the version check still holds).
                    if await conn.fetchval(
                        "SELECT pg_try_advisory_lock($1::int, $2::int)",
                        space,
                        key % 0x7FFFFFFF,
                    ):
                        mine.append(key)
                yield mine
            finally:
                if mine:
                    # All at once: the connection is this block's alone while it runs. A
                    # connection whose locks could not be released is closed, which
                    # releases them (the pool keeps sessions as they are: _keep_session).
                    try:
                        await conn.execute("SELECT pg_advisory_unlock_all()")
                    except BaseException:
                        conn.terminate()
                        raise


async def _keep_session(_conn: asyncpg.Connection) -> None:
    """A read connection goes back to the pool as it is. asyncpg's default resets its
    session (locks, listens, settings) on every release, a round trip after every read;
    reads change nothing of it, and ``claim`` releases the locks it takes itself."""


# -- the writer thread ----------------------------------------------------------------------


@dataclass(slots=True)
class _Job:
    plan: Callable[[Connection], Any]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Any]
    tries: int = 0


_STOP = object()


class _Writer:
    """The thread that runs plans on its own connection (see the module's docstring)."""

    def __init__(self, dsn: str, ids: _Ids, *, migrate: bool = True) -> None:
        self.dsn = dsn
        self._ids = ids
        self.migrate = migrate
        self._jobs: queue.SimpleQueue[_Job | object] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="tapis-pg-writer", daemon=True)
        self._ready: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._stopped: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._stopping = False
        self._pending = 0

    async def start(self) -> None:
        self._thread.start()
        try:
            await _settled_by_thread(self._ready)
        except BaseException:  # failed, or cancelled (a stop while the bot starts)
            self._stopping = True
            self._jobs.put(_STOP)
            await _settled_by_thread(self._stopped)
            self._thread.join()
            raise

    async def stop(self) -> None:
        if not self._stopping:
            self._stopping = True
            self._jobs.put(_STOP)
        await _settled_by_thread(self._stopped)
        self._thread.join()

    def waiting(self) -> int:
        """Plans handed over and not yet settled (queued or being committed)."""
        return self._pending

    def _settled(self, _: asyncio.Future[Any]) -> None:
        self._pending -= 1

    def submit(self, plan: Callable[[Connection], T]) -> asyncio.Future[T]:
        if self._stopping:
            raise Closed("the database is closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        # Counted on the event loop's thread alone (here, and when the outcome is delivered).
        self._pending += 1
        future.add_done_callback(self._settled)
        self._jobs.put(_Job(plan, loop, future))
        return future

    # -- on the writer thread ---------------------------------------------------------------
    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        conn: asyncpg.Connection | None = None
        try:
            try:
                conn = loop.run_until_complete(asyncpg.connect(self.dsn))
                if self.migrate:
                    loop.run_until_complete(migrate(conn))
            except BaseException as error:
                self._ready.set_exception(error)
                return
            self._ready.set_result(None)
            self._serve(loop, conn)
        finally:
            if conn is not None:
                with contextlib.suppress(Exception):
                    loop.run_until_complete(conn.close(timeout=5))
            loop.close()
            self._stopped.set_result(None)

    def _serve(self, loop: asyncio.AbstractEventLoop, conn: asyncpg.Connection) -> None:
        stopping = False
        retry: list[_Job] = []
        while not stopping or retry:
            batch, retry = retry, []
            if not batch:
                job = self._jobs.get()
                if job is _STOP:
                    return
                assert isinstance(job, _Job)
                batch.append(job)
            while len(batch) < MAX_BATCH and not stopping:
                try:
                    job = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if job is _STOP:
                    stopping = True
                else:
                    assert isinstance(job, _Job)
                    batch.append(job)
            if conn.is_closed():  # the server went away: try once to come back
                try:
                    conn = loop.run_until_complete(asyncpg.connect(self.dsn))
                except Exception as error:
                    _settle([(job, False, error) for job in batch])
                    continue
            outcomes = self._commit(loop, conn, batch)
            done = []
            for job, ok, value in outcomes:
                if not ok and isinstance(value, _RETRYABLE) and job.tries < RETRIES:
                    job.tries += 1
                    retry.append(job)
                else:
                    done.append((job, ok, value))
            _settle(done)

    def _commit(
        self, loop: asyncio.AbstractEventLoop, conn: asyncpg.Connection, batch: list[_Job]
    ) -> list[tuple[_Job, bool, Any]]:
        """One transaction; each plan in a savepoint when there are several (a plan alone
        needs none: if it fails, the whole transaction is rolled back).

        The commands that take no parameters (BEGIN, the savepoints, COMMIT) are held and
        sent with the next one, several in one round trip: between two plans of a batch,
        one round trip releases a savepoint and opens the next."""
        run = loop.run_until_complete
        adapter = _Adapter(conn, loop, self._ids)
        alone = len(batch) == 1
        outcomes: list[tuple[_Job, bool, Any]] = []
        try:
            held = "BEGIN"
            for job in batch:
                if alone:
                    run(conn.execute(held))
                else:
                    run(conn.execute(f"{held}; SAVEPOINT plan"))
                held = ""
                try:
                    value = job.plan(adapter)
                    adapter.flush()  # the plan's last INSERTs: their failure is its own
                except Exception as error:
                    adapter.forget()
                    run(conn.execute("ROLLBACK" if alone else "ROLLBACK TO SAVEPOINT plan"))
                    outcomes.append((job, False, error))
                    if alone:
                        return outcomes
                    held = "RELEASE SAVEPOINT plan"
                else:
                    if not alone:
                        held = "RELEASE SAVEPOINT plan"
                    outcomes.append((job, True, value))
            run(conn.execute(f"{held}; COMMIT" if held else "COMMIT"))
        except Exception as error:
            # The transaction itself failed (the connection, a failed COMMIT): nothing of
            # it was written, and every plan in it says so.
            with contextlib.suppress(Exception):
                if not conn.is_closed() and conn.is_in_transaction():
                    run(conn.execute("ROLLBACK"))
            return [(job, False, error) for job in batch]
        return outcomes


async def _settled_by_thread(future: concurrent.futures.Future[None]) -> None:
    """Wait for the writer thread to settle ``future``. Shielded: a waiter cancelled would
    otherwise cancel the future itself, and the thread, settling it later, would fail."""
    await asyncio.shield(asyncio.wrap_future(future))


def _settle(outcomes: list[tuple[_Job, bool, Any]]) -> None:
    """Hand each outcome to its event loop, one call per loop."""
    by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], bool, Any]]] = {}
    for job, ok, value in outcomes:
        by_loop.setdefault(job.loop, []).append((job.future, ok, value))
    for loop, results in by_loop.items():
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
            loop.call_soon_threadsafe(_deliver, results)


def _deliver(results: list[tuple[asyncio.Future[Any], bool, Any]]) -> None:
    for future, ok, value in results:
        if future.done():
            continue
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)


# -- migrations ---------------------------------------------------------------------------


async def schema_version(conn: asyncpg.Connection) -> int:
    exists = await conn.fetchval("SELECT to_regclass('tapis_schema') IS NOT NULL")
    if not exists:
        return 0
    version = await conn.fetchval("SELECT version FROM tapis_schema")
    return int(version or 0)


async def migrate(conn: asyncpg.Connection) -> int:
    """Apply every migration not applied yet, each in its own transaction; the new version.

    Processes starting together take turns (an advisory lock), so each migration runs once.
    """
    await conn.execute("SELECT pg_advisory_lock($1, $2)", LOCK_SPACE, _MIGRATING)
    try:
        version = await schema_version(conn)
        if version > len(MIGRATIONS):
            raise RuntimeError(
                f"the database is at schema version {version}, newer than this program "
                f"({len(MIGRATIONS)}): update Tapis before opening it"
            )
        for number in range(version + 1, len(MIGRATIONS) + 1):
            async with conn.transaction():
                await conn.execute(
                    "CREATE TABLE IF NOT EXISTS tapis_schema (version BIGINT NOT NULL)"
                )
                await conn.execute(for_postgres(number))
                await conn.execute("DELETE FROM tapis_schema")
                await conn.execute("INSERT INTO tapis_schema (version) VALUES ($1)", number)
        return await schema_version(conn)
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1, $2)", LOCK_SPACE, _MIGRATING)
