"""Tournaments per server (Swiss or round-robin): opening, joining, leaving, starting, and
the one task, over stored due times like the turn clocks, that drives tournaments and
duplicate matches between their matches.

A tournament's matches are ordinary matches (moves, clocks, resignations all go the usual
way); what is added is what happens *between* matches, each step written in one transaction
so that a restart mid-round picks up where it was. The task's pass, one at a time, hands the
steps to their rooms: duplicate matches (``duplicates``), results and new rounds
(``tournament_rounds``); what the adapter must post waits in ``tournament_posts``. Every
read and write of their tables is in ``tournament_store``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from contextlib import suppress
from typing import Final

import bot.service.tournament_store as stored
import bot.service.tournament_words as words
from bot import i18n
from bot.service import clocks
from bot.service.duplicates import Duplicates
from bot.service.life import MatchLife, checked_terms
from bot.service.outbox import encode, post
from bot.service.store import MatchStore
from bot.service.tournament_posts import TournamentPosts
from bot.service.tournament_rounds import MIN_PLAYERS, Rounds
from bot.service.tournament_store import TournamentStore
from bot.service.tournament_values import (
    StandingLine,
    TournamentInfo,
    standing_lines,
    unknown_tournament,
)
from bot.service.values import (
    Delivery,
    Json,
    NotAPlayer,
    Phrase,
    Place,
    PlayerRef,
    Refused,
    ServiceError,
)
from bot.storage import sql
from bot.storage.sql import Connection
from games.words import N_, Words

_DATABASE_ERRORS = sql.errors()
log = logging.getLogger("tapis.service")

FORMATS: Final = ("swiss", "round-robin")
MAX_PLAYERS: Final = 64
MAX_OPEN_PER_SERVER: Final = 10
MAX_NAME: Final = 60


class Tournaments:
    """Tournaments over the match store; owns the task that also drives duplicate matches.

    ``posts`` is what the adapter posts for them (reports, new matches) and marks posted."""

    def __init__(self, store: MatchStore, life: MatchLife, duplicates: Duplicates) -> None:
        self._store = store
        self._life = life
        self._kept = TournamentStore(store.db)
        self._duplicates = duplicates
        self._rounds = Rounds(store, life, self._kept, self.wake)
        self.posts = TournamentPosts(store, life, self._kept)
        self._wakeup = asyncio.Event()
        self._step = asyncio.Lock()  # one pass at a time: a pass pairs rounds and starts legs

    def words_of(self, guild_id: int | None) -> Words:
        """The words of posts on ``guild_id``: its server's language, as every post."""
        return i18n.words(self._life.languages.of(guild_id))

    def wake(self) -> None:
        """Look again now (a match ended, a player left, the injected clock moved)."""
        self._wakeup.set()

    # -- reading ------------------------------------------------------------------------------
    async def get(self, tournament_id: int, guild_id: int | None) -> TournamentInfo:
        """The tournament if it belongs to ``guild_id``; else the answer an unknown id gets."""
        row = None
        if isinstance(tournament_id, int) and 0 < tournament_id < 2**63:
            row = await self._kept.row(tournament_id)
        if row is None or row["guild_id"] != guild_id:
            raise unknown_tournament(tournament_id)
        return await self._kept.info(row)

    async def of_server(self, guild_id: int, *, current: bool = True) -> list[TournamentInfo]:
        """A server's tournaments, newest first: open and running ones, or all."""
        found = await self._kept.of_server(guild_id, current=current)
        return [await self.get(tournament_id, guild_id) for tournament_id in found]

    async def standings(self, tournament_id: int, guild_id: int | None) -> list[StandingLine]:
        info = await self.get(tournament_id, guild_id)
        return standing_lines(info, await self._kept.played(info.id, info.round))

    # -- joining --------------------------------------------------------------------------------
    async def create(
        self,
        creator: PlayerRef,
        *,
        guild_id: int,
        channel_id: int,
        name: str | None,
        game: str,
        options: Json | None,
        format_: str,
        duplicate: bool,
        rounds: int | None,
        days_per_move: int | None,
        starts_at: float | None,
    ) -> TournamentInfo:
        """Open a tournament for players to join; Refused, politely, on any bad term."""
        rules, days = checked_terms(game, options, days_per_move)
        if format_ not in FORMATS:
            raise Refused(N_("The format is swiss or round-robin, not “{format}”."), format=format_)
        if rounds is not None and not 1 <= rounds <= MAX_PLAYERS - 1:
            raise Refused(
                N_("A tournament has from 1 to {most} rounds, not {rounds}."),
                most=MAX_PLAYERS - 1,
                rounds=rounds,
            )
        if format_ == "round-robin" and rounds is not None:
            raise Refused(
                N_(
                    "A round-robin has as many rounds as it takes for everyone to meet "
                    "everyone: leave the rounds out."
                )
            )
        now = self._store.ts()
        if starts_at is not None and starts_at <= now:
            raise Refused(N_("That start time has passed: give a time to come, or none."))
        title = " ".join((name or "").split())[:MAX_NAME] or f"{rules.title} tournament"
        opened = await self._kept.current_count(guild_id)
        if opened >= MAX_OPEN_PER_SERVER:
            raise Refused(
                N_(
                    "This server already has {count} tournaments open or running: wait until "
                    "one of them ends before making another."
                ),
                count=opened,
            )

        def plan(conn: Connection) -> int:
            self._store.remember(conn, (creator,), now)
            return stored.insert_tournament(
                conn, guild_id, channel_id, title, rules.name, options, format_, duplicate,
                rounds, days, creator.user_id, starts_at, now,
            )  # fmt: skip

        made = await self._store.db.transact(plan)
        self._store.remembered((creator,))
        self.wake()  # its start time, if any, is now the task's business
        return await self.get(made, guild_id)

    async def set_thread(self, tournament_id: int, thread_id: int) -> None:
        await self._kept.set_thread(tournament_id, thread_id)

    async def join(
        self, tournament_id: int, player: PlayerRef, guild_id: int | None
    ) -> tuple[TournamentInfo, Delivery]:
        """Join an open tournament; the tournament and the line its thread is told (stored in
        the outbox with the joining, so a stop before it is posted does not lose it)."""
        info = await self.get(tournament_id, guild_id)
        if info.status != "open":
            raise Refused(N_("{state}: it can no longer be joined."), state=_state(info))
        if info.entry(player.user_id) is not None:
            raise Refused(N_("You are already in {name}."), name=info.name)
        if len(info.players) >= MAX_PLAYERS:
            raise Refused(N_("{name} is full ({most} players)."), name=info.name, most=MAX_PLAYERS)
        now = self._store.ts()
        said = self.words_of(info.guild_id)

        def plan(conn: Connection) -> Delivery | None:
            # Two presses at once: the second finds the first's row (no error from either
            # database's unique index to tell apart).
            if stored.is_player(conn, tournament_id, player.user_id):
                return None
            self._store.remember(conn, (player,), now)
            stored.add_player(conn, tournament_id, player.user_id, now)
            count = stored.count_players(conn, tournament_id)
            return self._tell(conn, info, words.joined(info.name, player.name, count, said), now)

        news = await self._store.db.transact(plan)
        if news is None:
            raise Refused(N_("You are already in {name}."), name=info.name)
        self._store.remembered((player,))
        return await self.get(tournament_id, guild_id), news

    async def leave(
        self,
        tournament_id: int,
        user_id: int,
        guild_id: int | None,
        *,
        by: int | None = None,
        manager: bool = False,
    ) -> tuple[TournamentInfo, Delivery, list[Delivery]]:
        """Leave a tournament: before it starts, simply; during it, the player's matches in
        it are resigned and they are paired no more (their results so far stay). The line
        for its thread is stored in the outbox with the change.

        ``by``: someone else removes the player — the tournament's creator, or a server
        ``manager`` — and the thread is told so."""
        info = await self.get(tournament_id, guild_id)
        entry = info.entry(user_id)
        if by is not None and by != info.creator_id and not manager:
            raise Refused(
                N_("Only the creator of {name} or a server manager can remove a player."),
                name=info.name,
            )
        if entry is None or entry.left_round is not None:
            if by is not None:
                raise NotAPlayer(N_("They are not playing in {name}."), name=info.name)
            raise NotAPlayer(N_("You are not playing in {name}."), name=info.name)
        if info.status not in ("open", "running"):
            raise Refused(N_("{state}: there is nothing to leave."), state=_state(info))
        said = self.words_of(info.guild_id)
        now = self._store.ts()
        if info.status == "open":

            def drop(conn: Connection) -> Delivery:
                stored.drop_player(conn, tournament_id, user_id)
                count = stored.count_players(conn, tournament_id)
                if by is not None:
                    text = words.removed_before(info.name, entry.name, count, said)
                else:
                    text = words.left_before(info.name, entry.name, count, said)
                return self._tell(conn, info, text, now)

            news = await self._store.db.transact(drop)
            return await self.get(tournament_id, guild_id), news, []

        def mark(conn: Connection) -> Delivery:
            stored.mark_left(conn, tournament_id, user_id, info.round)
            if by is not None:
                text = words.removed_during(info.name, entry.name, info.round, said)
            else:
                text = words.left_during(info.name, entry.name, info.round, said)
            return self._tell(conn, info, text, now)

        # Under the pass's lock: a round paired meanwhile either leaves them out, or made a
        # match that the query below finds and resigns.
        async with self._step:
            news = await self._store.db.transact(mark)
            deliveries = await self._resign_all(tournament_id, user_id)
        self.wake()
        return await self.get(tournament_id, guild_id), news, deliveries

    def _news(self, info: TournamentInfo, text: str) -> Delivery:
        """A line for the tournament's thread (its channel if it has none), as the outbox
        keeps it: a notice of no match (its match number 0)."""
        place = Place(info.guild_id, info.channel_id, info.thread_id)
        return Delivery(
            "notice", 0, None, text, place=place, lang=self.words_of(info.guild_id).lang
        )

    def _tell(self, conn: Connection, info: TournamentInfo, text: str, now: float) -> Delivery:
        """In a plan: store ``text`` for the tournament's thread in the outbox; the delivery
        with its row, to send once the plan is committed."""
        news = self._news(info, text)
        (outbox_id,) = post(conn, encode([news]), now)
        return news.posted(outbox_id)

    async def _resign_all(self, tournament_id: int, user_id: int) -> list[Delivery]:
        """Resign every match of ``user_id`` still going in the tournament."""
        deliveries: list[Delivery] = []
        for match_id in await self._kept.going_matches(tournament_id, user_id):
            with suppress(ServiceError):  # ended meanwhile: nothing left to resign
                _, told = await self._life.resign(match_id, user_id)
                deliveries += told
        return deliveries

    async def start(
        self, tournament_id: int, user_id: int, guild_id: int | None, *, manager: bool
    ) -> TournamentInfo:
        """Start now (its creator or a server manager): the task pairs the first round."""
        info = await self.get(tournament_id, guild_id)
        if user_id != info.creator_id and not manager:
            raise NotAPlayer(
                N_("Only the creator of {name} or a server manager can start it."), name=info.name
            )
        if info.status != "open":
            raise Refused(N_("{state}: it cannot be started again."), state=_state(info))
        active = [e for e in info.players if e.left_round is None]
        if len(active) < MIN_PLAYERS:
            raise Refused(
                N_("{name} needs at least {least} players to start; it has {count} so far."),
                name=info.name,
                least=MIN_PLAYERS,
                count=len(active),
            )
        await self._kept.start_at(tournament_id, self._store.ts())
        self.wake()
        return await self.get(tournament_id, guild_id)

    # -- the task -------------------------------------------------------------------------------
    async def next_due(self) -> float | None:
        return await self._kept.next_due()

    async def step(self) -> list[Delivery]:
        """One pass: duplicate legs, round results, new rounds, due starts; what to deliver
        (the rest waits in ``posts``: reports and new matches)."""
        async with self._step:
            deliveries = await self._duplicates.step()
            await self._rounds.score()
            for tournament_id in await self._kept.due(self._store.ts()):
                try:
                    await self._rounds.advance(tournament_id)
                except _DATABASE_ERRORS:
                    raise
                except Exception:  # one broken tournament must not stop the others
                    log.exception("tournament #%s could not advance", tournament_id)
            return deliveries

    async def run(
        self,
        act: Callable[[list[Delivery]], Awaitable[None]],
    ) -> None:
        """Sleep until a start time or a wake, make a pass, hand what it owes to ``act``
        (which also posts reports and new matches); at start, first catch up."""
        while True:
            self._wakeup.clear()
            try:
                deliveries = await self.step()
                await act(deliveries)
                due = await self.next_due()
            except Exception:
                log.exception("the tournament task failed; it tries again in a minute")
                due = self._store.ts() + clocks.RETRY_AFTER
            delay = clocks.MAX_SLEEP if due is None else due - self._store.ts()
            delay = min(max(delay, clocks.MIN_SLEEP), clocks.MAX_SLEEP)
            with suppress(TimeoutError):
                await asyncio.wait_for(self._wakeup.wait(), timeout=delay)


def _state(info: TournamentInfo) -> Phrase:
    """Where a tournament stands, as a refusal says it (translated when told)."""
    if info.status == "open":
        return Phrase(N_("{name} has not started yet"), {"name": info.name})
    if info.status == "running":
        return Phrase(
            N_("{name} has started (round {round})"), {"name": info.name, "round": info.round}
        )
    if info.status == "finished":
        return Phrase(N_("{name} is over"), {"name": info.name})
    return Phrase(N_("{name} was cancelled"), {"name": info.name})
