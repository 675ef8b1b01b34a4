"""Piquet, decision by decision (docs/rules/piquet.md)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

import pytest

import games
from games import IllegalMove
from games.cards import PIQUET_PACK
from games.piquet import (
    Declaration,
    PiquetState,
    declarations_of,
    sequence_points,
    settlement,
)

GAME = games.get("piquet")


def deck_for(elder: Sequence[str], younger: Sequence[str], talons: Sequence[str] = ()) -> list[str]:
    """A deck dealing ``elder`` and ``younger`` their twelve cards, elder's talon then
    younger's starting with ``talons``; the other cards follow in pack order."""
    assert len(elder) == 12 and len(younger) == 12
    chosen = [*elder, *younger, *talons]
    return [*chosen, *(card for card in PIQUET_PACK if card not in chosen)]


def new(
    elder: Sequence[str], younger: Sequence[str], talons: Sequence[str] = (), **options: int
) -> PiquetState:
    """Seat 1 deals, so seat 0 is elder."""
    state = GAME.new_match(
        seed=7, options={"first_dealer": 1, **options}, deck=deck_for(elder, younger, talons)
    )
    assert isinstance(state, PiquetState)
    return state


def play(state: PiquetState, *moves: str) -> PiquetState:
    for move in moves:
        state = state.apply(move)
    return state


def kinds(decls: Iterable[Declaration], kind: str) -> list[tuple[int, str, int]]:
    return [(who, text, points) for who, k, text, points in decls if k == kind]


def announced(state: PiquetState) -> list[tuple[int, str, str, int]]:
    return [
        (d["seat"], d["kind"], d["text"], d["points"]) for d in state.view(None)["declarations"]
    ]


def trick(state: PiquetState, lead: str) -> PiquetState:
    """Lead ``lead``; the follower plays his first legal card."""
    state = state.apply(f"play {lead}")
    return state.apply(state.legal_moves()[0])


def finish_deal(state: PiquetState) -> PiquetState:
    """Keep all cards at the exchange, then play the first legal card until the deal ends."""
    deal = state.view(None)["deal"]
    while state.to_move is not None and state.view(None)["deal"] == deal:
        state = state.apply(state.legal_moves()[0])
    return state


# The issue's hand: every ace, king and queen; the opponent holds J 10 9 of each suit.
ROYAL = ["AS", "KS", "QS", "AH", "KH", "QH", "AD", "KD", "QD", "AC", "KC", "QC"]
LOW = ["JS", "10S", "9S", "JH", "10H", "9H", "JD", "10D", "9D", "JC", "10C", "9C"]

# The seed's example: elder declares 11, younger 14.
ELDER_11 = ["7S", "8S", "9S", "10S", "7H", "8H", "9H", "JD", "AD", "JC", "KC", "AC"]
YOUNGER_14 = ["QS", "QH", "QD", "QC", "JS", "KS", "10H", "JH", "7D", "8D", "7C", "8C"]

# Elder declares 23 (point of five, quint to the ace, trio of aces), younger nothing — his
# quatorze of nines does not count (piquet D6) and his trio of tens loses to the aces.
STRONG = ["10S", "JS", "QS", "KS", "AS", "AH", "AD", "7H", "8H", "7D", "8D", "7C"]
WEAK = ["7S", "8S", "9S", "9H", "10H", "JH", "9D", "10D", "JD", "8C", "9C", "10C"]

# Elder holds all eight spades, the king of hearts and the aces: capot whatever younger does.
CAPOT_HAND = ["7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS", "KH", "AH", "AD", "AC"]
NO_SPADES = ["7H", "8H", "9H", "10H", "JH", "QH", "7D", "8D", "9D", "10D", "JD", "QD"]


# -- declarations: the issue's vectors ---------------------------------------------------------
def test_issue_vector_royal_hand_declares_57_before_full_hand() -> None:
    """Point 3, sequences 12 (four tierces), sets 42 (three quatorzes) = 57."""
    decls = declarations_of(ROYAL, LOW)
    assert kinds(decls, "point") == [(0, "point of three, 31", 3)]
    assert sum(p for _w, _t, p in kinds(decls, "sequence")) == 12
    assert [t for _w, t, _p in kinds(decls, "sequence")] == [
        "tierce to the ace in spades",
        "tierce to the ace in hearts",
        "tierce to the ace in diamonds",
        "tierce to the ace in clubs",
    ]
    assert kinds(decls, "set") == [
        (0, "quatorze of aces", 14),
        (0, "quatorze of kings", 14),
        (0, "quatorze of queens", 14),
    ]
    classes = [d for d in decls if d[1] in ("point", "sequence", "set")]
    assert sum(d[3] for d in classes) == 57
    assert all(who == 0 for who, *_ in decls), "the opponent beats nothing"


