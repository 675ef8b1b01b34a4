"""Shared by the tests that hold a game's fast search to its reference path."""

from __future__ import annotations

import random
from collections.abc import Callable

import games
from ai.base import GameAI, Json, view_of
from ai.search import search


def assert_searches_agree(
    game: str,
    fast: GameAI,
    reference: GameAI,
    rules: Callable[[Json, random.Random], str],
    *,
    seed: int,
    plies: int,
    every: int,
    playouts: int,
    at_least: int,
) -> None:
    """Along one match (the rules of thumb two moves in three, random moves otherwise),
    the whole search of every ``every``-th position with a choice gives the same move by
    both paths from the same seed."""
    state = games.get(game).new_match(seed=seed)
    rng = random.Random(seed)
    compared = 0
    for ply in range(plies):
        seat = state.to_move
        assert seat is not None
        view = view_of(state, seat)
        if ply % every == 0 and len(view["legal_moves"]) > 1:
            moved = search(fast, view, playouts, random.Random(ply))
            assert moved == search(reference, view, playouts, random.Random(ply))
            compared += 1
        state = state.apply(rules(view, rng) if ply % 3 else rng.choice(state.legal_moves()))
    assert compared >= at_least
