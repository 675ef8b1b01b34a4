"""Tournaments per server (Swiss or round-robin) and duplicate matches, stored and driven by
one task over stored due times, like the turn clocks.

A tournament's matches are ordinary matches (moves, clocks, resignations all go the usual
way); what is added here is what happens *between* matches, each step written in one
transaction so that a restart mid-round picks up where it was:

- a duplicate match's first leg ends → its second leg starts on the same seed with the seats
  swapped, in the same thread; the second leg ends → the one result (the difference of the
  two legs' scores) is written and rated as one match;
- a round's games all have a result (by play, resignation or time) → the next round is
  paired and its matches made, or the tournament ends.

What the adapter must still do — post each new match in a thread of its own, post a round's
pairings and standings — is kept as stored marks (``posted``, ``announced``, ``reported``)
and handed out until done, so nothing is lost or said twice across a crash.

Ratings of a duplicate match: each leg is stored unrated; the pair counts as one match for
the rating, won by whoever has more points over both legs (drawn if equal), or lost by the
player who resigned or ran out of time in either leg.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
from collections.abc import Awaitable, Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass, replace
from typing import Any, Final

import bot.service.tournament_words as words
import bot.service.wording as wording
import games
from bot import i18n
from bot.process import metrics
from bot.service import clocks, pairing, ratings, seasons
from bot.service.life import MatchLife, checked_terms, fresh_seed
from bot.service.outbox import encode, post, posted
from bot.service.rows import SELECT_MATCHES, dumps, row_from_stored
from bot.service.store import MatchStore
from bot.service.values import (
    Delivery,
    Json,
    MatchRow,
    NotAPlayer,
    NotFound,
    Phrase,
    Place,
    PlayerRef,
    Refused,
    ServiceError,
    person,
)
from bot.storage import sql
from bot.storage.sql import Connection
from games.words import ENGLISH, N_, Words

_DATABASE_ERRORS = sql.errors()
log = logging.getLogger("tapis.service")

FORMATS: Final = ("swiss", "round-robin")
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 64
MAX_OPEN_PER_SERVER: Final = 10
MAX_NAME: Final = 60
ENDED: Final = ("finished", "aborted", "corrupt", "cancelled", "declined")


@dataclass(frozen=True)
class Entry:
    """A player of a tournament, in starting order."""

    user_id: int
    name: str
    place: int
    left_round: int | None  # None while still in


@dataclass(frozen=True)
class TournamentInfo:
    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    name: str
    game: str
    options: Json
    format: str
    duplicate: bool
    rounds: int | None
    days_per_move: int | None
    creator_id: int
    status: str  # open | running | finished | cancelled
    round: int
    starts_at: float | None
    players: tuple[Entry, ...]

    def terms(self, w: Words = ENGLISH) -> str:
        """The tournament's terms in one sentence, in the language of ``w``."""
        return words.describe(
            self.name, self.game, self.format, self.duplicate, self.rounds,
            self.days_per_move, self.starts_at, w,
        )  # fmt: skip

    def entry(self, user_id: int) -> Entry | None:
        return next((e for e in self.players if e.user_id == user_id), None)


@dataclass(frozen=True)
class StandingLine:
    """One line of a tournament's standings, ready to show."""

    rank: int
    name: str
    score: float
    buchholz: float
    sonneborn_berger: float
    wins: int
    draws: int
    losses: int
    byes: int
    left: bool


@dataclass(frozen=True)
class Report:
    """Something to post in a tournament's thread: a round's standings (with the picture's
    data) or a round's pairings; ``mark`` it once posted."""

    tournament_id: int
    kind: str  # "standings" | "pairings"
    round: int
    place: int  # the thread (or channel) to post in
    text: str
    lines: tuple[StandingLine, ...] = ()
    title: str = ""
    lang: str = i18n.DEFAULT_LANG  # what ``text`` and ``title`` speak: the server's language


@dataclass(frozen=True)
class Posting:
    """A new tournament match the adapter must post in a thread of its own."""

    tournament_id: int
    round: int
    board: int
    match_id: int
    channel_id: int
    text: str
    thread_name: str


