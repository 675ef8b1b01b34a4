"""The life of a match: challenge → accept → moves → ending (by play, resignation, time).

Every change walks the same path once: the store loads the match and its people under the
match's lock, a pure ``decide`` here checks the request and makes the new row, the store
saves it (with the move log, the result and the ratings in the same transaction) together
with the words made from what was decided (wording.py, notices.py, endings.py), an ending's
once its ratings are known. The clock task is told when a turn's due time comes sooner;
what a due time does is decided in dues.py, how often one may challenge in flood.py.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar

import bot.service.endings as endings
import bot.service.lessons as lessons
import bot.service.notices as notices
import bot.service.wording as wording
import games
from bot.service import clocks, ratings
from bot.service.clock import ClockTask
from bot.service.dues import Due, Words, due_change, due_words, end_without_move
from bot.service.flood import ChallengeFlood
from bot.service.languages import GuildLanguages
from bot.service.locks import KeyedLocks
from bot.service.rows import dumps
from bot.service.standings import write_result
from bot.service.store import MatchStore
from bot.service.values import (
    ChallengeLimits,
    Change,
    Changed,
    Conflict,
    Delivery,
    Ending,
    Json,
    MatchInfo,
    MatchOver,
    MatchRow,
    NotAPlayer,
    NotYourTurn,
    People,
    PlayerRef,
    Refused,
    person,
)
from bot.storage.sql import Connection
from games import State
from games.words import N_

T = TypeVar("T")

Outcome = tuple[MatchInfo, list[Delivery]]


def fresh_seed() -> int:
    """The seed of a new match's deals: unpredictable, so nobody can know the cards."""
    return secrets.randbits(62)


def fresh_deal(row: MatchRow) -> tuple[int, State]:
    """A new match's seed and first state, dealt from a fresh seed."""
    seed = fresh_seed()
    return seed, games.get(row.game).new_match(seed=seed, options=row.options)


def playing(row: MatchRow, user_id: int) -> tuple[int, State]:
    """The seat of ``user_id`` in an active match; NotAPlayer or MatchOver otherwise."""
    seat = row.seat_of(user_id)
    if seat is None:
        if row.status == "challenge":
            raise MatchOver(wording.status_reason(row))
        raise NotAPlayer(N_("You do not play in match #{id}."), id=row.id)
    if row.status != "active" or row.state is None or row.state.to_move is None:
        raise MatchOver(wording.status_reason(row))
    return seat, row.state


def open_challenge(row: MatchRow) -> MatchRow:
    """``row`` if it is still an open challenge; MatchOver saying why not otherwise."""
    if row.status == "active":
        raise MatchOver(N_("Match #{id} has already started: play it in its thread."), id=row.id)
    if row.status != "challenge":
        raise MatchOver(
            N_("Match #{id} is no longer an open challenge. {why}"),
            id=row.id,
            why=wording.status_reason(row),
        )
    return row


def _done(changed: Changed[T] | None) -> Changed[T]:
    assert changed is not None  # only the clock's decisions may change nothing
    return changed


def checked_terms(
    game: str, options: Json | None, days_per_move: int | None
) -> tuple[games.Game, int | None]:
    """The game and days per move of a challenge or a tournament, or Refused saying, in the
    asker's language, what the rules accept instead."""
    try:
        rules = games.get(game)
    except KeyError:
        raise Refused(
            N_("There is no game called “{game}”. The games are {names}."),
            game=game,
            names=", ".join(games.names()),
        ) from None
    try:
        rules.check_options(options)
        return rules, clocks.check_days(days_per_move)
    except ValueError as error:
        why = error if isinstance(error, games.Refusal) else str(error).rstrip(".")
        raise Refused(N_("Those terms are not accepted: {why}."), why=why) from None


