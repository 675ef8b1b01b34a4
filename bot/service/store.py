"""The match store: matches and players as stored, read back, cached, and saved.

Every change to a match goes through :meth:`MatchStore.change`: under the match's lock it
loads the match (and everyone it speaks of), lets the caller decide the new row, and saves
it with :meth:`MatchStore.save`, the one ``UPDATE matches`` that writes the columns that
changed under the version check. The cache of read-back matches is filled only under a
match's lock and only with committed rows, so it never holds an older row than a writer left.

The verbs, each with one meaning: ``read`` a match from the database, ``peek`` at it for
reading (cache first), ``load`` it for changing it (its lock held), ``save`` a change.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
import os
import secrets
import socket
from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import datetime
from typing import Literal, TypeVar

from bot.process import metrics
from bot.service.alarms import alarm_for, clock_write
from bot.service.cache import MatchCache, StateTexts
from bot.service.locks import KeyedLocks
from bot.service.outbox import encode, post, posted
from bot.service.rows import (
    MAX_ID,
    SELECT_MATCHES,
    Unreadable,
    changed_columns,
    dumps,
    profile_from_stored,
    row_from_stored,
    storable_id,
    unknown_match,
    update_sql,
)
from bot.service.values import (
    Change,
    Changed,
    Conflict,
    Delivery,
    Ending,
    MatchRow,
    People,
    PlayerProfile,
    PlayerRef,
)
from bot.storage.sql import Connection, Database, Row
from games.words import N_

T = TypeVar("T")
log = logging.getLogger("tapis.service")


def _said_ahead(row: MatchRow) -> None:
    """Work out now what a row's next move compares with (the last deal's breakdown, from
    the public view), so that the first move after a start costs no more than the others.
    A state whose view fails is left alone: its first use sets the match aside."""
    try:
        row.deal_said  # noqa: B018 (a cached property: reading it keeps it)
    except Exception:
        log.debug("match %s: no breakdown worked out ahead", row.id)


class _Stale(Exception):
    """In a plan: the match is not as read (another process changed it); nothing written."""


# The words a change owes, made from what it decided: a list of deliveries made on the event
# loop before the writer sees the change, or (an ending's, which name its rating changes)
# an ``Ending`` made inside its transaction.
Words = Callable[[Changed[T]], "list[Delivery] | Ending[T]"]


class MatchStore:
    """Matches and players in one SQLite database, with a cache of both."""

    CACHE_SIZE = 20_000  # matches whose state is kept read back (a few kB each)
    SHARED_STATES = 20_000  # on a shared database, matches whose state is kept with its text

    def __init__(self, db: Database, now: Callable[[], datetime]) -> None:
        self.db = db
        self._now = now
        self.locks = KeyedLocks()
        self._people: dict[int, PlayerProfile] = {}
        # Who claims outbox rows from here, as stored with a claim: for a person reading the
        # table (which process held a row); claims are decided by their lease alone.
        self._claimer = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(3)}"
        if db.shared:
            # Other processes change matches too (PostgreSQL): a match kept from an earlier
            # read may be stale, so each is read afresh under its lock; the version check in
            # ``save`` is what makes a move count once, whichever process gets it.
            self.CACHE_SIZE = 0
        self.cache = MatchCache(self.CACHE_SIZE)
        # What is read afresh need not be parsed again: states by their stored text.
        self.states: StateTexts | None = StateTexts(self.SHARED_STATES) if db.shared else None

    def ts(self) -> float:
        return self._now().timestamp()

    # -- players ----------------------------------------------------------------------------
    async def people(self, user_ids: Iterable[int]) -> dict[int, PlayerProfile]:
        """The profiles of ``user_ids`` (an unknown player gets a made-up name)."""
        ids = tuple(user_ids)
        missing = [user_id for user_id in ids if user_id not in self._people]
        if missing:
            marks = ", ".join("?" * len(missing))
            for stored in await self.db.fetchall(
                f"SELECT * FROM players WHERE user_id IN ({marks})", missing
            ):
                self._people[stored["user_id"]] = profile_from_stored(stored)
        return {
            user_id: self._people.get(user_id) or PlayerProfile.unknown(user_id) for user_id in ids
        }

    async def profile(self, user_id: int) -> PlayerProfile | None:
        """The stored profile of a player, read afresh (None if never seen)."""
        stored = await self.db.fetchone("SELECT * FROM players WHERE user_id = ?", (user_id,))
        if stored is None:
            return None
        profile = self._people[user_id] = profile_from_stored(stored)
        return profile

    def remember(self, conn: Connection, players: Iterable[PlayerRef], now: float) -> None:
        """In a plan: store the players' names as last seen (unless already known)."""
        for player in players:
            known = self._people.get(player.user_id)
            if known is not None and known.seen_as(player) is known:
                continue
            conn.execute(
                "INSERT INTO players (user_id, name, locale, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE"
                " SET name = excluded.name, locale = excluded.locale,"
                " updated_at = excluded.updated_at",
                (player.user_id, player.name, player.locale, now, now),
            )

    def remembered(self, players: Iterable[PlayerRef]) -> None:
        """After a commit that remembered ``players``: the cache follows."""
        for player in players:
            known = self._people.get(player.user_id)
            if known is not None:
                self._people[player.user_id] = known.seen_as(player)

    async def set_flag(
        self, user_id: int, column: Literal["four_colour", "dms_closed"], value: bool
    ) -> None:
        """Store one of a player's yes/no settings (``four_colour``, ``dms_closed``)."""
        now = self.ts()

        def plan(conn: Connection) -> None:
            conn.execute(
                f"INSERT INTO players (user_id, name, {column}, created_at, updated_at)"
                f" VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE"
                f" SET {column} = excluded.{column}, updated_at = excluded.updated_at",
                (user_id, f"player {user_id}", int(value), now, now),
            )

        await self.db.transact(plan)
        known = self._people.get(user_id)
        if known is not None:
            if column == "four_colour":
                self._people[user_id] = replace(known, four_colour=value)
            else:
                self._people[user_id] = replace(known, dms_closed=value)

    def forget_player(self, user_id: int) -> None:
        """After a player was forgotten: nothing kept here names them any longer (the rows
        of their matches are read again, naming their pseudonym)."""
        self._people.pop(user_id, None)
        for match_id in [i for i, row in self.cache.items() if user_id in row.user_ids]:
            del self.cache[match_id]

    async def set_dm_channel(self, user_id: int, channel_id: int) -> None:
        """Store a player's DM channel with the bot (it stays the same for good)."""
        now = self.ts()

        def plan(conn: Connection) -> None:
            conn.execute(
                "INSERT INTO players (user_id, name, dm_channel, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE"
                " SET dm_channel = excluded.dm_channel, updated_at = excluded.updated_at",
                (user_id, f"player {user_id}", channel_id, now, now),
            )

        await self.db.transact(plan)
        known = self._people.get(user_id)
        if known is not None:
            self._people[user_id] = replace(known, dm_channel=channel_id)

    # -- reading matches --------------------------------------------------------------------
    async def read(self, match_id: int) -> MatchRow:
        """The committed match from the database (NotFound if none); a damaged one is set
        aside on the way and comes back with status "corrupt"."""
        try:
            return row_from_stored(await self.read_stored(match_id), self.states)
        except Unreadable as error:
            await self.set_aside(match_id, str(error))
        return row_from_stored(await self.read_stored(match_id), self.states)

    async def read_stored(self, match_id: int) -> Row:
        if not storable_id(match_id):
            raise unknown_match(match_id)
        stored = await self.db.fetchone(f"{SELECT_MATCHES} WHERE m.id = ?", (match_id,))
        if stored is None:
            raise unknown_match(match_id)
        return stored

    async def peek(self, match_id: int) -> MatchRow:
        """The match for reading: from the cache, else read under its lock (only the lock's
        holder may fill the cache, so it never takes an older row than a writer left)."""
        row = self.cache.get(match_id)
        if row is not None:
            return row
        if not storable_id(match_id):  # never a lock (nor a cache slot) for a forged id
            raise unknown_match(match_id)
        async with self.locks.hold(match_id):
            return await self.load(match_id)

    async def peek_with_people(self, match_id: int) -> tuple[MatchRow, People]:
        row = await self.peek(match_id)
        return row, await self.people(row.user_ids)

    async def load(self, match_id: int) -> MatchRow:
        """The match for changing it; the caller holds its lock."""
        row = self.cache.get(match_id)
        if row is None:
            row = await self.read(match_id)
            self.cache.keep(row)
        else:
            self.cache.move_to_end(match_id)
        return row

    async def warm(self, *, chunk: int = 100) -> int:
        """Read the live matches into the cache, newest first, as long as it has room; how
        many were added.

        Without this, each match's first move after a start reads its row and parses its
        state on the event loop: with thousands of live matches, most moves for a good while
        after a restart are first moves. Rows are read a chunk at a time and parsed one by
        one, yielding between, so moves go on meanwhile. A row is kept only if the cache
        lacks it and nobody holds its lock: a change under way, or one made since the read,
        has left a row at least as new.
        A damaged row is skipped here and set aside when first used.
        """
        added = 0
        below = MAX_ID
        while len(self.cache) < self.cache.size:
            # By id, downwards: the primary key's order, so no chunk sorts the whole table.
            found = await self.db.fetchall(
                f"{SELECT_MATCHES} WHERE m.id < ? AND m.status = 'active'"
                " ORDER BY m.id DESC LIMIT ?",
                (below, chunk),
            )
            if not found:
                break
            below = found[-1]["id"]
            for stored in found:
                await asyncio.sleep(0)  # one parse at a time between other work
                match_id = stored["id"]
                if match_id in self.cache or self.locks.held(match_id):
                    continue
                try:
                    row = row_from_stored(stored)
                except Unreadable:
                    continue
                _said_ahead(row)
                if len(self.cache) >= self.cache.size:
                    break
                self.cache[match_id] = row
                self.cache.move_to_end(match_id, last=False)  # the oldest go first
                added += 1
        return added

    # -- writing matches --------------------------------------------------------------------
    async def create(
        self,
        row: MatchRow,
        players: tuple[PlayerRef, ...],
        words: Callable[[MatchRow], list[Delivery]] | None = None,
    ) -> tuple[MatchRow, list[Delivery]]:
        """Store a new challenge (``row`` with any id) and remember its players; the row
        as stored, with its id, and the deliveries ``words`` made of it (in the outbox).

        Its words name the id the insert gives, so they are made in the transaction (one
        notice, once per match)."""
        now = self.ts()
        alarm = alarm_for(row.but(alarm=None), now)  # a new match: its due times

        def plan(conn: Connection) -> tuple[int, list[Delivery], list[int]]:
            self.remember(conn, players, now)
            cursor = conn.execute(
                "INSERT INTO matches (game, guild_id, channel_id, challenger_id, opponent_id,"
                " options, status, days_per_move, rated, rematch_of, deadline, reminder_at,"
                " created_at, updated_at, talk)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    row.game,
                    row.guild_id,
                    row.channel_id,
                    row.challenger_id,
                    row.opponent_id,
                    dumps(row.options),
                    row.status,
                    row.days_per_move,
                    int(row.rated),
                    row.rematch_of,
                    row.deadline,
                    row.reminder_at,
                    now,
                    now,
                    int(row.talk),
                ),
            )
            assert cursor.lastrowid is not None
            made = replace(row, id=cursor.lastrowid, alarm=alarm)
            if alarm is not None:
                conn.execute(
                    "INSERT INTO clocks (match_id, deadline, reminder_at) VALUES (?, ?, ?)",
                    (made.id, *alarm),
                )
            if row.hints:  # its terms, with the challenge that states them
                conn.execute("INSERT INTO coached (match_id) VALUES (?)", (made.id,))
            deliveries = [] if words is None else words(made)
            return made.id, deliveries, post(conn, encode(deliveries), now)

        match_id, deliveries, ids = await self.db.transact(plan)
        deliveries = posted(deliveries, ids)
        self.remembered(players)
        row = replace(row, id=match_id, alarm=alarm)
        async with self.locks.hold(match_id):
            self.cache.keep(row)
        return row, deliveries

    # -- the outbox -------------------------------------------------------------------------
    # Rows younger than this may be in the hands of the live process that committed them (it
    # sends right after its commit): only older ones are claimed, except by a lone process
    # at its start (SQLite), when nothing can be in flight.
    UNSENT_GRACE = 120.0
    # How long a claimed row is its claimer's: time enough to send a claim's rows through
    # Discord's rate limits, and short enough that a row resent after its claimer died goes
    # out while Discord still remembers its nonce (a few minutes).
    LEASE = 120.0
    CLAIM_LIMIT = 500  # rows claimed at once at most: the rest go with the next claim

    async def unsent(self, *, at_start: bool = False) -> list[Delivery]:
        """Deliveries stored and not yet marked sent, now this process's to send (oldest
        first): each claimed for ``LEASE`` seconds, so no other process sends it meanwhile.

        ``at_start``: this process has just started and sent nothing yet. On a database no
        other process opens (SQLite), every unsent row is then a dead process's, whatever
        its age or its claim, and all are taken at once.
        """
        now = self.ts()
        lone = at_start and not self.db.shared
        cutoff = math.inf if lone else now - self.UNSENT_GRACE
        free_after = math.inf if lone else now  # a lease that ended before this is free
        token = self._claimer
        # On PostgreSQL, rows another transaction is claiming are skipped, not waited for,
        # so processes claiming at once share the rows out; SQLite's one writer claims alone.
        lock = " FOR UPDATE SKIP LOCKED" if self.db.shared else ""
        sql = (
            "UPDATE outbox SET claimed_by = ?, claimed_until = ? WHERE id IN (SELECT id FROM"
            " outbox WHERE sent_at IS NULL AND created_at < ? AND (claimed_until IS NULL OR"
            f" claimed_until < ?) ORDER BY id LIMIT ?{lock}) RETURNING id, delivery"
        )
        params = (token, now + self.LEASE, cutoff, free_after, self.CLAIM_LIMIT)

        def plan(conn: Connection) -> list[Row]:
            return conn.execute(sql, params).fetchall()

        found = sorted(await self.db.transact(plan), key=lambda row: int(row["id"]))
        unsent = []
        for stored in found:
            try:
                delivery = Delivery.from_json(json.loads(stored["delivery"]))
            except (ValueError, TypeError, KeyError) as error:
                log.error("outbox row %s unreadable (%s): dropped", stored["id"], error)
                await self.mark_sent([stored["id"]])
                continue
            unsent.append(replace(delivery, outbox_id=stored["id"]))
        return unsent

    async def unsent_of(self, match_id: int) -> list[Delivery]:
        """One match's deliveries stored and not yet marked sent, oldest first (claimed or
        not: the caller sends them as the answer to an interaction made in that match)."""
        rows = await self.db.fetchall(
            "SELECT id, delivery FROM outbox WHERE match_id = ? AND sent_at IS NULL ORDER BY id",
            (match_id,),
        )
        found = []
        for stored in rows:
            try:
                delivery = Delivery.from_json(json.loads(stored["delivery"]))
            except (ValueError, TypeError, KeyError):
                continue  # the start-up's replay drops it (see ``unsent``)
            found.append(replace(delivery, outbox_id=stored["id"]))
        return found

    async def mark_sent(self, outbox_ids: Iterable[int]) -> None:
        """Note these outbox rows sent, so no start-up ever sends them again."""
        ids = [(self.ts(), outbox_id) for outbox_id in outbox_ids]
        if not ids:
            return

        def plan(conn: Connection) -> None:
            conn.executemany("UPDATE outbox SET sent_at = ? WHERE id = ?", ids)

        await self.db.transact(plan)

    async def prune_outbox(self, older_than: float) -> int:
        """Forget rows sent before ``older_than`` (unix seconds); how many."""

        def plan(conn: Connection) -> int:
            return conn.execute(
                "DELETE FROM outbox WHERE sent_at IS NOT NULL AND sent_at < ?", (older_than,)
            ).rowcount

        return await self.db.transact(plan)

    async def change(
        self,
        match_id: int,
        decide: Callable[[MatchRow, People, float], Change[T] | None],
        *,
        also_people: tuple[int, ...] = (),
        words: Words[T] | None = None,
    ) -> Changed[T] | None:
        """Load the match under its lock, ask ``decide`` for the change (it may refuse with a
        ServiceError, or return None for no change), save it; what was done.

        ``decide`` gets the match, its people and the time: one time for the whole change,
        taken once the match is held, so its stored times and its words agree.

        ``also_people``: more players ``decide`` may need to name (one accepting a challenge).
        ``words``: the deliveries the change owes, made from what it did; they are stored in
        the outbox in the change's transaction and come back in ``Changed.deliveries``.
        """
        async with self.locks.hold(match_id):
            before = await self.load(match_id)
            people = await self.people((*before.user_ids, *also_people))
            now = self.ts()
            change = decide(before, people, now)
            if change is None:
                return None
            people = {**people}
            for player in change.remember:
                people[player.user_id] = people.get(
                    player.user_id, PlayerProfile.unknown(player.user_id)
                ).seen_as(player)
            return await self.save(before, change, now, people, words)

    async def save(
        self,
        before: MatchRow,
        change: Change[T],
        now: float,
        people: People,
        words: Words[T] | None = None,
    ) -> Changed[T]:
        """Write what changed from ``before`` to ``change.after`` (and ``change.also``, and
        the deliveries ``words`` makes of it, in the outbox) in one transaction, if the match
        is still as read; Conflict otherwise, and nothing written.

        The words are made here, on the event loop, before the transaction, and stored as
        ready text: the writer, which every change in the process waits for, does no more
        than write. Only an ending's words (an ``Ending``) are made inside the transaction,
        since they name the rating changes ``also`` wrote there. Words are pure; if they
        fail, nothing is written. The caller holds the match's lock; the cache keeps the
        saved row.
        """
        after = change.after
        moved = after.version != before.version and after.status == before.status
        alarm = alarm_for(after, now, keep=moved)
        clock = clock_write(before.id, before.alarm, alarm)
        if alarm != after.alarm:
            after = after.but(alarm=alarm)
        columns = changed_columns(before, after)
        if change.touch:
            columns["updated_at"] = now
        sql = update_sql(tuple(columns))
        params = (*columns.values(), before.id, before.version, before.status)
        also = change.also
        decided: Changed[T] = Changed(before, after, people, now, None)
        made = [] if words is None else words(decided)
        ready = None if isinstance(made, Ending) else encode(made)

        def plan(conn: Connection) -> tuple[T | None, list[Delivery], list[int]]:
            self.remember(conn, change.remember, now)  # first: the match may refer to them
            if columns and conn.execute(sql, params).rowcount != 1:
                raise _Stale
            if clock is not None and conn.execute(*clock).rowcount != 1:
                raise _Stale
            found = None if also is None else also(conn)
            if isinstance(made, Ending):
                ending = _legs_marked(conn, after.id, made.make(found))
                return found, ending, post(conn, encode(ending), now)
            assert ready is not None
            return found, made, post(conn, ready, now)

        try:
            found, deliveries, ids = await self.db.transact(plan)
        except _Stale:
            self.cache.pop(before.id, None)
            raise Conflict(
                N_("Match #{id} changed meanwhile. Use `/hand` to see it as it is now."),
                id=before.id,
            ) from None
        self.remembered(change.remember)
        self.cache.keep(after)
        text = columns.get("state")
        if self.states is not None and isinstance(text, str) and after.state is not None:
            self.states.keep(after.id, text, after.state)  # the next read finds it
        return Changed(before, after, people, now, found, posted(deliveries, ids))

    async def set_aside(
        self, match_id: int, problem: str, *, only_at: tuple[int, str] | None = None
    ) -> bool:
        """Flag a damaged match so no one plays it and nothing else is held up by it; whether
        it was flagged.

        ``only_at`` = (version, status): only if the match is still there, as it was when
        found wrong — another process (the bot, beside ``verify``) may have moved it on
        meanwhile, and a match caught mid-move is not damaged. Not a :meth:`save`: the
        stored row may not even read back.
        """
        self.cache.pop(match_id, None)
        now = self.ts()
        sql = (
            "UPDATE matches SET status = 'corrupt', problem = ?, to_move_id = NULL,"
            " updated_at = ? WHERE id = ?"
        )
        params: tuple[object, ...] = (problem[:500], now, match_id)
        if only_at is not None:
            sql += " AND version = ? AND status = ?"
            params += only_at

        def plan(conn: Connection) -> bool:
            if conn.execute(sql, params).rowcount != 1:
                return False
            conn.execute("DELETE FROM clocks WHERE match_id = ?", (match_id,))  # no clock runs
            return True

        done = await self.db.transact(plan)
        if done:
            log.error("match #%s set aside: %s", match_id, problem)
            metrics.set_aside()
        return bool(done)


def _legs_marked(conn: Connection, match_id: int, ending: list[Delivery]) -> list[Delivery]:
    """In an ending's transaction: if the match is a leg of a duplicate match, its ending's
    words say so (no rematch under a leg: the pair's result offers one)."""
    if not any(d.kind == "notice" for d in ending):
        return ending
    leg = conn.execute(
        "SELECT 1 FROM duplicates WHERE first_leg = ? OR second_leg = ?", (match_id, match_id)
    ).fetchone()
    return ending if leg is None else [replace(d, leg=True) for d in ending]
