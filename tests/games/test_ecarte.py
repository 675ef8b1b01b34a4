"""Écarté, decision by decision (docs/rules/ecarte.md), with constructed decks.

Unless a test says otherwise seat 1 deals, so seat 0 is elder: elder gets ``deck[0:5]``, the
dealer ``deck[5:10]``, ``deck[10]`` is turned up and the stock is ``deck[11:]``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest

import games
from games import IllegalMove
from games.cards import PIQUET_PACK
from games.ecarte import EcarteState, hand_points, must_play, second_takes

GAME = games.get("ecarte")
ELDER, DEALER = 0, 1
PLAIN = list(PIQUET_PACK)
"""A later deal's deck whose turn-up (9H) is no king, so it adds no point (ecarte D3)."""


def deck_with(
    elder: Sequence[str], dealer: Sequence[str], turn_up: str, stock_top: Sequence[str] = ()
) -> list[str]:
    """A deck dealing ``elder`` and ``dealer``, turning up ``turn_up``, the stock starting with
    ``stock_top``; the remaining cards follow in pack order."""
    chosen = [*elder, *dealer, turn_up, *stock_top]
    assert len(set(chosen)) == len(chosen)
    rest = [card for card in PIQUET_PACK if card not in chosen]
    return [*chosen, *rest]


def new(
    elder: Sequence[str],
    dealer: Sequence[str],
    turn_up: str = "7H",
    stock_top: Sequence[str] = (),
    later: Sequence[Sequence[str]] = (PLAIN,),
    **options: int,
) -> EcarteState:
    decks = [deck_with(elder, dealer, turn_up, stock_top), *(list(d) for d in later)]
    state = GAME.new_match(seed=7, options={"first_dealer": DEALER, **options}, deck=decks)
    assert isinstance(state, EcarteState)
    return state


def run(state: EcarteState, *moves: str) -> EcarteState:
    for move in moves:
        state = state.apply(move)
    return state


def with_totals(state: EcarteState, a: int, b: int) -> EcarteState:
    """The same state with the match scores set to (a, b): a match near its end."""
    data = json.loads(state.to_json())
    data["totals"] = [a, b]
    again = GAME.from_json(json.dumps(data))
    assert isinstance(again, EcarteState)
    return again


# Hearts are trumps (turn-up 7H) in these deals; elder's tricks are forced by the plays below.
E_TRUMPS = ["KH", "QH", "JH", "AH", "10H"]
D_LOW = ["7S", "8S", "9S", "7C", "8C"]
E_BLANK = ["JS", "QS", "KS", "AS", "10S"]  # elder's hand when the dealer holds E_TRUMPS

# name: (elder's hand, dealer's hand, the ten plays of the hand, elder's tricks)
HANDS: dict[str, tuple[list[str], list[str], list[str], int]] = {
    "elder 5": (
        ["KH", "QH", "JH", "AH", "10H"],
        ["7S", "8S", "9S", "7C", "8C"],
        ["KH", "7S", "QH", "8S", "JH", "9S", "AH", "7C", "10H", "8C"],
        5,
    ),
    "elder 4": (
        ["KH", "QH", "JH", "AH", "7S"],
        ["KS", "8S", "9S", "7C", "8C"],
        ["KH", "8S", "QH", "9S", "JH", "7C", "AH", "8C", "7S", "KS"],
        4,
    ),
    "elder 3": (
        ["KH", "QH", "JH", "7S", "8S"],
        ["KS", "QS", "9C", "7C", "8C"],
        ["KH", "9C", "QH", "7C", "JH", "8C", "7S", "QS", "KS", "8S"],
        3,
    ),
    "elder 2": (
        ["KH", "QH", "7S", "8S", "9S"],
        ["KS", "QS", "JS", "7C", "8C"],
        ["KH", "7C", "QH", "8C", "7S", "JS", "QS", "8S", "KS", "9S"],
        2,
    ),
    "elder 1": (
        ["KH", "7S", "8S", "9S", "10S"],
        ["KS", "QS", "JS", "AS", "7C"],
        ["KH", "7C", "7S", "AS", "JS", "8S", "QS", "9S", "KS", "10S"],
        1,
    ),
    "elder 0": (
        ["7S", "8S", "9S", "10S", "7C"],
        ["AS", "JS", "QS", "KS", "8C"],
        ["7S", "AS", "JS", "8S", "QS", "9S", "KS", "10S", "8C", "7C"],
        0,
    ),
}
SPARE = "9D"
"""A card in no hand above: elder holds it instead of their last card, and exchanges it."""


