"""Determinized search (perfect-information Monte Carlo) over the engine contract.

For each of a fixed number of *determinizations* — full states drawn at random among those
consistent with the seat's view — every candidate move is tried and the deal is played out
to its end with the game's cheap policy; the move with the best total score margin wins.
Each determinization plays every candidate with the same random numbers, so the candidates
are compared on equal luck (common random numbers), which sharpens small differences.

The budget is a count of playouts, never a clock, so a seed fixes the choice whatever the
machine's load.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ai.base import GameAI, Json
from games import State


def playout(game_ai: GameAI, state: State, seat: int, left: int, rng: random.Random) -> float:
    """Play ``state`` out to the end of its deal (``left`` counted moves) and score it for
    ``seat``: the margin in match points, plus the game's prize if the match is decided."""
    policy, counts = game_ai.playout, game_ai.counts
    while left > 0 and state.result is None:
        moves = state.legal_moves()
        move = moves[0] if len(moves) == 1 else policy(state, moves, rng)
        state = state.apply(move)
        if counts(move):
            left -= 1
    return value(game_ai, state, seat)


def value(game_ai: GameAI, state: State, seat: int) -> float:
    scores = state.scores
    margin = float(scores[seat] - scores[1 - seat])
    result = state.result
    if result is None and game_ai.estimate is not None:
        margin += game_ai.estimate(state, seat)
    if result is not None and result.get("winner") is not None:
        margin += game_ai.win_value if result["winner"] == seat else -game_ai.win_value
    return margin


def search(game_ai: GameAI, view: Json, playouts: int, rng: random.Random) -> str:
    """The move of ``view["legal_moves"]`` with the best mean playout value."""
    moves = list(view["legal_moves"])
    candidates = game_ai.candidates(view, moves) if len(moves) > 1 else moves
    if len(candidates) == 1:
        return candidates[0]
    sampled = sample(game_ai, view, candidates, playouts, rng)
    if sampled is None:
        # A game's determinizer should never miss; if it does, the computer still plays
        # (its rules of thumb) rather than fail the match.
        return game_ai.greedy(view, rng)
    totals = sampled.totals
    best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
    return candidates[best]


@dataclass(frozen=True)
class Sampled:
    """Each candidate's values summed over the same sampled deals."""

    totals: list[float]
    """The candidate's value, summed over the deals (the unit of ``value``)."""
    gains: list[float]
    """The points the candidate scores for the seat at once, summed over the deals (a meld
    laid, a declaration, the trick it ends): what the move wins now, as a player says it."""
    deals: int


def sample(
    game_ai: GameAI, view: Json, candidates: list[str], playouts: int, rng: random.Random
) -> Sampled | None:
    """Every move of ``candidates`` valued on the same ``playouts // len(candidates)`` deals
    drawn from ``view``; None if the game's determinizer misses more often than it deals."""
    seat = int(view["seat"])
    horizon = game_ai.horizon(view)
    if game_ai.depth is not None:
        horizon = min(horizon, game_ai.depth)
    rounds = max(1, playouts // len(candidates))
    totals = [0.0] * len(candidates)
    gains = [0.0] * len(candidates)
    done = misses = 0
    while done < rounds:
        try:
            state = game_ai.determinize(view, rng)
            luck = rng.getrandbits(64)
            values = []
            gained = []
            before = state.scores[seat]
            for move in candidates:
                after = state.apply(move)
                gained.append(float(after.scores[seat] - before))
                left = horizon - 1 if game_ai.counts(move) else horizon
                if game_ai.evaluate is not None:
                    values.append(game_ai.evaluate(after, seat, left, random.Random(luck)))
                else:
                    values.append(playout(game_ai, after, seat, left, random.Random(luck)))
        except ValueError:  # IllegalMove too: a deal the view does not fully pin down
            misses += 1
            if misses > rounds:
                return None
            continue
        totals = [total + value for total, value in zip(totals, values, strict=True)]
        gains = [total + gain for total, gain in zip(gains, gained, strict=True)]
        done += 1
    return Sampled(totals, gains, done)
