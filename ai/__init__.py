"""The computer opponent: pure functions from a seat's view to a move (no I/O).

>>> import ai, games
>>> game = games.example()
>>> state = game.new_match(seed=1)
>>> move = ai.choose(game.name, state.view(state.to_move), "easy", seed=7)
>>> move in state.legal_moves()
True

It reads only ``view(seat)`` — what that seat may know — and never the true state: the
search deals the unseen cards at random, consistently with the view (determinized search).
A seed fixes every choice, so the same view, level and seed always give the same move.
"""

from __future__ import annotations

import random

import games
from ai.base import GameAI, Json, lookup
from ai.search import search

__all__ = ["LEVELS", "choose", "greedy", "normal_budget", "random_move"]

LEVELS = ("easy", "normal", "strong")
"""easy: the greedy rules with a third of moves at random; normal: a short search;
strong: the full search budget."""

# Each game's computer player is found beside its rules (ai.base.lookup); loading them all
# now makes a broken one fail at import, not at a player's first move.
for _game in games.registered():
    lookup(_game.name)

EASY_NOISE = 0.3
NORMAL_SHARE = 6  # the normal level spends a sixth of the strong level's playouts


def _check(view: Json) -> tuple[GameAI, list[str]]:
    if not isinstance(view, dict) or view.get("seat") not in (0, 1):
        raise ValueError("the computer decides from a seat's own view")
    moves = view.get("legal_moves")
    if not moves or view.get("to_move") != view["seat"]:
        raise ValueError("it is not this seat's turn: there is no move to choose")
    return lookup(games.get(str(view["game"])).name), list(moves)


def choose(game: str, view: Json, level: str = "normal", seed: int = 0) -> str:
    """A legal move for the seat whose ``view`` this is, at ``level`` (one of LEVELS)."""
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: levels are {', '.join(LEVELS)}")
    game_ai, moves = _check({**view, "game": game})
    if len(moves) == 1:
        return moves[0]
    rng = random.Random(f"tapis-ai/{seed}")
    if level == "easy":
        move = rng.choice(moves) if rng.random() < EASY_NOISE else game_ai.greedy(view, rng)
    else:
        budget = game_ai.strong if level == "strong" else normal_budget(game_ai)
        move = search(game_ai, view, budget, rng)
    if move not in moves:  # a bug in a game's rules must not become an illegal move
        raise AssertionError(f"the computer chose {move!r}, not a legal move")
    return move


def normal_budget(game_ai: GameAI) -> int:
    """The normal level's playouts per decision in ``game_ai``'s game."""
    return game_ai.normal or game_ai.strong // NORMAL_SHARE


def greedy(view: Json, seed: int = 0) -> str:
    """The greedy rule-based player (a benchmark opponent)."""
    game_ai, moves = _check(view)
    move = game_ai.greedy(view, random.Random(f"tapis-greedy/{seed}"))
    if move not in moves:
        raise AssertionError(f"the greedy player chose {move!r}, not a legal move")
    return move


def random_move(view: Json, seed: int = 0) -> str:
    """A legal move drawn at random (the old sandbox opponent; a benchmark opponent)."""
    _game_ai, moves = _check(view)
    return random.Random(f"tapis-random/{seed}").choice(moves)
