"""A state's fields and how each is read back from stored JSON (games/fields.py)."""

from __future__ import annotations

import dataclasses

import pytest

from games.fields import (
    as_is,
    derived,
    lists,
    read_cards,
    read_int,
    read_last,
    read_rows,
    read_scores,
    read_seat,
    read_seat_or_none,
    sorted_pack,
    stored,
)


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


def test_rows_and_last_moves_are_read_whole_or_refused() -> None:
    assert read_rows([[0, "QS"], [1, "7H"]], read_seat, str) == ((0, "QS"), (1, "7H"))
    with pytest.raises(ValueError, match="rows of 2"):
        read_rows([[0, "QS", 3]], read_seat, str)
    with pytest.raises(ValueError, match="seat"):
        read_rows([[2, "QS"]], read_seat, str)
    assert read_last(None) is None
    assert read_last([1, "play QS"]) == (1, "play QS")
    assert read_last([0, "discard 7S 8S", "discard 2"]) == (0, "discard 7S 8S", "discard 2")
    with pytest.raises(ValueError, match="last move"):
        read_last([0])
    assert read_cards(["7S", "AH"]) == ("7S", "AH")
    with pytest.raises(ValueError, match="list of cards"):
        read_cards("7S AH")


def test_a_field_says_how_it_is_stored_or_that_it_is_derived() -> None:
    @dataclasses.dataclass
    class Fields:
        plain: int = stored()
        renamed: tuple[tuple[str, ...], ...] = stored(key="cards", write=lists, read=read_cards)
        later: int | None = stored(optional=True)
        rebuilt: int = derived()

    plain, renamed, later, rebuilt = (field.metadata for field in dataclasses.fields(Fields))
    assert plain == {"key": None, "write": as_is, "read": as_is, "optional": False}
    assert renamed["key"] == "cards" and renamed["write"] is lists
    assert later["optional"] is True
    assert rebuilt == {"derived": True}
    assert lists(((1, 2), (3,))) == [[1, 2], [3]]


def test_a_pack_is_sorted_once() -> None:
    pack = ("QS", "7H", "AS")
    assert sorted_pack(pack) == ["7H", "AS", "QS"]
    assert sorted_pack(pack) is sorted_pack(pack)
