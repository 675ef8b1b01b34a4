"""Le 5 As, decision by decision (docs/rules/cinq-as.md)."""

from __future__ import annotations

import json

import pytest

import games
from games import IllegalMove
from games.cards import TAROT_SET
from games.cinq_as import CinqAsState, expedition_score

GAME = games.get("cinq-as")


def deck_with(first: list[str], second: list[str], stock_top: list[str] = ()) -> list[str]:  # type: ignore[assignment]
    """A deck dealing ``first`` to the first player and ``second`` to the other, the stock
    starting with ``stock_top``; the remaining cards follow in pack order."""
    chosen = [*first, *second, *stock_top]
    rest = [card for card in TAROT_SET if card not in chosen]
    return [*first, *second, *stock_top, *rest]


P0 = ["2S", "3S", "4S", "JH", "5H", "6D", "7C", "19T"]
P1 = ["8S", "9S", "10S", "QH", "KH", "2D", "3C", "20T"]


def new(**options: int) -> CinqAsState:
    state = GAME.new_match(seed=7, options={"first_player": 0, **options}, deck=deck_with(P0, P1))
    assert isinstance(state, CinqAsState)
    return state


# -- scoring (D5, D6 and the rules' examples) ----------------------------------------------
@pytest.mark.parametrize(
    ("cards", "score"),
    [
        ([], 0),  # an unopened expedition scores nothing
        (["JH"], -40),  # the rules' example: a lone bonus card, (0 − 20) × 2
        (["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"], 44),  # the rules' example: 44 − 20 + 20
        (["10H"], -10),
        (["JH", "QH", "KH"], -80),  # D5: bonus cards alone open the expedition
        (["JH", "QH", "KH", "2H"], -72),
        (["19T", "5T", "6T", "7T", "8T", "9T", "10T"], 50),  # (45 − 20) × 2
        # D6: the 20 is added after the multiplier, bonus cards counting toward the eight
        (["JD", "QD", "4D", "5D", "6D", "7D", "8D", "9D"], (39 - 20) * 3 + 20),
        (["JC", "QC", "KC", "2C", "3C", "4C", "5C", "6C"], (20 - 20) * 4 + 20),
        (["2T", "3T", "4T", "5T", "6T", "7T", "8T"], 35 - 20),  # seven cards: no bonus
    ],
)
def test_expedition_scores(cards: list[str], score: int) -> None:
    assert expedition_score(cards) == score


# -- a turn ---------------------------------------------------------------------------------
def test_a_turn_is_a_play_then_a_draw_by_the_same_player() -> None:
    state = new()
    assert state.to_move == 0
    state = state.apply("play 3S")
    assert state.to_move == 0
    assert state.legal_moves() == ["draw"]  # no pile holds a card yet
    state = state.apply("draw")
    assert state.to_move == 1
    assert state.view(1)["stock"] == 60 - 16 - 1


def test_number_cards_must_rise_but_need_not_be_consecutive() -> None:
    state = new().apply("play 3S").apply("draw").apply("discard 3C").apply("draw")
    assert "play 2S" not in state.legal_moves()
    with pytest.raises(IllegalMove, match="already reaches 3♠"):
        state.apply("play 2S")
    state = state.apply("play 4S")
    assert state.view(0)["expeditions"][0]["S"] == ["3S", "4S"]


def test_bonus_cards_only_before_the_first_number_card() -> None:
    state = new().apply("play 5H").apply("draw").apply("discard 3C").apply("draw")
    with pytest.raises(IllegalMove, match="Bonus cards open an expedition"):
        state.apply("play JH")
    assert "discard JH" in state.legal_moves()


def test_bonus_cards_have_no_order_among_themselves() -> None:
    state = new()
    p1_turn = state.apply("play JH").apply("draw")
    assert "play QH" in p1_turn.legal_moves() and "play KH" in p1_turn.legal_moves()


def test_playing_a_card_you_do_not_hold_is_refused() -> None:
    with pytest.raises(IllegalMove, match="You do not hold 8♠"):
        new().apply("play 8S")


def test_drawing_before_playing_is_refused() -> None:
    with pytest.raises(IllegalMove, match="First play a card"):
        new().apply("draw")


def test_playing_twice_in_a_turn_is_refused() -> None:
    with pytest.raises(IllegalMove, match="now draw"):
        new().apply("play 2S").apply("play 3S")


def test_d3_the_card_just_discarded_cannot_be_drawn_back() -> None:
    state = new().apply("discard 7C")
    assert "draw C" not in state.legal_moves()
    with pytest.raises(IllegalMove, match="the card you just discarded"):
        state.apply("draw C")
    state = state.apply("draw")
    # the opponent may take it, and so may the discarder on a later turn
    assert "draw C" in state.apply("play 8S").legal_moves()


def test_d3_another_pile_may_be_drawn_after_a_discard() -> None:
    state = new().apply("discard 7C").apply("draw").apply("discard 3C").apply("draw")
    state = state.apply("discard 6D")
    moves = state.legal_moves()
    assert "draw C" in moves and "draw D" not in moves
    state = state.apply("draw C")
    assert "3C" in state.view(0)["hand"]
    assert state.view(0)["discards"]["C"] == ["7C"]


def test_drawing_from_an_empty_pile_is_refused() -> None:
    with pytest.raises(IllegalMove, match="♥ discard pile is empty"):
        new().apply("play 2S").apply("draw H")


