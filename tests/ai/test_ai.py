"""The computer opponent: it reads only the view, deals unseen cards consistently with it,
is deterministic for a seed, and always plays a legal move."""

from __future__ import annotations

import random
from typing import Any

import pytest

import ai
import ai.coach
import bench.ai
import games
from ai.base import lookup
from ai.search import search
from bench.ai import play, wilson
from games.moves import move_cards
from tests.games.conformance import _visible, all_games, swapped_decks

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
    outcome, times, whole = play("ecarte", "easy", "random", 0)
    assert outcome in (0.0, 0.5, 1.0) and times and whole >= sum(times)
    low, high = wilson(190, 200)
    assert low < 0.95 < high and 0 <= low < high <= 1
    assert wilson(0, 0) == (0.0, 1.0)


def test_the_benchs_hinted_player_plays_the_hint() -> None:
    state = games.get("ecarte").new_match(seed=4)
    view = state.view(state.to_move)
    move = bench.ai._player("ecarte", "hinted")(view, 9)
    assert move == ai.coach.analyse("ecarte", view, 9).best.move
    assert move in state.legal_moves()


@pytest.mark.parametrize("game", all_games())
def test_each_level_searches_less_than_the_one_above(game: str) -> None:
    # The ladder (`python -m bench ai --level normal --opponent easy`, then strong against
    # normal) measures that each level beats the one below; this keeps the budgets ordered.
    game_ai = lookup(game)
    assert 0 < ai.normal_budget(game_ai) < game_ai.strong


def _most_tricks(state: games.State, seat: int) -> int:
    """Brute force through the engine: the tricks ``seat`` takes from here with best play by
    both, both hands known (the king is never announced: it does not change the tricks)."""
    view = state.view(seat)
    won = int(view["tricks_won"][seat])
    values = []
    for move in state.legal_moves():
        if move == "king":
            continue
        after = state.apply(move)
        after_view = after.view(seat)
        if after_view["deal"] != view["deal"]:  # the last trick: the hand is over
            values.append(int(after_view["previous_hand"]["tricks_won"][seat]) - won)
            continue
        gained = int(after_view["tricks_won"][seat]) - won
        values.append(gained + _most_tricks(after, seat))
    return max(values) if state.to_move == seat else min(values)


def test_the_ecarte_solver_takes_as_many_tricks_as_brute_force() -> None:
    from ai.ecarte import BIT, SOLVERS, mask

    rng = random.Random("solver")
    checked = 0
    for seed in range(30):
        state = games.get("ecarte").new_match(seed=seed)
        # The first hand (no score can end the match in it): lead at once or after
        # exchanges, then a few random cards, for positions of every depth.
        while state.view(state.to_move)["phase"] != "play" or rng.random() < 0.5:
            moves = [m for m in state.legal_moves() if m.startswith(("play", "propose"))]
            before = state.view(0)["deal"]
            state = state.apply(rng.choice(moves or state.legal_moves()))
            if state.view(0)["deal"] != before or state.result is not None:
                break
        else:
            seat = rng.choice((0, 1))
            views = [state.view(0), state.view(1)]
            if len(views[seat]["hand"]) + len(views[1 - seat]["hand"]) > 8:
                continue  # the brute force over a whole hand would slow the suite
            trick = views[0]["trick"]
            solved = SOLVERS[str(views[0]["trump"])].tricks(
                mask(views[seat]["hand"]),
                mask(views[1 - seat]["hand"]),
                int(state.to_move == seat),
                BIT[trick[0]["card"]] if trick else 0,
            )
            assert solved == _most_tricks(state, seat), state.to_json()
            checked += 1
    assert checked >= 10


def test_le_5_as_projects_an_expedition_by_the_scoring_rules() -> None:
    from ai.cinq_as import projected

    run = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"]
    # Nothing left to come: the projection is the score itself (cinq-as D5, D6).
    assert projected(run, [], [], 1.0, 0.0) == 44
    assert projected(["JH"], [], [], 1.0, 0.0) == -40
    # An expedition not opened is worth opening only if it promises something.
    assert projected([], ["2H", "3H"], [], 1.0, 0.0) == 0
    assert projected([], ["QH", "9H", "10H", "8H"], [], 1.0, 0.0) == (27 - 20) * 2
    # Cards in hand count as far as there is time to play them; unseen ones by their chance.
    assert projected(["6D"], ["9D", "10D"], [], 0.5, 0.0) == 6 + 9.5 - 20
    assert projected(["6D"], [], ["9D", "10D", "4D"], 1.0, 0.5) == 6 + 9.5 - 20


def test_le_5_as_searches_few_play_moves_and_keeps_the_rules_choice() -> None:
    from ai.cinq_as import CANDIDATES, candidates, rules

    for state, seat in positions("cinq-as", 4, every=3)[:8]:
        view = state.view(seat)
        moves = list(view["legal_moves"])
        chosen = candidates(view, moves)
        assert set(chosen) <= set(moves) and len(chosen) == min(len(moves), CANDIDATES)
        if view["phase"] == "play":
            assert rules(view, random.Random(0)) in chosen or len(moves) <= CANDIDATES


def _bezique_deal(elder: list[str], younger: list[str], turn_up: str) -> games.State:
    """A Bézigue match whose first deal gives the non-dealer (seat 1, who leads) ``elder``
    and the dealer ``younger``, with ``turn_up`` turned up; the rest of the pack in order."""
    from collections import Counter

    from games.cards import DOUBLE_PACK

    rest = Counter(DOUBLE_PACK)
    rest.subtract([*elder, *younger, turn_up])
    deck = [*elder, *younger, turn_up, *sorted(rest.elements())]
    return games.get("bezique").new_match(seed=1, options={"first_seat": 0}, deck=deck)


def test_bezique_playouts_play_by_rules_of_thumb(monkeypatch: pytest.MonkeyPatch) -> None:
    import ai.bezique as bezique

    monkeypatch.setattr(bezique, "PLAYOUT_NOISE", 0.0)
    rng = random.Random(0)
    junk = ["7C", "8C", "9D"]
    state = _bezique_deal(
        ["AS", "KS", "QS", "JD", "10H", "AH", *junk[:2]],
        ["7H", "KD", "QD", "JC", "9C", "8D", "10C", "9D"],
        "8H",
    )
    assert state.to_move == 1
    # Leading in stage 1: the card least worth keeping, never a brisque or a meld piece.
    assert bezique.playout(state, state.legal_moves(), rng) == "play 7C"
    # A brisque led is taken, here with the small trump, rather than given a card.
    state = state.apply("play AS")
    assert bezique.playout(state, state.legal_moves(), rng) == "play 7H"
    # After a trick, the richest meld first (not merely the one with the most cards).
    melds = ["meld AS AH AD AC", "meld QS QS JD JD", "meld QH KH", "draw"]
    assert bezique.playout(state, melds, rng) == "meld QS QS JD JD"
