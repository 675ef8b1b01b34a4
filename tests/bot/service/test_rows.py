"""A stored match reads back as it was written, a damaged one is Unreadable, and a change
writes only the columns that differ."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.service import MatchService
from bot.service.rows import (
    MAX_ID,
    Unreadable,
    changed_columns,
    dumps,
    row_from_stored,
    storable_id,
)
from tests.bot.conftest import start_match


def test_json_is_stored_compact_and_sorted() -> None:
    assert dumps({"b": 1, "a": [1, 2]}) == '{"a":[1,2],"b":1}'


def test_only_a_positive_64_bit_integer_is_an_id() -> None:
    assert storable_id(1) and storable_id(MAX_ID)
    assert not any(storable_id(v) for v in (0, -1, MAX_ID + 1, True, 1.0, "1"))


async def test_a_row_reads_back_and_a_damaged_one_does_not(service: MatchService) -> None:
    info = await start_match(service, days=1)
    stored = await service.store.read_stored(info.id)
    names = stored.keys()  # iterating a row gives its values
    columns = {name: stored[name] for name in names}
    row = row_from_stored(columns)
    assert row == await service.store.read(info.id)
    assert row.state is not None and row.alarm == (row.deadline, row.reminder_at)
    damages: list[tuple[dict[str, object], str]] = [
        ({"deadline": "soon"}, "its deadline is not a number"),
        ({"version": None}, "its version is not an integer"),
        ({"seat1_id": None}, "a started match with a seat missing"),
        ({"state": None}, "an active match without a state"),
        ({"options": "[1]"}, "options are not a mapping"),
    ]
    for damage, problem in damages:
        with pytest.raises(Unreadable, match=problem):
            row_from_stored({**columns, **damage})
    # Set aside, it still reads, without its state, a damaged column as empty.
    aside = row_from_stored({**columns, "status": "corrupt", "state": "[", "seed": "x"})
    assert aside.status == "corrupt" and aside.state is None and aside.seed is None


async def test_a_change_writes_only_what_differs(service: MatchService) -> None:
    info = await start_match(service, days=1)
    row = await service.store.peek(info.id)
    assert changed_columns(row, row) == {}
    assert changed_columns(row, replace(row, reminder_at=None)) == {"reminder_at": None}
    with pytest.raises(ValueError, match="never changes"):
        changed_columns(row, replace(row, rated=not row.rated))
    assert row.state is not None
    state = row.state.apply(row.state.legal_moves()[0])
    moved = replace(row, state=state, version=1)
    assert changed_columns(row, moved) == {"state": state.to_json(), "version": 1}
    over = replace(row, result={"winner": 0, "b": 1})
    assert changed_columns(row, over) == {"result": '{"b":1,"winner":0}'}