def test_issue_vector_royal_hand_also_repique_and_full_hand() -> None:
    """piquet D8 then D7: 57 against nothing is a repique (reached during the sets), and
    every card lies in a scoring tierce, so the full hand follows."""
    decls = declarations_of(ROYAL, LOW)
    order = [kind for _w, kind, _t, _p in decls]
    assert order == [
        "point",
        *["sequence"] * 4,
        *["set"] * 3,
        "repique",
        "full hand",
    ]
    assert sum(d[3] for d in decls) == 57 + 60 + 50
    state = play(new(ROYAL, LOW), "discard", "discard")
    assert state.scores == (57 + 60 + 50, 0)
    assert announced(state) == [(0, kind, text, points) for _w, kind, text, points in decls]


@pytest.mark.parametrize(("length", "points"), [(3, 3), (4, 4), (5, 15), (6, 16), (7, 17), (8, 18)])
def test_sequence_scores(length: int, points: int) -> None:
    assert sequence_points(length) == points
    ranks = ["7", "8", "9", "10", "J", "Q", "K", "A"][:length]
    decls = declarations_of([r + "H" for r in ranks], ["7S", "9S", "JS"])
    assert kinds(decls, "sequence")[0][2] == points


@pytest.mark.parametrize(
    ("winner", "loser", "score"),
    [((105, 101), (101, 105), 104), ((97, 89), (89, 97), 286), ((120, 99), (99, 120), 319)],
)
def test_d2_settlements(winner: tuple[int, int], loser: tuple[int, int], score: int) -> None:
    """piquet D2: the issue's vectors, whichever seat wins."""
    assert settlement(*winner) == score
    assert settlement(*loser) == score


def test_d2_settlement_loser_over_100_is_100_plus_difference() -> None:
    assert settlement(120, 101) == 119
    assert settlement(100, 100) == 0  # equal totals: a draw


# -- declarations: each class ------------------------------------------------------------------
def test_point_longer_suit_wins_one_per_card() -> None:
    decls = declarations_of(["7H", "8H", "10H", "QH", "AS"], ["AD", "KD", "QD", "9S"])
    assert kinds(decls, "point") == [(0, "point of four, 35", 4)]


def test_point_equal_length_higher_pips_wins() -> None:
    decls = declarations_of(["8D", "9D", "10D", "JD", "AD"], ["7H", "9H", "JH", "QH", "KH"])
    assert kinds(decls, "point") == [(0, "point of five, 48", 5)]


def test_point_equal_length_and_pips_neither_scores() -> None:
    decls = declarations_of(["7H", "9H", "JH"], ["7D", "9D", "JD"])
    assert kinds(decls, "point") == []


def test_sequences_longer_wins_then_higher_top() -> None:
    longer = declarations_of(["7H", "8H", "9H", "10H"], ["QS", "KS", "AS"])
    assert kinds(longer, "sequence") == [(0, "quart to the ten in hearts", 4)]
    higher = declarations_of(["7H", "8H", "9H"], ["JS", "QS", "KS"])
    assert kinds(higher, "sequence") == [(1, "tierce to the king in spades", 3)]


def test_sequences_equal_best_neither_scores() -> None:
    decls = declarations_of(["9H", "10H", "JH", "7C", "8C", "9C"], ["9S", "10S", "JS"])
    assert kinds(decls, "sequence") == []


def test_d5_the_sequence_winner_scores_every_other_sequence_too() -> None:
    """piquet D5: the winner's lesser tierce counts; the loser's quart does not."""
    decls = declarations_of(
        ["9H", "10H", "JH", "QH", "KH", "7C", "8C", "9C"], ["7S", "8S", "9S", "10S"]
    )
    assert kinds(decls, "sequence") == [
        (0, "quint to the king in hearts", 15),
        (0, "tierce to the nine in clubs", 3),
    ]


