"""The match service: one object over the rooms, the only one callers need.

It opens the database and hands each request to the room that owns it: the match life
(life.py) for challenges, moves and endings, the standings, the clock task, integrity; and
answers look-ups from the match store with words from wording.py. It holds no rule of its own.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Self

import bot.service.lessons as lessons
import bot.service.wording as wording
from bot.process import metrics
from bot.service import settings
from bot.service.coaching import Coaching, hints_refused
from bot.service.duplicates import Duplicates
from bot.service.integrity import Integrity, SetAside
from bot.service.languages import GuildLanguages
from bot.service.life import MatchLife, Outcome
from bot.service.privacy import Privacy
from bot.service.queries import Reads
from bot.service.ratings import Standing
from bot.service.rows import unknown_match
from bot.service.seasons import Seasons
from bot.service.standings import Standings
from bot.service.store import MatchStore
from bot.service.tournaments import Tournaments
from bot.service.values import (
    ChallengeLimits,
    Delivery,
    Json,
    MatchInfo,
    MatchOver,
    MatchRow,
    NotAPlayer,
    PlayerProfile,
    PlayerRef,
    PlayerStats,
    Refused,
    ServiceError,
    game_view,
)
from bot.storage.backends import open_database
from bot.storage.sql import Closed, Database
from games.words import N_

ACTIVE = ("challenge", "active")
log = logging.getLogger("tapis.service")


def utcnow() -> datetime:
    """The wall clock, aware UTC; the service takes another one in tests."""
    return datetime.now(UTC)


def _started(row: MatchRow) -> MatchRow:
    if row.state is None:
        raise MatchOver(wording.status_reason(row))
    return row


def reachable(
    match_guild: int | None, people: Iterable[int], user_id: int, guild_id: int | None
) -> bool:
    """Whether a match of server ``match_guild`` (None: outside any) between ``people`` may
    be opened by ``user_id`` asking from server ``guild_id`` (None: a DM): a server's matches
    are its own, seen there by anyone; a player sees their own matches from anywhere (then
    answered privately: see :func:`shown_here`). Every other id is as unknown as one that
    does not exist, so that no server learns what is played elsewhere."""
    return shown_here(match_guild, guild_id) or user_id in people


def shown_here(match_guild: int | None, guild_id: int | None) -> bool:
    """Whether a match of ``match_guild`` may be shown publicly where ``guild_id`` asks."""
    return match_guild is not None and match_guild == guild_id


class MatchService:
    """The match service over one SQLite database (see ``open``).

    Concurrency: every change to a match runs under that match's lock: it reads the match,
    asks the engine, then writes the move, the new state (and, at the end, the result and
    ratings) atomically — one savepoint of a group-committed transaction — with an ``UPDATE``
    that also checks the version it read (optimistic), so a move is applied exactly once even
    if another process shares the file. It returns once that is committed. Matches are kept
    in a cache of read-back states, filled only under their lock and only with committed rows.
    """

    def __init__(
        self, db: Database, now: Callable[[], datetime], limits: ChallengeLimits | None = None
    ) -> None:
        self.store = MatchStore(db, now)
        self.life = MatchLife(self.store, limits)
        self.clock = self.life.clock
        self.standings = Standings(self.store)
        self.integrity = Integrity(self.store)
        self.seasons = Seasons(self.store)
        self.duplicates = Duplicates(self.store, self.life)
        self.tournaments = Tournaments(self.store, self.life, self.duplicates)
        self.privacy = Privacy(self.store, self.life)
        self.coaching = Coaching(self.store)
        self.life.ended = self.tournaments.wake

    # -- opening and closing ----------------------------------------------------------------
    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        durable: bool = False,
        now: Callable[[], datetime] = utcnow,
        limits: ChallengeLimits | None = None,
    ) -> MatchService:
        """The service over the database at ``path`` (a SQLite file, or a ``postgresql://``
        address), created and migrated if needed.

        ``durable=True`` sets ``synchronous=FULL``: an acknowledged move then survives a
        power loss too, not only a killed process.
        """
        return cls(await open_database(path, durable=durable), now, limits)

    async def close(self) -> None:
        await self.store.db.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *_: object) -> None:
        """Closed however the block ends: ``async with await MatchService.open(db) as
        service:`` in a script leaves nothing open when it fails."""
        await self.close()

    async def warm(self) -> int:
        """Read the live matches into the cache (see :meth:`MatchStore.warm`): a bot
        starts this in the background, so that the first move of each match after a
        start costs no more than any other; how many matches were read. It never fails:
        a database error only leaves the rest to be read on first use."""
        try:
            return await self.store.warm()
        except (sqlite3.Error, Closed) as error:
            log.warning("reading the live matches ahead stopped: %s", error)
            return 0

    @property
    def database(self) -> Database:
        """The database itself: the service's own, and the tests'; a front end reads ``reads``."""
        return self.store.db

    @property
    def reads(self) -> Reads:
        """The database for the front ends' read-only queries (``bot.service.queries``)."""
        return self.store.db

    @property
    def where(self) -> str:
        """Where the matches are kept, for a person (a file's path; a server without password)."""
        return self.store.db.describe

    async def set_web(self, guild_id: int, on: bool) -> None:
        """Turn a server's web pages on or off (``/tapis web on|off``)."""
        await settings.set_web(self.store.db, guild_id, on)

    @property
    def languages(self) -> GuildLanguages:
        """The language each server's public posts speak."""
        return self.life.languages

    # -- players ----------------------------------------------------------------------------
    async def player(self, user_id: int) -> PlayerProfile | None:
        """What is stored of a player (None if never seen)."""
        return await self.store.profile(user_id)

    async def seen(self, player: PlayerRef) -> None:
        """Remember a player's name and language as last seen, so that what their matches
        say to them next (a resumed match's hand) speaks the language they use now."""
        now = self.store.ts()
        await self.store.db.transact(lambda conn: self.store.remember(conn, (player,), now))
        self.store.remembered((player,))

    async def set_preferences(self, user_id: int, *, four_colour: bool | None = None) -> None:
        if four_colour is not None:
            await self.store.set_flag(user_id, "four_colour", four_colour)

    async def set_dms_closed(self, user_id: int, closed: bool) -> None:
        await self.store.set_flag(user_id, "dms_closed", closed)

    async def set_dm_channel(self, user_id: int, channel_id: int) -> None:
        """Remember the DM channel opened with a player: a restart need not open it again."""
        await self.store.set_dm_channel(user_id, channel_id)

    # -- looking at matches -----------------------------------------------------------------
    async def get(self, match_id: int) -> MatchInfo:
        row, people = await self.store.peek_with_people(match_id)
        return row.info(people)

    async def get_here(self, match_id: int, guild_id: int | None) -> MatchInfo:
        """The match if it belongs to server ``guild_id``; else the very answer an unknown id
        gets, so that nobody learns from another server (or a DM) which ids exist there.

        ``guild_id`` None (a DM) sees only matches made outside any server (the sandbox's).
        """
        info = await self.get(match_id)
        if info.guild_id != guild_id:
            raise unknown_match(match_id)
        return info

    async def get_for(self, match_id: int, user_id: int, guild_id: int | None) -> MatchInfo:
        """The match if ``user_id``, asking from server ``guild_id`` (None: a DM), may open
        it (see :func:`reachable`); else the very answer an unknown id gets."""
        info = await self.get(match_id)
        people = [info.challenger.user_id]
        people += [p.user_id for p in (info.opponent, *(info.seats or ())) if p is not None]
        if not reachable(info.guild_id, people, user_id, guild_id):
            raise unknown_match(match_id)
        return info

    async def match_in_thread(self, thread_id: int) -> MatchInfo | None:
        found = await self.store.db.fetchone(
            "SELECT id FROM matches WHERE thread_id = ? ORDER BY id DESC LIMIT 1", (thread_id,)
        )
        return None if found is None else await self.get(found["id"])

    async def matches_of(self, user_id: int, *, active_only: bool = True) -> list[MatchInfo]:
        """A player's matches: theirs to move first, then the most recently changed."""
        statuses = ACTIVE if active_only else (*ACTIVE, "finished", "aborted", "corrupt")
        marks = ", ".join("?" * len(statuses))
        found = await self.store.db.fetchall(
            f"SELECT id FROM matches WHERE id IN ("
            f" SELECT id FROM matches WHERE seat0_id = ? AND status IN ({marks})"
            f" UNION SELECT id FROM matches WHERE seat1_id = ? AND status IN ({marks})"
            f" UNION SELECT id FROM matches WHERE challenger_id = ? AND status IN ({marks})"
            f" UNION SELECT id FROM matches WHERE opponent_id = ? AND status IN ({marks}))"
            # CASE, not a bare comparison: its NULL sorts last in SQLite but first in PostgreSQL.
            f" ORDER BY CASE WHEN to_move_id = ? THEN 1 ELSE 0 END DESC, updated_at DESC,"
            f" id DESC LIMIT 100",
            [x for _ in range(4) for x in (user_id, *statuses)] + [user_id],
        )
        infos = []
        for match in found:
            try:
                infos.append(await self.get(match["id"]))
            except MatchOver:
                continue  # set aside while we looked: the others go on
        return infos

    async def view_for(self, match_id: int, user_id: int | None) -> Json:
        """The game view of ``user_id`` if they play in the match, else the public one."""
        row = _started(await self.store.peek(match_id))
        assert row.state is not None
        return game_view(row.state, None if user_id is None else row.seat_of(user_id))

    async def legal_moves(self, match_id: int, user_id: int) -> list[str]:
        row = await self.store.peek(match_id)
        seat = row.seat_of(user_id)
        if row.status != "active" or row.state is None or seat is None:
            return []
        return row.state.legal_moves() if row.state.to_move == seat else []

    async def hand_delivery(self, match_id: int, user_id: int) -> Delivery:
        row, people = await self.store.peek_with_people(match_id)
        _started(row)
        seat = row.seat_of(user_id)
        if seat is None:
            raise NotAPlayer(
                N_("You do not play in match #{id}, so you have no hand there."), id=match_id
            )
        return wording.hand(row, people, seat, self.store.ts())

    async def board_delivery(self, match_id: int) -> Delivery:
        row, people = await self.store.peek_with_people(match_id)
        _started(row)
        await self.life.languages.ready()
        public = self.life.languages.of(row.guild_id)
        return wording.board(row, people, self.store.ts(), public)

    # -- the match life ---------------------------------------------------------------------
    async def challenge(
        self,
        challenger: PlayerRef,
        opponent: PlayerRef | None,
        game: str,
        *,
        guild_id: int | None,
        channel_id: int | None,
        options: Json | None = None,
        days_per_move: int | None = None,
        rated: bool = True,
        rematch_of: int | None = None,
        duplicate: bool = False,
        talk: bool = False,
        hints: bool = False,
    ) -> Outcome:
        """Challenge ``opponent``, or anyone when it is None (an open challenge).

        ``talk``: the match lives in a conversation the bot reaches only by answering
        interactions (``Place.talk``); such a match belongs to no server (``guild_id`` None).

        ``rated=False`` keeps the match out of ratings (the local sandbox's practice games).
        ``duplicate``: the match is the first leg of a duplicate match (duplicates.py); its
        legs are unrated each, and the pair is rated as one result if ``rated``.
        ``hints``: its players may ask for hints; never in a duplicate match, and only in an
        unrated one (a rating measures a player's own play).
        """
        if hints:
            hints_refused(rated=rated, duplicate=duplicate)
        if duplicate:
            info, deliveries = await self.life.challenge(
                challenger, opponent, game, guild_id=guild_id, channel_id=channel_id,
                options=options, days_per_move=days_per_move, rated=False, talk=talk,
            )  # fmt: skip
            return info, await self.duplicates.register(info.id, deliveries, rated)
        return await self.life.challenge(
            challenger,
            opponent,
            game,
            guild_id=guild_id,
            channel_id=channel_id,
            options=options,
            days_per_move=days_per_move,
            rated=rated,
            rematch_of=rematch_of,
            talk=talk,
            hints=hints,
        )

    async def learn(
        self, learner: PlayerRef, game: str, *, guild_id: int | None, channel_id: int | None
    ) -> Outcome:
        """Start ``game``'s lesson for ``learner`` (see lessons.py): a match against the
        teacher, unrated, started at once; what it delivers, its first hand included."""
        lesson = lessons.given(game)
        info, notices = await self.life.challenge(
            learner, lessons.TEACHER, lesson.game, guild_id=guild_id, channel_id=channel_id,
            options=dict(lesson.options), rated=False,
        )  # fmt: skip
        info, deliveries = await self.life.accept(info.id, lessons.TEACHER)
        return info, notices + deliveries

    async def lesson_move(self, match_id: int) -> str | None:
        """The teacher's move now in a lesson; None if it is no lesson or not its turn."""
        return lessons.scripted(await self.store.peek(match_id))

    async def accept(self, match_id: int, user: PlayerRef) -> Outcome:
        """Accept a challenge: the match starts at once, dealt from a fresh random seed."""
        return await self.life.accept(match_id, user)

    async def decline(self, match_id: int, user_id: int) -> Outcome:
        return await self.life.decline(match_id, user_id)

    async def cancel(self, match_id: int, user_id: int) -> Outcome:
        return await self.life.cancel(match_id, user_id)

    async def set_thread(self, match_id: int, thread_id: int) -> None:
        await self.life.set_thread(match_id, thread_id)

    async def rematch(self, match_id: int, user: PlayerRef) -> Outcome:
        """Ask the same opponent for another match on the same terms; if they asked first,
        this accepts their rematch. After a duplicate match, another duplicate match: asked
        from its second leg (where its result is told), made from its first."""
        pair = await self.duplicates.legs(match_id) if 0 < match_id < 2**63 else None
        if pair is None:
            return await self.life.rematch(match_id, user)
        first, second = pair
        rated, over = await self.duplicates.terms(first)
        if not over or match_id != (first if second is None else second):
            raise Refused(
                N_(
                    "Match #{id} is one leg of a duplicate match: a rematch is asked once both "
                    "legs are over, under the duplicate match's result."
                ),
                id=match_id,
            )
        info, deliveries = await self.life.rematch(first, user)
        if info.status != "challenge":
            return info, deliveries  # accepted theirs: a duplicate match already
        return info, await self.duplicates.register(info.id, deliveries, rated)

    async def move(
        self, match_id: int, user_id: int, move: str, *, expected_version: int | None = None
    ) -> Outcome:
        """Play ``move`` for ``user_id`` (see :meth:`MatchLife.move`)."""
        outcome = await self.life.move(match_id, user_id, move, expected_version=expected_version)
        metrics.moved(outcome[0].game)
        return outcome

    async def resign(self, match_id: int, user_id: int) -> Outcome:
        return await self.life.resign(match_id, user_id)

    async def abort(self, match_id: int, user_id: int) -> Outcome:
        """Call a match off before its first move: no result, no rating."""
        return await self.life.abort(match_id, user_id)

    # -- the outbox -------------------------------------------------------------------------
    async def unsent(self) -> list[Delivery]:
        """Deliveries committed with their change but never marked sent (a crash came
        between): to send at start-up, oldest first, now this process's alone (see
        :meth:`MatchStore.unsent`)."""
        return await self._worded(await self.store.unsent(at_start=True))

    async def unsent_of(self, match_id: int) -> list[Delivery]:
        """What a match owes and was never sent, oldest first, whoever claimed it: for a match
        in a conversation, where messages go only as answers to interactions, what waited
        for the next one (see ``bot.discord.talk``)."""
        return await self._worded(await self.store.unsent_of(match_id))

    async def left_unsent(self) -> list[Delivery]:
        """While running: deliveries left unsent by a process that stopped (or whose claim
        on them ran out), now this process's to send; each goes with its row's nonce, so
        one that was sent but not marked is not shown twice."""
        return await self._worded(await self.store.unsent())

    async def _worded(self, deliveries: list[Delivery]) -> list[Delivery]:
        """Read back from the outbox: each hand or board stored before it was worded (see
        ``wording.Owed``), worded from its match now.

        A match that moved on since owes a newer hand and board as well. Such a hand then
        shows the match as it is now, at its version, so its buttons play and the courier's
        queue merges the two; such a board shows the table as it is now with the news it
        owes (the move it told), and keeps its version, so the newer board that replaces it
        tells both moves. One whose match can no longer be read or shown is marked sent.
        """
        worded = []
        for delivery in deliveries:
            if delivery.owed is None or delivery.kind not in ("hand", "board"):
                worded.append(delivery)
                continue
            assert delivery.outbox_id is not None
            made = await self._word_owed(delivery)
            if made is None:
                await self.store.mark_sent([delivery.outbox_id])
            else:
                worded.append(made.posted(delivery.outbox_id))
        return worded

    async def _word_owed(self, delivery: Delivery) -> Delivery | None:
        """A hand or board read back unworded, worded from its match as it is now."""
        owed, to = delivery.owed, delivery.to
        assert owed is not None
        try:
            row, people = await self.store.peek_with_people(delivery.match_id)
        except ServiceError as error:
            log.warning(
                "match #%s: a stored %s dropped (%s)", delivery.match_id, delivery.kind, error
            )
            return None
        seat = None if to is None else row.seat_of(to)
        if row.state is None or (delivery.kind == "hand" and seat is None):
            return None
        same = row.version == delivery.version
        now = float(owed["now"]) if same else self.store.ts()
        ended = same and bool(owed["ended"])
        if delivery.kind == "hand":
            assert seat is not None
            return wording.hand(row, people, seat, now, ended=ended)
        if same:
            return wording.board(row, people, now, delivery.lang, ended=ended)
        board = wording.board(row, people, now, delivery.lang, news=delivery.news)
        return replace(board, version=delivery.version, mention=None)

    async def delivered(self, deliveries: list[Delivery]) -> None:
        """Mark these deliveries sent (those from the outbox), so none is ever sent again."""
        await self.store.mark_sent(d.outbox_id for d in deliveries if d.outbox_id is not None)

    async def prune_outbox(self, keep_days: float = 7) -> int:
        """Forget deliveries sent more than ``keep_days`` ago; how many were forgotten."""
        return await self.store.prune_outbox(self.store.ts() - keep_days * 86400)

    # -- standings --------------------------------------------------------------------------
    async def leaderboard(self, game: str, guild_id: int | None, limit: int = 10) -> list[Standing]:
        return await self.standings.leaderboard(game, guild_id, limit)

    async def stats(
        self, user_id: int, game: str | None = None, guild_id: int | None = None
    ) -> PlayerStats:
        return await self.standings.stats(user_id, game, guild_id)

    # -- clocks -----------------------------------------------------------------------------
    @property
    def clock_next(self) -> float | None:
        """When the clock task plans to look next (unix seconds), None if at rest."""
        return self.clock.planned

    def wake_clocks(self) -> None:
        """Make the clock task look again now (after the injected clock moved, in tests)."""
        self.clock.wake()

    async def next_clock_event(self) -> float | None:
        """The earliest pending reminder or deadline (unix seconds), None if none."""
        return await self.clock.next_due()

    async def check_clocks(self) -> list[Delivery]:
        """Send due reminders and end the matches whose deadline has passed; what to deliver."""
        return await self.clock.check()

    async def run_clocks(self, deliver: Callable[[list[Delivery]], Awaitable[None]]) -> None:
        """The one clock task (see :meth:`ClockTask.run`); cancel it to stop it."""
        await self.clock.run(deliver)

    # -- integrity --------------------------------------------------------------------------
    async def verify(self, match_id: int) -> bool:
        """Replay the match's move log from its seed and compare with the stored state."""
        return await self.integrity.verify(match_id)

    async def set_aside_matches(self) -> list[SetAside]:
        """Every match set aside (status "corrupt"), with what was found wrong."""
        return await self.integrity.set_aside()

    async def restore(self, match_id: int) -> str:
        """Put a repaired set-aside match back in play, if its log now replays."""
        info = await self.integrity.restore(match_id)
        self.clock.wake()  # its clock, if any, starts again
        return info

    async def verify_all(
        self, *, active_only: bool = False, progress: Callable[[int, int], None] | None = None
    ) -> list[int]:
        """Verify every match (or every active one); the ids of those set aside;
        ``progress(done, total)`` told as it goes."""
        return await self.integrity.verify_all(active_only=active_only, progress=progress)
