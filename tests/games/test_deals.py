"""Deals fixed by the seed, and decks given by hand (games/deals.py)."""

from __future__ import annotations

import pytest

from games.cards import PIQUET_PACK
from games.deals import deck_for_deal, draw_lots, normalize_decks, seat_or_lot, shuffled


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