class MatchLife:
    """Challenges, moves and endings, over a :class:`MatchStore`; owns the clock task."""

    def __init__(self, store: MatchStore, limits: ChallengeLimits | None = None) -> None:
        self.store = store
        self.clock = ClockTask(store, self.check_clock)
        self.languages = GuildLanguages(store.db)
        # No caps unless given (the local sandbox has none; the Discord bot gives them), but
        # an unanswered challenge always expires, after the default time if none is given.
        self.caps = limits
        self.limits = limits or ChallengeLimits()
        # One challenger's requests one at a time, so two at once cannot both pass the caps.
        self._challengers = KeyedLocks()
        self._flood = ChallengeFlood(store.db, self.limits)
        # Told after a match ends, however it ends: what follows a match (a duplicate's
        # second leg, a tournament's next round) is decided by the tournament task.
        self.ended: Callable[[], None] = _nothing

    def public(self, done: Changed[T]) -> str:
        """The language of the public posts of the match ``done`` changed (its server's)."""
        return self.languages.of(done.after.guild_id)

    # -- challenges -------------------------------------------------------------------------
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
        talk: bool = False,
        hints: bool = False,
    ) -> Outcome:
        """Challenge ``opponent``, or anyone when it is None (an open challenge); ``talk``:
        made in a conversation reached only through interactions (``Place.talk``);
        ``hints``: its players may ask for hints (the match is then never rated)."""
        await self.languages.ready()
        rules, days = checked_terms(game, options, days_per_move)
        if opponent is not None and opponent.user_id == challenger.user_id:
            raise Refused(N_("You cannot challenge yourself. Name another player, or anyone."))
        players = (challenger, *([opponent] if opponent else []))
        async with self._challengers.hold(challenger.user_id):
            now = self.store.ts()
            if self.caps is not None:
                await self._flood.check(challenger.user_id, channel_id, now)
            row, deliveries = await self._create(
                rules.name, challenger, opponent, players, guild_id, channel_id, options,
                days, rated, rematch_of, now + self.limits.hours * 3600, talk, hints,
            )  # fmt: skip
            self._flood.spend(challenger.user_id, now)
        self.clock.changed(row.deadline)
        people = await self.store.people(row.user_ids)
        people = {**people, **{p.user_id: people[p.user_id].seen_as(p) for p in players}}
        return row.info(people), deliveries

    async def _create(
        self,
        game: str,
        challenger: PlayerRef,
        opponent: PlayerRef | None,
        players: tuple[PlayerRef, ...],
        guild_id: int | None,
        channel_id: int | None,
        options: Json | None,
        days: int | None,
        rated: bool,
        rematch_of: int | None,
        expires: float,
        talk: bool = False,
        hints: bool = False,
    ) -> tuple[MatchRow, list[Delivery]]:
        """Store a new challenge; until answered its ``deadline`` is when it expires."""
        new = MatchRow(
            id=0,
            game=game,
            guild_id=guild_id,
            channel_id=channel_id,
            thread_id=None,
            challenger_id=challenger.user_id,
            opponent_id=None if opponent is None else opponent.user_id,
            seat_ids=None,
            options=json.loads(dumps(dict(options or {}))),  # as it reads back
            seed=None,
            status="challenge",
            version=0,
            state=None,
            to_move_id=None,
            days_per_move=days,
            deadline=expires,
            reminder_at=None,
            result=None,
            rematch_of=rematch_of,
            rated=rated and not hints,
            talk=talk,
            hints=hints,
        )
        people = await self.store.people(new.user_ids)
        people = {**people, **{p.user_id: people[p.user_id].seen_as(p) for p in players}}
        return await self.store.create(
            new, players, lambda made: notices.challenged(made, people, self.languages.of(guild_id))
        )

    async def accept(self, match_id: int, user: PlayerRef) -> Outcome:
        """Accept a challenge: the match starts at once, dealt from a fresh random seed."""
        await self.languages.ready()

        def decide(row: MatchRow, people: People, now: float) -> Change[None]:
            open_challenge(row)
            if user.user_id == row.challenger_id:
                raise Refused(
                    N_("You cannot accept your own challenge. You may withdraw it with `/decline`.")
                )
            if row.opponent_id is not None and row.opponent_id != user.user_id:
                challenged = person(people, row.opponent_id).name
                raise NotAPlayer(
                    N_(
                        "This challenge is for {name}, not for you. "
                        "Make your own with `/challenge`."
                    ),
                    name=challenged,
                )
            seed, state = lessons.first_state(row) or fresh_deal(row)
            seats = (row.challenger_id, user.user_id)
            deadline, reminder = clocks.deadline_after(now, row.days_per_move)
            after = replace(
                row,
                status="active",
                opponent_id=user.user_id,
                seat_ids=seats,
                seed=seed,
                state=state,
                version=0,
                to_move_id=None if state.to_move is None else seats[state.to_move],
                deadline=deadline,
                reminder_at=reminder,
            )
            return Change(after, remember=(user,))

        changed = _done(
            await self.store.change(
                match_id,
                decide,
                also_people=(user.user_id,),
                words=lambda done: notices.accepted(
                    done.after, done.people, done.now, self.languages.of(done.after.guild_id)
                ),
            )
        )
        row = changed.after
        self.clock.gone(changed.before.deadline)
        self.clock.changed(row.reminder_at)
        return row.info(changed.people), changed.deliveries

    async def _close_challenge(self, match_id: int, user_id: int, status: str) -> Outcome:
        await self.languages.ready()

        def decide(row: MatchRow, people: People, now: float) -> Change[None]:
            open_challenge(row)
            if status == "declined":
                if row.opponent_id is None:
                    raise NotAPlayer(
                        N_("An open challenge cannot be declined. Leave it, or accept it.")
                    )
                if user_id != row.opponent_id:
                    raise NotAPlayer(
                        N_("Only the player challenged can decline this challenge. Leave it.")
                    )
            elif user_id != row.challenger_id:
                raise NotAPlayer(
                    N_("Only the player who made this challenge can withdraw it. Leave it.")
                )
            return Change(replace(row, status=status, deadline=None))

        def words(done: Changed[None]) -> list[Delivery]:
            public = self.languages.of(done.after.guild_id)
            return notices.challenge_closed(done.after, done.people, user_id, public)

        changed = _done(await self.store.change(match_id, decide, words=words))
        self.clock.gone(changed.before.deadline)
        return changed.after.info(changed.people), changed.deliveries

    async def decline(self, match_id: int, user_id: int) -> Outcome:
        return await self._close_challenge(match_id, user_id, "declined")

    async def cancel(self, match_id: int, user_id: int) -> Outcome:
        return await self._close_challenge(match_id, user_id, "cancelled")

    async def set_thread(self, match_id: int, thread_id: int) -> None:
        def decide(row: MatchRow, people: People, now: float) -> Change[None]:
            return Change(replace(row, thread_id=thread_id))

        await self.store.change(match_id, decide)

    async def rematch(self, match_id: int, user: PlayerRef) -> Outcome:
        """Ask the same opponent for another match on the same terms; if they asked first,
        this accepts their rematch.

        Under the finished match's lock, so that two players pressing Rematch at once make
        one challenge, which the second press then accepts.
        """
        async with self.store.locks.hold(match_id):
            return await self._rematch(match_id, user)

    async def _rematch(self, match_id: int, user: PlayerRef) -> Outcome:
        row = await self.store.load(match_id)
        people = await self.store.people(row.user_ids)
        seat = row.seat_of(user.user_id)
        if seat is None or row.seat_ids is None:
            raise NotAPlayer(
                N_("You did not play match #{id}, so you cannot ask for a rematch."), id=match_id
            )
        if row.status != "finished":
            raise Refused(
                N_("A rematch follows a finished match. {why}"), why=wording.status_reason(row)
            )
        if row.seat_ids[1 - seat] < 0:  # a pseudonym: that player asked to be forgotten
            raise Refused(
                N_("Your opponent of match #{id} has left Tapis: challenge someone else."),
                id=match_id,
            )
        pending = await self.store.db.fetchone(
            "SELECT id, challenger_id FROM matches WHERE rematch_of = ? AND status = 'challenge'"
            " ORDER BY id DESC LIMIT 1",
            (match_id,),
        )
        if pending is not None:
            if pending["challenger_id"] == user.user_id:
                raise Refused(
                    N_(
                        "You have already asked for a rematch (match #{id}). It starts as soon "
                        "as your opponent presses Rematch or accepts it."
                    ),
                    id=pending["id"],
                )
            return await self.accept(pending["id"], user)
        return await self.challenge(
            user,
            person(people, row.seat_ids[1 - seat]).ref,
            row.game,
            guild_id=row.guild_id,
            channel_id=row.channel_id,
            options=row.options,
            days_per_move=row.days_per_move,
            rated=row.rated,
            rematch_of=row.id,
            talk=row.talk,
            hints=row.hints,
        )

    # -- play -------------------------------------------------------------------------------
    async def move(
        self, match_id: int, user_id: int, move: str, *, expected_version: int | None = None
    ) -> Outcome:
        """Play ``move`` for ``user_id``: stored with the new state in one transaction.

        ``expected_version`` (the version a button was drawn at) refuses a stale move with
        Conflict instead of applying it to a position the player did not see.

        A move after the turn's deadline is refused, and the match is lost on time then and
        there (by the mover, whose turn it was), whether or not the clock task came by yet.
        """
        await self.languages.ready()
        late = False

        def decide(row: MatchRow, people: People, now: float) -> Change[list[ratings.Change]]:
            nonlocal late
            seat, state = playing(row, user_id)
            if row.deadline is not None and row.deadline <= now and state.to_move is not None:
                late = True
                loser = state.to_move
                return end_without_move(row, 1 - loser, "time", {"timed_out": loser}, now)
            if state.to_move != seat:
                assert row.seat_ids is not None
                who = person(people, row.seat_ids[1 - seat]).name
                raise NotYourTurn(
                    N_(
                        "It is {name}'s turn in match #{id}, not yours. "
                        "You will be told when it is your turn."
                    ),
                    name=who,
                    id=match_id,
                )
            if expected_version is not None and expected_version != row.version:
                raise Conflict(
                    N_(
                        "Match #{id} has moved on since that was shown. Use `/hand` to see your "
                        "cards as they are now."
                    ),
                    id=match_id,
                )
            if row.lesson:
                lessons.check(row, state, move)  # a lesson explains any move but its own
            try:
                after = state.apply(move)
                canonical = state.canonical(move)
            except ValueError as error:
                raise Refused(
                    N_("{why} {open}"),
                    why=wording.engine_reason(error),
                    open=wording.Listing(row.game, tuple(state.legal_moves())),
                ) from None
            return _moved(row, seat, canonical, after, now)

        def words(done: Changed[list[ratings.Change]]) -> Words:
            if late:
                assert done.after.result is not None
                seat = int(done.after.result["timed_out"])
                public = self.public(done)
                return Ending(
                    lambda changes: endings.timed_out(
                        done.after, done.people, seat, changes or [], done.now, public
                    )
                )
            return _move_words(done, self.public(done))

        changed = _done(await self.store.change(match_id, decide, words=words))
        row = changed.after
        if row.status == "finished":
            self.ended()
        if late:
            raise MatchOver(
                N_(
                    "Too late: the time for this move in match #{id} had run out, so the match "
                    "is lost on time."
                ),
                id=match_id,
                deliveries=changed.deliveries,
            )
        self.clock.changed(row.reminder_at)
        return row.info(changed.people), changed.deliveries

    async def resign(self, match_id: int, user_id: int) -> Outcome:
        await self.languages.ready()
        seat = 0

        def decide(row: MatchRow, people: People, now: float) -> Change[list[ratings.Change]]:
            nonlocal seat
            seat, _ = playing(row, user_id)
            return end_without_move(row, 1 - seat, "resignation", {"resigned": seat}, now)

        def words(done: Changed[list[ratings.Change]]) -> Words:
            public = self.public(done)
            return Ending(
                lambda changes: endings.resigned(
                    done.after, done.people, seat, changes or [], done.now, public
                )
            )

        changed = _done(await self.store.change(match_id, decide, words=words))
        self.ended()
        return changed.after.info(changed.people), changed.deliveries

    async def abort(self, match_id: int, user_id: int) -> Outcome:
        """Call a match off before its first move: no result, no rating."""
        await self.languages.ready()
        seat = 0

        def decide(row: MatchRow, people: People, now: float) -> Change[None]:
            nonlocal seat
            seat, _ = playing(row, user_id)
            if row.version > 0:
                raise Refused(
                    N_(
                        "Match #{id} has begun, so it can no longer be called off. You may "
                        "resign it with `/resign`."
                    ),
                    id=match_id,
                )
            return Change(
                replace(row, status="aborted", to_move_id=None, deadline=None, reminder_at=None)
            )

        def words(done: Changed[None]) -> list[Delivery]:
            return endings.aborted(done.after, done.people, seat, self.public(done))

        changed = _done(await self.store.change(match_id, decide, words=words))
        self.ended()
        return changed.after.info(changed.people), changed.deliveries

    async def call_off(self, match_id: int) -> list[Delivery]:
        """End a match under way without a result: its server is gone (see
        ``Privacy.left_server``); both players are told by DM."""
        await self.languages.ready()

        def decide(row: MatchRow, people: People, now: float) -> Change[None] | None:
            if row.status != "active":
                return None
            return Change(
                replace(row, status="aborted", to_move_id=None, deadline=None, reminder_at=None)
            )

        def words(done: Changed[None]) -> list[Delivery]:
            return endings.left_server(done.after, done.people, self.public(done))

        changed = await self.store.change(match_id, decide, words=words)
        if changed is None:
            return []
        self.ended()
        return changed.deliveries

    # -- clocks -----------------------------------------------------------------------------
    async def check_clock(self, match_id: int, due: float) -> list[Delivery]:
        """A match due at ``due`` (for the clock task): what its due time does to it (see
        ``dues``)."""
        await self.languages.ready()
        found = Due()

        def decide(
            row: MatchRow, people: People, now: float
        ) -> Change[list[ratings.Change]] | None:
            return due_change(row, now, due, found)

        def words(done: Changed[list[ratings.Change]]) -> Words:
            return due_words(done, found, due, self.limits.hours, self.public(done))

        changed = await self.store.change(match_id, decide, words=words)
        if changed is not None and changed.after.status == "finished":
            self.ended()
        return [] if changed is None else changed.deliveries