def test_d6_sets_of_nines_and_below_do_not_count() -> None:
    """piquet D6: a quatorze of nines is nothing; the trio of tens wins the class."""
    decls = declarations_of(["9S", "9H", "9D", "9C", "7S", "7H", "7D"], ["10S", "10H", "10D"])
    assert kinds(decls, "set") == [(1, "trio of tens", 3)]
    assert kinds(declarations_of(STRONG, WEAK), "set") == [(0, "trio of aces", 3)]


def test_d6_a_quatorze_beats_any_trio_and_the_winner_scores_all_his_sets() -> None:
    decls = declarations_of(["10S", "10H", "10D", "10C", "KS", "KH", "KD"], ["AS", "AH", "AD"])
    assert kinds(decls, "set") == [(0, "quatorze of tens", 14), (0, "trio of kings", 3)]


def test_d6_among_trios_the_higher_rank_wins() -> None:
    decls = declarations_of(["JS", "JH", "JD"], ["QS", "QH", "QD", "10S", "10H", "10D"])
    assert kinds(decls, "set") == [(1, "trio of queens", 3), (1, "trio of tens", 3)]


def test_d7_full_hand_needs_every_card_in_a_scoring_combination() -> None:
    """piquet D7: STRONG's low cards score nothing, so no full hand; ROYAL's all do."""
    assert kinds(declarations_of(STRONG, WEAK), "full hand") == []
    assert kinds(declarations_of(ROYAL, LOW), "full hand") == [(0, "full hand", 50)]


def test_d7_the_winning_point_suit_completes_the_hand() -> None:
    """Sets cover eleven cards; the 9S lies only in the spade point: full hand."""
    elder = ["9S", "JS", "KS", "AS", "AH", "AD", "AC", "KH", "KD", "KC", "JH", "JD"]
    younger = ["7S", "8S", "10S", "7H", "8H", "10H", "7D", "8D", "10D", "7C", "8C", "10C"]
    decls = declarations_of(elder, younger)
    assert kinds(decls, "point") == [(0, "point of four, 40", 4)]
    assert kinds(decls, "full hand") == [(0, "full hand", 50)]
    # the same hand when younger's five hearts take the point: the 9S scores nothing
    younger = ["7H", "8H", "9H", "10H", "QH", "7S", "8S", "10S", "7D", "8D", "10D", "7C"]
    decls = declarations_of(elder, younger)
    assert kinds(decls, "point") == [(1, "point of five, 44", 5)]
    assert kinds(decls, "full hand") == []


def test_d7_either_tied_point_suit_may_serve() -> None:
    """Spades (a scoring quart) and hearts tie as the point, four cards and 40 each; only
    hearts covers the 9H, and it may serve."""
    elder = ["10S", "JS", "QS", "KS", "9H", "JH", "KH", "AH", "AD", "AC", "KD", "JD"]
    younger = ["7S", "8S", "9S", "7H", "8H", "10H", "7D", "8D", "10D", "7C", "8C", "10C"]
    decls = declarations_of(elder, younger)
    assert kinds(decls, "point") == [(0, "point of four, 40", 4)]
    assert kinds(decls, "full hand") == [(0, "full hand", 50)]
    # the full hand brings elder to 30 against nothing: repique comes after it (D8 order)
    assert [kind for _w, kind, _t, _p in decls][-2:] == ["full hand", "repique"]


def test_d8_repique_at_30_from_declarations_against_nothing() -> None:
    decls = declarations_of(CAPOT_HAND, NO_SPADES)
    # point of eight (8), huitième (18) = 26, then the quatorze of aces: 40 → repique
    assert [kind for _w, kind, _t, _p in decls] == ["point", "sequence", "set", "repique"]
    assert decls[-1] == (0, "repique", "repique", 60)


def test_d8_no_repique_once_the_opponent_has_scored() -> None:
    """Younger's point of six comes first, so elder's 41 in sequences and sets is no
    repique (nor is the full hand that follows)."""
    elder = ["10S", "JS", "QS", "KS", "AS", "AH", "AD", "AC", "KD", "KC", "QD", "QC"]
    younger = ["7H", "8H", "9H", "JH", "QH", "KH", "7S", "8S", "9S", "7D", "8D", "7C"]
    decls = declarations_of(elder, younger)
    assert decls[0] == (1, "point", "point of six, 54", 6)
    assert sum(p for who, _k, _t, p in decls if who == 0) >= 30
    assert kinds(decls, "repique") == []