def deal_for(name: str, contract: str) -> EcarteState:
    """The deal ``name`` brought to its first card under ``contract``: "elder" (elder plays at
    once, D6), "dealer" (the dealer refuses the first proposal, D7) or "nobody" (elder
    exchanges one card for the one his hand needs, the dealer keeps all)."""
    elder, dealer, _plays, _tricks = HANDS[name]
    if contract == "elder":
        return new(elder, dealer)
    if contract == "dealer":
        return run(new(elder, dealer), "propose", "refuse")
    state = new([*elder[:-1], SPARE], dealer, stock_top=[elder[-1]])
    return run(state, "propose", "accept", f"discard {SPARE}", "discard")


def play_hand(state: EcarteState, name: str) -> EcarteState:
    for card in HANDS[name][2]:
        state = state.apply(f"play {card}")
    return state


def test_the_game_is_registered_under_its_names() -> None:
    for name in ("ecarte", "Écarté", "ECARTE", "écarté"):
        assert games.get(name) is GAME
    assert (GAME.name, GAME.title) == ("ecarte", "Écarté")


# -- cards and tricks ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("lead", "second", "takes"),
    [
        ("QS", "KS", True),  # K above Q
        ("JS", "QS", True),
        ("AS", "JS", True),  # the ace ranks between the jack and the ten
        ("AS", "10S", False),
        ("10S", "AS", True),
        ("8S", "7S", False),
        ("KS", "7H", True),  # a trump takes any card of another suit
        ("7H", "KS", False),  # a card of another suit never takes the trick
        ("KD", "AC", False),
    ],
)
def test_rank_k_q_j_a_10_9_8_7_and_trumps(lead: str, second: str, takes: bool) -> None:
    assert second_takes(lead, second, "H") is takes


def test_the_deal_follows_the_deck() -> None:
    state = new(E_TRUMPS, D_LOW, turn_up="7D")
    assert state.view(ELDER)["hand"] == games.sort_cards(E_TRUMPS)
    assert state.view(DEALER)["hand"] == games.sort_cards(D_LOW)
    view = state.view(None)
    assert view["trump"] == "D" and view["turn_up"] == "7D" and view["stock"] == 21
    assert view["dealer"] == DEALER and view["elder"] == ELDER and state.to_move == ELDER
    assert view["phase"] == "propose" and view["deal"] == 1
    assert view["previous_hand"] is None and view["hand_scores"] == []


# -- D1: the first dealer by lot, then the loser deals ---------------------------------------
def test_d1_the_first_dealer_is_drawn_by_lot() -> None:
    dealers = {GAME.new_match(seed=seed).view(None)["dealer"] for seed in range(30)}
    assert dealers == {0, 1}


def test_d1_first_dealer_option() -> None:
    state = GAME.new_match(seed=1, options={"first_dealer": 0}, deck=PLAIN)
    assert state.view(None)["dealer"] == 0 and state.to_move == 1
    assert state.view(1)["hand"] == PLAIN[:5]  # the non-dealer is dealt first


@pytest.mark.parametrize(("name", "next_dealer"), [("elder 3", DEALER), ("elder 2", ELDER)])
def test_d1_the_loser_of_the_hand_deals_the_next(name: str, next_dealer: int) -> None:
    state = play_hand(deal_for(name, "elder"), name)
    view = state.view(None)
    assert view["deal"] == 2 and view["dealer"] == next_dealer
    assert state.to_move == 1 - next_dealer and view["phase"] == "propose"
    assert view["tricks"] == [] and view["hand_sizes"] == [5, 5] and view["stock"] == 21


