"""A real PostgreSQL server for the tests: one per test session, started on first use.
When the tests run side by side (pytest-xdist, as ``make test`` runs them), each worker is a
session of its own, so each starts a server of its own, in a folder of its own.

The server comes from the ``pgserver`` wheel (a dev dependency), so a fresh clone needs no
Docker and no system PostgreSQL. ``TAPIS_TEST_POSTGRES=postgresql://…`` points the tests at a
server of one's own instead (its database is emptied by the tests: use a scratch one). If no
server can be started, the PostgreSQL half of each parametrised test is skipped, saying why.

Each test gets the session's database emptied (``TRUNCATE``, cheap) rather than a new one, so
the PostgreSQL half adds little to the suite's time; a test that needs a database of its own
(migrations) asks :func:`fresh_database`.
"""

from __future__ import annotations

import asyncio
import atexit
import os
import shutil
import tempfile
import threading
import warnings
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

T = TypeVar("T")

_state: dict[str, Any] = {}
_lock = threading.Lock()


def server() -> tuple[str | None, str]:
    """The session's PostgreSQL address (its ``tapis_test`` database), or None and why not."""
    with _lock:
        if "url" not in _state:
            _state["url"], _state["why"] = _start()
        return _state["url"], _state["why"]


def _start() -> tuple[str | None, str]:
    own = os.environ.get("TAPIS_TEST_POSTGRES", "").strip()
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if own and worker:
        # Tests running side by side (``make test``) each empty their database before every
        # test: on one shared server, each worker gets a database of its own.
        return run(_database_of_its_own(own, f"tapis_test_{worker}")), ""
    if own:
        return own, ""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # platformdirs' note about XDG_RUNTIME_DIR
            import pgserver
    except ImportError as error:
        return None, f"no PostgreSQL server: pgserver is not installed ({error})"
    # A short path: the server's socket lives in it, and socket paths are limited to ~100 bytes.
    folder = Path(tempfile.mkdtemp(prefix="tapis-pg-", dir="/tmp"))
    os.chmod(folder, 0o755)  # run as root, pgserver runs the server as a user of its own
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            handle = pgserver.get_server(folder, cleanup_mode="stop")
    except Exception as error:
        shutil.rmtree(folder, ignore_errors=True)
        return None, f"no PostgreSQL server could be started by pgserver: {error}"

    def stop() -> None:
        handle.cleanup()
        shutil.rmtree(folder, ignore_errors=True)

    atexit.register(stop)
    admin = handle.get_uri()
    # Test data need not survive a power cut: no fsync makes the suite faster.
    run(_setup(admin))
    return with_database(admin, "tapis_test"), ""


async def _setup(admin: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(admin)
    try:
        await conn.execute("ALTER SYSTEM SET fsync = off")
        await conn.execute("ALTER SYSTEM SET synchronous_commit = off")
        await conn.execute("ALTER SYSTEM SET deadlock_timeout = '100ms'")  # a test makes one
        await conn.execute("SELECT pg_reload_conf()")
        await conn.execute("CREATE DATABASE tapis_test")
    finally:
        await conn.close()


async def _database_of_its_own(url: str, name: str) -> str:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"DROP DATABASE IF EXISTS {name}")
        await conn.execute(f"CREATE DATABASE {name}")
    finally:
        await conn.close()
    return with_database(url, name)


def with_database(url: str, name: str) -> str:
    """``url`` pointed at the database ``name`` on the same server."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/" + name))


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run ``coroutine`` to the end on an event loop of its own, in a thread of its own: a
    plain function may call it from inside a test's running loop."""
    result: list[T] = []
    failure: list[BaseException] = []

    def target() -> None:
        try:
            result.append(asyncio.run(coroutine))
        except BaseException as error:
            failure.append(error)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return result[0]


async def _empty(url: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        tables = [
            row[0]
            for row in await conn.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
                " AND tablename <> 'tapis_schema'"
            )
        ]
        if tables:
            await conn.execute(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY CASCADE")
    finally:
        await conn.close()


def empty(url: str) -> str:
    """Empty every table of the database at ``url`` (ids start at 1 again); ``url``."""
    run(_empty(url))
    return url


_count = [0]


def fresh_database(url: str) -> str:
    """A new, empty database on the server of ``url``, for a test that needs its own."""
    _count[0] += 1
    name = f"tapis_{os.getpid()}_{_count[0]}"

    async def create() -> None:
        import asyncpg

        conn = await asyncpg.connect(url)
        try:
            await conn.execute(f"DROP DATABASE IF EXISTS {name}")
            await conn.execute(f"CREATE DATABASE {name}")
        finally:
            await conn.close()

    run(create())
    return with_database(url, name)


def query(url: str, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    """Every row of ``sql`` (``$1``… placeholders) on the database at ``url``, as tuples."""

    async def fetch() -> list[tuple[Any, ...]]:
        import asyncpg

        conn = await asyncpg.connect(url)
        try:
            return [tuple(row) for row in await conn.fetch(sql, *args)]
        finally:
            await conn.close()

    return run(fetch())