def test_d8_an_equal_class_does_not_block_repique() -> None:
    """Tierces to the jack on both sides: nobody scores sequences, and elder's point and
    two quatorzes (33) still make a repique."""
    elder = ["9S", "10S", "JS", "AS", "KS", "AH", "KH", "AD", "KD", "7D", "AC", "KC"]
    younger = ["9H", "10H", "JH", "7S", "8S", "QS", "8D", "10D", "QD", "7C", "9C", "JC"]
    decls = declarations_of(elder, younger)
    assert kinds(decls, "sequence") == []
    assert [kind for _w, kind, _t, _p in decls] == ["point", "set", "set", "repique"]


def test_d8_repique_by_younger() -> None:
    decls = declarations_of(NO_SPADES, CAPOT_HAND)
    assert kinds(decls, "repique") == [(1, "repique", 60)]


# -- the deal and the exchange (D3, D4) --------------------------------------------------------
def test_the_deal_gives_twelve_each_and_talons_of_five_and_three() -> None:
    state = new(ELDER_11, YOUNGER_14)
    assert state.view(0)["hand"] == games.sort_cards(ELDER_11)
    assert state.view(1)["hand"] == games.sort_cards(YOUNGER_14)
    view = state.view(None)
    assert view["phase"] == "discard" and view["elder"] == 0 and view["dealer"] == 1
    assert view["talons"] == [5, 3] and view["exchanged"] == [None, None]
    assert state.to_move == 0


def test_d3_elder_has_1586_discard_choices_all_canonical() -> None:
    moves = new(ELDER_11, YOUNGER_14).legal_moves()
    assert len(moves) == len(set(moves)) == 1586
    assert moves[0] == "discard" and "discard 7S 8S 9S 10S 7H" in moves
    assert all(GAME.new_match(seed=1).canonical(m) == m for m in moves)
    assert max(len(m.split()) for m in moves) == 6


def test_d3_elder_takes_from_the_top_of_his_talon_and_sees_the_rest() -> None:
    talons = ["AS", "KH", "AH", "9D", "10D", "KD", "9C", "10C"]
    state = new(ELDER_11, YOUNGER_14, talons).apply("discard 7S 7H")
    assert state.view(0)["hand"] == games.sort_cards([*ELDER_11[1:4], *ELDER_11[5:], "AS", "KH"])
    assert state.view(0)["talon_seen"] == ["AH", "9D", "10D"]
    assert state.view(0)["discarded"] == ["7S", "7H"]
    assert state.view(1)["talon_seen"] == [] and state.view(1)["discarded"] == []
    assert state.view(None)["talon_seen"] == [] and state.view(None)["discarded"] == []
    assert state.view(None)["talons"] == [3, 3] and state.view(None)["exchanged"] == [2, None]
    assert state.to_move == 1


def test_d3_elder_discards_at_most_five() -> None:
    state = new(ELDER_11, YOUNGER_14)
    with pytest.raises(IllegalMove, match=r"at most 5 cards"):
        state.apply("discard 7S 8S 9S 10S 7H 8H")


def test_d3_discard_alone_keeps_every_card() -> None:
    state = new(ELDER_11, YOUNGER_14).apply("discard")
    assert state.view(0)["hand"] == games.sort_cards(ELDER_11)
    assert state.view(0)["talon_seen"] == state.zones()["elder_talon"]
    assert len(state.view(0)["talon_seen"]) == 5


def test_d4_younger_exchanges_from_his_own_three_only() -> None:
    """piquet D4: elder's leftovers are not passed on; younger 0 to 3 cards (299 choices)."""
    talons = ["AS", "KH", "AH", "9D", "10D", "KD", "9C", "10C"]
    state = new(ELDER_11, YOUNGER_14, talons).apply("discard 7S")
    moves = state.legal_moves()
    assert len(moves) == len(set(moves)) == 299
    with pytest.raises(IllegalMove, match=r"at most 3 cards"):
        state.apply("discard 7D 8D 7C 8C")
    state = state.apply("discard 8C 7D")
    assert "KD" in state.view(1)["hand"] and "9C" in state.view(1)["hand"]
    assert "KH" not in state.view(1)["hand"]
    assert state.view(1)["talon_seen"] == ["10C"]
    assert state.view(0)["talon_seen"] == ["KH", "AH", "9D", "10D"]
    assert state.view(None)["exchanged"] == [1, 2] and state.view(None)["talons"] == [4, 1]
    assert state.view(None)["phase"] == "play" and state.to_move == 0