# -- D2: target 11 or 17, won at once --------------------------------------------------------
def test_d2_target_option() -> None:
    assert GAME.new_match(seed=1).view(None)["target"] == 11
    assert GAME.new_match(seed=1, options={"target": 17}).view(None)["target"] == 17
    with pytest.raises(ValueError, match="11 or 17"):
        GAME.new_match(seed=1, options={"target": 15})


def test_d2_a_king_point_reaching_the_target_ends_the_match_mid_hand() -> None:
    state = with_totals(new(E_TRUMPS, D_LOW), 10, 3).apply("king")
    assert state.to_move is None and state.scores == (11, 3)
    assert state.result == {"winner": 0, "scores": [11, 3], "target": 11, "hands": [[1, 0]]}
    view = state.view(ELDER)
    assert view["phase"] == "over" and view["legal_moves"] == []
    with pytest.raises(IllegalMove, match="over"):
        state.apply("play KH")


def test_d2_the_hand_reaching_the_target_ends_the_match_without_a_new_deal() -> None:
    state = play_hand(with_totals(deal_for("elder 5", "elder"), 9, 0), "elder 5")
    assert state.result is not None and state.result["winner"] == ELDER
    assert state.scores == (11, 0)
    assert state.view(None)["deal"] == 1 and state.view(None)["tricks_won"] == [5, 0]


def test_d2_a_turned_up_king_can_end_the_match_as_the_next_hand_is_dealt() -> None:
    kings = deck_with(["7S", "8S", "9S", "10S", "JS"], ["7D", "8D", "9D", "10D", "JD"], "KC")
    state = new(*HANDS["elder 3"][:2], later=[kings])
    state = play_hand(with_totals(state, 0, 10), "elder 3")  # elder +1; seat 1 deals, +1
    assert state.result is not None and state.result["winner"] == DEALER
    assert state.scores == (1, 11) and state.view(None)["deal"] == 2


def test_d2_the_target_of_17_plays_on_past_11() -> None:
    state = with_totals(new(E_TRUMPS, D_LOW, target=17), 10, 0).apply("king")
    assert state.scores == (11, 0) and state.to_move == ELDER and state.result is None
    state = play_hand(with_totals(state, 16, 0), "elder 5")
    assert state.result is not None and state.scores == (18, 0)


# -- D3: the turned-up king ------------------------------------------------------------------
def test_d3_a_turned_up_king_scores_1_for_the_dealer_at_once() -> None:
    state = new([*E_BLANK[:4], "10D"], D_LOW, turn_up="KH")
    assert state.scores == (0, 1) and state.view(None)["deal_scores"] == [0, 1]
    assert "king" not in state.legal_moves()
    with pytest.raises(IllegalMove, match=r"turn-up"):
        state.apply("king")


def test_d3_the_turn_up_stays_visible_and_is_never_exchanged() -> None:
    state = run(new(E_TRUMPS, D_LOW, turn_up="KD"), "propose", "accept", "discard 10H")
    assert state.view(DEALER)["turn_up"] == "KD" and state.view(None)["trump"] == "D"
    assert "KD" not in state.view(ELDER)["hand"]


# -- D4: proposals, acceptance, refusal and the exchanges --------------------------------------
def test_d4_a_proposal_asks_the_dealer_to_accept_or_refuse() -> None:
    state = new(E_TRUMPS, D_LOW).apply("propose")
    assert state.to_move == DEALER and state.view(None)["phase"] == "respond"
    assert state.legal_moves() == ["accept", "refuse"] and state.view(None)["proposals"] == 1
    for move in ("play 7S", "discard 7S", "propose"):
        with pytest.raises(IllegalMove, match=r"accept it.*refuse it"):
            state.apply(move)


def test_d4_on_refusal_play_begins_at_once_elder_leading() -> None:
    state = run(new(E_TRUMPS, D_LOW), "propose", "refuse")
    assert state.to_move == ELDER and state.view(None)["phase"] == "play"
    assert "propose" not in state.legal_moves()
    with pytest.raises(IllegalMove, match="no more proposals"):
        state.apply("propose")
    assert state.view(None)["stock"] == 21


