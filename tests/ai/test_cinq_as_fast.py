"""Le 5 As' playouts read the determinized state's fields instead of building views: the fast
policy and estimate must compute exactly what the view-based rules compute, random draws
included, or the computer's decisions would change."""

from __future__ import annotations

import dataclasses
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import games
from ai.base import State, view_of
from ai.cinq_as import (
    GAME_AI,
    determinize,
    estimate,
    play_out,
    playout,
    rules,
    view_estimate,
)
from ai.search import playout as generic_playout
from tests.ai.agreement import assert_searches_agree


def view_playout(state: State, moves: list[str], rng: random.Random) -> str:
    """The playout policy as it was: the greedy rules on the mover's view."""
    if moves[0] == "draw":
        return "draw" if rng.random() < 0.85 else rng.choice(moves)
    if rng.random() < 0.1:
        return rng.choice(moves)
    return rules(view_of(state, state.to_move), rng)


VIEW_BASED = dataclasses.replace(GAME_AI, playout=view_playout, estimate=view_estimate)


def assert_same_reading(state: State, luck: int) -> None:
    for side in (0, 1):
        fast, slow = estimate(state, side), view_estimate(state, side)
        assert fast == slow and repr(fast) == repr(slow), state.to_json()
    moves = state.legal_moves()
    if state.to_move is None or len(moves) < 2:
        return
    fast_rng, slow_rng = random.Random(luck), random.Random(luck)
    assert playout(state, moves, fast_rng) == view_playout(state, moves, slow_rng)
    # The same draws, in the same number: the rest of the playout goes the same way.
    assert fast_rng.getstate() == slow_rng.getstate(), state.to_json()


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 2**31 - 1),
    greed=st.floats(0.0, 1.0),
    luck=st.integers(0, 2**32),
    rounds=st.integers(1, 2),
)
def test_le_5_as_fast_playout_and_estimate_equal_the_view_based_ones(
    seed: int, greed: float, luck: int, rounds: int
) -> None:
    """Along a match played partly by the rules, partly at random, every position and a
    determinization of it (what a playout reads) give the same estimate to the last bit and
    the same playout move from the same random numbers."""
    state = games.get("cinq-as").new_match(seed=seed, options={"rounds": rounds})
    rng = random.Random(seed)
    ply = 0
    while state.to_move is not None:
        seat = state.to_move
        view = view_of(state, seat)
        assert_same_reading(state, luck + ply)
        dealt = determinize(view, rng)
        assert_same_reading(dealt, luck + ply)
        if ply % 5 == 0:  # a whole playout, as the search runs it, against the generic one
            left = min(int(view["stock"]), 10)
            for side in (0, 1):
                fast = play_out(dealt, side, left, random.Random(luck - ply))
                slow = generic_playout(VIEW_BASED, dealt, side, left, random.Random(luck - ply))
                assert fast == slow and repr(fast) == repr(slow), dealt.to_json()
        moves = state.legal_moves()
        move = rules(view, rng) if rng.random() < greed else rng.choice(moves)
        state = state.apply(move)
        ply += 1
    assert_same_reading(state, luck)  # the match over: an estimate is not asked, but agrees


def test_le_5_as_search_decides_as_with_views() -> None:
    """The whole search, fast path against the view-based one: the same moves."""
    assert_searches_agree(
        "cinq-as", GAME_AI, VIEW_BASED, rules, seed=11, plies=120, every=9, playouts=36, at_least=8
    )