def test_discards_are_accepted_in_any_order_and_spelling() -> None:
    state = new(ELDER_11, YOUNGER_14)
    canonical = state.apply("discard 7S 8H AC")
    assert state.apply("discard AC 8H 7S") == canonical
    assert state.apply("Discard ac, 8♥ 7s") == canonical


def test_discard_mistakes_are_explained() -> None:
    state = new(ELDER_11, YOUNGER_14)
    with pytest.raises(IllegalMove, match="You do not hold Q♠"):
        state.apply("discard QS")
    with pytest.raises(IllegalMove, match="discarded only once"):
        state.apply("discard 7S 7S")
    with pytest.raises(IllegalMove, match="First comes the exchange"):
        state.apply("play 7S")
    with pytest.raises(IllegalMove, match="not in this game's pack"):
        state.apply("discard 2S")
    with pytest.raises(IllegalMove, match="A move is written as text"):
        state.apply(42)  # type: ignore[arg-type]
    played = play(state, "discard", "discard")
    with pytest.raises(IllegalMove, match="The exchange is over"):
        played.apply("discard 7S")


def test_apply_checks_a_discard_without_listing_every_choice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Performance: ``apply`` reads the cards directly; the 1,586 moves are never built."""
    import games.piquet as module

    def refuse(*_args: object) -> list[str]:
        raise AssertionError("the list of discards was built")

    monkeypatch.setattr(module, "_discard_moves", refuse)
    state = new(ELDER_11, YOUNGER_14)
    after = state.apply("discard 9H 7S JD")
    assert after.view(0)["discarded"] == ["7S", "9H", "JD"]
    assert after.apply("discard 8c").view(1)["discarded"] == ["8C"]


def test_discards_are_hidden_from_the_opponent_and_the_public() -> None:
    state = new(ELDER_11, YOUNGER_14).apply("discard 7S 8S 9S")
    assert state.view(0)["last_move"] == {"seat": 0, "move": "discard 7S 8S 9S"}
    assert state.view(1)["last_move"] == {"seat": 0, "move": "discard 3 cards"}
    assert state.view(None)["last_move"] == {"seat": 0, "move": "discard 3 cards"}
    text = json.dumps(state.view(1)) + json.dumps(state.view(None))
    for card in ("7S", "8S", "9S"):
        assert f'"{card}"' not in text
    kept = state.apply("discard")
    assert kept.view(0)["last_move"] == {"seat": 1, "move": "discard"}
    one = new(ELDER_11, YOUNGER_14).apply("discard 7S")
    assert one.view(None)["last_move"] == {"seat": 0, "move": "discard 1 card"}


def test_views_never_show_the_opponent_hand_or_talon() -> None:
    talons = ["AS", "KH", "AH", "9D", "10D", "KD", "9C", "10C"]
    state = new(ELDER_11, YOUNGER_14, talons)
    for step in (state, state.apply("discard"), play(state, "discard", "discard")):
        younger_view = json.dumps(step.view(1)["hand"]) + json.dumps(step.view(1)["talon_seen"])
        assert not any(f'"{card}"' in younger_view for card in ELDER_11 + talons[:5])
        public = step.view(None)
        assert public["hand"] == [] and public["talon_seen"] == []
        assert public["hand_sizes"] == [12, 12]


# -- declarations in the match -----------------------------------------------------------------
def test_declarations_are_scored_after_both_exchanges_and_announced() -> None:
    state = new(ELDER_11, YOUNGER_14).apply("discard")
    assert state.view(None)["declarations"] == [] and state.scores == (0, 0)
    state = state.apply("discard")
    assert announced(state) == [
        (0, "point", "point of four, 34", 4),
        (0, "sequence", "quart to the ten in spades", 4),
        (0, "sequence", "tierce to the nine in hearts", 3),
        (1, "set", "quatorze of queens", 14),
    ]
    assert state.scores == (11, 14) and state.view(None)["deal_scores"] == [11, 14]


def test_declarations_are_made_on_the_hands_after_the_exchange() -> None:
    """Elder throws his hearts and draws the ace of spades: a quint, no tierce in hearts."""
    talons = ["AS", "KH", "AH", "9D", "10D", "KD", "9C", "10C"]
    state = play(new(ELDER_11, YOUNGER_14, talons), "discard 7H", "discard")
    texts = [text for _s, _k, text, _p in announced(state)]
    assert "tierce to the nine in hearts" not in texts
    assert "point of five, 45" in texts


def test_announcements_as_said_at_the_table() -> None:
    elder = ["9H", "10H", "JH", "QH", "KH", "KS", "KD", "KC", "AS", "AD", "7S", "8S"]
    younger = ["9S", "10S", "JS", "QS", "8D", "9D", "10D", "7C", "8C", "9C", "10C", "JC"]
    state = play(new(elder, younger), "discard", "discard")
    assert announced(state)[:3] == [
        (0, "point", "point of five, 49", 5),
        (0, "sequence", "quint to the king in hearts", 15),
        (0, "set", "quatorze of kings", 14),
    ]


# -- play (D9, D10) ----------------------------------------------------------------------------
def test_seed_example_eleven_against_fourteen() -> None:
    """The seed: 11 to 14; elder leads a ten, "12"; younger takes it with a jack, "15"."""
    state = play(new(ELDER_11, YOUNGER_14), "discard", "discard")
    assert state.view(None)["deal_scores"] == [11, 14]
    state = state.apply("play 10S")
    assert state.view(None)["deal_scores"] == [12, 14]
    state = state.apply("play JS")
    assert state.view(None)["deal_scores"] == [12, 15]
    assert state.to_move == 1, "the winner of a trick leads the next"
    assert state.view(None)["last_trick"] == {
        "cards": [{"seat": 0, "card": "10S"}, {"seat": 1, "card": "JS"}],
        "winner": 1,
    }


def test_d9_leading_a_nine_or_winning_with_a_nine_scores_nothing() -> None:
    state = play(new(STRONG, WEAK), "discard", "discard", "play 7H", "play 9H")
    assert state.view(None)["deal_scores"] == [23, 0]
    assert state.view(None)["tricks_won"] == [0, 1] and state.to_move == 1
    state = play(state, "play 9D", "play 8D")
    assert state.view(None)["deal_scores"] == [23, 0]
    assert state.view(None)["tricks_won"] == [0, 2]


def test_d9_winning_second_with_a_ten_scores_one() -> None:
    state = play(new(STRONG, WEAK), "discard", "discard", "play 7H", "play 10H")
    assert state.view(None)["deal_scores"] == [23, 1]


def test_d9_the_leader_is_not_paid_twice() -> None:
    state = play(new(ELDER_11, YOUNGER_14), "discard", "discard", "play AD", "play 7D")
    assert state.view(None)["deal_scores"] == [12, 14]
    assert state.to_move == 0


def test_the_follower_must_follow_suit_if_able() -> None:
    state = play(new(ELDER_11, YOUNGER_14), "discard", "discard", "play 7S")
    assert state.legal_moves() == ["play JS", "play QS", "play KS"]
    with pytest.raises(IllegalMove, match="You must follow the suit led, ♠"):
        state.apply("play 7D")


def test_a_player_without_the_suit_plays_any_card_and_loses_the_trick() -> None:
    state = play(new(CAPOT_HAND, NO_SPADES), "discard", "discard", "play 7S")
    assert len(state.legal_moves()) == 12
    state = state.apply("play QH")
    assert state.view(None)["last_trick"]["winner"] == 0
    assert state.view(None)["deal_scores"][1] == 0


def test_playing_a_card_not_held_is_refused() -> None:
    state = play(new(ELDER_11, YOUNGER_14), "discard", "discard")
    with pytest.raises(IllegalMove, match="You do not hold Q♠"):
        state.apply("play QS")


def test_d10_pique_by_elder_at_30_in_play_against_nothing() -> None:
    state = play(new(STRONG, WEAK), "discard", "discard")
    assert state.scores == (23, 0)
    leads = ["AS", "KS", "QS", "JS", "10S", "AH"]
    for card in leads:
        state = trick(state, card)
    assert state.view(None)["deal_scores"] == [29, 0]
    assert kinds(announced(state), "pique") == []
    state = state.apply("play AD")
    assert state.view(None)["deal_scores"] == [60, 0]
    assert announced(state)[-1] == (0, "pique", "pique", 30)


def test_d10_pique_by_younger() -> None:
    """Elder leads a seven, younger takes it and leads on to 30: younger's pique."""
    state = play(new(WEAK, STRONG), "discard", "discard")
    assert state.scores == (0, 23)
    state = play(state, "play 7S", "play AS")
    assert state.view(None)["deal_scores"] == [0, 24]
    for card in ["KS", "QS", "JS", "10S", "AH"]:
        state = trick(state, card)
    assert state.view(None)["deal_scores"] == [0, 29]
    state = state.apply("play AD")
    assert announced(state)[-1] == (1, "pique", "pique", 30)
    assert state.view(None)["deal_scores"] == [0, 60]


