"""The coach's bench section: its positions, its timings and its table, on a tiny budget."""

from __future__ import annotations

import argparse

import pytest

import ai.review
from bench import coach


@pytest.fixture(scope="module")
def match() -> coach.Played:
    # The easy level plays a whole Écarté match in a blink.
    return coach.play("ecarte", 0, "easy")


def test_a_match_is_kept_as_the_service_keeps_it(match: coach.Played) -> None:
    assert match.seed == coach.SEED
    assert len(match.states) == len(match.moves) + 1
    assert match.states[-1].to_move is None and match.states[-1].result is not None
    assert coach.play("ecarte", 0, "easy").moves == match.moves


def test_hints_are_drawn_from_real_choices_alike_each_time(match: coach.Played) -> None:
    points = coach.choice_points([match])
    assert points and all(len(match.states[ply].legal_moves()) > 1 for _, ply in points)
    forced = [
        ply
        for ply, state in enumerate(match.states)
        if state.to_move is not None and len(state.legal_moves()) == 1
    ]
    assert not {ply for _, ply in points} & set(forced)
    drawn = coach.sample(points, 5, "seed")
    assert drawn == coach.sample(points, 5, "seed")
    assert len(drawn) == 5 and [ply for _, ply in drawn] == sorted(ply for _, ply in drawn)
    assert coach.sample(points, len(points) + 3, "seed") == points


def test_a_hint_and_a_review_are_timed_on_the_bots_own_calls(
    match: coach.Played, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The smallest budget the weighing allows: each candidate valued on one deal.
    monkeypatch.setattr(ai.review, "REVIEW_SHARE", 1_000_000)
    _, ply = coach.choice_points([match])[0]
    assert coach.hint_seconds(match, ply) > 0
    short = coach.Played(match.game, match.seed, match.moves[:6], match.states[:7])
    seconds, decisions = coach.review_seconds(short)
    assert seconds > 0
    assert decisions == len(ai.review.choices("ecarte", match.seed, None, short.moves))


def test_the_table_says_whether_each_aim_is_met() -> None:
    assert coach.hint_line("ecarte", [0.2, 0.3, 0.9]).endswith("p99 ≤ 1 s: met")
    assert coach.hint_line("piquet", [0.2, 1.4]).endswith("p99 ≤ 1 s: NOT met")
    line = coach.review_line("bezique", [(30.0, 500), (70.0, 520)])
    assert " 510 " in line and "50.0" in line and line.endswith("≤ 60 s a match: NOT met")


def test_the_section_runs_on_a_tiny_budget(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(coach, "LEVEL", "easy")
    monkeypatch.setattr(ai.review, "REVIEW_SHARE", 1_000_000)
    args = argparse.Namespace(sections=["coach"], matches=1, positions=2, game=["écarté"])
    coach.run(0.0, args)
    out = capsys.readouterr().out
    assert "1 match(es) per game" in out and "2 positions per game" in out
    assert "\necarte           2 " in out
    assert "\necarte         1 " in out
