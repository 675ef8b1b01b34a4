"""Écarté's computer in the tricks: what it plays where the search cannot tell moves apart."""

from __future__ import annotations

import dataclasses
import random

from ai.ecarte import GAME_AI, candidates, rules
from ai.search import search
from tests.ai.test_ecarte_reading import ELDER, dealt


def test_equal_values_go_to_the_conventional_card() -> None:
    # Elder proposed, the dealer refused: elder leads, with no trump (hearts). Where every
    # deal values the cards alike, the computer leads its king, as a good player would, not
    # the card that happens to come first in the hand's order.
    state = dealt(
        ["7S", "9D", "10D", "7C", "KC"], ["KS", "8S", "JD", "QC", "AC"], "propose", "refuse"
    )  # fmt: skip
    view = dict(state.view(ELDER))
    assert view["legal_moves"][0] != "play KC"
    assert rules(view, random.Random(0)) == "play KC"
    assert candidates(view, list(view["legal_moves"]))[0] == "play KC"
    flat = dataclasses.replace(GAME_AI, evaluate=lambda state, seat, left, rng: 0.0)
    assert search(flat, view, 40, random.Random(1)) == "play KC"
