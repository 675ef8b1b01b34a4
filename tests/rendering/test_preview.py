"""``python -m rendering preview``: a match's pictures written to a folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from rendering.__main__ import main, moments
from tests.rendering.helpers import image


def test_preview_writes_table_and_hands_at_each_moment(tmp_path: Path) -> None:
    out = tmp_path / "pictures"
    assert (
        main(["preview", "--game", "Écarté", "--seed", "3", "--out", str(out), "--moments", "3"])
        == 0
    )
    files = sorted(out.iterdir())
    assert len(files) == 9
    assert {path.name.rsplit("-", 1)[1] for path in files} == {
        "table.png",
        "hand0.png",
        "hand1.png",
    }
    for path in files:
        assert image(path.read_bytes()).width >= 760


def test_preview_is_reproducible(tmp_path: Path) -> None:
    for folder in ("a", "b"):
        main(
            [
                "preview",
                "--game",
                "cinq-as",
                "--seed",
                "2",
                "--out",
                str(tmp_path / folder),
                "--moments",
                "2",
            ]
        )
    a = sorted((tmp_path / "a").iterdir())
    b = sorted((tmp_path / "b").iterdir())
    assert [p.name for p in a] == [p.name for p in b]
    assert all(x.read_bytes() == y.read_bytes() for x, y in zip(a, b, strict=True))


def test_unknown_game_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["preview", "--game", "chess", "--out", str(tmp_path)]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err


def test_moments_spread_from_deal_to_end() -> None:
    assert moments(101, 5) == [0, 25, 50, 75, 100]
    assert moments(3, 5) == [0, 1, 2]
    assert moments(10, 1) == [9]
