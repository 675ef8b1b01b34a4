"""Bézigue, decision by decision (docs/rules/bezique.md)."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

import games
from games import IllegalMove
from games.bezique import MELDS, SUITS4, BeziqueState, _choose_copies
from games.cards import DOUBLE_PACK

GAME = games.get("bezique")

# Seat 1 deals (so seat 0 leads) and holds only low spades and diamonds; hearts are trumps.
JUNK = ["7S", "7S", "8S", "8S", "7D", "7D", "8D", "8D"]
FILLER = ["9S", "9S", "9D", "9D", "10S", "10S", "10D", "10D"]


def deck_with(
    first: Sequence[str], second: Sequence[str], turn_up: str, stock_top: Sequence[str] = ()
) -> list[str]:
    """A deck dealing ``first`` to the non-dealer, ``second`` to the dealer, turning up
    ``turn_up``, the stock starting with ``stock_top``; the other cards follow in pack order."""
    chosen = [*first, *second, turn_up, *stock_top]
    rest = list((Counter(DOUBLE_PACK) - Counter(chosen)).elements())
    return [*chosen, *rest]


def new(
    hand: Sequence[str],
    draws: Sequence[str] = (),
    turn_up: str = "9H",
    other: Sequence[str] = JUNK,
    **options: int,
) -> BeziqueState:
    """Seat 0 leads with ``hand``; ``draws`` are the stock cards seat 0 draws, in turn
    (seat 1 draws the filler: low spades and diamonds)."""
    top = [card for pair in zip(draws, FILLER, strict=False) for card in pair]
    state = GAME.new_match(
        seed=7,
        options={"first_dealer": 1, **options},
        deck=deck_with(hand, other, turn_up, top),
    )
    assert isinstance(state, BeziqueState)
    return state


def win(state: BeziqueState, lead: str) -> BeziqueState:
    """Seat 0 leads ``lead``; seat 1 throws a card that loses (another plain suit)."""
    state = state.apply(f"play {lead}")
    trump = state.view(None)["trump"]
    card = next(c for c in state.view(1)["hand"] if c[-1] not in (lead[-1], trump))
    state = state.apply(f"play {card}")
    assert state.view(None)["last_trick"]["winner"] == 0
    return state


def position(**changes: Any) -> BeziqueState:
    """A state set up directly (late in a deal): hands, tables, stock and the rest as given;
    every card not placed lies in the tricks already won, shared between the seats."""
    base = json.loads(GAME.new_match(seed=1, options={"first_dealer": 1}).to_json())
    hands = changes.pop("hands")
    tables = changes.pop("tables", [[], []])
    stock = changes.pop("stock", [])
    turn_up = changes.pop("turn_up", None)
    trick = changes.pop("trick", [])
    trump = changes.pop("trump", "H")
    placed = Counter([*hands[0], *hands[1], *stock, *trick])
    placed.update(code for table in tables for code, *_ in table)
    if turn_up:
        placed[turn_up] += 1
    rest = list((Counter(DOUBLE_PACK) - placed).elements())
    assert sum(placed.values()) + len(rest) == 64, "too many copies placed"
    half = len(rest) // 4 * 2  # tricks hold two cards
    won = changes.pop("won", None) or [rest[:half], rest[half:]]
    # The deck: whatever was dealt and drawn (a trump turned up at deck[16]), then the stock.
    dealt = sorted((Counter(DOUBLE_PACK) - Counter(stock)).elements(), key=lambda c: c[-1] != trump)
    deck = [*dealt[1:17], dealt[0], *dealt[17:], *stock]
    base.update(
        hands=hands,
        tables=tables,
        deck=deck,
        decks=[],
        pos=64 - len(stock) if turn_up else 65,
        turn_up=turn_up,
        trick=trick,
        won=won,
        leader=changes.pop("leader", 0),
        turn=changes.pop("turn", 0),
        phase=changes.pop("phase", 0),
        last_trick=changes.pop("last_trick", None),
        melds=[],
        deal_scores=[0, 0],
        totals=[0, 0],
    )
    base.update(changes)
    state = GAME.from_json(json.dumps(base))
    assert isinstance(state, BeziqueState)
    return state


def melds_of(state: BeziqueState) -> list[str]:
    return [move for move in state.legal_moves() if move.startswith("meld")]


# -- the sequences of reuse (bezique D7) ------------------------------------------------------
def test_d7_single_bezique_then_double_scores_40_then_500() -> None:
    state = win(new(["QS", "QS", "JD", "JD", "7C", "8C", "9C", "10C"]), "7C")
    assert "meld QS JD" in state.legal_moves() and "meld QS QS JD JD" in state.legal_moves()
    state = win(state.apply("meld QS JD"), "8C")
    assert state.scores == (40, 0)
    assert "meld QS QS JD JD" in state.legal_moves()
    state = state.apply("meld QS QS JD JD")
    assert state.scores == (540, 0)
    assert [(m["name"], m["points"]) for m in state.view(None)["melds"]] == [
        ("bezique", 40),
        ("double bezique", 500),
    ]
    assert state.view(None)["table"][0] == ["QS", "QS", "JD", "JD"]


def test_d7_double_bezique_first_leaves_no_single_bezique() -> None:
    # The seven of trumps keeps the winner's turn open after each trick, to try melds.
    state = win(new(["QS", "QS", "JD", "JD", "7H", "7C", "8C", "9C"]), "7C")
    state = win(state.apply("meld QS QS JD JD").apply("draw"), "8C")
    assert state.scores == (500, 0)
    assert state.legal_moves() == ["exchange", "declare 7", "draw"]
    with pytest.raises(IllegalMove, match=r"used again only in a higher meld of the same class"):
        state.apply("meld QS JD")


def test_d7_two_singles_melded_apart_never_make_a_double() -> None:
    state = win(new(["QS", "QS", "JD", "JD", "7H", "7C", "8C", "9C"]), "7C")
    state = win(state.apply("meld QS JD").apply("draw"), "8C")
    state = win(state.apply("meld QS JD").apply("draw"), "9C")  # the second pair, a second single
    assert state.scores == (80, 0)
    assert state.legal_moves() == ["exchange", "declare 7", "draw"]
    with pytest.raises(IllegalMove, match=r"must add a card from the hand"):
        state.apply("meld QS QS JD JD")


def test_d7_trump_marriage_40_then_the_sequence_250() -> None:
    state = win(new(["AH", "10H", "KH", "QH", "JH", "7C", "8C", "9C"]), "7C")
    state = state.apply("meld QH KH")
    assert state.scores == (40, 0) and state.view(None)["melds"][0]["name"] == "trump marriage"
    state = win(state, "8C")
    state = state.apply("meld 10H JH QH KH AH")
    assert state.scores == (290, 0)
    assert state.view(None)["melds"][1]["name"] == "trump sequence"
    assert state.view(None)["table"][0] == ["10H", "JH", "QH", "KH", "AH"]


def test_d7_sequence_first_yields_no_marriage_later() -> None:
    state = win(new(["AH", "10H", "KH", "QH", "JH", "7H", "7C", "8C"]), "7C")
    state = win(state.apply("meld 10H JH QH KH AH").apply("draw"), "8C")
    assert state.scores == (250, 0)
    assert "meld QH KH" not in state.legal_moves()
    with pytest.raises(IllegalMove, match=r"served in that meld|must add a card"):
        state.apply("meld QH KH")


def test_d7_a_married_king_never_marries_again() -> None:
    clubs = ["9C", "9C", "10C", "10C", "JC", "JC", "AC", "AC"]
    state = win(new(["KC", "QC", "QC", "7H", "7S", "8S", "9S", "7D"], other=clubs), "7S")
    state = win(state.apply("meld QC KC").apply("draw"), "8S")
    assert "meld QC KC" not in state.legal_moves()
    with pytest.raises(IllegalMove, match=r"served in that meld|must add a card"):
        state.apply("meld QC KC")


def test_d7_four_kings_one_played_a_new_king_no_second_80() -> None:
    hand = ["KS", "KH", "KD", "KC", "QS", "7C", "8C", "9C"]
    state = win(new(hand, draws=["7C", "KS"]), "7C")
    state = state.apply("meld KS KH KD KC")
    assert state.scores == (80, 0)
    state = win(state, "KS")  # a king from the table (bezique D10); the stock gives a new KS
    state = win(state, "8C")
    assert state.view(0)["hand"].count("KS") == 1 and len(state.view(None)["table"][0]) == 3
    assert state.legal_moves() == ["meld QS KS", "draw"]  # the new king may marry
    with pytest.raises(IllegalMove, match=r"served in that meld|must add a card"):
        state.apply("meld KS KH KD KC")


def test_d7_king_from_four_kings_and_queen_from_a_bezique_make_a_marriage() -> None:
    state = win(new(["KS", "KH", "KD", "KC", "QS", "JD", "7C", "8C"], draws=["9C"]), "7C")
    state = win(state.apply("meld KS KH KD KC"), "8C")
    state = state.apply("meld QS JD")
    assert "QS" not in state.view(0)["hand"] and "KS" not in state.view(0)["hand"]
    state = win(state, "9C")
    assert "meld QS KS" in state.legal_moves()
    state = state.apply("meld QS KS")
    assert state.scores == (80 + 40 + 20, 0)
    assert state.view(None)["melds"][-1] == {
        "seat": 0,
        "name": "plain marriage",
        "cards": ["QS", "KS"],
        "points": 20,
    }


def test_d7_a_card_serves_in_melds_of_different_classes() -> None:
    """Queen of spades in a bezique, then in four queens: classes B and C."""
    state = win(new(["QS", "JD", "QH", "QD", "QC", "7C", "8C", "9C"]), "7C")
    state = win(state.apply("meld QS JD"), "8C")
    assert "meld QS QH QD QC" in state.legal_moves()
    assert state.apply("meld QS QH QD QC").scores == (100, 0)


def test_x3_fours_list_every_choice_of_cards() -> None:
    """bezique X3: with the double pack, each choice of four cards is its own move."""
    state = win(new(["AS", "AS", "AH", "AD", "AC", "7C", "8C", "9C"]), "7C")
    assert sorted(melds_of(state)) == [
        "meld AS AH AD AC",
        "meld AS AS AD AC",
        "meld AS AS AH AC",
        "meld AS AS AH AD",
    ]


# -- copies (bezique D10) ---------------------------------------------------------------------
def test_d10_a_play_takes_the_table_copy_first() -> None:
    state = win(new(["KS", "KH", "KD", "KC", "KS", "7C", "8C", "9C"]), "7C")
    state = state.apply("meld KS KH KD KC")
    assert state.view(0)["hand"].count("KS") == 1
    state = win(state, "KS")
    assert state.view(None)["table"][0] == ["KH", "KD", "KC"]
    assert state.view(0)["hand"].count("KS") == 1


def test_d10_a_meld_uses_the_fewest_cards_from_the_hand() -> None:
    """Four kings on the table and another KS in hand: the marriage takes the table king."""
    state = win(new(["KS", "KH", "KD", "KC", "KS", "QS", "7C", "8C"]), "7C")
    state = win(state.apply("meld KS KH KD KC"), "8C")
    state = state.apply("meld QS KS")
    assert state.view(0)["hand"].count("KS") == 1
    assert state.view(None)["table"][0] == ["QS", "KS", "KH", "KD", "KC"]


def test_d10_the_most_served_table_copy_is_played() -> None:
    """Two KS on the table, one married too: the married one goes to the trick."""
    hand = ["KS", "KS", "KD", "KC", "QS", "7C", "8C", "9C"]
    state = win(new(hand), "7C")
    state = win(state.apply("meld KS KS KD KC"), "8C")
    state = win(state.apply("meld QS KS"), "KS")
    # The remaining KS on the table is the one never married: it can still marry.
    assert sorted(json.loads(state.to_json())["tables"][0]) == [
        ["KC", 0, 0, 1],
        ["KD", 0, 0, 1],
        ["KS", 0, 0, 1],
        ["QS", 1, 0, 0],
    ]


# -- the trick winner's turn (bezique D5, D11) --------------------------------------------------
def test_d11_the_draw_happens_by_itself_when_nothing_can_be_scored() -> None:
    state = win(new(["7C", "8C", "9C", "10C", "JC", "QC", "AC", "8H"]), "7C")
    view = state.view(None)
    assert view["phase"] == "lead" and view["stock"] == 46 and state.to_move == 0
    assert "draw" not in state.legal_moves()


def test_d11_draw_is_offered_beside_a_meld_and_ends_the_turn() -> None:
    state = win(new(["QS", "JD", "7C", "8C", "9C", "10C", "JC", "AC"]), "7C")
    assert state.legal_moves() == ["meld QS JD", "draw"]
    assert state.view(None)["phase"] == "score"
    drawn = state.apply("draw")
    assert drawn.view(None)["stock"] == 46 and drawn.view(None)["phase"] == "lead"
    assert drawn.scores == (0, 0)


def test_d11_after_the_one_meld_the_draw_follows_by_itself() -> None:
    state = win(new(["QS", "JD", "QH", "KH", "7C", "8C", "9C", "10C"]), "7C")
    state = state.apply("meld QS JD")
    assert state.view(None)["phase"] == "lead" and state.view(None)["stock"] == 46


def test_a_trick_winner_must_score_or_draw_before_leading() -> None:
    state = win(new(["QS", "JD", "7C", "8C", "9C", "10C", "JC", "AC"]), "7C")
    with pytest.raises(IllegalMove, match=r"You won the trick"):
        state.apply("play 8C")


def test_one_meld_per_trick_won() -> None:
    state = win(new(["QS", "JD", "7H", "KC", "QC", "8C", "9C", "10C"]), "8C")
    state = state.apply("meld QC KC")
    assert state.legal_moves() == ["exchange", "declare 7", "draw"]
    with pytest.raises(IllegalMove, match="one meld may be made for each trick"):
        state.apply("meld QS JD")


def test_d5_exchange_the_seven_for_the_turn_up() -> None:
    state = win(new(["7H", "7C", "8C", "9C", "10C", "JC", "QC", "AC"], turn_up="KH"), "7C")
    assert state.legal_moves() == ["exchange", "declare 7", "draw"]
    state = state.apply("exchange")
    view = state.view(0)
    assert state.scores == (10, 0) and view["turn_up"] == "7H" and "KH" in view["hand"]
    assert view["melds"][-1]["name"] == "seven of trumps (exchange)"
    assert view["phase"] == "lead"  # nothing left: the draw followed


def test_d5_one_seven_action_per_trick_but_a_meld_beside_it() -> None:
    state = win(new(["7H", "7H", "QS", "JD", "8C", "9C", "10C", "JC"]), "8C")
    state = state.apply("declare 7")
    assert state.legal_moves() == ["meld QS JD", "draw"]
    with pytest.raises(IllegalMove, match="only once for each trick won"):
        state.apply("exchange")


def test_x5_the_exchange_can_bring_a_meld() -> None:
    """bezique X5: the turn-up taken by the exchange may serve in the same turn's meld."""
    state = win(new(["7H", "QH", "7C", "8C", "9C", "10C", "JC", "AC"], turn_up="KH"), "7C")
    state = state.apply("exchange")
    assert state.legal_moves() == ["meld QH KH", "draw"]
    assert state.apply("meld QH KH").scores == (50, 0)


