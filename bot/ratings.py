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

GLOBAL_SCOPE: Final = 0  # Discord ids are never 0, so no server can take it
_MODEL: Final = PlackettLuce()
DEFAULT_MU: Final[float] = _MODEL.mu
DEFAULT_SIGMA: Final[float] = _MODEL.sigma


@dataclass(frozen=True)
class Skill:
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def shown(self) -> float:
        """The rating players see: mu - 3 sigma, rounded for display."""
        return round(self.mu - 3 * self.sigma, 2)


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
