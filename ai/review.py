"""A finished match reviewed: each player's decisions weighed against the strong level's.

Each decision is replayed from the match's seed and moves, and weighed from the view its
player had then (never the hidden cards): what the played move was worth on average over
deals drawn from that view, against the best move's worth. The review keeps each player's
total cost and their costliest decisions; it is done in parts (:func:`weigh`), so whoever runs
it can say how far it has got, and put together by :func:`summarise`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import games
from ai.base import lookup, view_of
from ai.coach import REVIEW_SHARE, analyse
from games import State

WORST = 5
"""The costliest decisions a review shows per player."""


@dataclass(frozen=True)
class Decision:
    """One decision weighed: at ``ply`` (the move that made version ``ply``), ``seat`` played
    ``played`` where the strong level would have played ``best``, for ``cost`` on average."""

    ply: int
    seat: int
    played: str
    best: str
    cost: float


@dataclass(frozen=True)
class Review:
    """A whole match reviewed."""

    game: str
    unit: str
    """As :attr:`ai.coach.Analysis.unit`: points, or chance of winning the match."""
    lost: tuple[float, float]
    """Each seat's total cost against the strong level's choices."""
    decisions: tuple[int, int]
    """How many real choices (more than one sensible move) each seat made."""
    worst: tuple[tuple[Decision, ...], tuple[Decision, ...]]
    """Each seat's costliest decisions, the costliest first (at most ``WORST``)."""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Review:
        lost, decisions, worst = data["lost"], data["decisions"], data["worst"]
        return cls(
            game=str(data["game"]),
            unit=str(data["unit"]),
            lost=(float(lost[0]), float(lost[1])),
            decisions=(int(decisions[0]), int(decisions[1])),
            worst=(
                tuple(Decision(**d) for d in worst[0]),
                tuple(Decision(**d) for d in worst[1]),
            ),
        )


def positions(
    game: str, seed: int, options: dict[str, Any] | None, moves: Sequence[str]
) -> list[State]:
    """The match's states: ``[0]`` as dealt, ``[n]`` after ``moves[n - 1]``."""
    state = games.get(game).new_match(seed=seed, options=options or None)
    states = [state]
    for move in moves:
        state = state.apply(move)
        states.append(state)
    return states


def choices(
    game: str, seed: int, options: dict[str, Any] | None, moves: Sequence[str]
) -> list[int]:
    """The plies at which the mover had more than one legal move: the decisions to weigh."""
    states = positions(game, seed, options, moves)
    return [ply for ply in range(1, len(moves) + 1) if len(states[ply - 1].legal_moves()) > 1]


def weigh(
    game: str,
    seed: int,
    options: dict[str, Any] | None,
    moves: Sequence[str],
    plies: Iterable[int],
) -> list[Decision]:
    """The decisions at ``plies`` weighed, each from its player's view at the time; a pure
    function of its arguments (each decision's sampling is seeded by the match and ply)."""
    states = positions(game, seed, options, moves)
    weighed = []
    for ply in plies:
        before = states[ply - 1]
        seat = before.to_move
        assert seat is not None
        view = view_of(before, seat)
        played = moves[ply - 1]
        found = analyse(game, view, seed * 1_000_003 + ply, also=[played], share=REVIEW_SHARE)
        cost = found.cost(played) or 0.0
        weighed.append(Decision(ply, seat, played, found.best.move, cost))
    return weighed


def summarise(game: str, decisions: Iterable[Decision]) -> Review:
    """The review of a match from its decisions weighed."""
    unit = lookup(games.get(game).name).unit
    lost = [0.0, 0.0]
    counted = [0, 0]
    mine: list[list[Decision]] = [[], []]
    for decision in decisions:
        lost[decision.seat] += decision.cost
        counted[decision.seat] += 1
        if decision.cost > 0 and decision.played != decision.best:
            mine[decision.seat].append(decision)
    worst = [tuple(sorted(m, key=lambda d: (-d.cost, d.ply))[:WORST]) for m in mine]
    return Review(
        games.get(game).name,
        unit,
        (lost[0], lost[1]),
        (counted[0], counted[1]),
        (worst[0], worst[1]),
    )