def test_d5_each_physical_seven_scores_once() -> None:
    state = win(new(["7H", "QS", "JD", "7C", "8C", "9C", "10C", "AC"]), "7C")
    state = win(state.apply("declare 7").apply("draw"), "8C")
    assert state.legal_moves() == ["meld QS JD", "draw"]
    assert "declare 7" not in state.legal_moves() and "exchange" not in state.legal_moves()
    with pytest.raises(IllegalMove, match="has not scored yet"):
        state.apply("declare 7")


def test_d5_the_scored_seven_is_played_first() -> None:
    state = win(new(["7H", "7H", "7C", "8C", "9C", "10C", "JC", "QC"]), "7C")
    state = win(state.apply("declare 7"), "7H")
    # The scored seven went to the trick: the one left has not scored, and may.
    assert state.view(0)["hand"].count("7H") == 1
    assert state.legal_moves() == ["exchange", "declare 7", "draw"]


def test_d5_no_exchange_when_the_turn_up_is_a_seven() -> None:
    state = win(new(["7H", "8C", "9C", "10C", "JC", "QC", "AC", "9H"], turn_up="7H"), "8C")
    assert state.legal_moves() == ["declare 7", "draw"]
    with pytest.raises(IllegalMove, match="already a seven"):
        state.apply("exchange")


