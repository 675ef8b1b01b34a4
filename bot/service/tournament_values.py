"""The plain data of a tournament passed in and out: the tournament with its players, and
the lines of its standings, drawn from the games played.

Kept apart from the rooms that make and use them (the tournament's entries, its rounds, its
posts, its storage), so each of those can speak of a tournament without importing another.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import bot.service.tournament_words as words
from bot.service import pairing
from bot.service.values import Json, NotFound
from games.words import ENGLISH, N_, Words


def unknown_tournament(tournament_id: object) -> NotFound:
    """The one answer for a tournament that does not exist *or* is another server's."""
    return NotFound(N_("There is no tournament #{id} on this server."), id=tournament_id)


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


def standing_lines(info: TournamentInfo, played: Sequence[Any]) -> list[StandingLine]:
    """The standings after the games ``played`` (rows with seats and points), best first."""
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
