"""The match header and the copy, writer and reader made from a state's fields
(games/header.py), shown on the toy game of the tests, whose fields are few."""

from __future__ import annotations

import json

import pytest

from games.header import MatchState, dumps
from tests.games.toy import GAME

HEADER_KEYS = {
    "game", "seed", "deals", "first_dealer_option", "decks", "deal", "dealer", "totals",
    "history", "last", "result", "turn",
}  # fmt: skip


def _played(moves: int) -> MatchState:
    state = GAME.new_match(seed=3)
    for _ in range(moves):
        state = state.apply(state.legal_moves()[0])
    assert isinstance(state, MatchState)
    return state


def test_the_header_is_stored_under_the_keys_it_was_first_stored_under() -> None:
    data = json.loads(_played(3).to_json())
    assert data.keys() >= HEADER_KEYS
    assert data.keys() - HEADER_KEYS == {"hands", "stock", "trick", "taken"}
    assert data["deals"] == 2 and data["first_dealer_option"] is None and data["seed"] == 3


def test_to_json_is_compact_sorted_and_the_same_with_tuples_left_as_they_are() -> None:
    state = _played(5)
    text = state.to_json()
    assert text == dumps(state.to_data()) == dumps(state.to_data(tuples=True))
    assert ", " not in text and list(json.loads(text)) == sorted(json.loads(text))


def test_a_copy_holds_every_field_and_shares_no_memo() -> None:
    state = _played(2)
    state.legal_moves()
    copied = state._copy()
    assert copied is not state and copied == state and copied.to_json() == state.to_json()
    assert copied._legal is None


def test_a_stored_state_reads_back_to_the_same_text_or_is_refused() -> None:
    text = _played(7).to_json()
    assert GAME.from_json(text).to_json() == text
    data = json.loads(text)
    del data["totals"]
    with pytest.raises(ValueError, match="unreadable"):
        GAME.from_json(json.dumps(data))
    data = json.loads(text)
    data["dealer"] = 2
    with pytest.raises(ValueError, match="seat is 0 or 1"):
        GAME.from_json(json.dumps(data))
