"""``python -m bot migrate-db --from data/tapis.db --to postgresql://…``: SQLite to PostgreSQL.

For a community moving from one process to several. Every table is copied whole (players,
matches, move logs, results, ratings and their history, server settings, the outbox, and any
table a later migration adds), in one PostgreSQL transaction: a copy that fails leaves the
target as it was. Then the copy is checked: the same number of rows in every table, and
every match replayed from its move log to its stored state on the PostgreSQL side, as
``python -m bot verify`` does.

The source is first brought to this program's schema (its own migrations, as any start
would); the target must be empty, so that nothing in it is overwritten or mixed. Stop the bot
before copying: what it writes meanwhile would not be in the copy.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg

from bot.process.progress import Progress
from bot.storage import sqlite as storage
from bot.storage.postgres import PgDatabase
from bot.storage.sql import redact

# Copied first, in this order, as later tables refer to them; the rest follow by name.
FIRST = ("players", "matches")


class MigrationError(Exception):
    """The copy cannot be made or did not check out; ``str(error)`` says why, plainly."""


@dataclass
class Report:
    """What was copied, and what the check found."""

    rows: dict[str, int] = field(default_factory=dict)
    matches_replayed: int = 0
    bad_matches: list[int] = field(default_factory=list)

    def lines(self) -> list[str]:
        copied = ", ".join(f"{count} {table}" for table, count in self.rows.items())
        said = [f"Copied {copied}."]
        if self.bad_matches:
            said.append(
                f"{len(self.bad_matches)} match(es) did not replay to their stored state and "
                f"were set aside in the copy: {self.bad_matches} (`python -m bot verify --list`)."
            )
        else:
            said.append(f"Every match replays to its stored state ({self.matches_replayed}).")
        return said


def _tables(conn: sqlite3.Connection) -> list[str]:
    names = [
        row[0]
        for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            " ORDER BY name"
        )
    ]
    return [*(t for t in FIRST if t in names), *(t for t in names if t not in FIRST)]


async def migrate(source: Path, target: str, *, show: bool = False) -> Report:
    """Copy the SQLite database ``source`` into the empty PostgreSQL database ``target``,
    then check the copy; MigrationError if it cannot be done. ``show``: say how far the copy
    and the check are as they go (on standard error)."""
    if not source.is_file():
        raise MigrationError(f"there is no database at {source}")
    try:
        await (await storage.Database.open(source)).close()  # brought to this schema
    except (sqlite3.DatabaseError, RuntimeError) as error:
        raise MigrationError(f"cannot use {source}: {error}") from None
    try:
        db = await PgDatabase.open(target)  # created and migrated: the same schema
    except (OSError, asyncpg.PostgresError, RuntimeError) as error:
        raise MigrationError(f"cannot use {redact(target)}: {error}") from None
    await db.close()
    report = Report()
    reader = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
    try:
        conn = await asyncpg.connect(target)
        try:
            await _copy(reader, conn, report, show)
        finally:
            await conn.close()
    finally:
        reader.close()
    await _check(source, target, report, show)
    return report


async def _copy(
    reader: sqlite3.Connection, conn: asyncpg.Connection, report: Report, show: bool
) -> None:
    tables = _tables(reader)
    total = sum(reader.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] for table in tables)
    shown = Progress("Copying", total, "rows") if show else None
    for table in tables:
        if await conn.fetchval(f"SELECT EXISTS (SELECT 1 FROM {table})"):
            raise MigrationError(
                f"the PostgreSQL database already holds {table}: copy into an empty one"
            )
    async with conn.transaction():
        for table in tables:
            # The copied rows carry their own history: no trigger adds to it on the way.
            await conn.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
        for table in tables:
            cursor = reader.execute(f"SELECT * FROM {table}")
            columns = [d[0] for d in cursor.description]
            count = 0
            while chunk := cursor.fetchmany(5000):
                try:
                    await conn.copy_records_to_table(table, records=chunk, columns=columns)
                except (asyncpg.PostgresError, asyncpg.DataError, ValueError) as error:
                    raise MigrationError(
                        f"a row of {table} cannot be stored in PostgreSQL ({error}); "
                        "`python -m bot verify` on the SQLite file sets damaged matches aside"
                    ) from None
                count += len(chunk)
                if shown is not None:
                    shown.step(len(chunk))
            report.rows[table] = count
            if "id" in columns:
                # New rows are numbered on from the copied ones.
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                    f" (SELECT COALESCE(MAX(id), 0) + 1 FROM {table}), false)"
                )
        for table in tables:
            await conn.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")
    if shown is not None:
        shown.done(f"{len(tables)} tables.")


async def _check(source: Path, target: str, report: Report, show: bool = False) -> None:
    """The same rows counted on both sides; every match replayed on the copy."""
    from bot.service.match_service import MatchService

    reader = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True)
    try:
        conn = await asyncpg.connect(target)
        try:
            for table, copied in report.rows.items():
                there = await conn.fetchval(f"SELECT COUNT(*) FROM {table}")
                here = reader.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
                if not here == there == copied:
                    raise MigrationError(
                        f"{table} has {here} rows in SQLite but {there} in PostgreSQL"
                    )
            # Every match as stored, the same on both sides (its state to the character).
            sql = "SELECT id, version, status, state FROM matches ORDER BY id"
            mine = [tuple(row) for row in reader.execute(sql)]
            theirs = [tuple(row) for row in await conn.fetch(sql)]
            if mine != theirs:
                differ = next(a[0] for a, b in zip(mine, theirs, strict=False) if a != b)
                raise MigrationError(f"match #{differ} differs between SQLite and PostgreSQL")
            report.matches_replayed = await conn.fetchval(
                "SELECT COUNT(*) FROM matches WHERE status NOT IN ('corrupt', 'challenge')"
            )
        finally:
            await conn.close()
    finally:
        reader.close()
    shown: Progress | None = None

    def told(done: int, total: int) -> None:
        nonlocal shown
        if show and shown is None:
            shown = Progress("Replaying the copy's matches", total, "matches", one="match")
        if shown is not None:
            shown.update(done)

    async with await MatchService.open(target) as service:
        report.bad_matches = await service.verify_all(progress=told)
    if shown is not None:
        shown.done()