def test_d5_the_exchange_after_the_last_trick_of_stage_one_gives_the_loser_the_seven() -> None:
    state = position(
        hands=[
            ["7H", "AC", "KC", "JC", "10C", "9C", "8C", "7C"],
            ["7S", "8S", "9S", "7D", "8D", "9D", "10S", "10D"],
        ],
        stock=["AS"],
        turn_up="9H",
    )
    state = state.apply("play AC").apply("play 7S")
    assert state.legal_moves() == ["exchange", "declare 7", "draw"]
    state = state.apply("exchange")
    view = state.view(1)
    assert view["stage"] == 2 and view["turn_up"] is None and "7H" in view["hand"]
    assert "9H" in state.view(0)["hand"] and "AS" in state.view(0)["hand"]


# -- the deal (bezique D1, D3, D6) --------------------------------------------------------------
def test_d1_the_first_dealer_is_drawn_by_lot_then_the_deal_alternates() -> None:
    dealers = {GAME.new_match(seed=seed).view(None)["dealer"] for seed in range(30)}
    assert dealers == {0, 1}
    rng = random.Random(1)
    state = GAME.new_match(seed=3, options={"first_dealer": 0})
    seen = [0]
    while state.to_move is not None:
        state = state.apply(rng.choice(state.legal_moves()))
        view = state.view(None)
        if view["deal"] > len(seen):
            seen.append(view["dealer"])
    assert len(seen) >= 3 and seen == [i % 2 for i in range(len(seen))]


