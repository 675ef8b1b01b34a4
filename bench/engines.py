"""Random-playout speed of every registered game: the budget of a computer opponent; then
what one move costs the match service, call by call."""

from __future__ import annotations

import random
import time

import games
from games.header import MatchState

CALLS = ("apply", "legal_moves", "view(None)", "view(0)", "view(1)", "to_data", "from_json")
"""What the match service calls with every move (a stored state is read back as often)."""


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


def per_call(name: str, seconds: float) -> dict[str, float]:
    """Microseconds per call of each of ``CALLS``, timed one by one along random matches in
    the order a move makes them: the legal moves of a state just made (computed there, as
    the first view of the seat to move would), the three views, the stored state, that
    state read back, and the move to the next state."""
    game = games.get(name)
    rng = random.Random(0)
    spent = dict.fromkeys(CALLS, 0.0)
    calls = 0
    clock = time.perf_counter
    seed = 0
    while calls == 0 or sum(spent.values()) < seconds:
        state = game.new_match(seed=seed)
        seed += 1
        while state.to_move is not None:
            assert isinstance(state, MatchState)  # every game's state: to_data is timed
            t0 = clock()
            legal = state.legal_moves()
            t1 = clock()
            state.view(None)
            t2 = clock()
            state.view(0)
            t3 = clock()
            state.view(1)
            t4 = clock()
            state.to_data(tuples=True)
            t5 = clock()
            text = state.to_json()
            t6 = clock()
            game.from_json(text)
            t7 = clock()
            move = rng.choice(legal)
            t8 = clock()
            state = state.apply(move)
            t9 = clock()
            for call, took in zip(
                CALLS, (t9 - t8, t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4, t7 - t6), strict=True
            ):
                spent[call] += took
            calls += 1
    return {call: 1e6 * spent[call] / calls for call in CALLS}


def run(seconds: float) -> None:
    print(f"{'game':<10} {'moves/s':>10} {'matches/s':>10} {'moves/match':>12}")
    for name in games.names():
        per_move, per_match, length = playouts(name, seconds)
        print(f"{name:<10} {per_move:>10,.0f} {per_match:>10,.1f} {length:>12,.0f}")
    print("\nµs per call along random matches, as the match service makes them with each move")
    print(f"{'game':<10}" + "".join(f" {call:>11}" for call in CALLS))
    for name in games.names():
        figures = per_call(name, seconds)
        print(f"{name:<10}" + "".join(f" {figures[call]:>11.1f}" for call in CALLS))
