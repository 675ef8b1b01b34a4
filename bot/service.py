"""The match service: the whole life of a match, in plain data, without Discord.

Every call takes ids and text and returns a :class:`MatchInfo` and the :class:`Delivery`
list the adapter must send, in order. The service speaks to the games only through the
engine contract (``games.get(name).new_match``, ``apply``, ``view``, ``to_json``/``from_json``),
so nothing here knows one game from another.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

Json = dict[str, Any]


def utcnow() -> datetime:
    """The wall clock, aware UTC; the service takes another one in tests."""
    return datetime.now(UTC)


@dataclass(frozen=True)
class PlayerRef:
    """Who acts: a Discord user id, the display name to show, their locale."""

    user_id: int
    name: str
    locale: str = "en"


@dataclass(frozen=True)
class Delivery:
    """Something the adapter must send, in list order.

    - ``hand``: private to user ``to``: their hand from ``view`` (= ``state.view(seat)``), with
      buttons for ``view["legal_moves"]``; ``text`` says which match and whose turn.
    - ``board``: public, to the match's thread or channel: the table from ``view``
      (= ``state.view(None)``); ``text`` = last move, scores, whose turn; ``mention`` = to move.
    - ``notice``: public text to the match's thread or channel (challenge, start, result…).
    - ``dm``: private text to user ``to`` (a clock reminder, "your opponent resigned"…).

    Public deliveries never hold hidden information, in ``view`` or in ``text``.
    """

    kind: Literal["hand", "board", "notice", "dm"]
    match_id: int
    to: int | None
    text: str
    view: Json | None = None
    mention: int | None = None
    names: tuple[str, str] | None = None


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

    def seat_of(self, user_id: int) -> int | None:
        """The seat ``user_id`` plays in this match, or None for anyone else."""
        if self.seats is None:
            return None
        for seat, player in enumerate(self.seats):
            if player.user_id == user_id:
                return seat
        return None


@dataclass(frozen=True)
class Standing:
    """One line of a leaderboard."""

    rank: int
    user_id: int
    name: str
    rating: float
    games: int
    wins: int
    losses: int
    draws: int


@dataclass(frozen=True)
class PlayerStats:
    """A player's record in one game (or all games) on one server (or everywhere)."""

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


@dataclass(frozen=True)
class PlayerRecord:
    """What is remembered of a player: the name last seen and their preferences."""

    user_id: int
    name: str
    locale: str
    four_colour: bool
    dms_closed: bool
    extra: Json = field(default_factory=dict)


class ServiceError(Exception):
    """A request the service refuses; ``str(error)`` is a polite sentence for the user."""


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


class MatchService:
    """The match service over one SQLite database (see ``open``)."""

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        durable: bool = False,
        now: Callable[[], datetime] = utcnow,
    ) -> MatchService:
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError

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
    ) -> tuple[MatchInfo, list[Delivery]]:
        raise NotImplementedError

    async def accept(self, match_id: int, user: PlayerRef) -> tuple[MatchInfo, list[Delivery]]:
        raise NotImplementedError

    async def decline(self, match_id: int, user_id: int) -> tuple[MatchInfo, list[Delivery]]:
        raise NotImplementedError

    async def cancel(self, match_id: int, user_id: int) -> tuple[MatchInfo, list[Delivery]]:
        raise NotImplementedError

    async def set_thread(self, match_id: int, thread_id: int) -> None:
        raise NotImplementedError

    async def move(
        self, match_id: int, user_id: int, move: str
    ) -> tuple[MatchInfo, list[Delivery]]:
        raise NotImplementedError

    async def resign(self, match_id: int, user_id: int) -> tuple[MatchInfo, list[Delivery]]:
        raise NotImplementedError

    async def abort(self, match_id: int, user_id: int) -> tuple[MatchInfo, list[Delivery]]:
        raise NotImplementedError

    async def rematch(self, match_id: int, user: PlayerRef) -> tuple[MatchInfo, list[Delivery]]:
        raise NotImplementedError

    async def get(self, match_id: int) -> MatchInfo:
        raise NotImplementedError

    async def view_for(self, match_id: int, user_id: int | None) -> Json:
        raise NotImplementedError

    async def legal_moves(self, match_id: int, user_id: int) -> list[str]:
        raise NotImplementedError

    async def hand_delivery(self, match_id: int, user_id: int) -> Delivery:
        raise NotImplementedError

    async def board_delivery(self, match_id: int) -> Delivery:
        raise NotImplementedError

    async def matches_of(self, user_id: int, *, active_only: bool = True) -> list[MatchInfo]:
        raise NotImplementedError

    async def match_in_thread(self, thread_id: int) -> MatchInfo | None:
        raise NotImplementedError

    async def leaderboard(self, game: str, guild_id: int | None, limit: int = 10) -> list[Standing]:
        raise NotImplementedError

    async def stats(
        self, user_id: int, game: str | None = None, guild_id: int | None = None
    ) -> PlayerStats:
        raise NotImplementedError

    async def player(self, user_id: int) -> PlayerRecord | None:
        raise NotImplementedError

    async def set_preferences(self, user_id: int, *, four_colour: bool | None = None) -> None:
        raise NotImplementedError

    async def set_dms_closed(self, user_id: int, closed: bool) -> None:
        raise NotImplementedError

    async def run_clocks(self, deliver: Callable[[list[Delivery]], Awaitable[None]]) -> None:
        raise NotImplementedError

    async def verify(self, match_id: int) -> bool:
        raise NotImplementedError
