"""The engine contract every game shares: its options (games/core.py)."""

from __future__ import annotations

import pytest

from games.core import Option, base_view
from games.refusals import Refusal
from tests.games.toy import GAME


def test_option_checks() -> None:
    target = Option("target", 11, choices=(11, 17))
    assert target.check(17) == 17
    with pytest.raises(ValueError, match="11 or 17"):
        target.check(12)
    with pytest.raises(ValueError, match="whole number"):
        target.check(True)
    assert Option("first_dealer", None, choices=(0, 1)).check(None) is None


def test_options_are_read_by_name_or_older_name_once() -> None:
    assert GAME.check_options({"first_dealer": 1}) == {"deals": 2, "first_seat": 1}
    assert GAME.check_options(None) == {"deals": 2, "first_seat": None}
    assert GAME.short_options() == {"deals": 1}
    with pytest.raises(Refusal, match="given twice"):
        GAME.check_options({"first_seat": 0, "first_dealer": 1})
    with pytest.raises(Refusal, match="not an option of"):
        GAME.check_options({"rounds": 3})


def test_a_view_shows_a_hand_and_moves_only_to_its_seat() -> None:
    state = GAME.new_match(seed=3, options={"first_seat": 1})
    mover = state.to_move
    assert mover is not None
    hand = ["AS", "9S"]
    mine = base_view(state, mover, hand)
    assert mine["hand"] == ["9S", "AS"] and mine["legal_moves"] == state.legal_moves()
    theirs = base_view(state, 1 - mover, hand)
    assert theirs["legal_moves"] == []
    watcher = base_view(state, None, hand)
    assert watcher["hand"] == [] and watcher["legal_moves"] == [] and watcher["seat"] is None
    with pytest.raises(ValueError, match="seat must be"):
        base_view(state, 2, hand)
