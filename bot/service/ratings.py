"""Ratings with openskill (Plackett-Luce), per game, per server and everywhere.

A rating is a belief (mu, sigma) about a player's skill; what players see is the
conservative estimate mu - 3 sigma, which only rises as the system grows sure of them.
Each finished, rated match updates two scopes: the server it was played on (its guild id)
and everywhere (scope 0), each separately, in the transaction that ends the match.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce

from bot.storage.sql import Connection

GLOBAL_SCOPE: Final = 0  # Discord ids are never 0, so no server can take it
_MODEL: Final = PlackettLuce()
DEFAULT_MU: Final[float] = _MODEL.mu
DEFAULT_SIGMA: Final[float] = _MODEL.sigma


@dataclass(frozen=True)
class Standing:
    """One line of a leaderboard, in Discord and on the web site alike."""

    rank: int
    user_id: int
    name: str
    rating: float
    games: int
    wins: int
    losses: int
    draws: int


@dataclass(frozen=True)
class Skill:
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def shown(self) -> float:
        """The rating players see: mu - 3 sigma, rounded for display."""
        return round(self.mu - 3 * self.sigma, 2)


DISPLAY_START: Final = 1500
DISPLAY_SCALE: Final = 20


def displayed(ordinal: float) -> int:
    """The rating players read, from the model's ordinal (mu - 3 sigma, 0 for a newcomer).

    The ordinal starts at 0 and dips below it after a first loss, which reads as a penalty
    nobody earned; scaled and offset it starts at a familiar 1,500 and moves by tens. It is
    a whole number everywhere it is shown, and never below 0.
    """
    return max(0, round(DISPLAY_START + DISPLAY_SCALE * ordinal))


@dataclass(frozen=True)
class Change:
    """Both players' skills in one scope, before and after a match."""

    scope: int
    before: tuple[Skill, Skill]
    after: tuple[Skill, Skill]


def scopes(guild_id: int | None) -> tuple[int, ...]:
    """The scopes one match counts in: everywhere, and its server if it has one."""
    return (GLOBAL_SCOPE,) if guild_id is None else (GLOBAL_SCOPE, guild_id)


def rate(first: Skill, second: Skill, winner: int | None) -> tuple[Skill, Skill]:
    """New skills of seat 0 and seat 1 after a match won by ``winner`` (None: a draw)."""
    ranks: list[float] = {0: [1.0, 2.0], 1: [2.0, 1.0], None: [1.0, 1.0]}[winner]
    a = _MODEL.rating(mu=first.mu, sigma=first.sigma)
    b = _MODEL.rating(mu=second.mu, sigma=second.sigma)
    (new_a,), (new_b,) = _MODEL.rate([[a], [b]], ranks=ranks)
    return Skill(new_a.mu, new_a.sigma), Skill(new_b.mu, new_b.sigma)


def next_streak(streak: int, outcome: int) -> int:
    """The streak after a win (outcome 1), a loss (-1) or a draw (0)."""
    if outcome > 0:
        return streak + 1 if streak > 0 else 1
    if outcome < 0:
        return streak - 1 if streak < 0 else -1
    return 0


def rate_match(
    conn: Connection,
    game: str,
    guild_id: int | None,
    seat_ids: tuple[int, int],
    winner: int | None,
    how: str,
    now: float,
) -> list[Change]:
    """Update both players' ratings and tallies in every scope of a finished match, in the
    transaction that ends it (``conn``, the writer's, in its thread)."""
    changes = []
    for scope in scopes(guild_id):
        before = (skill(conn, seat_ids[0], game, scope), skill(conn, seat_ids[1], game, scope))
        after = rate(before[0], before[1], winner)
        for seat in (0, 1):
            outcome = 0 if winner is None else (1 if seat == winner else -1)
            _update(conn, seat_ids[seat], game, scope, after[seat], outcome, how, now)
        changes.append(Change(scope, before, after))
    return changes


def skill(conn: Connection, user_id: int, game: str, scope: int) -> Skill:
    """A player's skill in a game and scope; a newcomer's if they have no rating there."""
    stored = conn.execute(
        "SELECT mu, sigma FROM ratings WHERE user_id = ? AND game = ? AND scope = ?",
        (user_id, game, scope),
    )
    for line in stored:
        return Skill(line[0], line[1])
    return Skill()


def _update(
    conn: Connection,
    user_id: int,
    game: str,
    scope: int,
    new: Skill,
    outcome: int,
    how: str,
    now: float,
) -> None:
    """Store a player's new skill and count the match: outcome 1 won, -1 lost, 0 drawn.

    The streak is continued in SQL from the stored one (the sign of the value passed says
    which way), as ``next_streak`` does."""
    win, loss, draw = int(outcome > 0), int(outcome < 0), int(outcome == 0)
    timed = int(how == "time")
    resigned = int(how == "resignation")
    conn.execute(
        "INSERT INTO ratings (user_id, game, scope, mu, sigma, rating, games, wins, losses,"
        " draws, streak, losses_on_time, resignations, wins_on_time, wins_by_resignation,"
        " updated_at) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (user_id, game, scope) DO UPDATE SET mu = excluded.mu,"
        " sigma = excluded.sigma, rating = excluded.rating, games = ratings.games + 1,"
        " wins = ratings.wins + excluded.wins, losses = ratings.losses + excluded.losses,"
        " draws = ratings.draws + excluded.draws,"
        " streak = CASE WHEN excluded.streak > 0 THEN"
        "   (CASE WHEN ratings.streak > 0 THEN ratings.streak + 1 ELSE 1 END)"
        "   WHEN excluded.streak < 0 THEN"
        "   (CASE WHEN ratings.streak < 0 THEN ratings.streak - 1 ELSE -1 END)"
        "   ELSE 0 END,"
        " losses_on_time = ratings.losses_on_time + excluded.losses_on_time,"
        " resignations = ratings.resignations + excluded.resignations,"
        " wins_on_time = ratings.wins_on_time + excluded.wins_on_time,"
        " wins_by_resignation = ratings.wins_by_resignation + excluded.wins_by_resignation,"
        " updated_at = excluded.updated_at",
        (
            user_id,
            game,
            scope,
            new.mu,
            new.sigma,
            new.shown,
            win,
            loss,
            draw,
            next_streak(0, outcome),
            timed * loss,
            resigned * loss,
            timed * win,
            resigned * win,
            now,
        ),
    )