def test_hands_stay_in_canonical_order() -> None:
    state = new().apply("play 2S").apply("draw")
    hand = state.view(0)["hand"]
    assert hand == games.sort_cards(hand)


# -- rounds and the match -------------------------------------------------------------------
def _drain_round(state: CinqAsState) -> CinqAsState:
    """Discard then draw from the stock until the round ends (D4)."""
    round_no = state.view(None)["round"]
    while state.to_move is not None and state.view(None)["round"] == round_no:
        seat = state.to_move
        card = state.view(seat)["hand"][-1]
        state = state.apply(f"discard {card}").apply("draw")
    return state


def test_d4_the_round_ends_when_the_last_stock_card_is_drawn() -> None:
    state = new()
    for _ in range(43):  # the stock holds 44 after the deal
        seat = state.to_move
        assert seat is not None
        state = state.apply(f"discard {state.view(seat)['hand'][-1]}").apply("draw")
        assert state.view(None)["round"] == 1
    assert state.view(None)["stock"] == 1
    seat = state.to_move
    assert seat is not None
    state = state.apply(f"discard {state.view(seat)['hand'][-1]}")
    state = state.apply("draw")
    view = state.view(None)
    assert view["round"] == 2 and view["stock"] == 44 and view["round_scores"] == [[0, 0]]


def test_drawing_from_piles_does_not_end_the_round() -> None:
    state = new().apply("discard 7C").apply("draw").apply("play 8S").apply("draw C")
    assert state.view(None)["stock"] == 43
    assert "7C" in state.view(1)["hand"]


def test_round_scores_add_up_and_in_progress_expeditions_are_not_counted() -> None:
    state = new().apply("play JH")
    assert state.scores == (0, 0)  # provisional −40 not counted
    assert state.view(None)["expedition_scores"][0]["H"] == -40
    state = _drain_round(state.apply("draw"))
    assert state.scores == (-40, 0)
    assert state.view(None)["round_scores"] == [[-40, 0]]


def test_d2_the_higher_scorer_of_a_round_starts_the_next() -> None:
    state = _drain_round(new().apply("play JH").apply("draw"))
    assert state.view(None)["first_player"] == 1 and state.to_move == 1


def test_d2_equal_round_scores_the_other_player_starts() -> None:
    state = _drain_round(new())
    assert state.view(None)["round_scores"] == [[0, 0]]
    assert state.view(None)["first_player"] == 1 and state.to_move == 1
    state = _drain_round(state)
    assert state.view(None)["first_player"] == 0


def test_the_first_player_of_round_one_is_drawn_by_lot() -> None:
    firsts = {GAME.new_match(seed=seed).to_move for seed in range(30)}
    assert firsts == {0, 1}


def test_first_player_option_deals_first_hand_to_that_player() -> None:
    state = GAME.new_match(seed=1, options={"first_player": 1}, deck=deck_with(P0, P1))
    assert state.to_move == 1
    assert state.view(1)["hand"] == games.sort_cards(P0)
    assert state.view(0)["hand"] == games.sort_cards(P1)


def test_d1_three_rounds_equal_totals_is_a_draw() -> None:
    state = new()
    for _ in range(3):
        state = _drain_round(state)
    assert state.to_move is None
    assert state.result == {"winner": None, "scores": [0, 0], "rounds": [[0, 0]] * 3}
    with pytest.raises(IllegalMove, match="over"):
        state.apply("draw")


def test_the_higher_total_wins_the_match() -> None:
    state = _drain_round(new(rounds=1).apply("play JH").apply("draw"))
    assert state.result == {"winner": 1, "scores": [-40, 0], "rounds": [[-40, 0]]}


def test_rounds_option_is_validated() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        GAME.new_match(seed=1, options={"rounds": 0})


def test_later_rounds_use_later_decks() -> None:
    second = list(reversed(TAROT_SET))
    state = GAME.new_match(seed=2, options={"first_player": 0}, deck=[deck_with(P0, P1), second])
    state = _drain_round(state)
    assert state.view(1)["hand"] == games.sort_cards(second[:8])  # seat 1 starts round 2


# -- views and notation ------------------------------------------------------------------------
def test_views_hide_the_opponent_hand_and_the_stock() -> None:
    state = new()
    text = json.dumps(state.view(1)) + json.dumps(state.view(None))
    for card in P0:
        assert f'"{card}"' not in json.dumps(state.view(1)["hand"])
    assert all(f'"{card}"' not in text for card in ["19T", "JH"])
    assert state.view(None)["hand"] == [] and state.view(None)["hand_sizes"] == [8, 8]


def test_moves_accept_symbols_case_and_spacing() -> None:
    state = new()
    assert state.apply("PLAY 3♠") == state.apply("play 3S")
    after = state.apply("discard 7c")
    assert after.apply("Draw") == after.apply("draw")


def test_bad_words_are_explained() -> None:
    with pytest.raises(IllegalMove, match="is not a move of this game"):
        new().apply("fold")
    with pytest.raises(IllegalMove, match="exactly one card"):
        new().apply("play 2S 3S")
    with pytest.raises(IllegalMove, match="not a card"):
        new().apply("play 1S")
    with pytest.raises(IllegalMove, match="not a suit"):
        new().apply("play 2S").apply("draw X")
    with pytest.raises(IllegalMove, match="not played in Le 5 As"):
        new().apply("play AS")