def test_d4_on_acceptance_elder_discards_1_to_5_then_the_dealer_0_to_5() -> None:
    stock_top = ["7D", "8D", "9D", "10D", "JD", "QD"]
    state = run(new(E_TRUMPS, D_LOW, stock_top=stock_top), "propose", "accept")
    assert state.to_move == ELDER and state.view(None)["phase"] == "discard"
    assert len(state.legal_moves()) == 31  # every choice of 1 to 5 of elder's cards
    with pytest.raises(IllegalMove, match=r"at least one card"):
        state.apply("discard")
    state = state.apply("discard 10H AH")
    assert state.view(ELDER)["hand"] == ["JH", "QH", "KH", "7D", "8D"]  # the stock's top two
    assert state.to_move == DEALER and len(state.legal_moves()) == 32  # keeping all included
    state = state.apply("discard 7S 8S 9S")
    assert state.view(DEALER)["hand"] == ["9D", "10D", "JD", "7C", "8C"]
    assert state.to_move == ELDER and state.view(None)["phase"] == "propose"
    assert state.view(None)["stock"] == 21 - 5
    assert state.view(None)["exchanges"] == [{"seat": 0, "count": 2}, {"seat": 1, "count": 3}]


def test_d4_the_dealer_may_keep_all_cards() -> None:
    state = run(new(E_TRUMPS, D_LOW), "propose", "accept", "discard 10H", "discard")
    assert state.view(DEALER)["hand"] == games.sort_cards(D_LOW)
    assert state.view(None)["exchanges"] == [{"seat": 0, "count": 1}, {"seat": 1, "count": 0}]
    assert state.view(ELDER)["last_move"] == {"seat": 1, "move": "discard"}


def test_d4_discards_are_face_down_only_their_number_is_public() -> None:
    state = run(new(E_TRUMPS, D_LOW), "propose", "accept", "discard AH 10H")
    assert state.view(ELDER)["discarded"] == ["10H", "AH"]
    assert state.view(ELDER)["last_move"] == {"seat": 0, "move": "discard 10H AH"}
    for seat in (DEALER, None):
        view = state.view(seat)
        assert view["discarded"] == []
        assert view["last_move"] == {"seat": 0, "move": "discard 2 cards"}
        assert "10H" not in json.dumps(view) and "AH" not in json.dumps(view)
    state = state.apply("discard 7S")
    assert state.view(ELDER)["last_move"] == {"seat": 1, "move": "discard 1 card"}
    assert state.view(DEALER)["discarded"] == ["7S"]


def test_d4_the_discard_cards_must_be_held_and_named_once() -> None:
    state = run(new(E_TRUMPS, D_LOW), "propose", "accept")
    with pytest.raises(IllegalMove, match="You do not hold 7♠"):
        state.apply("discard KH 7S")
    with pytest.raises(IllegalMove, match="only once"):
        state.apply("discard KH KH")
    with pytest.raises(IllegalMove, match=r"now discard cards face down"):
        state.apply("play KH")
    with pytest.raises(IllegalMove, match="not in this game's pack"):
        state.apply("discard 2S")


def test_d4_no_discard_nor_answer_without_an_accepted_proposal() -> None:
    state = new(E_TRUMPS, D_LOW)
    with pytest.raises(IllegalMove, match=r"only after the dealer accepts"):
        state.apply("discard KH")
    with pytest.raises(IllegalMove, match=r"no proposal to answer"):
        state.apply("accept")
    with pytest.raises(IllegalMove, match=r"no proposal to answer"):
        state.apply("refuse")


def _exchange_round(state: EcarteState, elder_count: int, dealer_count: int) -> EcarteState:
    """Propose, accept, and exchange the first cards of each hand."""
    state = run(state, "propose", "accept")
    state = state.apply(" ".join(["discard", *state.view(ELDER)["hand"][:elder_count]]))
    if state.to_move == DEALER and state.view(None)["phase"] == "discard":
        state = state.apply(" ".join(["discard", *state.view(DEALER)["hand"][:dealer_count]]))
    return state


def test_d4_elder_may_not_discard_more_cards_than_the_stock_holds() -> None:
    state = _exchange_round(_exchange_round(new(E_TRUMPS, D_LOW), 5, 5), 5, 4)
    assert state.view(None)["stock"] == 2
    state = run(state, "propose", "accept")
    assert len(state.legal_moves()) == 5 + 10  # one or two cards
    hand = state.view(ELDER)["hand"]
    with pytest.raises(IllegalMove, match=r"stock holds only 2 cards"):
        state.apply(" ".join(["discard", *hand[:3]]))


