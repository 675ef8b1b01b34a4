"""Golden images: one hand and one table per game, from the hand-built views, compared with a
tolerance (font hinting may differ slightly between FreeType builds).

Regenerate after a deliberate change of look, then review the PNGs before committing:

    TAPIS_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/rendering/test_golden.py

A failed comparison writes the expected and the actual picture to tests/rendering/failed/.
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest
from PIL import Image

import games
import rendering
from bot import i18n
from tests.rendering import views
from tests.rendering.helpers import FAILED, GOLDEN, changed_share, image, mean_difference

TOLERANCE = 1.0
"""Mean difference per channel (0-255) allowed."""
CHANGED = 0.001
"""Share of clearly changed pixels allowed: anti-aliasing may move, a card or a word may not."""
REGENERATE = os.environ.get("TAPIS_REGEN_GOLDEN") == "1"
NAMES = ("Alice", "Bob")


def pictures() -> dict[str, bytes]:
    out = {}
    for game, sample in views.SAMPLES.items():
        out[f"{game}-hand"] = rendering.hand_png(sample(views.HAND_SEATS[game]))
        out[f"{game}-table"] = rendering.table_png(sample(None), NAMES)
    out["cinq-as-hand-four-colour"] = rendering.hand_png(views.cinq_as(0), four_colour=True)
    # The corners in the reader's letters: R D V in French, Kn and E (knekt, ess) in Swedish.
    for game, lang in (("piquet", "fr"), ("bezique", "sv")):
        hand = views.SAMPLES[game](views.HAND_SEATS[game])
        out[f"{game}-hand-{lang}"] = rendering.hand_png(hand, words=i18n.words(lang))
    for game, (deal_lang, match_lang) in ENDINGS.items():
        deal_end, match_end = endings(game)
        out[f"{game}-deal-end-{deal_lang}"] = rendering.table_png(
            deal_end, NAMES, words=i18n.words(deal_lang)
        )
        out[f"{game}-match-end-{match_lang}"] = rendering.table_png(
            match_end, NAMES, words=i18n.words(match_lang)
        )
    return out


ENDINGS = {
    "bezique": ("fr", "en"),
    "cinq-as": ("sv", "fr"),
    "ecarte": ("en", "sv"),
    "piquet": ("sv", "en"),
}
"""Each game's end of a deal and end of the match, each language drawn somewhere."""
OPTIONS: dict[str, dict[str, int]] = {
    "bezique": {"target": 700},
    "cinq-as": {"rounds": 2},
    "ecarte": {"target": 11},
    "piquet": {"deals": 2},
}


def endings(game: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The public view just after the first deal ends, and at the end of a random match."""
    state = games.get(game).new_match(seed=7, options=OPTIONS[game])
    rng = random.Random(7)
    deal_end = None
    key = "round" if game == "cinq-as" else "deal"
    while state.to_move is not None:
        state = state.apply(rng.choice(state.legal_moves()))
        if deal_end is None and state.view(None)[key] == 2:
            deal_end = state.view(None)
    assert deal_end is not None
    return deal_end, state.view(None)


@pytest.mark.parametrize("name", sorted(pictures()))
def test_matches_golden(name: str) -> None:
    actual = pictures()[name]
    path = GOLDEN / f"{name}.png"
    if REGENERATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(actual)
        pytest.skip("golden image written: review it before committing")
    assert path.exists(), f"no golden image {path.name}: run with TAPIS_REGEN_GOLDEN=1"
    expected = image(path.read_bytes())
    got = image(actual)
    fault = compare(expected, got)
    if fault:
        FAILED.mkdir(exist_ok=True)
        (FAILED / f"{name}-expected.png").write_bytes(path.read_bytes())
        (FAILED / f"{name}-actual.png").write_bytes(actual)
        pytest.fail(f"{name}: {fault}; both images saved in {FAILED}")


def compare(expected: Image.Image, got: Image.Image) -> str:
    """What is wrong with ``got``, or '' if it matches ``expected`` within the tolerance."""
    if expected.size != got.size:
        return f"size {got.size}, expected {expected.size}"
    difference = mean_difference(expected, got)
    if difference > TOLERANCE:
        return f"mean difference {difference:.2f} > {TOLERANCE}"
    share = changed_share(expected, got)
    if share > CHANGED:
        return f"{share:.2%} of the pixels changed (at most {CHANGED:.2%})"
    return ""


def test_comparison_catches_a_change() -> None:
    """The tolerance is not so loose that a different card passes."""
    a = views.ecarte(1)
    b = views.ecarte(1)
    b["hand"] = ["8S", "JH", "10D"]
    assert compare(image(rendering.hand_png(a)), image(rendering.hand_png(b)))
    assert not compare(image(rendering.hand_png(a)), image(rendering.hand_png(a)))