def _nothing() -> None:
    pass


def _move_words(done: Changed[list[ratings.Change]], public: str) -> Words:
    """What a move owes: the board and hands, or the ending with its rating changes."""
    row, people, now = done.after, done.people, done.now
    if row.status == "finished":
        return Ending(lambda changes: endings.ending(row, people, changes or [], now, public))
    return wording.progress(row, people, now, public, done.before)


def _moved(
    row: MatchRow, seat: int, move: str, after: State, now: float
) -> Change[list[ratings.Change]]:
    """The change ``seat``'s move makes: new state and turn, the move logged (with the seat's
    player, read from the row like everything else), the result if over."""
    assert row.seat_ids is not None
    user_id = row.seat_ids[seat]
    result = after.result
    finished = result is not None or after.to_move is None
    if finished:
        result = {**(result or {}), "how": "play"}
        deadline = reminder = to_move = None
    else:
        deadline, reminder = clocks.deadline_after(now, row.days_per_move)
        to_move = row.seat_ids[after.to_move] if after.to_move is not None else None
    version = row.version + 1
    moved = row.but(
        version=version,
        state=after,
        status="finished" if finished else "active",
        to_move_id=to_move,
        deadline=deadline,
        reminder_at=reminder,
        result=result,
    )

    def log_move(conn: Connection) -> list[ratings.Change]:
        conn.execute(
            "INSERT INTO moves (match_id, ply, seat, user_id, move, at) VALUES (?, ?, ?, ?, ?, ?)",
            (row.id, version, seat, user_id, move, now),
        )
        return write_result(conn, moved, "play", now) if finished else []

    return Change(moved, also=log_move)