def test_d10_no_pique_once_the_opponent_has_scored() -> None:
    state = play(new(STRONG, WEAK), "discard", "discard", "play 7H", "play 10H")
    assert state.view(None)["deal_scores"] == [23, 1]
    state = play(state, "play 9D", "play AD")
    for card in ["AS", "KS", "QS", "JS", "10S", "AH"]:
        state = trick(state, card)
    assert state.view(None)["deal_scores"][0] >= 30
    assert kinds(announced(state), "pique") == []


def test_d10_never_both_repique_and_pique_and_capot_instead_of_the_cards() -> None:
    """Elder's repique (D8) puts him past 30 against nothing in play: no pique; all twelve
    tricks: capot, 40 and not the cards' 10."""
    state = play(new(CAPOT_HAND, NO_SPADES, deals=1), "discard", "discard")
    assert kinds(announced(state), "repique") == [(0, "repique", 60)]
    assert state.scores == (100, 0)  # 8 + 18 + 14 + 60
    for card in CAPOT_HAND:
        state = trick(state, card)
    assert state.result is not None
    # nine leads above the nine, the last trick, capot
    assert state.result["deals"] == [[100 + 9 + 1 + 40, 0]]
    ends = [kind for _s, kind, _t, _p in announced(state)][-2:]
    assert ends == ["repique", "capot"]
    # piquet D2: younger is rubiconed, so elder's game score is 100 + 150 + 0
    assert state.result["winner"] == 0 and state.result["settlement"] == 250
    assert state.result["rubicon"] is True


