"""The shared machinery of every engine (games/core.py)."""

from __future__ import annotations

import pytest

from games.cards import PIQUET_PACK
from games.core import (
    Option,
    deck_for_deal,
    draw_lots,
    normalize_decks,
    read_int,
    read_scores,
    read_seat,
    read_seat_or_none,
    seat_or_lot,
    shuffled,
)


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
