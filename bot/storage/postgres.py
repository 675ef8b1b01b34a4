"""PostgreSQL storage (asyncpg): the same plans and reads as SQLite, for several bot processes.

Chosen by ``TAPIS_DB=postgresql://…`` (see ``bot/storage/sql.py``). What the service sees is what
``bot.storage.sqlite.Database`` offers: ``transact(plan)`` runs a plan inside a write
transaction and returns once it has committed, ``fetchone``/``fetchall`` read what is committed.

Writes. A plan is a plain (not async) function, written once for both backends against the
small DB-API part ``sqlite3`` offers. Here it runs on one of the process's writer threads,
each with its own event loop and asyncpg connection (``bot.storage.postgres_writer``), through
an adapter that speaks ``sqlite3``'s part over asyncpg (``bot.storage.postgres_adapter``);
the SQL is turned into PostgreSQL's spelling by rules (``bot.storage.dialect``).

Several processes. Each process has its own writers; the server orders them. A move is applied
exactly once because every change of a match is an ``UPDATE … WHERE version = ?`` (see
``MatchStore.save``): under READ COMMITTED, a second writer's UPDATE of the same row waits for
the first to commit, then finds the version gone and changes nothing, and the service answers
that the match changed meanwhile. What one process must do alone (a clock that fell due,
replaying the outbox) is claimed with ``FOR UPDATE SKIP LOCKED`` or, where the work spans
several transactions, a session advisory lock (:meth:`PgDatabase.claim`).

Reads go through a small asyncpg pool on the caller's event loop. Processes tell each other
of a change they cannot see otherwise (a server's language) with NOTIFY, heard on a
connection kept for LISTEN (:meth:`PgDatabase.listen`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import zlib
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from typing import Any, TypeVar

import asyncpg

from bot.storage.dialect import translate
from bot.storage.postgres_adapter import Ids
from bot.storage.postgres_writer import Writer
from bot.storage.sql import Closed, Connection, redact

log = logging.getLogger("tapis.storage")

T = TypeVar("T")

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


class PgDatabase:
    """A PostgreSQL database: a writer thread with its connection, and a read pool."""

    shared = True  # other processes write to it too
    # A commit is flushed to disk before the server acknowledges it (synchronous_commit's
    # default), so every acknowledged move survives a power loss.
    durable = True

    def __init__(self, dsn: str, writers: list[Writer], pool: asyncpg.Pool) -> None:
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
        started: list[Writer] = []
        ids = Ids()  # one for all the writers: ids in the order they are taken
        try:
            for number in range(max(1, writers)):
                writer = Writer(dsn, ids, migrate=number == 0)  # the first migrates, alone
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
        writer = min(self._writers, key=Writer.waiting)
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