class Tournaments:
    """Tournaments and duplicate matches over the match store; owns the tournament task."""

    def __init__(self, store: MatchStore, life: MatchLife) -> None:
        self._store = store
        self._db = store.db
        self._life = life
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
        stored = None
        if isinstance(tournament_id, int) and 0 < tournament_id < 2**63:
            stored = await self._db.fetchone(
                "SELECT * FROM tournaments WHERE id = ?", (tournament_id,)
            )
        if stored is None or stored["guild_id"] != guild_id:
            raise NotFound(N_("There is no tournament #{id} on this server."), id=tournament_id)
        entries = await self._db.fetchall(
            "SELECT t.user_id, t.place, t.left_round, p.name FROM tournament_players t"
            " JOIN players p USING (user_id) WHERE t.tournament_id = ? ORDER BY t.place",
            (tournament_id,),
        )
        return _info(stored, entries)

    async def of_server(self, guild_id: int, *, current: bool = True) -> list[TournamentInfo]:
        """A server's tournaments, newest first: open and running ones, or all."""
        sql = "SELECT id FROM tournaments WHERE guild_id = ?"
        if current:
            sql += " AND status IN ('open', 'running')"
        found = await self._db.fetchall(sql + " ORDER BY id DESC LIMIT 25", (guild_id,))
        return [await self.get(row["id"], guild_id) for row in found]

    async def standings(self, tournament_id: int, guild_id: int | None) -> list[StandingLine]:
        info = await self.get(tournament_id, guild_id)
        return await self._standings(info, info.round)

    async def _standings(self, info: TournamentInfo, upto: int) -> list[StandingLine]:
        games_ = await self._db.fetchall(
            "SELECT seat0_id, seat1_id, points0, points1 FROM tournament_games"
            " WHERE tournament_id = ? AND round <= ? AND points0 IS NOT NULL",
            (info.id, upto),
        )
        return _lines(info, games_)

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
        opened = await self._db.fetchone(
            "SELECT COUNT(*) FROM tournaments WHERE guild_id = ? AND status IN ('open', 'running')",
            (guild_id,),
        )
        if opened is not None and opened[0] >= MAX_OPEN_PER_SERVER:
            raise Refused(
                N_(
                    "This server already has {count} tournaments open or running: wait until "
                    "one of them ends before making another."
                ),
                count=opened[0],
            )

        def plan(conn: Connection) -> int:
            self._store.remember(conn, (creator,), now)
            cursor = conn.execute(
                "INSERT INTO tournaments (guild_id, channel_id, name, game, options, format,"
                " duplicate, rounds, days_per_move, creator_id, status, starts_at, due_at,"
                " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?,"
                " ?, ?)",
                (guild_id, channel_id, title, rules.name, dumps(dict(options or {})), format_,
                 int(duplicate), rounds, days, creator.user_id, starts_at, starts_at, now, now),
            )  # fmt: skip
            assert cursor.lastrowid is not None
            return cursor.lastrowid

        made = await self._db.transact(plan)
        self._store.remembered((creator,))
        self.wake()  # its start time, if any, is now the task's business
        return await self.get(made, guild_id)

    async def set_thread(self, tournament_id: int, thread_id: int) -> None:
        def plan(conn: Connection) -> None:
            conn.execute(
                "UPDATE tournaments SET thread_id = ? WHERE id = ?", (thread_id, tournament_id)
            )

        await self._db.transact(plan)

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
            if conn.execute(
                "SELECT 1 FROM tournament_players WHERE tournament_id = ? AND user_id = ?",
                (tournament_id, player.user_id),
            ).fetchone():
                return None
            self._store.remember(conn, (player,), now)
            conn.execute(
                "INSERT INTO tournament_players (tournament_id, user_id, place, joined_at)"
                " SELECT ?, ?, COALESCE(MAX(place), 0) + 1, ? FROM tournament_players"
                " WHERE tournament_id = ?",
                (tournament_id, player.user_id, now, tournament_id),
            )
            count = _count_players(conn, tournament_id)
            return self._tell(conn, info, words.joined(info.name, player.name, count, said), now)

        news = await self._db.transact(plan)
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
                conn.execute(
                    "DELETE FROM tournament_players WHERE tournament_id = ? AND user_id = ?",
                    (tournament_id, user_id),
                )
                count = _count_players(conn, tournament_id)
                if by is not None:
                    text = words.removed_before(info.name, entry.name, count, said)
                else:
                    text = words.left_before(info.name, entry.name, count, said)
                return self._tell(conn, info, text, now)

            news = await self._db.transact(drop)
            return await self.get(tournament_id, guild_id), news, []

        def mark(conn: Connection) -> Delivery:
            conn.execute(
                "UPDATE tournament_players SET left_round = ? WHERE tournament_id = ?"
                " AND user_id = ?",
                (info.round, tournament_id, user_id),
            )
            if by is not None:
                text = words.removed_during(info.name, entry.name, info.round, said)
            else:
                text = words.left_during(info.name, entry.name, info.round, said)
            return self._tell(conn, info, text, now)

        # Under the pass's lock: a round paired meanwhile either leaves them out, or made a
        # match that the query below finds and resigns.
        async with self._step:
            news = await self._db.transact(mark)
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
        going = await self._db.fetchall(
            "SELECT m.id FROM tournament_games g JOIN matches m ON m.id = g.match_id"
            " WHERE g.tournament_id = ? AND m.status = 'active'"
            " AND (m.seat0_id = ? OR m.seat1_id = ?)"
            " UNION SELECT m.id FROM tournament_games g JOIN duplicates d"
            " ON d.first_leg = g.match_id JOIN matches m ON m.id = d.second_leg"
            " WHERE g.tournament_id = ? AND m.status = 'active'"
            " AND (m.seat0_id = ? OR m.seat1_id = ?)",
            (tournament_id, user_id, user_id, tournament_id, user_id, user_id),
        )
        for match in going:
            with suppress(ServiceError):  # ended meanwhile: nothing left to resign
                _, told = await self._life.resign(match["id"], user_id)
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
        now = self._store.ts()

        def plan(conn: Connection) -> None:
            conn.execute(
                "UPDATE tournaments SET due_at = ? WHERE id = ? AND status = 'open'",
                (now, tournament_id),
            )

        await self._db.transact(plan)
        self.wake()
        return await self.get(tournament_id, guild_id)

    # -- the task -------------------------------------------------------------------------------
    async def next_due(self) -> float | None:
        found = await self._db.fetchone(
            "SELECT MIN(due_at) FROM tournaments WHERE due_at IS NOT NULL"
            " AND status IN ('open', 'running')"
        )
        return None if found is None or found[0] is None else float(found[0])

    async def step(self) -> list[Delivery]:
        """One pass: duplicate legs, round results, new rounds, due starts; what to deliver
        (the rest waits in :meth:`reports` and :meth:`postings`)."""
        async with self._step:
            deliveries = await self._duplicates()
            await self._score_games()
            due = await self._db.fetchall(
                "SELECT id FROM tournaments WHERE status IN ('open', 'running')"
                " AND (due_at <= ? OR status = 'running')",
                (self._store.ts(),),
            )
            for tournament in due:
                try:
                    await self._advance(tournament["id"])
                except _DATABASE_ERRORS:
                    raise
                except Exception:  # one broken tournament must not stop the others
                    log.exception("tournament #%s could not advance", tournament["id"])
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

    # -- duplicate matches -----------------------------------------------------------------------
    async def _duplicates(self) -> list[Delivery]:
        """Start the second legs due, and write the results of duplicate matches now over."""
        found = await self._db.fetchall(
            "SELECT d.first_leg, d.second_leg FROM duplicates d JOIN matches m"
            " ON m.id = COALESCE(d.second_leg, d.first_leg)"
            " WHERE d.finished_at IS NULL AND m.status IN ('finished', 'aborted', 'corrupt')"
        )
        deliveries: list[Delivery] = []
        for pending in found:
            first = await self._store.read(pending["first_leg"])
            second = None
            if pending["second_leg"] is not None:
                second = await self._store.read(pending["second_leg"])
            deliveries += await self._duplicate_step(first, second)
        return deliveries

    async def _duplicate_step(self, first: MatchRow, second: MatchRow | None) -> list[Delivery]:
        people = await self._store.people(first.user_ids)
        now = self._store.ts()
        forfeit = _forfeit(first) if second is None else _forfeit(second)
        if second is None and forfeit is None and first.seat_ids is not None:
            # A player who left the tournament after the first leg plays no second one.
            gone = await self._db.fetchone(
                "SELECT p.user_id FROM tournament_games g JOIN tournament_players p"
                " ON p.tournament_id = g.tournament_id WHERE g.match_id = ?"
                " AND p.left_round IS NOT NULL AND p.user_id IN (?, ?)",
                (first.id, *first.seat_ids),
            )
            if gone is not None:
                forfeit = (gone["user_id"], "resignation")
        if second is None and forfeit is None and first.status == "finished":
            return await self._second_leg(first, people, now)
        assert first.seat_ids is not None
        names = wording.seat_names(first, people)
        net: tuple[float, float] | None = None
        how = "play"
        if first.status != "finished" or (second is not None and second.status != "finished"):
            winner, how = None, "aborted"
        elif forfeit is not None:
            loser_user, how = forfeit
            winner = 1 - first.seat_ids.index(loser_user)
        else:
            assert second is not None
            one, two = _scores(first), _scores(second)
            net = (float(one[0] + two[1]), float(one[1] + two[0]))
            winner = None if net[0] == net[1] else (0 if net[0] > net[1] else 1)
        margin = None if net is None else net[0] - net[1]
        stored = await self._db.fetchone(
            "SELECT rated FROM duplicates WHERE first_leg = ?", (first.id,)
        )
        rated = stored is not None and bool(stored["rated"])

        def plan(conn: Connection) -> list[Delivery]:
            done = conn.execute(
                "UPDATE duplicates SET margin = ?, winner_seat = ?, how = ?, finished_at = ?"
                " WHERE first_leg = ? AND finished_at IS NULL",
                (margin, winner, how, now, first.id),
            )
            if done.rowcount != 1:
                return []  # written by another pass already
            said = i18n.words(self._life.languages.of(first.guild_id))
            text = words.duplicate_over(first.id, names, net, winner, how, said)
            assert first.seat_ids is not None
            if how != "aborted" and rated:
                seasons.count(conn, first.game, first.guild_id, first.seat_ids, winner, now)
                rating_how = "play" if how == "play" else how
                changes = ratings.rate_match(
                    conn, first.game, first.guild_id, first.seat_ids, winner, rating_how, now
                )
                change = changes[-1]
                moved = [
                    (
                        ratings.displayed(change.after[s].shown),
                        ratings.displayed(change.after[s].shown)
                        - ratings.displayed(change.before[s].shown),
                    )
                    for s in (0, 1)
                ]
                text += " " + words.ratings_moved(first.game, names, moved, said)
            last = second or first
            notice = wording.delivery("notice", last, people, None, text, said, names=names)
            return posted([notice], post(conn, encode([notice]), now))

        return await self._db.transact(plan)

    async def _second_leg(self, first: MatchRow, people: Any, now: float) -> list[Delivery]:
        assert first.seat_ids is not None and first.seed is not None
        seats = (first.seat_ids[1], first.seat_ids[0])
        seed = first.seed

        def plan(conn: Connection) -> tuple[MatchRow, list[Delivery]]:
            taken = conn.execute(
                "SELECT second_leg FROM duplicates WHERE first_leg = ?", (first.id,)
            ).fetchone()
            if taken is None or taken[0] is not None:
                return first, []
            row = _insert_match(
                conn, first.game, first.options, first.guild_id, first.channel_id,
                first.thread_id, seats, first.days_per_move, seed, False, now,
            )  # fmt: skip
            conn.execute(
                "UPDATE duplicates SET second_leg = ? WHERE first_leg = ?", (row.id, first.id)
            )
            names = wording.seat_names(row, people)
            public = self._life.languages.of(row.guild_id)
            said = i18n.words(public)
            text = words.second_leg(first.id, row.id, *names, said)
            told = [wording.delivery("notice", row, people, None, text, said, names=names)]
            owed = [*told, *wording.progress(row, people, now, public)]
            return row, posted(owed, post(conn, encode(owed), now))

        row, deliveries = await self._db.transact(plan)
        if deliveries:
            self._life.clock.changed(row.reminder_at)
        return deliveries

    # -- rounds ---------------------------------------------------------------------------------
    async def _score_games(self) -> None:
        """Give every tournament game whose match (or duplicate) is over its points."""
        found = await self._db.fetchall(
            "SELECT g.tournament_id, g.round, g.board, g.match_id, t.duplicate, m.status,"
            " m.result, m.seat0_id, d.winner_seat, d.finished_at FROM tournament_games g"
            " JOIN tournaments t ON t.id = g.tournament_id"
            " JOIN matches m ON m.id = g.match_id"
            " LEFT JOIN duplicates d ON d.first_leg = g.match_id"
            " WHERE g.points0 IS NULL AND t.status = 'running'"
        )
        scored: list[tuple[float, float, int, int, int]] = []
        for game in found:
            if game["duplicate"]:
                if game["finished_at"] is None:
                    continue
                winner = game["winner_seat"]
                # The seats of the first leg are the game's seats (see _new_round).
                if winner is None and _aborted_duplicate(game):
                    points = (0.0, 0.0)
                else:
                    points = _points(winner)
            else:
                if game["status"] not in ENDED:
                    continue
                if game["status"] != "finished":
                    points = (0.0, 0.0)  # called off or set aside: nobody scores
                else:
                    result = _json(game["result"])
                    points = _points(result.get("winner"))
            scored.append((*points, game["tournament_id"], game["round"], game["board"]))
        if not scored:
            return

        def plan(conn: Connection) -> None:
            conn.executemany(
                "UPDATE tournament_games SET points0 = ?, points1 = ? WHERE tournament_id = ?"
                " AND round = ? AND board = ? AND points0 IS NULL",
                scored,
            )

        await self._db.transact(plan)

    async def _advance(self, tournament_id: int) -> None:
        stored = await self._db.fetchone("SELECT * FROM tournaments WHERE id = ?", (tournament_id,))
        if stored is None:
            return
        entries = await self._db.fetchall(
            "SELECT t.user_id, t.place, t.left_round, p.name FROM tournament_players t"
            " JOIN players p USING (user_id) WHERE t.tournament_id = ? ORDER BY t.place",
            (tournament_id,),
        )
        info = _info(stored, entries)
        now = self._store.ts()
        if info.status == "open":
            if stored["due_at"] is None or stored["due_at"] > now:
                return
            playing = [e for e in info.players if e.left_round is None]
            if len(playing) < MIN_PLAYERS:
                await self._cancel(info, len(playing), now)
                return
            count = len(playing)
            if info.format == "round-robin":
                rounds = pairing.round_robin_rounds(count)
            else:
                wanted = info.rounds or max(1, math.ceil(math.log2(count)))
                rounds = min(wanted, count - 1)
            await self._new_round(info, 1, rounds, now)
            return
        open_games = await self._db.fetchone(
            "SELECT COUNT(*) FROM tournament_games WHERE tournament_id = ? AND round = ?"
            " AND points0 IS NULL",
            (tournament_id, info.round),
        )
        if open_games is None or open_games[0] > 0:
            return
        assert info.rounds is not None
        remaining = [e for e in info.players if e.left_round is None]
        if info.round >= info.rounds or len(remaining) < MIN_PLAYERS:

            def finish(conn: Connection) -> None:
                conn.execute(
                    "UPDATE tournaments SET status = 'finished', due_at = NULL, updated_at = ?"
                    " WHERE id = ? AND status = 'running' AND round = ?",
                    (now, tournament_id, info.round),
                )

            await self._db.transact(finish)
            return
        await self._new_round(info, info.round + 1, info.rounds, now)

    async def _cancel(self, info: TournamentInfo, count: int, now: float) -> None:
        def plan(conn: Connection) -> None:
            conn.execute(
                "UPDATE tournaments SET status = 'cancelled', due_at = NULL, updated_at = ?"
                " WHERE id = ? AND status = 'open'",
                (now, info.id),
            )

        await self._db.transact(plan)

    async def _new_round(self, info: TournamentInfo, number: int, rounds: int, now: float) -> None:
        """Pair round ``number`` and make its matches, with the round, in one transaction."""
        history = await self._db.fetchall(
            "SELECT round, seat0_id, seat1_id, points0, points1 FROM tournament_games"
            " WHERE tournament_id = ? ORDER BY round, board",
            (info.id,),
        )
        if info.format == "round-robin":
            # Everyone who started keeps their place in the schedule, even once gone.
            starting = [e.user_id for e in info.players]
            drawn = pairing.round_robin(starting, number)
        else:
            drawn = pairing.swiss(_entrants(info, history))
        gone = {e.user_id for e in info.players if e.left_round is not None}
        new_rows: list[MatchRow] = []

        def plan(conn: Connection) -> None:
            moved = conn.execute(
                "UPDATE tournaments SET status = 'running', round = ?, rounds = ?,"
                " due_at = NULL, updated_at = ? WHERE id = ? AND round = ?",
                (number, rounds, now, info.id, number - 1),
            )
            if moved.rowcount != 1:
                return  # another pass did it
            board = 0
            for first, second in drawn.pairs:
                board += 1
                if first in gone or second in gone:
                    # A round-robin still lists who left: the one still in wins by forfeit.
                    points = (
                        (0.0, 0.0)
                        if first in gone and second in gone
                        else ((0.0, 1.0) if first in gone else (1.0, 0.0))
                    )
                    conn.execute(
                        "INSERT INTO tournament_games (tournament_id, round, board, seat0_id,"
                        " seat1_id, points0, points1, posted) VALUES (?, ?, ?, ?, ?, ?, ?, 1)",
                        (info.id, number, board, first, second, *points),
                    )
                    continue
                seed = fresh_seed()
                row = _insert_match(
                    conn, info.game, info.options, info.guild_id, info.channel_id, None,
                    (first, second), info.days_per_move, seed, not info.duplicate, now,
                )  # fmt: skip
                new_rows.append(row)
                if info.duplicate:
                    conn.execute("INSERT INTO duplicates (first_leg) VALUES (?)", (row.id,))
                conn.execute(
                    "INSERT INTO tournament_games (tournament_id, round, board, seat0_id,"
                    " seat1_id, match_id) VALUES (?, ?, ?, ?, ?, ?)",
                    (info.id, number, board, first, second, row.id),
                )
            if drawn.bye is not None and drawn.bye not in gone:
                conn.execute(
                    "INSERT INTO tournament_games (tournament_id, round, board, seat0_id,"
                    " points0, points1, posted) VALUES (?, ?, ?, ?, ?, 0, 1)",
                    (info.id, number, board + 1, drawn.bye, pairing.BYE),
                )

        await self._db.transact(plan)
        metrics.tournament_round()
        for row in new_rows:
            self._life.clock.changed(row.reminder_at)
        if new_rows == [] and drawn.pairs == ():
            self.wake()  # a round of byes only: it is over at once

    # -- what the adapter posts ---------------------------------------------------------------
    async def reports(self) -> list[Report]:
        """Standings and pairings not yet posted, in the order to post them."""
        found = await self._db.fetchall(
            "SELECT id, guild_id FROM tournaments WHERE status IN ('running', 'finished')"
            " AND (reported < round OR announced < round)"
            " UNION SELECT id, guild_id FROM tournaments WHERE status = 'cancelled'"
            " AND announced = 0 ORDER BY id"
        )
        out: list[Report] = []
        for stored in found:
            info = await self.get(stored["id"], stored["guild_id"])
            said = self.words_of(info.guild_id)
            if info.status == "cancelled":
                text = words.cancelled(info.name, len(info.players), said)
                place = info.thread_id or info.channel_id
                out.append(Report(info.id, "cancelled", 1, place, text, lang=said.lang))
                continue
            row = await self._db.fetchone(
                "SELECT announced, reported FROM tournaments WHERE id = ?", (info.id,)
            )
            assert row is not None and info.rounds is not None
            place = info.thread_id or info.channel_id
            finished_upto = info.round if info.status == "finished" else info.round - 1
            for number in range(row["reported"] + 1, finished_upto + 1):
                lines = tuple(await self._standings(info, number))
                final = info.status == "finished" and number == info.round
                text = words.standings_caption(info.name, number, info.rounds, final, said)
                if final and lines:
                    text += "\n" + words.winner(info.name, lines[0].name, said)
                title = words.round_title(info.name, number, info.rounds, said)
                out.append(
                    Report(info.id, "standings", number, place, text, lines, title, said.lang)
                )
            if row["announced"] < info.round and info.status == "running":
                out.append(await self._pairings_report(info, place))
        return out

    async def _pairings_report(self, info: TournamentInfo, place: int) -> Report:
        assert info.rounds is not None
        said = self.words_of(info.guild_id)
        names = {e.user_id: e.name for e in info.players}
        found = await self._db.fetchall(
            "SELECT seat0_id, seat1_id, match_id FROM tournament_games WHERE tournament_id = ?"
            " AND round = ? ORDER BY board",
            (info.id, info.round),
        )
        pairs = [
            (names.get(g["seat0_id"], "?"), names.get(g["seat1_id"], "?"), g["match_id"])
            for g in found
            if g["seat1_id"] is not None
        ]
        bye = next((names.get(g["seat0_id"]) for g in found if g["seat1_id"] is None), None)
        text = words.pairings(info.name, info.round, info.rounds, pairs, bye, said)
        return Report(info.id, "pairings", info.round, place, text, lang=said.lang)

    async def mark_reported(self, report: Report) -> None:
        # A cancellation is told once, as if announcing a first round that never came.
        column = "reported" if report.kind == "standings" else "announced"

        def plan(conn: Connection) -> None:
            conn.execute(
                f"UPDATE tournaments SET {column} = ? WHERE id = ? AND {column} < ?",
                (report.round, report.tournament_id, report.round),
            )

        await self._db.transact(plan)

    async def postings(self) -> list[Posting]:
        """Tournament matches not yet given their thread (new, or a crash came between)."""
        found = await self._db.fetchall(
            "SELECT g.tournament_id, g.round, g.board, g.match_id, g.seat0_id, g.seat1_id,"
            " t.name, t.channel_id, t.game, t.guild_id FROM tournament_games g"
            " JOIN tournaments t ON t.id = g.tournament_id"
            " WHERE g.posted = 0 AND g.match_id IS NOT NULL ORDER BY g.tournament_id, g.round,"
            " g.board"
        )
        out = []
        for game in found:
            people = await self._store.people((game["seat0_id"], game["seat1_id"]))
            first = person(people, game["seat0_id"]).name
            second = person(people, game["seat1_id"]).name
            said = self.words_of(game["guild_id"])
            text = words.round_match(
                game["name"], game["round"], first, second, game["match_id"], said
            )
            # Named as every match's thread is (bot.discord.actions.thread_name).
            thread = said.gettext("{game} · {challenger} vs {opponent} · #{id}").format(
                game=wording.game_title(game["game"], said),
                challenger=first,
                opponent=second,
                id=game["match_id"],
            )
            out.append(
                Posting(game["tournament_id"], game["round"], game["board"], game["match_id"],
                        game["channel_id"], text, thread[:100])
            )  # fmt: skip
        return out

    async def opening(self, posting: Posting, thread_id: int | None) -> list[Delivery]:
        """Once a match is posted: its thread is stored, and the board and hands to send."""
        if thread_id is not None:
            await self._life.set_thread(posting.match_id, thread_id)

        def plan(conn: Connection) -> None:
            conn.execute(
                "UPDATE tournament_games SET posted = 1 WHERE tournament_id = ? AND round = ?"
                " AND board = ?",
                (posting.tournament_id, posting.round, posting.board),
            )

        await self._db.transact(plan)
        row, people = await self._store.peek_with_people(posting.match_id)
        if row.status != "active":
            return []
        public = self._life.languages.of(row.guild_id)
        return wording.progress(row, people, self._store.ts(), public)

    async def register_duplicate(
        self, match_id: int, deliveries: list[Delivery], rated: bool
    ) -> list[Delivery]:
        """Make a new challenge the first leg of a duplicate match; its notice says so."""

        def plan(conn: Connection) -> None:
            conn.execute(
                "INSERT INTO duplicates (first_leg, rated) VALUES (?, ?)", (match_id, int(rated))
            )

        await self._db.transact(plan)
        return [
            replace(d, text=f"{d.text} {words.duplicate_terms(i18n.words(d.lang))}")
            if d.kind == "notice"
            else d
            for d in deliveries
        ]

    async def duplicate_terms(self, first_leg: int) -> tuple[bool, bool]:
        """Whether the duplicate match of ``first_leg`` is rated (as one result), and whether
        it is over (its result written)."""
        found = await self._db.fetchone(
            "SELECT rated, finished_at FROM duplicates WHERE first_leg = ?", (first_leg,)
        )
        if found is None:
            return False, False
        return bool(found["rated"]), found["finished_at"] is not None

    async def duplicate_of(self, match_id: int) -> tuple[int, int | None] | None:
        """(first leg, second leg) if ``match_id`` is a leg of a duplicate match."""
        found = await self._db.fetchone(
            "SELECT first_leg, second_leg FROM duplicates WHERE first_leg = ? OR second_leg = ?",
            (match_id, match_id),
        )
        return None if found is None else (found["first_leg"], found["second_leg"])