def test_the_deal_follows_engine_md() -> None:
    deck = deck_with(["AS"] * 2 + ["KS"] * 2 + ["QS"] * 2 + ["JS"] * 2, JUNK, "9H", ["AH"])
    state = GAME.new_match(seed=1, options={"first_dealer": 1}, deck=deck)
    view = state.view(0)
    assert view["hand"] == ["JS", "JS", "QS", "QS", "KS", "KS", "AS", "AS"]
    assert state.view(1)["hand"] == sorted(JUNK, key=games.sort_key)
    assert view["trump"] == "H" and view["turn_up"] == "9H" and view["stock"] == 48
    assert state.to_move == 0 and view["dealer"] == 1 and view["stage"] == 1


def test_d3_a_seven_turned_up_scores_10_for_the_dealer() -> None:
    """bezique D3; X4: it is listed among the deal's scores."""
    state = new(["8C", "9C", "10C", "JC", "QC", "KC", "AC", "AC"], turn_up="7C")
    assert state.scores == (0, 10)
    assert state.view(None)["melds"] == [
        {"seat": 1, "name": "seven turned up", "cards": ["7C"], "points": 10}
    ]


def test_d6_the_last_card_to_the_winner_the_turn_up_to_the_loser() -> None:
    state = position(
        hands=[
            ["AC", "KC", "JC", "JC", "10C", "9C", "8C", "7C"],
            ["7S", "8S", "9S", "7D", "8D", "9D", "10S", "10D"],
        ],
        tables=[[], []],
        stock=["AS"],
        turn_up="9H",
    )
    state = state.apply("play AC").apply("play 7S")
    view = state.view(0)
    assert view["stage"] == 2 and view["stock"] == 0 and "AS" in view["hand"]
    assert "9H" in state.view(1)["hand"]


