"""The PostgreSQL writer threads: each with its own event loop and asyncpg connection, each
committing the plans handed to it, several at once.

As on SQLite, a writer takes every plan waiting and commits them together (group commit),
each in a savepoint of its own when there are several, so one that fails is rolled back
alone; the moves of a busy bot share a commit (and its fsync) on the server too. A plan runs
on an adapter that speaks ``sqlite3``'s part of the DB-API (``bot.storage.postgres_adapter``).

Two batches that touch the same rows in opposite orders (two players' ratings) may deadlock;
PostgreSQL then fails one statement, and its plan is run again in the next transaction, so
the caller never sees it.

The first writer of a process migrates the database before any plan: the SQLite migrations
(``bot.storage.migrations``), turned into PostgreSQL's spelling by ``migrations.for_postgres``,
the schema version kept in ``tapis_schema``. Processes that start together migrate one at a
time (an advisory lock), and a database newer than this program is refused with the same
sentence as a SQLite file.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import asyncpg

from bot.storage.migrations import MIGRATIONS, for_postgres
from bot.storage.postgres_adapter import Adapter, Ids
from bot.storage.sql import Closed, Connection
from bot.storage.writer import MAX_BATCH, STOP, Job, WriterThread, hand_back

T = TypeVar("T")

RETRIES = 5  # a plan failed by a deadlock is run again this many times at most
# Every advisory lock Tapis takes has this first key, so it never meets another program's.
LOCK_SPACE = 0x7A915
_MIGRATING = 0  # the advisory lock's second key while migrating
# Errors after which running the same plan again may succeed: the server chose this
# transaction to break a deadlock, or a serialisation failure.
_RETRYABLE = (asyncpg.DeadlockDetectedError, asyncpg.SerializationError)


@dataclass(slots=True)
class _Job(Job):
    tries: int = 0  # times run and failed by a deadlock


class Writer(WriterThread):
    """The thread that runs plans on its own connection (see the module's docstring)."""

    def __init__(self, dsn: str, ids: Ids, *, migrate: bool = True) -> None:
        super().__init__("tapis-pg-writer")
        self.dsn = dsn
        self._ids = ids
        self.migrate = migrate
        self._pending = 0

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
                if job is STOP:
                    return
                assert isinstance(job, _Job)
                batch.append(job)
            while len(batch) < MAX_BATCH and not stopping:
                try:
                    job = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if job is STOP:
                    stopping = True
                else:
                    assert isinstance(job, _Job)
                    batch.append(job)
            if conn.is_closed():  # the server went away: try once to come back
                try:
                    conn = loop.run_until_complete(asyncpg.connect(self.dsn))
                except Exception as error:
                    hand_back([(job, False, error) for job in batch])
                    continue
            outcomes = self._commit(loop, conn, batch)
            done = []
            for job, ok, value in outcomes:
                if not ok and isinstance(value, _RETRYABLE) and job.tries < RETRIES:
                    job.tries += 1
                    retry.append(job)
                else:
                    done.append((job, ok, value))
            hand_back(done)

    def _commit(
        self, loop: asyncio.AbstractEventLoop, conn: asyncpg.Connection, batch: list[_Job]
    ) -> list[tuple[_Job, bool, Any]]:
        """One transaction; each plan in a savepoint when there are several (a plan alone
        needs none: if it fails, the whole transaction is rolled back).

        The commands that take no parameters (BEGIN, the savepoints, COMMIT) are held and
        sent with the next one, several in one round trip: between two plans of a batch,
        one round trip releases a savepoint and opens the next."""
        run = loop.run_until_complete
        adapter = Adapter(conn, loop, self._ids)
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
