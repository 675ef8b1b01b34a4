"""A state's fields: each declared once, with its type and the way it is stored.

Every game's state is a dataclass of fields; from that one list come its slots, the copy made
by every move, and its JSON (games/header.py). A stored field names its JSON key, its writer
and its reader; a reader raises ValueError on a value of the wrong kind, since what it reads
is a stored row that must be refused whole if it is corrupt. A derived field is not stored:
the game rebuilds it after loading.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any

from games.kinds import Json, Seat

Codec = Callable[[Any], Any]


def as_is(value: Any) -> Any:
    """The codec of a field written and read as it is (a number, a string, None)."""
    return value


def stored(
    key: str | None = None, write: Codec = as_is, read: Codec = as_is, optional: bool = False
) -> Any:
    """A field kept by ``to_json`` under ``key`` (default: its name without the underscore),
    written to JSON by ``write`` and read back by ``read`` (which raises on a corrupt value).

    ``optional``: a field added after matches were stored. None is not written, and a state
    without the key reads it as None, so states stored before it existed still load and a
    state that never needs it writes the same text as before."""
    return dataclasses.field(
        metadata={"key": key, "write": write, "read": read, "optional": optional}
    )


def derived() -> Any:
    """A field ``to_json`` does not keep: ``_derive`` rebuilds it from the stored ones."""
    return dataclasses.field(metadata={"derived": True})


def read_int(value: object) -> int:
    if type(value) is int:  # the common case, first: a stored state holds many numbers
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"expected a whole number, not {value!r}")
    return value


def read_seat(value: object) -> Seat:
    if type(value) is int and 0 <= value <= 1:  # the common case, first
        return value
    if read_int(value) not in (0, 1):
        raise ValueError(f"a seat is 0 or 1, not {value!r}")
    return read_int(value)


def read_seat_or_none(value: object) -> Seat | None:
    return None if value is None else read_seat(value)


def read_scores(value: object) -> tuple[int, int]:
    """A pair of whole numbers, seat 0's then seat 1's."""
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise ValueError(f"expected two numbers, one per seat, not {value!r}")
    return read_int(value[0]), read_int(value[1])


def read_result(value: object) -> Json | None:
    if value is not None and not isinstance(value, dict):
        raise ValueError(f"a result is an object or null, not {value!r}")
    return value


def read_history(value: object) -> tuple[tuple[int, int], ...]:
    """One pair of scores per finished deal."""
    if not isinstance(value, list | tuple):
        raise ValueError(f"expected a list of scores, not {value!r}")
    return tuple(read_scores(scores) for scores in value)


def read_last(value: object) -> tuple[Seat, str] | tuple[Seat, str, str] | None:
    """The last move: (seat, move) or, where others see it otherwise, (seat, move, public)."""
    if value is None:
        return None
    if not isinstance(value, list | tuple) or len(value) not in (2, 3):
        raise ValueError(f"a last move is [seat, move] or [seat, move, public], not {value!r}")
    if len(value) == 2:
        return read_seat(value[0]), str(value[1])
    return read_seat(value[0]), str(value[1]), str(value[2])


def read_cards(value: object) -> tuple[str, ...]:
    """Card codes as stored; the game's ``_check`` proves they add up to its pack."""
    if not isinstance(value, list | tuple):
        raise ValueError(f"expected a list of cards, not {value!r}")
    return tuple(map(str, value))


def read_decks(value: object) -> tuple[tuple[str, ...], ...]:
    if not isinstance(value, list | tuple):
        raise ValueError(f"expected a list of decks, not {value!r}")
    return tuple(read_cards(deck) for deck in value)


def read_rows(value: object, *readers: Codec) -> tuple[tuple[Any, ...], ...]:
    """A list of rows of fixed length, each value read by its own reader: melds,
    declarations, exchanges, the cards of a trick."""
    if not isinstance(value, list | tuple):
        raise ValueError(f"expected a list, not {value!r}")
    rows = []
    for row in value:
        if not isinstance(row, list | tuple) or len(row) != len(readers):
            raise ValueError(f"expected rows of {len(readers)} values, not {row!r}")
        rows.append(tuple([read(item) for read, item in zip(readers, row, strict=True)]))
    return tuple(rows)


_SORTED_PACKS: dict[tuple[str, ...], list[str]] = {}


def sorted_pack(pack: tuple[str, ...]) -> list[str]:
    """``sorted(pack)``, sorted once: a state read back is checked against it (don't change
    the list)."""
    found = _SORTED_PACKS.get(pack)
    if found is None:
        found = _SORTED_PACKS[pack] = sorted(pack)
    return found


def lists(value: Iterable[Iterable[Any]]) -> list[list[Any]]:
    """A tuple of tuples as JSON lists (decks, hands, score pairs)."""
    return [list(item) for item in value]


def list_or_none(value: Iterable[Any] | None) -> list[Any] | None:
    return None if value is None else list(value)