def test_stage_two_brings_the_table_back_to_the_hand() -> None:
    state = position(
        hands=[
            ["AC", "10C", "9C", "8C", "7C", "7C"],
            ["7S", "8S", "9S", "7D", "8D", "9D", "10S", "10D"],
        ],
        tables=[[["QS", 0, 1, 0], ["JD", 0, 1, 0]], []],
        stock=["AS"],
        turn_up="9H",
    )
    state = state.apply("play AC").apply("play 7S")
    state = state.apply("draw") if state.view(None)["phase"] == "score" else state
    view = state.view(0)
    assert view["table"] == [[], []] and view["hand_sizes"] == [8, 8]
    assert "QS" in view["hand"] and "JD" in view["hand"]
    assert not [m for m in state.legal_moves() if not m.startswith("play")]


# -- tricks (bezique D4, D8) ------------------------------------------------------------------
def test_d4_of_two_identical_cards_the_leader_wins() -> None:
    state = new(["AS", "8C", "9C", "10C", "JC", "QC", "KC", "AC"], other=["AS", *JUNK[1:]])
    state = state.apply("play AS").apply("play AS")
    assert state.view(None)["last_trick"]["winner"] == 0


def test_stage_one_needs_no_following_and_trumps_win() -> None:
    state = new(["AS", "8C", "9C", "10C", "JC", "QC", "KC", "AC"], other=["7H", *JUNK[1:]])
    assert "play 7H" in state.apply("play AS").legal_moves()
    assert "play 7D" in state.apply("play AS").legal_moves()
    state = state.apply("play AS").apply("play 7H")
    assert state.view(None)["last_trick"] == {
        "cards": [{"seat": 0, "card": "AS"}, {"seat": 1, "card": "7H"}],
        "winner": 1,
    }