def test_d4_the_dealer_discards_at_most_what_remains() -> None:
    state = _exchange_round(_exchange_round(new(E_TRUMPS, D_LOW), 5, 5), 5, 4)
    state = run(state, "propose", "accept", f"discard {state.view(ELDER)['hand'][0]}")
    assert state.to_move == DEALER and state.view(None)["stock"] == 1
    assert len(state.legal_moves()) == 1 + 5  # keep all, or one card
    hand = state.view(DEALER)["hand"]
    with pytest.raises(IllegalMove, match=r"stock holds only 1 card"):
        state.apply(" ".join(["discard", *hand[:2]]))


def test_d4_when_elder_empties_the_stock_the_dealers_exchange_is_skipped() -> None:
    state = _exchange_round(_exchange_round(new(E_TRUMPS, D_LOW), 5, 5), 5, 5)
    assert state.view(None)["stock"] == 1
    state = run(state, "propose", "accept", f"discard {state.view(ELDER)['hand'][0]}")
    assert state.to_move == ELDER and state.view(None)["phase"] == "propose"
    assert state.view(None)["exchanges"][-1] == {"seat": ELDER, "count": 1}
    assert state.view(None)["stock"] == 0


def test_d4_elder_may_propose_again_after_an_exchange() -> None:
    state = _exchange_round(new(E_TRUMPS, D_LOW), 1, 0)
    assert "propose" in state.legal_moves()
    state = state.apply("propose")
    assert state.view(None)["proposals"] == 2 and state.to_move == DEALER


# -- D5: no proposal once the stock is empty ------------------------------------------------
def test_d5_no_proposal_when_the_stock_is_empty() -> None:
    state = _exchange_round(_exchange_round(new(E_TRUMPS, D_LOW), 5, 5), 5, 5)
    state = run(state, "propose", "accept", f"discard {state.view(ELDER)['hand'][0]}")
    assert state.view(None)["stock"] == 0
    assert "propose" not in state.legal_moves()
    with pytest.raises(IllegalMove, match=r"stock is empty"):
        state.apply("propose")
    state = state.apply(f"play {state.view(ELDER)['hand'][0]}")
    assert state.view(None)["committed"] is None  # exchanges were made (ecarte D6/D7)


# -- D6, D7: the contract ----------------------------------------------------------------------
def test_d6_elder_playing_without_proposing_is_committed() -> None:
    state = new(E_TRUMPS, D_LOW)
    assert state.view(None)["committed"] is None
    state = state.apply("play KH")
    assert state.view(None)["committed"] == ELDER and state.view(None)["phase"] == "play"


def test_d7_the_dealer_refusing_the_first_proposal_is_committed() -> None:
    state = run(new(E_TRUMPS, D_LOW), "propose", "refuse")
    assert state.view(None)["committed"] == DEALER
    assert state.apply("play KH").view(None)["committed"] == DEALER


def test_d7_refusing_a_later_proposal_commits_nobody() -> None:
    state = run(_exchange_round(new(E_TRUMPS, D_LOW), 1, 0), "propose", "refuse")
    assert state.view(None)["committed"] is None and state.view(None)["phase"] == "play"


def test_d6_d7_after_an_exchange_nobody_is_committed() -> None:
    state = _exchange_round(new(E_TRUMPS, D_LOW), 2, 2)
    state = state.apply(f"play {state.view(ELDER)['hand'][0]}")
    assert state.view(None)["committed"] is None


