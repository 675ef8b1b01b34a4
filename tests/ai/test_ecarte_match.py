"""Écarté's computer weighs a hand by what it changes in the chance of winning the match,
not by its points."""

from __future__ import annotations

import json
import random

import games
from ai.ecarte import evaluate, match_chances
from games import State
from tests.ai.test_ecarte_reading import ELDER, dealt

GAME = games.get("ecarte")
TARGET = 11


def at_score(state: State, elder: int, dealer: int) -> State:
    data = json.loads(state.to_json())
    data["totals"] = [elder, dealer] if ELDER == 0 else [dealer, elder]
    return GAME.from_json(json.dumps(data))


def test_the_chances_are_even_at_equal_scores_and_grow_with_ours() -> None:
    chances = match_chances(TARGET)
    for ours in range(TARGET):
        assert abs(chances[ours, ours] - 0.5) < 1e-9
        for theirs in range(TARGET):
            assert abs(chances[ours, theirs] + chances[theirs, ours] - 1) < 1e-9
            if ours + 1 < TARGET:
                assert chances[ours + 1, theirs] > chances[ours, theirs]


def test_at_ten_all_a_hand_won_is_the_match_whatever_its_points() -> None:
    # Hearts are trumps. Elder plays at once: with five trumps, the vole (2 points); with
    # three trumps and two small spades against the dealer's spades, three tricks (1 point).
    # At 10-10 either wins the match, and the vole is worth no more.
    weak = ["KS", "QS", "7D", "8C", "9C"]
    vole = dealt(["QH", "JH", "AH", "10H", "9H"], weak, "play QH")
    three = dealt(["QH", "JH", "AH", "7S", "8S"], weak, "play QH")
    rng = random.Random(0)
    values = [evaluate(at_score(s, 10, 10), ELDER, 9, rng) for s in (vole, three)]
    assert values[0] == values[1] == 1.0
    # Early in the match the vole's second point counts.
    early = [evaluate(at_score(s, 0, 0), ELDER, 9, rng) for s in (vole, three)]
    assert early[0] > early[1]
