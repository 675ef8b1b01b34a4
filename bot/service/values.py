"""The service's plain data: what callers pass in, what they get back, and the stored match.

Nothing here does I/O, so every other module of the service may import it and none of
them needs another to name what it handles. Deliveries are plain data (ids, strings, JSON
mappings) so that they could be stored with the move that owes them and sent again later.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from datetime import datetime
from functools import cached_property
from typing import Any, Generic, Literal, Protocol, TypeVar, cast, runtime_checkable

import games
from bot.service import clocks
from bot.service.computer_ids import TEACHER_ID as TEACHER_ID
from bot.storage.sql import Connection
from games import State
from games.phrases import typed_in
from games.words import ENGLISH, Words

Json = dict[str, Any]
T = TypeVar("T")

DeliveryKind = Literal["hand", "board", "notice", "dm"]


def game_view(state: State, seat: int | None) -> Json:
    """``state.view(seat)`` as plain JSON data: the service carries views without reading
    any game's own keys, so each game's typed view is only a mapping here."""
    return cast(Json, state.view(seat))


@dataclass(frozen=True)
class ChallengeLimits:
    """How many challenges one may make: a challenge pings its opponent (or the channel's
    readers), so one member must not be able to flood a channel or a person with them.

    ``per_user``/``per_channel``: open (unanswered) challenges at once; ``burst`` challenges
    may be made in a row, then one more every ``every_seconds`` (a token bucket); an
    unanswered challenge expires after ``hours``.
    """

    per_user: int = 5
    per_channel: int = 20
    burst: int = 3
    every_seconds: float = 120.0
    hours: float = 24.0


@dataclass(frozen=True)
class PlayerRef:
    """Who acts: a Discord user id, the display name to show, their locale."""

    user_id: int
    name: str
    locale: str = "en"


@dataclass(frozen=True)
class PlayerProfile:
    """What is remembered of a player: the name last seen and their preferences."""

    user_id: int
    name: str
    locale: str = "en"
    four_colour: bool = False
    dms_closed: bool = False
    extra: Json = field(default_factory=dict)
    dm_channel: int | None = None  # their DM channel with the bot, once it was opened

    @classmethod
    def unknown(cls, user_id: int) -> PlayerProfile:
        """Someone never stored (a name is still needed to speak of them)."""
        return cls(user_id, f"player {user_id}")

    @cached_property
    def ref(self) -> PlayerRef:
        return PlayerRef(self.user_id, self.name, self.locale)

    def seen_as(self, ref: PlayerRef) -> PlayerProfile:
        """The profile with the name and locale ``ref`` was last seen with."""
        if (ref.name, ref.locale) == (self.name, self.locale):
            return self
        return replace(self, name=ref.name, locale=ref.locale)


# Everyone a match speaks of, by user id: read with the match, so that its words and its
# deliveries are made without going back to the database.
People = Mapping[int, PlayerProfile]


def person(people: People, user_id: int) -> PlayerProfile:
    return people.get(user_id) or PlayerProfile.unknown(user_id)


@dataclass(frozen=True)
class Place:
    """Where a match's public messages go: its thread if it has one, else its channel.

    ``talk``: the channel is a conversation the bot is no member of (a DM or group DM between
    people, a server without the bot): nothing is posted there on the bot's own, its public
    messages are the answers to the interactions made there."""

    guild_id: int | None = None
    channel_id: int | None = None
    thread_id: int | None = None
    talk: bool = False

    @property
    def channel(self) -> int | None:
        return self.thread_id or self.channel_id

    def to_json(self) -> Json:
        # By hand: ``asdict`` deep-copies every field, for three plain ids.
        return {
            "guild_id": self.guild_id,
            "channel_id": self.channel_id,
            "thread_id": self.thread_id,
            "talk": self.talk,
        }


@dataclass(frozen=True)
class Delivery:
    """Something the adapter must send, in list order, with all it needs to send it.

    - ``hand``: private to user ``to``: their hand from ``view`` (= ``state.view(seat)``), with
      buttons for ``view["legal_moves"]`` drawn at ``version``; ``text`` says which match and
      whose turn.
    - ``board``: public, to ``place``: the table from ``view`` (= ``state.view(None)``);
      ``text`` = its title line, then its ``news`` (the last move, and a deal's breakdown
      when the move ended one), then scores and whose turn; ``mention`` = to move.
    - ``notice``: public text to ``place`` (challenge, start, result…).
    - ``dm``: private text to user ``to`` (a clock reminder, "your opponent resigned"…).

    ``game``, ``place`` and ``version`` say which match and where, so a DM can be headed
    with it; ``status`` is the match's status once the change was made (a finished match's
    notice invites a rematch); ``four_colour``, ``dms_closed`` and ``dm_channel`` are the
    recipient's settings when it was made. Public deliveries never hold hidden information,
    in ``view`` or in ``text``.
    """

    kind: DeliveryKind
    match_id: int
    to: int | None
    text: str
    view: Json | None = None
    mention: int | None = None
    names: tuple[str, str] | None = None
    game: str = ""
    version: int = 0
    status: str = ""
    place: Place = Place()
    four_colour: bool = False
    dms_closed: bool = False
    outbox_id: int | None = None  # its row in the outbox, once stored with its change
    lang: str = "en"  # the language ``text`` speaks; what the adapter adds speaks it too
    # A board's lines telling what happened (as they stand in ``text``, after its first
    # line): a board that replaces a waiting one carries the waiting one's news too.
    news: tuple[str, ...] = ()
    dm_channel: int | None = None  # the recipient's DM channel, if known: no need to open it
    # A hand or board stored before it was worded (see ``Owed``): the time, whether a deal
    # had just ended and a hand's seat, for the service to word it from the match when read.
    owed: Json | None = None
    # The end of one leg of a duplicate match: no rematch is offered under it (the pair's
    # result offers one, for the pair).
    leg: bool = False
    # The end of a lesson: what follows it is offered instead of a rematch (a real match
    # against the computer, or a challenge).
    lesson: bool = False
    # A hand in a match where hints may be asked (against the computer, or its challenge
    # allowed them): it carries a Hint button.
    hints: bool = False

    @property
    def private(self) -> bool:
        return self.kind in ("hand", "dm")

    def to_json(self) -> Json:
        """The delivery as JSON-ready data (``from_json`` reads it back equal).

        Made by hand, not with ``asdict``: every move stores a few of these in the outbox,
        and ``asdict`` deep-copies each view on the writer's thread for nothing."""
        data = {name: getattr(self, name) for name in DELIVERY_FIELDS}
        data["place"] = self.place.to_json()
        return data

    def owed_json(self) -> Json:
        """A delivery not worded yet as the outbox keeps it: which it is and what to word it
        from (``owed``, see ``Owed``). The rest, its words and view, where it goes and its
        reader's settings, is made afresh from its match when it is read back; a board keeps
        its news, which tell a move that the match as it is then may no longer show."""
        data: Json = {
            "kind": self.kind,
            "match_id": self.match_id,
            "to": self.to,
            "text": "",  # made when read back
            "version": self.version,
            "lang": self.lang,
            "owed": self.owed,
        }
        if self.news:
            data["news"] = self.news
        return data

    def posted(self, outbox_id: int) -> Delivery:
        """The delivery as stored in the outbox, with its row id.

        A shallow copy with one field set: ``dataclasses.replace`` would check and pass
        every field again, for each of a move's deliveries."""
        copy = object.__new__(type(self))
        copy.__dict__.update(self.__dict__)
        copy.__dict__["outbox_id"] = outbox_id
        return copy

    @classmethod
    def from_json(cls, data: Json) -> Delivery:
        names = data.get("names")
        return cls(
            **{
                **data,
                "names": None if names is None else (str(names[0]), str(names[1])),
                "place": Place(**data.get("place", {})),
                "news": tuple(data.get("news", ())),
            }
        )


