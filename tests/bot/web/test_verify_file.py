"""`python -m bot verify FILE`: a match file replayed through the engine, from the shell."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import games
from bench.web import playout
from bot.__main__ import main
from games import notation


def write_match(path: Path, game: str, spoil: int | None = None) -> None:
    state, log = playout(game, 11, games.get(game).short_options())
    if spoil is not None:
        log[spoil] = (log[spoil][0], "play 2T" if game != "cinq-as" else "play KC")
    tags = {"Game": game, "Seed": "11", "Options": json.dumps(games.get(game).short_options())}
    tags["Result"] = notation.result_tag(state.result)
    path.write_text(notation.write(notation.Record(tags, log)), encoding="utf-8")


def test_a_legal_file_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "good.tpn"
    write_match(path, "ecarte")
    assert main(["verify", str(path)]) == 0
    assert "all legal" in capsys.readouterr().out


def test_the_first_illegal_move_is_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.tpn"
    write_match(path, "piquet", spoil=4)
    assert main(["verify", str(path)]) == 1
    assert "ply 5 (play 2T) is illegal" in capsys.readouterr().out


def test_unreadable_files_get_a_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", str(tmp_path / "missing.tpn")]) == 2
    assert "cannot read" in capsys.readouterr().err
    junk = tmp_path / "junk.tpn"
    junk.write_text("hello\n", encoding="utf-8")
    assert main(["verify", str(junk)]) == 1
    assert "not a Tapis match file" in capsys.readouterr().out
