"""The computer opponent: it reads only the view, deals unseen cards consistently with it,
is deterministic for a seed, and always plays a legal move."""

from __future__ import annotations

import random
from typing import Any

import pytest

import ai
import games
from ai.base import lookup
from ai.search import search
from bench.ai import play, wilson
from games.core import move_cards
from tests.conformance import _visible, all_games, swapped_decks

# A view's keys that describe how the position was reached rather than the position itself;
# a determinization starts from the position, so these may differ.
HISTORY_KEYS = {"last_move", "previous_hand", "last_deal", "last_round"}
SMALL = 24  # playouts: enough to exercise the search, cheap enough for the suite


def positions(game: str, seed: int, every: int = 7) -> list[tuple[games.State, int]]:
    """(state, seat to move) at intervals along a random match."""
    rules = games.get(game)
    state = rules.new_match(seed=seed)
    rng = random.Random(seed)
    found = []
    for step in range(400):
        if state.to_move is None:
            break
        if step % every == 0 and len(state.legal_moves()) > 1:
            found.append((state, state.to_move))
        state = state.apply(rng.choice(state.legal_moves()))
    return found


def trimmed(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in HISTORY_KEYS}


@pytest.mark.parametrize("game", all_games())
def test_a_determinization_shows_the_seat_exactly_its_view(game: str) -> None:
    game_ai = lookup(game)
    rng = random.Random(game)
    checked = 0
    for seed in (1, 2):
        for state, seat in positions(game, seed):
            view = state.view(seat)
            for _ in range(2):
                dealt = game_ai.determinize(view, rng)
                assert trimmed(dealt.view(seat)) == trimmed(view)
                assert dealt.legal_moves() == state.legal_moves()
                checked += 1
    assert checked >= 10


@pytest.mark.parametrize("game", all_games())
def test_the_choice_depends_only_on_the_view(game: str) -> None:
    """Two matches differing only by a card of the opponent's hand swapped with one hidden
    from everyone: while the seat cannot tell them apart, it chooses the same move."""
    rules = games.get(game)
    rng = random.Random(f"only the view {game}")
    compared = 0
    for seed in range(6):
        seat = seed % 2
        options, deck_a, deck_b, x, y = swapped_decks(rules, seat, seed, rng)
        a = rules.new_match(seed=seed, options=options, deck=deck_a)
        b = rules.new_match(seed=seed, options=options, deck=deck_b)
        here = 0
        for step in range(60):
            if _visible(rules, seat, a, b) or here == 2:
                break
            if a.to_move == seat and step % 3 == 0 and len(a.legal_moves()) > 1:
                view_a, view_b = a.view(seat), b.view(seat)
                assert view_a == view_b
                move_a = search(lookup(game), view_a, SMALL, random.Random(step))
                move_b = search(lookup(game), view_b, SMALL, random.Random(step))
                assert move_a == move_b and move_a in a.legal_moves()
                compared += 1
                here += 1
            common = sorted(set(a.legal_moves()) & set(b.legal_moves()))
            if not common:
                break
            move = rng.choice(common)
            a, b = a.apply(move), b.apply(move)
            if {x, y} & set(move_cards(move)):
                break  # a swapped card is shown: from now on the seat may tell them apart
    assert compared >= 3


@pytest.mark.parametrize("game", all_games())
def test_same_view_and_seed_give_the_same_legal_move(game: str) -> None:
    for state, seat in positions(game, 3, every=11)[:4]:
        view = state.view(seat)
        for level in ("easy", "normal"):
            first = ai.choose(game, view, level, seed=5)
            assert first == ai.choose(game, view, level, seed=5)
            assert first in state.legal_moves()
        assert ai.greedy(view, 1) in state.legal_moves()
        assert ai.random_move(view, 1) in state.legal_moves()


def test_bad_requests_are_refused_with_reasons() -> None:
    state = games.get("ecarte").new_match(seed=1)
    seat = state.to_move
    assert seat is not None
    with pytest.raises(ValueError, match="unknown level"):
        ai.choose("ecarte", state.view(seat), "grandmaster")
    with pytest.raises(ValueError, match="not this seat's turn"):
        ai.choose("ecarte", state.view(1 - seat))
    with pytest.raises(ValueError, match="seat's own view"):
        ai.choose("ecarte", state.view(None))


def test_the_bench_plays_whole_matches_and_bounds_its_rates() -> None:
    outcome, times = play("ecarte", "easy", "random", 0)
    assert outcome in (0.0, 0.5, 1.0) and times
    low, high = wilson(190, 200)
    assert low < 0.95 < high and 0 <= low < high <= 1
    assert wilson(0, 0) == (0.0, 1.0)
