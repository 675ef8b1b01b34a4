"""What the service needs of a database, whichever it is: SQLite (the default) or PostgreSQL.

The match service writes through *plans*, plain functions given a connection, run inside a
write transaction by ``await db.transact(plan)``, and reads with ``db.fetchone`` /
``db.fetchall``. A plan speaks the small part of Python's DB-API that SQLite's own
``sqlite3.Connection`` offers (``execute`` with ``?`` placeholders, ``executemany``, and a
cursor's ``rowcount``, ``lastrowid``, ``fetchone``, ``fetchall``), so on SQLite a plan runs on
the very connection, with no layer in between (the embedded default stays as fast as it was),
and on PostgreSQL on an adapter that speaks the same (``bot/storage/postgres_adapter.py``).
The SQL itself is written once, in the dialect both accept (``bot/storage/dialect.py``).

``TAPIS_DB`` picks the backend: a ``postgresql://`` (or ``postgres://``) address is a
PostgreSQL server, anything else a SQLite file. Only ``bot.storage.backends.open_database`` looks at
which; this module stands below both backends, which take their protocol and helpers from it.
"""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar
from urllib.parse import urlsplit, urlunsplit

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

T = TypeVar("T")
D = TypeVar("D", bound="DataclassInstance")

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class Closed(RuntimeError):
    """The database was closed: nothing more can be written or read through it."""


class Row(Protocol):
    """A row read back: its columns by name or by position."""

    def __getitem__(self, key: Any, /) -> Any: ...

    def keys(self) -> Any: ...


class Cursor(Protocol):
    """What a plan gets back from ``execute``."""

    @property
    def rowcount(self) -> int: ...

    @property
    def lastrowid(self) -> int | None: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Connection(Protocol):
    """The connection a plan is given, inside its transaction."""

    def execute(self, sql: str, parameters: Any = ..., /) -> Cursor: ...

    def executemany(self, sql: str, parameters: Iterable[Any], /) -> Cursor: ...


Plan = Callable[[Connection], T]


class Database(Protocol):
    """A database the service runs on (``sqlite.Database``, ``postgres.PgDatabase``)."""

    @property
    def shared(self) -> bool:
        """Whether other processes may write to it at the same time (PostgreSQL): a process
        must then not trust what it read earlier (see ``MatchStore``)."""
        ...

    @property
    def durable(self) -> bool: ...

    @property
    def describe(self) -> str:
        """Where it is, for messages (a file, or a server address without its password)."""
        ...

    async def transact(self, plan: Callable[[Connection], T]) -> T: ...

    async def fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None: ...

    async def fetchall(self, sql: str, params: Iterable[Any] = ()) -> Sequence[Row]: ...

    async def close(self) -> None: ...

    async def listen(self, channel: str, heard: Callable[[str | None], None]) -> None:
        """From now on, ``heard(payload)`` for each :meth:`notify` on ``channel`` that
        committed, in any process (this one too); ``heard(None)`` when some may have been
        missed (the server was lost for a while): then read everything again. Nothing on a
        database only this process opens: it knows what it wrote."""
        ...

    def notify(self, conn: Connection, channel: str, payload: str) -> None:
        """In a plan: tell every process listening on ``channel`` (see :meth:`listen`),
        once the plan's transaction has committed, and only if it does."""
        ...

    def claim(self, kind: str, ids: Iterable[int]) -> AbstractAsyncContextManager[list[int]]:
        """Of ``ids``, those this process may work on alone, held for it while the block
        runs (the others are another process's now): a clock that fell due is handled by one
        process, not by each."""
        ...


def is_postgres(target: str | Path) -> bool:
    """Whether ``target`` (``TAPIS_DB``) names a PostgreSQL server rather than a file."""
    return isinstance(target, str) and target.strip().lower().startswith(POSTGRES_SCHEMES)


def redact(dsn: str) -> str:
    """The address without its password, for messages and logs."""
    parts = urlsplit(dsn)
    if parts.password is None:
        return dsn
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def errors() -> tuple[type[BaseException], ...]:
    """The exceptions that mean the database itself failed (not a request, not a match):
    left to the caller's next attempt rather than blamed on whatever was being done."""
    found: list[type[BaseException]] = [sqlite3.Error]
    try:
        import asyncpg
    except ImportError:  # pragma: no cover - asyncpg is a dependency
        return tuple(found)
    found += [asyncpg.PostgresError, asyncpg.InterfaceError]
    return tuple(found)


def ranked(line: type[D], rows: Iterable[Row], first: int = 1) -> list[D]:
    """``rows`` of a table, in their order, as ``line``s ranked from ``first``: a dataclass
    whose fields are ``rank`` and columns of the rows, read by name, so that a table's line
    and its query name each column once."""
    names = [field.name for field in dataclasses.fields(line) if field.name != "rank"]
    make: Callable[..., D] = line  # each field a keyword: the dataclass's own __init__
    return [
        make(rank=rank, **{name: row[name] for name in names})
        for rank, row in enumerate(rows, first)
    ]