DELIVERY_FIELDS = tuple(f.name for f in fields(Delivery))


@dataclass(frozen=True)
class MatchInfo:
    """One match as the adapter sees it (never the hidden state)."""

    id: int
    game: str
    status: str  # challenge | active | finished | declined | cancelled | aborted | corrupt
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    challenger: PlayerRef
    opponent: PlayerRef | None
    seats: tuple[PlayerRef, PlayerRef] | None
    options: Json
    days_per_move: int | None
    deadline: datetime | None
    to_move: int | None
    version: int
    result: Json | None
    talk: bool = False  # lives in a conversation reached only through interactions (Place)
    hints: bool = False  # its challenge allowed hints (both players saw it; not rated)

    def seat_of(self, user_id: int) -> int | None:
        """The seat ``user_id`` plays in this match, or None for anyone else."""
        if self.seats is None:
            return None
        for seat, player in enumerate(self.seats):
            if player.user_id == user_id:
                return seat
        return None


@dataclass(frozen=True)
class PlayerStats:
    """A player's results in one game (or all games) on one server (or everywhere)."""

    user_id: int
    name: str
    game: str | None
    guild_id: int | None
    rating: float | None  # None when ``game`` is None: ratings are per game
    rank: int | None  # None while unrated
    games: int
    wins: int
    losses: int
    draws: int
    streak: int  # > 0: wins in a row; < 0: losses in a row; 0 after a draw or no game
    losses_on_time: int
    resignations: int  # matches this player resigned
    wins_on_time: int = 0
    wins_by_resignation: int = 0


