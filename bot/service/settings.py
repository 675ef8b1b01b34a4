"""A server's own switch for its web pages: ``/tapis web on|off``.

Off by default: a server's leaderboard is shown on the site only once someone allowed to
manage that server asked for it, and hidden again at once when they turn it off.
"""

from __future__ import annotations

import time

from bot.service.queries import web_enabled
from bot.storage.sql import Connection, Database

__all__ = ["set_web", "web_enabled"]


async def set_web(db: Database, guild_id: int, on: bool) -> None:
    """Turn a server's pages on or off (one write through the database's writer)."""
    now = time.time()

    def plan(conn: Connection) -> None:
        conn.execute(
            "INSERT INTO guild_settings (guild_id, web, updated_at) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET web = excluded.web,"
            " updated_at = excluded.updated_at",
            (guild_id, int(on), now),
        )

    await db.transact(plan)