# -- the scoring table (D6, D7, D10) ------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "contract", "points"),
    [
        # nobody committed: 3 or 4 tricks +1 to the winner, the vole +2
        ("elder 3", "nobody", (1, 0)),
        ("elder 4", "nobody", (1, 0)),
        ("elder 5", "nobody", (2, 0)),
        ("elder 1", "nobody", (0, 1)),
        ("elder 0", "nobody", (0, 2)),
        # the committed player takes all five: +2
        ("elder 5", "elder", (2, 0)),
        ("elder 0", "dealer", (0, 2)),
        # the committed player takes 3 or 4: +1
        ("elder 3", "elder", (1, 0)),
        ("elder 4", "elder", (1, 0)),
        ("elder 2", "dealer", (0, 1)),
        ("elder 1", "dealer", (0, 1)),
        # D10: the committed player takes 1 or 2: the opponent +2
        ("elder 2", "elder", (0, 2)),
        ("elder 1", "elder", (0, 2)),
        ("elder 3", "dealer", (2, 0)),
        ("elder 4", "dealer", (2, 0)),
        # D10: the committed player takes none: the opponent +3
        ("elder 0", "elder", (0, 3)),
        ("elder 5", "dealer", (3, 0)),
    ],
)
def test_d6_d7_d10_scoring_table(name: str, contract: str, points: tuple[int, int]) -> None:
    state = deal_for(name, contract)
    after = play_hand(state, name)  # the hand ends and the next is dealt
    tricks = HANDS[name][3]
    assert after.scores == points
    assert after.view(None)["hand_scores"] == [list(points)]
    assert after.view(None)["deal"] == 2
    previous = after.view(DEALER)["previous_hand"]
    assert previous["tricks_won"] == [tricks, 5 - tricks]
    assert previous["committed"] == _committed(contract) and previous["points"] == list(points)
    assert previous["dealer"] == DEALER and len(previous["tricks"]) == 5
    scorer = ELDER if points[ELDER] else DEALER
    assert hand_points((tricks, 5 - tricks), _committed(contract)) == (scorer, max(points))


def _committed(contract: str) -> int | None:
    return {"elder": ELDER, "dealer": DEALER, "nobody": None}[contract]


def test_d10_scores_never_go_negative() -> None:
    state = play_hand(deal_for("elder 0", "elder"), "elder 0")
    assert state.scores == (0, 3)


# -- D8: the king of trumps ------------------------------------------------------------------
def test_d8_elder_announcing_instead_of_proposing_plays_and_is_committed() -> None:
    state = new(E_TRUMPS, D_LOW)
    assert "king" in state.legal_moves() and "propose" in state.legal_moves()
    state = state.apply("king")
    view = state.view(None)
    assert state.scores == (1, 0) and view["king"] == ELDER and view["deal_scores"] == [1, 0]
    assert state.to_move == ELDER  # the announcement does not pass the turn
    assert view["phase"] == "play" and view["committed"] == ELDER
    assert "propose" not in state.legal_moves() and "king" not in state.legal_moves()
    with pytest.raises(IllegalMove, match=r"Announcing the king meant playing"):
        state.apply("propose")
    with pytest.raises(IllegalMove, match=r"already been announced"):
        state.apply("king")
    assert state.apply("play KH").view(None)["trick"] == [{"seat": 0, "card": "KH"}]


def test_d8_announcing_after_an_exchange_commits_nobody() -> None:
    state = _exchange_round(new(E_TRUMPS, D_LOW, stock_top=["7D"]), 1, 0)
    assert "KH" in state.view(ELDER)["hand"]
    state = state.apply("king")
    assert state.view(None)["committed"] is None and state.scores == (1, 0)


def test_d8_announcing_after_a_refusal_keeps_the_dealer_committed() -> None:
    state = run(new(E_TRUMPS, D_LOW), "propose", "refuse", "king")
    assert state.view(None)["committed"] == DEALER and state.scores == (1, 0)
    assert state.to_move == ELDER


def test_d8_the_dealer_announces_as_they_follow_to_the_first_trick() -> None:
    state = new(E_BLANK, E_TRUMPS)
    with pytest.raises(IllegalMove, match=r"do not hold the king of trumps, K♥"):
        state.apply("king")
    state = state.apply("play AS")
    assert "king" in state.legal_moves()
    state = state.apply("king")
    assert state.scores == (0, 1) and state.to_move == DEALER
    state = state.apply("play KH")
    assert state.view(None)["tricks"][0] == {
        "cards": [{"seat": 0, "card": "AS"}, {"seat": 1, "card": "KH"}],
        "winner": 1,
    }


