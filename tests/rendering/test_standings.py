"""The standings picture: drawn from plain rows, any name, and bad rows refused."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from rendering.standings import half, standings_png


def _row(rank: int, name: str, score: float, **extra: object) -> dict[str, object]:
    row: dict[str, object] = {
        "rank": rank,
        "name": name,
        "score": score,
        "buchholz": 3.5,
        "sonneborn_berger": 1.25,
        "wins": 1,
        "draws": 1,
        "losses": 0,
    }
    return {**row, **extra}


def test_a_table_grows_with_its_rows_and_draws_any_name() -> None:
    rows = [_row(1, "Alice", 2.5), _row(2, "Ζωή 🎲 مرحبا", 1.5), _row(3, "Bob", 0, left=True)]
    small = Image.open(io.BytesIO(standings_png("Cup", rows[:1])))
    large = Image.open(io.BytesIO(standings_png("Cup", rows)))
    assert small.width == large.width and large.height > small.height
    assert standings_png("Cup", rows) == standings_png("Cup", rows)  # pure: same in, same out
    assert standings_png("Cup", []).startswith(b"\x89PNG")


@pytest.mark.parametrize(
    "bad",
    [
        {"rank": 1, "name": "A"},
        _row(1, "A", -1),
        _row(1, "A", 1, wins="two"),
        _row(1, None, 1),  # type: ignore[arg-type]
    ],
)
def test_a_malformed_row_is_a_value_error(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        standings_png("Cup", [bad])


def test_points_are_written_with_halves() -> None:
    assert [half(v) for v in (0, 0.5, 1, 2.5)] == ["0", "½", "1", "2½"]