def stage_two(hand0: list[str], hand1: list[str], led: str) -> BeziqueState:
    """Stage 2, seat 1 has led ``led``; seat 0 (holding ``hand0``) must answer."""
    return position(hands=[hand0, hand1], trick=[led], leader=1, turn=0, phase=1)


def test_d8_follow_suit_and_beat_when_able() -> None:
    state = stage_two(["7S", "KS", "AS", "7H", "8C"], ["QS", "8D", "9D", "7D"], "QS")
    assert state.legal_moves() == ["play KS", "play AS"]
    with pytest.raises(IllegalMove, match=r"follow suit and beat Q♠ "):
        state.apply("play 7S")
    with pytest.raises(IllegalMove, match="In the last eight tricks you must"):
        state.apply("play 7H")


def test_x6_follow_suit_with_any_card_when_unable_to_beat() -> None:
    """bezique X6 (D8, D4): an identical card does not beat the card led."""
    state = stage_two(["7S", "JS", "QS", "7H", "8C"], ["8D", "9D", "7D", "8S"], "QS")
    assert state.legal_moves() == ["play 7S", "play JS", "play QS"]  # QS does not beat QS (D4)


def test_d8_trump_when_void_in_the_suit_led() -> None:
    state = stage_two(["7H", "AH", "8C", "AC", "KC"], ["8D", "9D", "7D", "8S"], "QS")
    assert state.legal_moves() == ["play 7H", "play AH"]
    with pytest.raises(IllegalMove, match="trump if you cannot follow suit"):
        state.apply("play AC")


def test_d8_any_card_when_void_in_suit_and_trumps() -> None:
    state = stage_two(["8C", "AC", "KD"], ["8D", "9D"], "QS")
    assert state.legal_moves() == ["play KD", "play 8C", "play AC"]


def test_d8_no_melds_or_sevens_in_stage_two() -> None:
    state = position(hands=[["QS", "JD", "7H"], ["8D", "9D", "7D"]])
    state = state.apply("play QS").apply("play 7D")
    assert state.legal_moves() == ["play 7H", "play JD"]
    with pytest.raises(IllegalMove, match="in the last eight tricks there are no more melds"):
        state.apply("meld QS JD")


# -- the count (bezique D9, D2) ------------------------------------------------------------------
def test_d9_brisques_and_the_last_trick_make_170_every_deal() -> None:
    rng = random.Random(9)
    state = GAME.new_match(seed=9)
    deals = 0
    while state.to_move is not None and deals < 6:
        before = state
        state = state.apply(rng.choice(state.legal_moves()))
        if state.view(None)["deal"] != before.view(None)["deal"]:
            melded = sum(m["points"] for m in before.view(None)["melds"])
            assert sum(state.view(None)["deal_history"][-1]) == melded + 170
            deals += 1
    assert deals == 6


def _last_trick_position(totals: list[int], target: int = 1500) -> BeziqueState:
    """Seat 1 leads the 32nd trick and wins it; seat 0 has won every other brisque."""
    cards = Counter(DOUBLE_PACK) - Counter(["AS", "7S"])
    won0 = list(cards.elements())
    return position(
        hands=[["7S"], ["AS"]],
        won=[won0, []],
        leader=1,
        turn=1,
        totals=totals,
        target=target,
    )


def test_d9_the_last_trick_scores_ten() -> None:
    state = _last_trick_position([0, 0]).apply("play AS").apply("play 7S")
    assert state.view(None)["deal_history"][-1] == [150, 20]
    assert state.scores == (150, 20)


def test_d2_both_over_the_target_the_higher_score_wins() -> None:
    state = _last_trick_position([1400, 1490]).apply("play AS").apply("play 7S")
    assert state.result is not None and state.to_move is None
    assert state.result["winner"] == 0 and state.result["scores"] == [1550, 1510]