def test_d8_never_during_the_proposal_or_the_exchanges() -> None:
    state = new(E_BLANK, E_TRUMPS).apply("propose")
    with pytest.raises(IllegalMove, match=r"not during the proposals"):
        state.apply("king")
    state = run(state, "accept", "discard AS")
    assert "king" not in state.legal_moves()
    with pytest.raises(IllegalMove, match=r"not during the proposals"):
        state.apply("king")


def test_d8_not_after_the_first_card() -> None:
    state = run(new(E_TRUMPS, D_LOW), "play 10H", "play 7S")
    assert state.to_move == ELDER and "king" not in state.legal_moves()
    with pytest.raises(IllegalMove, match=r"first card of the hand"):
        state.apply("king")


def test_d8_the_dealer_may_not_announce_after_playing_a_card() -> None:
    state = run(new(E_BLANK, E_TRUMPS), "play 10S", "play 10H")  # the dealer trumps and leads
    assert state.to_move == DEALER
    with pytest.raises(IllegalMove, match=r"already played"):
        state.apply("king")


def test_d8_a_king_drawn_in_the_exchange_may_be_announced() -> None:
    elder = ["7S", "8S", "9S", "10S", "JS"]
    state = new(elder, ["7C", "8C", "9C", "QC", "KC"], turn_up="7D", stock_top=["KD"])
    state = run(state, "propose", "accept", "discard 7S", "discard")
    assert "king" in state.legal_moves()


# -- D9: following -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("hand", "lead", "allowed"),
    [
        (["7S", "QS", "KS", "7H", "8D"], "JS", ["QS", "KS"]),  # follow and beat
        (["7S", "8S", "KH", "7H", "8D"], "JS", ["7S", "8S"]),  # follow, unable to beat
        (["7D", "8D", "KH", "7H", "8C"], "JS", ["KH", "7H"]),  # void: trump
        (["7D", "8D", "9D", "7C", "8C"], "JS", ["7D", "8D", "9D", "7C", "8C"]),  # any card
        (["7D", "8D", "9D", "7C", "8H"], "QH", ["8H"]),  # trumps led: follow, unable to beat
        (["7D", "8D", "9D", "7C", "8C"], "QH", ["7D", "8D", "9D", "7C", "8C"]),  # no trump
        (["AD", "JD", "9D", "7C", "8H"], "10D", ["AD", "JD"]),  # the ace beats the ten
    ],
)
def test_d9_the_second_player_follows_beats_or_trumps(
    hand: list[str], lead: str, allowed: list[str]
) -> None:
    assert sorted(must_play(tuple(hand), lead, "H")) == sorted(allowed)


def test_d9_a_card_that_does_not_follow_or_beat_is_refused() -> None:
    state = new(["JS", "8S", "9C", "10C", "JC"], ["7S", "QS", "9H", "7D", "8D"]).apply("play JS")
    assert state.legal_moves() == ["play QS"]
    with pytest.raises(IllegalMove, match=r"follows suit and beats"):
        state.apply("play 7S")
    with pytest.raises(IllegalMove, match=r"follows suit"):
        state.apply("play 9H")


def test_d9_a_void_player_must_trump() -> None:
    state = new(["JS", "8S", "9C", "10C", "JC"], ["7C", "QD", "KH", "7D", "8D"]).apply("play JS")
    assert state.legal_moves() == ["play KH", "king"]
    with pytest.raises(IllegalMove, match=r"else trumps if able"):
        state.apply("play 7C")


def test_d9_applies_to_elder_when_the_dealer_leads() -> None:
    state = run(new(["7S", "8S", "9S", "10S", "7C"], ["AS", "JS", "QS", "KS", "8C"]), "play 7S")
    state = state.apply("play AS")  # the dealer wins and leads
    state = state.apply("play JS")
    assert state.to_move == ELDER
    assert sorted(state.legal_moves()) == ["play 10S", "play 8S", "play 9S"]
    with pytest.raises(IllegalMove, match="follows suit"):
        state.apply("play 7C")


def test_the_trick_winner_leads_the_next_trick() -> None:
    state = run(new(*HANDS["elder 3"][:2]), "play 7S", "play KS")
    assert state.to_move == DEALER and state.view(None)["tricks_won"] == [0, 1]
    assert state.view(None)["trick"] == []