# -- helpers ------------------------------------------------------------------------------------


def _count_players(conn: Connection, tournament_id: int) -> int:
    row = conn.execute(
        "SELECT COUNT(*) AS n FROM tournament_players WHERE tournament_id = ?", (tournament_id,)
    ).fetchone()
    return int(row["n"]) if row is not None else 0


def _json(text: str | None) -> Json:
    try:
        value = json.loads(text) if text else {}
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _points(winner: object) -> tuple[float, float]:
    if winner == 0:
        return pairing.WIN, 0.0
    if winner == 1:
        return 0.0, pairing.WIN
    return pairing.DRAW, pairing.DRAW


def _aborted_duplicate(game: Any) -> bool:
    return bool(game["status"] != "finished")


def _scores(row: MatchRow) -> tuple[int, int]:
    scores = (row.result or {}).get("scores") or [0, 0]
    return int(scores[0]), int(scores[1])


def _forfeit(row: MatchRow) -> tuple[int, str] | None:
    """(the user who lost the leg off the board, how) for a leg lost by resignation or on
    time; None for a leg played out."""
    result = row.result or {}
    how = result.get("how")
    if row.status != "finished" or how not in ("resignation", "time") or row.seat_ids is None:
        return None
    winner = result.get("winner")
    if winner not in (0, 1):
        return None
    return row.seat_ids[1 - winner], str(how)