def test_the_cards_ten_for_seven_tricks_or_more() -> None:
    elder = ["7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS", "7H", "AH", "AD", "AC"]
    younger = ["8H", "9H", "10H", "JH", "QH", "KH", "7D", "8D", "9D", "10D", "JD", "QD"]
    state = play(new(elder, younger, deals=1), "discard", "discard")
    assert state.scores == (100, 0)
    state = play(state, "play 7H", "play 8H", "play 9H", "play AH")  # 1 for the ace's capture
    for card in ["7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS", "AD"]:
        state = trick(state, card)
    assert announced(state)[-1] == (0, "repique", "repique", 60)  # not yet the cards
    state = trick(state, "AC")
    assert state.result is not None
    assert state.result["deals"] == [[100 + 1 + 7 + 1 + 10, 0]]
    assert announced(state)[-1] == (0, "cards", "the cards", 10)


def test_six_tricks_each_score_no_cards() -> None:
    elder = ["AS", "KS", "QS", "JS", "10S", "9S", "7H", "8H", "9H", "10H", "JH", "QH"]
    younger = ["KH", "AH", "7C", "8C", "9C", "10C", "JC", "QC", "KC", "AC", "7D", "8D"]
    state = play(new(elder, younger, deals=1), "discard", "discard")
    assert state.scores == (0, 26)  # point of eight, huitième in clubs
    for lead, follow in zip(
        ["AS", "KS", "QS", "JS", "10S", "9S"], ["7D", "8D", "7C", "8C", "9C", "10C"], strict=True
    ):
        state = play(state, f"play {lead}", f"play {follow}")
    state = play(state, "play 7H", "play KH", "play AH", "play 8H")
    for lead in ["JC", "QC", "KC", "AC"]:
        state = trick(state, lead)
    assert state.result is not None
    # elder: five leads above the nine; younger: KH's capture, five leads, the last trick
    assert state.result["deals"] == [[5, 26 + 1 + 5 + 1]]
    assert all(kind not in ("cards", "capot") for _s, kind, _t, _p in announced(state))