# -- moves as typed, and other bad input ----------------------------------------------------------
def test_moves_accept_symbols_case_and_spacing() -> None:
    state = new(E_TRUMPS, D_LOW)
    assert state.apply("Play k♥") == state.apply("play KH")
    accepted = run(state, "propose", "accept")
    assert accepted.apply("DISCARD 10h, ah") == accepted.apply("discard AH 10H")


def test_bad_input_is_explained() -> None:
    state = new(E_TRUMPS, D_LOW)
    with pytest.raises(IllegalMove, match="You do not hold 7♠"):
        state.apply("play 7S")
    with pytest.raises(IllegalMove, match="not in this game's pack"):
        state.apply("play 2S")
    with pytest.raises(IllegalMove, match="is not a move of this game"):
        state.apply("pass")
    with pytest.raises(IllegalMove, match="exactly one card"):
        state.apply("play KH QH")
    with pytest.raises(IllegalMove, match="Nothing follows"):
        state.apply("king KH")


def test_a_dealer_cannot_propose() -> None:
    state = new(E_BLANK, E_TRUMPS).apply("play AS")
    with pytest.raises(IllegalMove, match="Only elder proposes"):
        state.apply("propose")


# -- views and storage -----------------------------------------------------------------------
VIEW_KEYS = [
    "deal",
    "dealer",
    "elder",
    "target",
    "trump",
    "turn_up",
    "stock",
    "phase",
    "committed",
    "proposals",
    "exchanges",
    "king",
    "trick",
    "tricks",
    "tricks_won",
    "hand_sizes",
    "last_move",
    "discarded",
]


def test_views_have_the_renderer_keys_and_hide_the_opponent() -> None:
    state = run(new(E_TRUMPS, D_LOW), "propose", "accept", "discard 10H", "discard 7S")
    for seat in (0, 1, None):
        view = state.view(seat)
        for key in VIEW_KEYS:
            assert key in view, key
        json.dumps(view)
    assert state.view(None)["hand"] == [] and state.view(None)["legal_moves"] == []
    assert "7S" not in json.dumps(state.view(ELDER))
    assert state.view(None)["hand_sizes"] == [5, 5]


def test_json_round_trip_keeps_every_detail() -> None:
    state = run(new(E_TRUMPS, D_LOW), "propose", "accept", "discard 10H", "discard 7S")
    state = run(state, "king", "play KH")
    again = GAME.from_json(state.to_json())
    assert again == state and again.view(DEALER) == state.view(DEALER)
    assert again.legal_moves() == state.legal_moves()


def test_corrupt_json_is_refused() -> None:
    data = json.loads(new(E_TRUMPS, D_LOW).to_json())
    data["hands"][0][0] = "7S"  # the 7S twice
    with pytest.raises(ValueError, match="cards do not add up"):
        GAME.from_json(json.dumps(data))
    data = json.loads(new(E_TRUMPS, D_LOW).to_json())
    data["turn"] = 2
    with pytest.raises(ValueError, match="seat"):
        GAME.from_json(json.dumps(data))


def test_zones_hold_every_card_once_all_along() -> None:
    state = run(new(E_TRUMPS, D_LOW), "propose", "accept", "discard 10H", "discard 7S", "play KH")
    cards = [card for zone in state.zones().values() for card in zone]
    assert sorted(cards) == sorted(PIQUET_PACK)
    assert state.zones()["discards0"] == ["10H"] and state.zones()["trick"] == ["KH"]


@pytest.mark.parametrize("dealer", [0, 1])
def test_deal_secrets_name_the_opponents_cards_and_the_stock(dealer: int) -> None:
    deck = deck_with(E_TRUMPS, D_LOW, "7H")
    state = GAME.new_match(seed=1, options={"first_dealer": dealer}, deck=deck)
    for seat in (0, 1):
        opponent, hidden = GAME.deal_secrets(seat, {"first_dealer": dealer})
        assert games.sort_cards(deck[i] for i in opponent) == state.view(1 - seat)["hand"]
        assert sorted(deck[i] for i in hidden) == sorted(state.zones()["stock"])