def _insert_match(
    conn: Connection,
    game: str,
    options: Json,
    guild_id: int | None,
    channel_id: int | None,
    thread_id: int | None,
    seats: tuple[int, int],
    days: int | None,
    seed: int,
    rated: bool,
    now: float,
) -> MatchRow:
    """In a plan: a match that starts at once (no challenge: the pairing is the invitation)."""
    state = games.get(game).new_match(seed=seed, options=options)
    deadline, reminder = clocks.deadline_after(now, days)
    to_move = None if state.to_move is None else seats[state.to_move]
    cursor = conn.execute(
        "INSERT INTO matches (game, guild_id, channel_id, thread_id, challenger_id, opponent_id,"
        " seat0_id, seat1_id, options, seed, status, version, state, to_move_id, days_per_move,"
        " rated, deadline, reminder_at, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', 0, ?, ?, ?, ?, ?, ?, ?, ?)",
        (game, guild_id, channel_id, thread_id, seats[0], seats[1], seats[0], seats[1],
         dumps(dict(options)), seed, state.to_json(), to_move, days, int(rated), deadline,
         reminder, now, now),
    )  # fmt: skip
    if deadline is not None or reminder is not None:  # a turn clock runs: its own row
        conn.execute(
            "INSERT INTO clocks (match_id, deadline, reminder_at) VALUES (?, ?, ?)",
            (cursor.lastrowid, deadline, reminder),
        )
    stored = conn.execute(f"{SELECT_MATCHES} WHERE m.id = ?", (cursor.lastrowid,)).fetchone()
    return row_from_stored(stored)


