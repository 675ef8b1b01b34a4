"""The shared machinery of every engine (games/core.py)."""

from __future__ import annotations

import pytest

from games.core import (
    Option,
    read_int,
    read_scores,
    read_seat,
    read_seat_or_none,
)


def test_option_checks() -> None:
    target = Option("target", 11, choices=(11, 17))
    assert target.check(17) == 17
    with pytest.raises(ValueError, match="11 or 17"):
        target.check(12)
    with pytest.raises(ValueError, match="whole number"):
        target.check(True)
    assert Option("first_dealer", None, choices=(0, 1)).check(None) is None


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