# -- the partie (D1, D2) ------------------------------------------------------------------------
def test_d1_six_deals_with_alternating_dealer_then_the_settlement() -> None:
    state = GAME.new_match(seed=11, options={"first_dealer": 0})
    dealers = []
    while state.to_move is not None:
        view = state.view(None)
        if not dealers or view["deal"] != len(dealers):
            dealers.append(view["dealer"])
            assert view["elder"] == 1 - view["dealer"] and state.to_move == view["elder"]
        state = state.apply(state.legal_moves()[-1])
    assert dealers == [0, 1, 0, 1, 0, 1]
    result = state.result
    assert result is not None
    a, b = result["scores"]
    assert result["scores"] == list(state.scores)
    assert [sum(col) for col in zip(*result["deals"], strict=True)] == [a, b]
    assert len(result["deals"]) == 6
    assert result["settlement"] == settlement(a, b)
    assert result["winner"] == (0 if a > b else 1 if b > a else None)
    assert result["rubicon"] == (a != b and min(a, b) < 100)
    assert state.view(None)["phase"] == "over"
    with pytest.raises(IllegalMove, match="over"):
        state.apply("play 7S")


def test_d1_the_first_dealer_is_drawn_by_lot() -> None:
    assert {GAME.new_match(seed=seed).view(None)["dealer"] for seed in range(30)} == {0, 1}


def test_deals_option_shortens_the_partie() -> None:
    state = new(ELDER_11, YOUNGER_14, deals=1)
    state = finish_deal(state)
    assert state.to_move is None and state.result is not None
    assert len(state.result["deals"]) == 1
    with pytest.raises(ValueError, match="at most 12"):
        GAME.new_match(seed=1, options={"deals": 13})


def test_later_deals_use_later_decks() -> None:
    second = list(reversed(PIQUET_PACK))
    state = GAME.new_match(
        seed=2, options={"first_dealer": 1}, deck=[deck_for(ELDER_11, YOUNGER_14), second]
    )
    state = finish_deal(state)
    assert state.view(None)["dealer"] == 0 and state.to_move == 1
    assert state.view(1)["hand"] == games.sort_cards(second[:12])  # seat 1 is elder now
    assert state.view(0)["hand"] == games.sort_cards(second[12:24])


def test_scores_add_every_point_of_every_deal() -> None:
    state = finish_deal(play(new(ELDER_11, YOUNGER_14), "discard", "discard"))
    history = state.view(None)["deal_history"]
    assert list(state.scores) == history[0]
    assert state.view(None)["deal_scores"] == [0, 0] and state.view(None)["declarations"] == []


def test_json_round_trip_mid_trick() -> None:
    state = play(new(ELDER_11, YOUNGER_14), "discard 7S", "discard 8C", "play 10S")
    again = GAME.from_json(state.to_json())
    assert again == state and again.view(1) == state.view(1)
    assert again.legal_moves() == state.legal_moves()


def test_every_view_has_the_same_keys_and_refuses_a_wrong_seat() -> None:
    state = play(new(ELDER_11, YOUNGER_14), "discard 7S", "discard", "play 10S")
    keys = set(state.view(None))
    assert set(state.view(0)) == set(state.view(1)) == keys
    assert {"talons", "exchanged", "talon_seen", "discarded", "declarations", "trick"} <= keys
    assert state.view(None)["trick"] == [{"seat": 0, "card": "10S"}]
    for seat in (2, -1):
        with pytest.raises(ValueError, match="seat"):
            state.view(seat)


def test_json_with_a_doubled_card_is_refused() -> None:
    state = play(new(ELDER_11, YOUNGER_14), "discard", "discard", "play 10S")
    data = json.loads(state.to_json())
    data["played"] = ["JS"]
    with pytest.raises(ValueError, match="cards"):
        GAME.from_json(json.dumps(data))
