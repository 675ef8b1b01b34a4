"""The match notation: write and read are inverses; replay finds the first illegal move."""

from __future__ import annotations

import json

import pytest

import games
from bench.web import playout
from games import notation


def record_of(game: str, seed: int) -> tuple[notation.Record, object]:
    state, log = playout(game, seed, games.get(game).short_options())
    tags = {
        "Game": game,
        "Seed": str(seed),
        "Options": json.dumps(games.get(game).short_options()),
        "Seat0": 'Ada "the first"',
        "Seat1": "Blaise\\Pascal",
        "Result": notation.result_tag(state.result),
        "Scores": " ".join(str(s) for s in state.result["scores"]),
    }
    return notation.Record(tags, list(log)), state


@pytest.mark.parametrize("game", games.names())
def test_write_read_round_trip_and_replay(game: str) -> None:
    record, final = record_of(game, 5)
    text = notation.write(record)
    again = notation.read(text)
    assert again == record
    assert notation.write(again) == text
    found = notation.replay(again)
    assert found.ok, found.error
    assert found.plies == len(record.moves)
    assert found.state.to_json() == final.to_json()  # type: ignore[attr-defined]


def test_the_first_illegal_move_is_named() -> None:
    record, _ = record_of("piquet", 3)
    moves = list(record.moves)
    seat, _ = moves[5]
    moves[5] = (seat, "play 21T")
    found = notation.replay(notation.Record(record.tags, moves))
    assert not found.ok and found.ply == 6 and found.plies == 5
    assert "ply 6 (play 21T) is illegal" in (found.error or "")


def test_a_move_by_the_wrong_seat_is_named() -> None:
    record, _ = record_of("ecarte", 3)
    moves = list(record.moves)
    seat, move = moves[0]
    moves[0] = (1 - seat, move)
    found = notation.replay(notation.Record(record.tags, moves))
    assert found.ply == 1 and "turn" in (found.error or "")


def test_tags_that_disagree_with_the_moves_are_named() -> None:
    record, _ = record_of("cinq-as", 4)
    wrong = {**record.tags, "Scores": "999 0"}
    assert "Scores" in (notation.replay(notation.Record(wrong, record.moves)).error or "")
    cut = notation.Record(record.tags, record.moves[:-3])
    assert "before the end" in (notation.replay(cut).error or "")
    resigned = notation.Record({**record.tags, "How": "resignation"}, record.moves[:-3])
    assert notation.replay(resigned).ok


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("1. play QS\n", "Game"),
        ('[Game "piquet"]\n[Seed "1"]\n2. discard\n', "move number 2"),
        ('[Game "piquet"]\n[Seed "1"]\n[Game "x"]\n', "twice"),
        ('[Game "piquet"]\n[Seed "1"]\n1. discard\n[Date "x"]\n', "after the moves"),
        ('[Game piquet]\n[Seed "1"]\n', "a tag is written"),
    ],
)
def test_malformed_files_are_refused_with_the_line(text: str, says: str) -> None:
    with pytest.raises(notation.NotationError, match=says):
        notation.read(text)


@pytest.mark.parametrize(
    ("tags", "says"),
    [
        ({"Game": "chess", "Seed": "1"}, "chess"),
        ({"Game": "piquet", "Seed": "one"}, "cannot be dealt"),
        ({"Game": "piquet", "Seed": "1", "Options": "[1]"}, "JSON object"),
        ({"Game": "piquet", "Seed": "1", "Options": '{"deals": 99}'}, "cannot be dealt"),
    ],
)
def test_bad_tags_are_reported_not_raised(tags: dict[str, str], says: str) -> None:
    found = notation.replay(notation.Record(tags, [(None, "discard")]))
    assert not found.ok and says in (found.error or "")
