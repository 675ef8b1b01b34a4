"""Card codes and packs (docs/engine.md, "Cards and moves")."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.cards import (
    DOUBLE_PACK,
    PIQUET_PACK,
    TAROT_SET,
    Card,
    check_deck,
    format_card,
    parse_card,
    sort_cards,
)

ALL_CODES = sorted(set(PIQUET_PACK) | set(TAROT_SET) | {r + s for r in "JQKA" for s in "SHDC"})


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("10H", "10H"),
        ("qs", "QS"),
        ("Q♠", "QS"),
        ("q♤", "QS"),
        ("7♦", "7D"),
        ("j♣", "JC"),
        ("21t", "21T"),
        (" 2T ", "2T"),
        ("10♥", "10H"),
    ],
)
def test_parse_accepts_codes_symbols_and_any_case(text: str, code: str) -> None:
    assert parse_card(text) == code


@pytest.mark.parametrize("text", ["", "Q", "1S", "11H", "QX", "ZS", "15T", "AT", "JT", "10"])
def test_parse_refuses_what_is_not_a_card(text: str) -> None:
    with pytest.raises(ValueError, match="not a card"):
        parse_card(text)


@given(st.sampled_from(ALL_CODES))
def test_parse_and_format_are_inverses(code: str) -> None:
    assert parse_card(format_card(code)) == code
    assert parse_card(format_card(code, symbols=True)) == code
    assert parse_card(code.lower()) == code


def test_card_value_type() -> None:
    card = Card.parse("q♠")
    assert card == Card("Q", "S") and str(card) == "QS" and card.symbol == "Q♠"
    assert repr(card) == "Card(QS)"


def test_packs() -> None:
    assert len(PIQUET_PACK) == 32 and len(set(PIQUET_PACK)) == 32
    assert len(DOUBLE_PACK) == 64 and Counter(DOUBLE_PACK) == Counter(PIQUET_PACK * 2)
    assert len(TAROT_SET) == 60 and len(set(TAROT_SET)) == 60
    assert sum(1 for card in TAROT_SET if card.endswith("T")) == 12


def test_canonical_order_is_suit_then_rank() -> None:
    assert sort_cards(["AS", "2T", "10S", "21T", "JH", "9S", "19T", "2D"]) == [
        "9S", "10S", "AS", "JH", "2D", "2T", "19T", "21T",
    ]  # fmt: skip


def test_check_deck_names_the_fault() -> None:
    assert check_deck(list(reversed(PIQUET_PACK)), PIQUET_PACK)[0] == "AC"
    with pytest.raises(ValueError, match="missing 7S"):
        check_deck(PIQUET_PACK[1:], PIQUET_PACK)
    with pytest.raises(ValueError, match="too many 8S"):
        check_deck(("8S", *PIQUET_PACK[1:]), PIQUET_PACK)
    with pytest.raises(ValueError, match="21T not in this game's pack"):
        check_deck(("21T", *PIQUET_PACK[1:]), PIQUET_PACK)
    with pytest.raises(ValueError, match="not a card"):
        check_deck(("zz", *PIQUET_PACK[1:]), PIQUET_PACK)
