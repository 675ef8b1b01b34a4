"""The connection a plan is given on PostgreSQL: the small DB-API part ``sqlite3`` offers
(``execute`` with ``?`` placeholders, ``executemany``, a cursor's ``rowcount``, ``lastrowid``,
``fetchone``, ``fetchall``), spoken over the writer thread's asyncpg connection.

Plans are written once for both backends against ``sqlite3``'s connection; on PostgreSQL each
call goes through this adapter, which turns the statement into PostgreSQL's spelling
(``bot.storage.dialect``), runs it on the writer's own event loop and hands back a cursor-like
result. Plain INSERTs wait and go to the server together, so that a move costs four round
trips to write (see ``Adapter``).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import asyncpg

from bot.storage.dialect import combined, translate

IDS_PER_BLOCK = 64  # ids taken from a tagged table's sequence at a time (see ``Ids``)
MAX_WAITING = 64  # deferred statements sent together at most


class Ids:
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
        adapter: Adapter | None = None,
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


class Adapter:
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
    block taken ahead (``Ids``).
    """

    def __init__(self, conn: asyncpg.Connection, loop: asyncio.AbstractEventLoop, ids: Ids):
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
