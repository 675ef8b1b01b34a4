"""Which language a server's public posts speak.

A server speaks the language its members' Discord shows for it (``guild_locale``, as last
seen on an interaction there) unless someone who manages it chose one with
``/tapis language``. Both are stored in ``guild_settings`` so that a post made with nobody
at hand (a loss on time, after a restart) still speaks the server's language. Replies and
DMs do not come here: they speak their reader's own language.

The settings are read once and then kept in memory: words are made inside a match's
transaction, where nothing may wait on the database. On a database several bot processes
share (PostgreSQL), each change is notified with its transaction (``Database.notify``) and
every process reads that server's row again as soon as it hears of it, so a language chosen
in one process is spoken by all of them within moments; if notifications may have been
missed (the server was lost for a while), everything is read again.
"""

from __future__ import annotations

import asyncio
import time

from bot import i18n
from bot.storage.sql import Connection, Database

# The notification channel that tells every process a server's settings changed; its
# payload is the server's id.
CHANNEL = "tapis_guild_settings"


class GuildLanguages:
    """Each server's chosen language and Discord locale, read once, written on change."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._chosen: dict[int, str] = {}
        self._seen: dict[int, str] = {}
        self._loaded = False
        self._listening = False
        self._loading = asyncio.Lock()
        # Servers whose row another process changed, read again one at a time, in the
        # order heard, so a later change is never overwritten by an earlier read.
        self._rereading: set[asyncio.Task[None]] = set()
        self._reread = asyncio.Lock()
        # Posts made outside any server (the local sandbox's) speak this.
        self.outside = i18n.DEFAULT_LANG

    async def ready(self) -> None:
        """Read the stored settings, once (again if changes may have been missed), and
        any server's row changed by another process since."""
        if self._rereading:
            await asyncio.gather(*self._rereading, return_exceptions=True)
        if self._loaded:
            return
        async with self._loading:
            if self._loaded:
                return
            if not self._listening:
                # Listening first: a change committed while the table is read is heard.
                await self._db.listen(CHANNEL, self._heard)
                self._listening = True
            chosen: dict[int, str] = {}
            seen: dict[int, str] = {}
            for row in await self._db.fetchall(
                "SELECT guild_id, language, locale FROM guild_settings"
                " WHERE language IS NOT NULL OR locale IS NOT NULL"
            ):
                if row["language"] in i18n.LANGS:
                    chosen[row["guild_id"]] = row["language"]
                if row["locale"] in i18n.LANGS:
                    seen[row["guild_id"]] = row["locale"]
            self._chosen, self._seen = chosen, seen
            self._loaded = True

    def _heard(self, payload: str | None) -> None:
        """A server's settings changed in some process (None: changes may have been missed)."""
        if payload is None:
            self._loaded = False  # the next ready() reads everything again
            return
        try:
            guild_id = int(payload)
        except ValueError:
            return
        task = asyncio.get_running_loop().create_task(self._read_again(guild_id))
        self._rereading.add(task)
        task.add_done_callback(self._rereading.discard)

    async def _read_again(self, guild_id: int) -> None:
        async with self._reread:
            try:
                row = await self._db.fetchone(
                    "SELECT language, locale FROM guild_settings WHERE guild_id = ?", (guild_id,)
                )
            except Exception:  # a read that failed: read everything at the next ready()
                self._loaded = False
                return
        language = None if row is None else row["language"]
        locale = None if row is None else row["locale"]
        if language in i18n.LANGS:
            self._chosen[guild_id] = language
        else:
            self._chosen.pop(guild_id, None)
        if locale in i18n.LANGS:
            self._seen[guild_id] = locale
        else:
            self._seen.pop(guild_id, None)

    def of(self, guild_id: int | None) -> str:
        """The language public posts speak on ``guild_id`` (English outside any server)."""
        if guild_id is None:
            return self.outside
        return self._chosen.get(guild_id) or self._seen.get(guild_id) or i18n.DEFAULT_LANG

    def chosen(self, guild_id: int) -> str | None:
        """The language chosen for ``guild_id``, or None when it follows Discord."""
        return self._chosen.get(guild_id)

    async def seen(self, guild_id: int | None, locale: object) -> None:
        """Discord says ``guild_id``'s locale is ``locale``: stored only when it changed."""
        if guild_id is None or locale is None:
            return
        await self.ready()
        lang = i18n.lang_of(locale)
        if self._seen.get(guild_id) == lang:
            return
        self._seen[guild_id] = lang
        await self._write(guild_id, "locale", lang)

    async def choose(self, guild_id: int, lang: str | None) -> None:
        """Make ``guild_id`` speak ``lang``; None: follow its Discord locale again."""
        await self.ready()
        if lang is not None and lang not in i18n.LANGS:
            raise ValueError(f"no language {lang!r}")
        if lang is None:
            self._chosen.pop(guild_id, None)
        else:
            self._chosen[guild_id] = lang
        await self._write(guild_id, "language", lang)

    async def _write(self, guild_id: int, column: str, value: str | None) -> None:
        now = time.time()

        def plan(conn: Connection) -> None:
            conn.execute(
                f"INSERT INTO guild_settings (guild_id, {column}, updated_at) VALUES (?, ?, ?)"
                f" ON CONFLICT (guild_id) DO UPDATE SET {column} = excluded.{column},"
                " updated_at = excluded.updated_at",
                (guild_id, value, now),
            )
            self._db.notify(conn, CHANNEL, str(guild_id))

        await self._db.transact(plan)
