"""Écarté's computer reads the opponent's hand from what they chose and how they answered:
the deals it samples fit those choices (most of the time) and the rules (always).

Seat 1 deals, so seat 0 is elder; hearts are trumps (the 7♥ turned up)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import games
from ai.ecarte import PLAYABLE, determinize, keeper, strength
from games import State
from games.cards import PIQUET_PACK

GAME = games.get("ecarte")
ELDER, DEALER = 0, 1
TRUMP = "H"
SAMPLES = 400


def dealt(elder: Sequence[str], dealer: Sequence[str], *moves: str) -> State:
    chosen = [*elder, *dealer, "7" + TRUMP]
    deck = [*chosen, *(card for card in PIQUET_PACK if card not in chosen)]
    state = GAME.new_match(seed=7, options={"first_dealer": DEALER}, deck=[deck, PIQUET_PACK])
    for move in moves:
        state = state.apply(move)
    return state


def their_hands(state: State, seat: int) -> list[list[str]]:
    """The opponent's hand (with the cards they already played this hand) in many deals
    sampled from ``seat``'s view."""
    view = state.view(seat)
    rng = random.Random("reading")
    hands = []
    for _ in range(SAMPLES):
        other = determinize(view, rng).view(1 - seat)
        shown = [
            e["card"] for done in other["tricks"] for e in done["cards"] if e["seat"] == 1 - seat
        ]
        shown += [e["card"] for e in other["trick"] if e["seat"] == 1 - seat]
        hands.append([*other["hand"], *shown])
    return hands


def share(hands: list[list[str]], test: object) -> float:
    assert callable(test)
    return sum(1 for hand in hands if test(hand)) / len(hands)


# The dealer holds no trump, so the cards hidden from them are rich in trumps: a hand drawn
# from them at random is often worth playing.
WEAK = ["7S", "8S", "7D", "8C", "9C"]
NO_TRUMPS = ["AS", "KS", "QD", "JD", "KC"]


def is_strong(hand: list[str]) -> bool:
    return strength(hand, TRUMP) >= PLAYABLE


def test_a_proposal_refused_still_tells_the_proposer_wanted_other_cards() -> None:
    # Elder proposed, the dealer refused, elder led: the proposer's hand is one worth
    # changing, even though play has begun and the dealer is the one committed.
    refused = their_hands(dealt(WEAK, NO_TRUMPS, "propose", "refuse", "play 7S"), DEALER)
    played_at_once = their_hands(dealt(WEAK, NO_TRUMPS, "play 7S"), DEALER)
    assert share(refused, is_strong) < 0.15
    assert share(played_at_once, is_strong) > 0.6


def test_a_later_refusal_tells_the_dealer_holds_a_hand_worth_playing() -> None:
    # After one exchange, elder proposes again and the dealer refuses: nobody is committed
    # (ecarte D7), but the dealer still showed a hand worth playing.
    state = dealt(
        ["7S", "8S", "7D", "8D", "9D"],
        ["AS", "KS", "7C", "8C", "9C"],
        "propose", "accept", "discard 7S 8S 7D 8D 9D", "discard 7C 8C 9C",
    )  # fmt: skip
    state = state.apply("propose").apply("refuse")
    assert state.view(ELDER)["committed"] is None
    assert share(their_hands(state, ELDER), is_strong) > 0.6


def test_a_dealer_who_accepted_holds_a_hand_worth_changing_until_they_exchange() -> None:
    hands = their_hands(dealt(NO_TRUMPS, WEAK, "propose", "accept"), ELDER)
    assert share(hands, is_strong) < 0.15


def test_an_exchange_of_few_cards_tells_the_rest_were_worth_keeping() -> None:
    # Elder changes one card only: the four kept are trumps and kings, mostly.
    state = dealt(["KH", "QH", "JH", "KS", "7C"], WEAK, "propose", "accept", "discard 7C")
    hands = their_hands(state, DEALER)
    assert share(hands, lambda hand: sum(keeper(c, TRUMP) for c in hand) >= 4) > 0.6
    # A full exchange tells nothing of the five cards drawn.
    state = dealt(["8D", "9D", "10D", "10C", "JC"], WEAK, "propose", "accept")
    state = state.apply("discard 8D 9D 10D 10C JC")
    hands = their_hands(state, DEALER)
    assert share(hands, lambda hand: sum(keeper(c, TRUMP) for c in hand) >= 4) < 0.1


def test_an_answer_that_does_not_follow_suit_shows_a_void() -> None:
    # Elder leads a spade; the dealer, with neither spades nor trumps, throws a club. From
    # then on no deal gives the dealer a spade or a trump.
    state = dealt(["10S", "9D", "8D", "7C", "8C"], ["KD", "QD", "JC", "9C", "AC"])
    state = state.apply("play 10S").apply("play 9C")
    hands = their_hands(state, ELDER)
    assert all(not any(c[-1] in ("S", TRUMP) for c in hand[:4]) for hand in hands)
    # An answer in the suit led that does not beat it: no higher card of that suit.
    state = dealt(["QS", "9D", "8D", "7C", "8C"], ["7S", "QD", "JC", "9C", "AC"])
    state = state.apply("play QS").apply("play 7S")
    hands = their_hands(state, ELDER)
    assert all("KS" not in hand for hand in hands)
