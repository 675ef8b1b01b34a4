"""Opening the database ``TAPIS_DB`` names: the one place that knows both backends.

It stands above ``bot.storage.sqlite`` (SQLite) and ``bot.storage.postgres`` (PostgreSQL),
which both stand on ``bot.storage.sql`` (what a database is to the service), so no backend
imports the module that chooses between them.
"""

from __future__ import annotations

from pathlib import Path

from bot.storage.postgres import PgDatabase
from bot.storage.sql import Database, is_postgres
from bot.storage.sqlite import Database as SqliteDatabase


async def open_database(target: str | Path, *, durable: bool = False) -> Database:
    """Open (creating and migrating as needed) the database ``target`` names."""
    if is_postgres(target):
        return await PgDatabase.open(str(target))
    return await SqliteDatabase.open(target, durable=durable)
