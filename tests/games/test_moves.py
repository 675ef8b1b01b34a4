"""Moves as typed, read into canonical notation (games/moves.py)."""

from __future__ import annotations

import pytest

from games.moves import canonical_move, move_cards
from games.refusals import IllegalMove

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


def test_move_cards() -> None:
    assert move_cards("discard 7S 9H") == ["7S", "9H"]
    assert move_cards("draw H") == []
    assert move_cards("declare 7") == []


def test_a_verb_reads_in_other_words_with_or_without_accents() -> None:
    assert canonical_move("Joue q♠", SYNTAX) == "play QS"
    assert canonical_move("écarte 9h 7s", SYNTAX) == "discard 7S 9H"
    assert canonical_move("ecarte 9h 7s", SYNTAX) == "discard 7S 9H"
