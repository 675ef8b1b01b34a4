"""The shared machinery of every engine (games/core.py)."""

from __future__ import annotations

import pytest

from games.cards import PIQUET_PACK
from games.core import (
    IllegalMove,
    Option,
    canonical_move,
    deck_for_deal,
    draw_lots,
    move_cards,
    normalize_decks,
    read_int,
    read_scores,
    read_seat,
    read_seat_or_none,
    seat_or_lot,
    shuffled,
)

SYNTAX = {"play": "card", "discard": "cards", "meld": "cards+", "draw": "suit?", "declare": ("7",)}


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("play qs", "play QS"),
        ("  PLAY   Q♠ ", "play QS"),
        ("discard 9h 7s", "discard 7S 9H"),
        ("discard, 9h, 7s", "discard 7S 9H"),
        ("discard", "discard"),
        ("meld J♦ Q♠", "meld QS JD"),
        ("draw", "draw"),
        ("draw h", "draw H"),
        ("draw ♥", "draw H"),
        ("Declare 7", "declare 7"),
    ],
)
def test_canonical_move(typed: str, canonical: str) -> None:
    assert canonical_move(typed, SYNTAX) == canonical


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("", "The move is empty"),
        ("jump QS", "“jump” is not a move"),
        ("play", "exactly one card"),
        ("play QS KS", "exactly one card"),
        ("meld", "at least one card"),
        ("play QX", "not a card"),
        ("draw H S", "at most one suit"),
        ("draw X", "not a suit"),
        ("declare 8", "declare 7"),
    ],
)
def test_malformed_moves_say_what_would_do(typed: str, reason: str) -> None:
    with pytest.raises(IllegalMove, match=reason):
        canonical_move(typed, SYNTAX)


def test_illegal_move_is_a_value_error() -> None:
    assert issubclass(IllegalMove, ValueError)


def test_move_cards() -> None:
    assert move_cards("discard 7S 9H") == ["7S", "9H"]
    assert move_cards("draw H") == []
    assert move_cards("declare 7") == []


def test_option_checks() -> None:
    target = Option("target", 11, choices=(11, 17))
    assert target.check(17) == 17
    with pytest.raises(ValueError, match="11 or 17"):
        target.check(12)
    with pytest.raises(ValueError, match="whole number"):
        target.check(True)
    assert Option("first_dealer", None, choices=(0, 1)).check(None) is None


def test_shuffles_are_fixed_by_seed_and_deal() -> None:
    assert shuffled(PIQUET_PACK, 1, "g", 0) == shuffled(PIQUET_PACK, 1, "g", 0)
    assert shuffled(PIQUET_PACK, 1, "g", 0) != shuffled(PIQUET_PACK, 1, "g", 1)
    assert shuffled(PIQUET_PACK, 1, "g", 0) != shuffled(PIQUET_PACK, 2, "g", 0)
    assert shuffled(PIQUET_PACK, 1, "g", 0) != shuffled(PIQUET_PACK, 1, "h", 0)
    assert {draw_lots(seed, "g", "first") for seed in range(20)} == {0, 1}


def test_deck_overrides() -> None:
    one = list(reversed(PIQUET_PACK))
    assert normalize_decks(one, PIQUET_PACK) == (tuple(one),)
    assert normalize_decks([one, PIQUET_PACK], PIQUET_PACK) == (tuple(one), PIQUET_PACK)
    decks = normalize_decks([one], PIQUET_PACK)
    assert deck_for_deal(decks, PIQUET_PACK, 5, "g", 0) == tuple(one)
    assert deck_for_deal(decks, PIQUET_PACK, 5, "g", 1) == shuffled(PIQUET_PACK, 5, "g", 1)
    with pytest.raises(ValueError, match="not a mix"):
        normalize_decks([one, "7S"], PIQUET_PACK)
    with pytest.raises(ValueError, match="list of card codes"):
        normalize_decks("7S 8S", PIQUET_PACK)
    with pytest.raises(ValueError, match="empty"):
        normalize_decks([], PIQUET_PACK)


def test_seat_or_lot() -> None:
    assert seat_or_lot(1, 5, "g", "first dealer") == 1
    assert seat_or_lot(None, 5, "g", "first dealer") == draw_lots(5, "g", "first dealer")


def test_stored_values_of_the_wrong_kind_are_refused() -> None:
    assert read_int(3) == 3 and read_seat(1) == 1 and read_seat_or_none(None) is None
    assert read_scores([4, 7]) == (4, 7)
    for bad in (True, "1", 1.0, None):
        with pytest.raises(ValueError):
            read_int(bad)
    with pytest.raises(ValueError, match="seat"):
        read_seat(2)
    for bad_pair in ([1], [1, 2, 3], "12", [1, "2"]):
        with pytest.raises(ValueError):
            read_scores(bad_pair)
