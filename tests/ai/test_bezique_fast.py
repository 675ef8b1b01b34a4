"""Bézigue's playouts run on the position's ints instead of the engine's moves: the fast loop
must reach exactly the value the generic playout reaches with the same policy and estimate,
random draws included, or the computer's decisions would change."""

from __future__ import annotations

import dataclasses
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import games
from ai.base import view_of
from ai.bezique import GAME_AI, determinize, play_out, rules
from ai.search import playout as generic_playout
from games import State
from tests.ai.agreement import assert_searches_agree

REFERENCE = dataclasses.replace(GAME_AI, evaluate=None)
"""The search as it was: the engine's moves, the policy asked at every step."""


def _left(view: dict[str, object], depth: int) -> int:
    return min(GAME_AI.horizon(view), depth)


def assert_same_playouts(dealt: State, view: dict[str, object], depth: int, luck: int) -> None:
    """From each of the first moves of a determinization, both seats' values either way."""
    for move in dealt.legal_moves()[:4]:
        after = dealt.apply(move)
        left = _left(view, depth) - (1 if GAME_AI.counts(move) else 0)
        for side in (0, 1):
            fast = play_out(after, side, left, random.Random(luck))
            slow = generic_playout(REFERENCE, after, side, left, random.Random(luck))
            assert fast == slow and repr(fast) == repr(slow), (move, dealt.to_json())


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    greed=st.floats(0.0, 1.0),
    luck=st.integers(0, 2**32),
    target=st.sampled_from([300, 1000]),
)
def test_bezique_fast_playout_equals_the_generic_one(
    seed: int, greed: float, luck: int, target: int
) -> None:
    """Along a match played partly by the rules, partly at random, a determinization of every
    position, played out from each of its moves to various depths (the deal's end and the
    target within reach with a low target), has the same value either way, to the last bit."""
    state = games.get("bezique").new_match(seed=seed, options={"target": target})
    rng = random.Random(seed)
    ply = 0
    while state.to_move is not None and ply < 400:
        seat = state.to_move
        view = view_of(state, seat)
        try:
            dealt = determinize(view, rng)
        except ValueError:
            # Some views fit no deal the determinizer makes (the meld levels on the table
            # guessed wrong): the search then plays by the rules; nothing to play out here.
            pass
        else:
            assert_same_playouts(dealt, view, (24, 8, 64)[ply % 3], luck + ply)
        moves = state.legal_moves()
        move = rules(view, rng) if rng.random() < greed else rng.choice(moves)
        state = state.apply(move)
        ply += 1


def test_bezique_search_decides_as_through_the_engine() -> None:
    """The whole search, fast loop against the engine's: the same moves."""
    assert_searches_agree(
        "bezique", GAME_AI, REFERENCE, rules, seed=7, plies=160, every=7, playouts=40, at_least=10
    )