def test_d2_equal_scores_over_the_target_the_last_trick_wins() -> None:
    state = _last_trick_position([1400, 1530]).apply("play AS").apply("play 7S")
    assert state.scores == (1550, 1550)
    assert state.result is not None and state.result["winner"] == 1


def test_d2_one_over_the_target_wins_even_with_the_lower_deal() -> None:
    state = _last_trick_position([1200, 1490]).apply("play AS").apply("play 7S")
    assert state.result is not None and state.result["winner"] == 1


def test_d2_under_the_target_a_new_deal_the_other_player_dealing() -> None:
    state = _last_trick_position([100, 100]).apply("play AS").apply("play 7S")
    view = state.view(None)
    assert state.result is None and view["deal"] == 2 and view["dealer"] == 0
    assert view["deal_history"] == [[150, 20]] and state.scores[1] == 120
    assert state.to_move == 1  # the non-dealer leads


def test_d2_a_meld_reaching_1500_wins_at_once() -> None:
    """bezique D2; X7: the unfinished deal's points stand, brisques uncounted."""
    state = win(new(["QS", "JD", "7C", "8C", "9C", "10C", "JC", "AC"]), "7C")
    data = json.loads(state.to_json())
    data["totals"] = [1470, 1490]
    state = GAME.from_json(json.dumps(data))
    state = state.apply("meld QS JD")
    assert state.to_move is None and state.legal_moves() == []
    assert state.result == {"winner": 0, "scores": [1510, 1490], "deals": [[40, 0]]}
    assert state.view(None)["phase"] == "over"
    with pytest.raises(IllegalMove, match="over"):
        state.apply("draw")


def test_d2_a_seven_reaching_the_target_wins_at_once() -> None:
    state = win(new(["7H", "7C", "8C", "9C", "10C", "JC", "QC", "AC"], target=100), "7C")
    data = json.loads(state.to_json())
    data["totals"] = [90, 0]
    state = GAME.from_json(json.dumps(data)).apply("declare 7")
    assert state.result is not None and state.result["winner"] == 0


def test_x1_the_target_option() -> None:
    state = win(new(["AS", "AH", "AD", "AC", "7C", "8C", "9C", "10C"], target=100), "7C")
    state = state.apply("meld AS AH AD AC")
    assert state.result is not None and state.result["winner"] == 0
    with pytest.raises(ValueError, match="at least 100"):
        GAME.new_match(seed=1, options={"target": 50})


# -- bad input --------------------------------------------------------------------------------
def test_a_meld_that_is_not_a_meld() -> None:
    state = win(new(["QS", "JD", "7C", "8C", "9C", "10C", "JC", "AC"]), "7C")
    with pytest.raises(IllegalMove, match="Q♠ K♥ is not a meld"):
        state.apply("meld QS KH")


def test_a_meld_of_cards_not_held() -> None:
    state = win(new(["QS", "JD", "7C", "8C", "9C", "10C", "JC", "AC"]), "7C")
    with pytest.raises(IllegalMove, match="You do not hold Q♣"):
        state.apply("meld QC KC")


def test_a_sequence_only_in_trumps() -> None:
    state = win(new(["AS", "10S", "KS", "QS", "JS", "7C", "8C", "9C"]), "7C")
    with pytest.raises(IllegalMove, match="only in trumps, which are ♥"):
        state.apply("meld 10S JS QS KS AS")


def test_a_meld_before_winning_a_trick_is_refused() -> None:
    state = new(["QS", "JD", "7C", "8C", "9C", "10C", "JC", "AC"])
    with pytest.raises(IllegalMove, match="only after winning a trick"):
        state.apply("meld QS JD")
    with pytest.raises(IllegalMove, match="only after winning a trick"):
        state.apply("draw")
    with pytest.raises(IllegalMove, match="only after winning a trick"):
        state.apply("declare 7")


def test_playing_a_card_not_held() -> None:
    with pytest.raises(IllegalMove, match="You do not hold A♥"):
        new(["QS", "JD", "7C", "8C", "9C", "10C", "JC", "AC"]).apply("play AH")