class ServiceError(Exception):
    """A request the service refuses, told in the asker's language by :meth:`say`.

    ``message`` is one English sentence marked for translation (``N_``), with named
    ``{blanks}`` filled from ``blanks`` after it is translated; ``str(error)`` is the English.
    A blank's value may itself be a marked message (a :class:`Phrase`), translated in turn.

    ``deliveries``: what a refusal still made happen and must be told (a move too late
    ends the match on time), already in the outbox like any change's.
    """

    def __init__(
        self,
        message: str | Sayable = "",
        /,
        *,
        deliveries: list[Delivery] | None = None,
        **blanks: object,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.blanks = blanks
        self.deliveries: list[Delivery] = list(deliveries or [])

    def say(self, words: Words = ENGLISH) -> str:
        """The refusal in the language of ``words``, the moves it shows in the reader's
        own move words (`écarter`, not `discard`)."""
        if isinstance(self.message, str):
            return typed_in(Phrase(self.message, self.blanks).say(words), words)
        return typed_in(self.message.say(words), words)

    def __str__(self) -> str:
        return self.say(ENGLISH)


@runtime_checkable
class Sayable(Protocol):
    """Words told only once the reader's language is known."""

    def say(self, words: Words) -> str: ...


@dataclass(frozen=True)
class Phrase:
    """A marked message and its blanks, translated only when someone is told it."""

    message: str
    blanks: Mapping[str, object] = field(default_factory=dict)

    def say(self, words: Words) -> str:
        filled = {
            key: value.say(words) if isinstance(value, Sayable) else value
            for key, value in self.blanks.items()
        }
        text = words.gettext(self.message) if self.message else ""
        return text.format(**filled) if filled else text


class NotFound(ServiceError):
    """No such match (or game, or player)."""


class NotAPlayer(ServiceError):
    """Someone acted on a match they do not play in."""


class NotYourTurn(ServiceError):
    """A player moved while it is the opponent's turn."""


class MatchOver(ServiceError):
    """The match is no longer being played (finished, cancelled, aborted, set aside)."""


class Refused(ServiceError):
    """The engine refused the move (its message kept, plus what is legal), or a bad request."""


class Conflict(ServiceError):
    """The match changed while the request was made (a stale button, another process)."""


@dataclass(frozen=True)
class MatchRow:
    """A match as stored, with its state read back (``state`` is None before the start)."""

    id: int
    game: str
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None
    challenger_id: int
    opponent_id: int | None
    seat_ids: tuple[int, int] | None
    options: Json
    seed: int | None
    status: str
    version: int
    state: State | None
    to_move_id: int | None
    days_per_move: int | None
    deadline: float | None
    reminder_at: float | None
    result: Json | None
    rematch_of: int | None
    rated: bool
    # The match's row of clocks as stored, (deadline, reminder_at): when the clock task
    # looks at it, never later than the due times above (see ``alarm_for``); None: no row.
    alarm: tuple[float | None, float | None] | None = None
    talk: bool = False  # see ``Place.talk``; never changes once made
    hints: bool = False  # its challenge allowed hints (a row of ``coached``); never changes

    def but(self, **changes: Any) -> MatchRow:
        """The row with ``changes`` made: ``dataclasses.replace`` without its checks and
        its second pass over every field, since every move makes one. What a row works out
        once (its view, its place) is not copied: the new row works it out afresh."""
        unknown = changes.keys() - _ROW_FIELDS
        if unknown:
            raise TypeError(f"a match row has no field {', '.join(sorted(unknown))}")
        mine = self.__dict__
        copy = object.__new__(MatchRow)
        copy.__dict__.update({name: mine[name] for name in _ROW_FIELDS}, **changes)
        return copy

    def seat_of(self, user_id: int) -> int | None:
        if self.seat_ids is None:
            return None
        if self.seat_ids[0] == user_id:
            return 0
        if self.seat_ids[1] == user_id:
            return 1
        return None

    @property
    def lesson(self) -> bool:
        """Whether the match is a lesson: the teacher is its opponent."""
        return self.opponent_id == TEACHER_ID or TEACHER_ID in (self.seat_ids or ())

    # Read several times for every move: made once per row (a changed row is a new object).
    @cached_property
    def place(self) -> Place:
        return Place(self.guild_id, self.channel_id, self.thread_id, self.talk)

    @cached_property
    def deal_said(self) -> tuple[str, ...]:
        """The breakdown of the last deal that ended, in English, as the public view tells it
        (empty before any): a move compares its own with the one of the row before, which
        the move before worked out already (that row is the one the match cache keeps).
        Only these few lines are kept with the row, not the view they are read from."""
        assert self.state is not None
        return self.deal_said_in(game_view(self.state, None))

    def deal_said_in(self, view: Json) -> tuple[str, ...]:
        """``deal_said``, read from the row's public view ``view`` if not known yet."""
        said: tuple[str, ...] | None = self.__dict__.get("deal_said")
        if said is None:
            said = tuple(games.get(self.game).deal_summary(view, ENGLISH))
            self.__dict__["deal_said"] = said  # where cached_property keeps it
        return said

    @cached_property
    def user_ids(self) -> tuple[int, ...]:
        """Everyone this match speaks of."""
        ids = [self.challenger_id]
        for user_id in (self.opponent_id, *(self.seat_ids or ())):
            if user_id is not None and user_id not in ids:
                ids.append(user_id)
        return tuple(ids)

    def info(self, people: People) -> MatchInfo:
        """The match as the adapter sees it."""
        seats = None
        if self.seat_ids is not None:
            seats = (person(people, self.seat_ids[0]).ref, person(people, self.seat_ids[1]).ref)
        return MatchInfo(
            id=self.id,
            game=self.game,
            status=self.status,
            guild_id=self.guild_id,
            channel_id=self.channel_id,
            thread_id=self.thread_id,
            challenger=person(people, self.challenger_id).ref,
            opponent=None if self.opponent_id is None else person(people, self.opponent_id).ref,
            seats=seats,
            options=dict(self.options),
            days_per_move=self.days_per_move,
            deadline=clocks.to_datetime(self.deadline),
            to_move=self.to_move_id,
            version=self.version,
            result=None if self.result is None else dict(self.result),
            talk=self.talk,
            hints=self.hints,
        )


_ROW_FIELDS = tuple(f.name for f in fields(MatchRow))


@dataclass(frozen=True)
class Change(Generic[T]):
    """What a caller of ``MatchStore.change`` decided: the row to save, players to
    remember, and more writes for the same transaction (``also``, e.g. the move log)."""

    after: MatchRow
    also: Callable[[Connection], T] | None = None
    remember: tuple[PlayerRef, ...] = ()
    touch: bool = True  # bump ``updated_at`` (a player-visible change)


@dataclass(frozen=True)
class Ending(Generic[T]):
    """Words that name what the change's own writes found (an ending's rating changes,
    which only the transaction that rates the match knows exactly): ``make`` is given what
    ``Change.also`` returned and runs inside that transaction. Every other change's words
    are plain lists of deliveries, made on the event loop before the writer sees them."""

    make: Callable[[T | None], list[Delivery]]


@dataclass(frozen=True)
class Changed(Generic[T]):
    """What ``MatchStore.change`` did: the row before and after, the people the match
    speaks of (as now remembered), the time it was decided at, what ``also`` returned, and
    the deliveries it owes (already in the outbox, in the same transaction)."""

    before: MatchRow
    after: MatchRow
    people: People
    now: float
    also: T | None
    deliveries: list[Delivery] = field(default_factory=list)  # stored in the outbox with it
