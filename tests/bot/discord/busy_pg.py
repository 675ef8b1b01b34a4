"""A process stopped by a signal while busy on PostgreSQL: run by ``test_shards.py``.

``python -m tests.bot.discord.busy_pg DSN`` serves a client, through ``bot.discord.serve`` as
the bot is served, whose connection to Discord is a PostgreSQL database kept busy: reads on
the pool, plans on every writer thread, each one notifying a channel that is listened to.
It prints ``busy`` once all of that runs, and must exit 0, quietly, when signalled.
"""

from __future__ import annotations

import asyncio
import sys

import discord

from bot.discord import serve
from bot.storage.postgres import PgDatabase
from bot.storage.sql import Connection

CHANNEL = "tapis_busy"


class BusyClient(discord.Client):
    """``start`` keeps the database busy until cancelled; ``close`` closes it."""

    def __init__(self, dsn: str) -> None:
        super().__init__(intents=discord.Intents.none())
        self.dsn = dsn
        self.db: PgDatabase | None = None

    async def start(self, token: str, *, reconnect: bool = True) -> None:
        self.db = db = await PgDatabase.open(self.dsn)
        heard: list[str | None] = []
        await db.listen(CHANNEL, heard.append)

        def plan(conn: Connection) -> None:
            conn.execute(
                "INSERT INTO guild_settings (guild_id, language, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET updated_at = excluded.updated_at",
                (1, "fr", 0.0),
            )
            db.notify(conn, CHANNEL, "1")

        async def read() -> None:
            while True:
                await db.fetchall("SELECT guild_id, language FROM guild_settings")

        async def write() -> None:
            while True:
                await db.transact(plan)

        work = [read() for _ in range(4)] + [write() for _ in range(8)]
        busy = asyncio.gather(*work)
        await db.transact(plan)
        print("busy", flush=True)
        await busy

    async def close(self) -> None:
        if self.db is not None:
            await self.db.close()
        await super().close()


if __name__ == "__main__":
    asyncio.run(serve(BusyClient(sys.argv[1]), "token"))
