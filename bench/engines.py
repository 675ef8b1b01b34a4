"""Random-playout speed of every registered game: the budget of a computer opponent."""

from __future__ import annotations

import random
import time

import games


def playouts(name: str, seconds: float) -> tuple[float, float, float]:
    """(moves/s, matches/s, moves per match), counting legal_moves() + apply() per move."""
    game = games.get(name)
    rng = random.Random(0)
    moves = matches = 0
    elapsed = 0.0
    seed = 0
    while elapsed < seconds:
        start = time.perf_counter()
        state = game.new_match(seed=seed)
        while state.to_move is not None:
            state = state.apply(rng.choice(state.legal_moves()))
            moves += 1
        elapsed += time.perf_counter() - start
        matches += 1
        seed += 1
    return moves / elapsed, matches / elapsed, moves / matches


def run(seconds: float) -> None:
    print(f"{'game':<10} {'moves/s':>10} {'matches/s':>10} {'moves/match':>12}")
    for name in games.names():
        per_move, per_match, length = playouts(name, seconds)
        print(f"{name:<10} {per_move:>10,.0f} {per_match:>10,.1f} {length:>12,.0f}")