def test_bad_words_are_explained() -> None:
    state = new(["QS", "JD", "7C", "8C", "9C", "10C", "JC", "AC"])
    with pytest.raises(IllegalMove, match="not in this game's pack"):
        state.apply("play 2S")
    with pytest.raises(IllegalMove, match="is not a move of this game"):
        state.apply("discard QS")
    with pytest.raises(IllegalMove, match="declare 7"):
        state.apply("declare 8")
    with pytest.raises(IllegalMove, match="A move is written as text"):
        state.apply(["play", "QS"])  # type: ignore[arg-type]


# -- views, notation, storage -----------------------------------------------------------------
def test_x8_the_automatic_draw_leaves_the_last_move_public() -> None:
    state = win(new(["7C", "8C", "9C", "10C", "JC", "QC", "AC", "8H"]), "7C")
    assert state.view(None)["last_move"] == {"seat": 1, "move": "play 7S"}
    assert state.view(None)["stock"] == 46


def test_x2_hands_stay_in_canonical_order_after_draws() -> None:
    state = win(new(["7C", "8C", "9C", "10C", "JC", "QC", "AC", "8H"], draws=["JS"]), "7C")
    hand = state.view(0)["hand"]
    assert "JS" in hand and hand == games.sort_cards(hand) and hand[0] == "JS"


def test_moves_accept_symbols_case_spacing_and_any_card_order() -> None:
    state = win(new(["QS", "JD", "7C", "8C", "9C", "10C", "JC", "AC"]), "7C")
    assert state.apply("Meld j♦  q♠") == state.apply("meld QS JD")
    assert state.apply("DRAW ") == state.apply("draw")


def test_views_show_the_table_and_hide_the_opponent_hand() -> None:
    state = win(new(["QS", "JD", "7C", "8C", "9C", "10C", "JC", "AC"]), "7C")
    state = state.apply("meld QS JD")
    public = state.view(None)
    assert public["table"] == [["QS", "JD"], []]
    assert public["hand"] == [] and public["hand_sizes"] == [6, 8]
    assert state.view(0)["hand"] == games.sort_cards(state.view(0)["hand"])
    assert "QS" not in state.view(0)["hand"]
    seat1 = json.dumps(state.view(1))
    assert '"AC"' not in seat1 and '"10C"' not in seat1
    assert public["last_move"] == {"seat": 0, "move": "meld QS JD"}
    assert public["tricks_won"] == [1, 0] and public["brisques"] == [0, 0]
    keys = "deal dealer target trump turn_up stock stage phase trick last_trick table melds"
    for key in [*keys.split(), "hand_sizes", "tricks_won", "brisques", "deal_scores", "last_move"]:
        assert key in public and key in state.view(0)


def test_json_round_trip_keeps_the_table_levels() -> None:
    state = win(new(["AH", "10H", "KH", "QH", "JH", "7C", "8C", "9C"]), "7C")
    state = state.apply("meld QH KH")
    again = GAME.from_json(state.to_json())
    assert again == state and again.legal_moves() == state.legal_moves()
    assert isinstance(again, BeziqueState)
    assert "meld 10H JH QH KH AH" in win(again, "8C").legal_moves()


def test_json_with_an_impossible_level_is_refused() -> None:
    state = win(new(["QS", "JD", "7C", "8C", "9C", "10C", "JC", "AC"]), "7C")
    data = json.loads(state.apply("meld QS JD").to_json())
    data["tables"][0][0][3] = 2
    with pytest.raises(ValueError, match="meld level"):
        GAME.from_json(json.dumps(data))


def test_d7_listed_melds_are_exactly_those_some_choice_of_copies_allows() -> None:
    """The fast meld listing agrees with the exhaustive choice of copies (D7, D10) on every
    meld of the table, in the positions of random matches."""
    rng = random.Random(4)
    checked = 0
    for seed in range(12):
        state = GAME.new_match(seed=seed)
        while state.to_move is not None:
            assert isinstance(state, BeziqueState)
            view = state.view(None)
            if view["phase"] == "score" and not state._melded:
                seat = state.to_move
                hand, table = state._hands[seat], state._tables[seat]
                listed = set(melds_of(state))
                for move, meld in MELDS.items():
                    if meld.kind == "sequence" and SUITS4[meld.suit] != view["trump"]:
                        continue
                    possible = _choose_copies(meld, hand, table) is not None
                    assert possible == (move in listed), (move, hand, table)
                    checked += 1
            state = state.apply(rng.choice(state.legal_moves()))
    assert checked > 1000