def _info(stored: Any, entries: Sequence[Any]) -> TournamentInfo:
    return TournamentInfo(
        id=stored["id"],
        guild_id=stored["guild_id"],
        channel_id=stored["channel_id"],
        thread_id=stored["thread_id"],
        name=stored["name"],
        game=stored["game"],
        options=_json(stored["options"]),
        format=stored["format"],
        duplicate=bool(stored["duplicate"]),
        rounds=stored["rounds"],
        days_per_move=stored["days_per_move"],
        creator_id=stored["creator_id"],
        status=stored["status"],
        round=stored["round"],
        starts_at=stored["starts_at"],
        players=tuple(Entry(e["user_id"], e["name"], e["place"], e["left_round"]) for e in entries),
    )


def _entrants(info: TournamentInfo, history: Sequence[Any]) -> list[pairing.Entrant]:
    """Who is still in, as the Swiss pairing sees them after the games so far."""
    score: dict[int, float] = {}
    met: dict[int, set[int]] = {}
    first: dict[int, int] = {}
    second: dict[int, int] = {}
    byes: set[int] = set()
    for game in history:
        a, b = game["seat0_id"], game["seat1_id"]
        score[a] = score.get(a, 0.0) + (game["points0"] or 0.0)
        if b is None:
            byes.add(a)
            continue
        score[b] = score.get(b, 0.0) + (game["points1"] or 0.0)
        met.setdefault(a, set()).add(b)
        met.setdefault(b, set()).add(a)
        first[a] = first.get(a, 0) + 1
        second[b] = second.get(b, 0) + 1
    return [
        pairing.Entrant(
            user_id=e.user_id,
            score=score.get(e.user_id, 0.0),
            order=e.place,
            opponents=frozenset(met.get(e.user_id, ())),
            first_seats=first.get(e.user_id, 0),
            second_seats=second.get(e.user_id, 0),
            had_bye=e.user_id in byes,
        )
        for e in info.players
        if e.left_round is None
    ]


def _lines(info: TournamentInfo, played: Sequence[Any]) -> list[StandingLine]:
    results = [
        pairing.Game(g["seat0_id"], g["seat1_id"], g["points0"], g["points1"] or 0.0)
        for g in played
    ]
    table = pairing.standings([(e.user_id, e.place) for e in info.players], results)
    entries = {e.user_id: e for e in info.players}
    return [
        StandingLine(
            rank=rank,
            name=entries[line.user_id].name,
            score=line.score,
            buchholz=line.buchholz,
            sonneborn_berger=line.sonneborn_berger,
            wins=line.wins,
            draws=line.draws,
            losses=line.losses,
            byes=line.byes,
            left=entries[line.user_id].left_round is not None,
        )
        for rank, line in enumerate(table, 1)
    ]


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
