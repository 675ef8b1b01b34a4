"""Every word on every picture reads on a phone and fits where it is drawn, in each language.

A phone shows a picture 390 pixels wide. Each picture kind (the hand, and the table at the
start of a match, in play, at the end of a deal and at the end of the match) is drawn for
every game in English, French and Swedish, with every text drawn on the picture recorded:
its font's size (the glyph height, ascender to descender, in pixels) and its box.

- legible: the smallest glyph height, scaled to 390 pixels wide, is at least 12 pixels;
- contrasted: every text's colour against what lies under it (the commonest colour of its
  box before it is drawn) has a contrast ratio of at least 4.5:1 (WCAG AA);
- fits: every text's box lies inside the picture, no two texts overlap or touch, and no text had to
  be cut short with "…" (only names may be, and the tests' names are short);
- in proportion: no table, even at the end of a deal with its breakdown, is taller than one
  and a half times its width, so a phone shows it without endless scrolling.

Card faces are drawn on their own (rendering/faces.py) and are not recorded here: their
indices are far larger than any word.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from PIL import Image, ImageDraw

import games
import rendering
from bot import i18n
from rendering import canvas
from rendering.hand import draw_hand
from rendering.registry import renderer_for

PHONE: float = 390
SMALLEST: float = 12
CONTRAST: float = 4.5
TALLEST: float = 1.5
NAMES = ("Alice", "Bob")
OPTIONS: dict[str, dict[str, int]] = {
    "bezique": {"target": 700},
    "cinq-as": {"rounds": 2},
    "ecarte": {"target": 11},
    "piquet": {"deals": 2},
}


@dataclass(frozen=True)
class Drawn:
    words: str
    size: int
    box: tuple[float, float, float, float]
    fill: tuple[int, int, int]
    under: tuple[int, int, int]
    """The commonest colour of the box before the words were drawn."""


def luminance(colour: tuple[int, int, int]) -> float:
    """WCAG 2's relative luminance of an sRGB colour."""
    linear = [
        v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
        for v in (c / 255 for c in colour)
    ]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def commonest(image: Image.Image, box: tuple[int, int, int, int]) -> tuple[int, int, int]:
    region = image.crop(box).convert("RGB")
    counts = region.getcolors(region.width * region.height) or [(1, (0, 0, 0))]
    colour = max(counts, key=lambda found: found[0])[1]
    return (colour[0], colour[1], colour[2])


@contextmanager
def recording() -> Iterator[list[Drawn]]:
    """Record every text drawn on a picture (not the card faces, drawn on their own): each run
    of one font, where the canvas lays its cached glyphs, with the box they cover."""
    drawn: list[Drawn] = []
    original = canvas._words

    def words_drawn(
        draw: ImageDraw.ImageDraw,
        xy: tuple[float, float],
        words: str,
        face: int,
        size: int,
        bold: bool,
        fill: Any,
        anchor: str,
    ) -> None:
        if draw.im.size[0] >= 700 and words.strip():
            x, y = xy
            start = (math.modf(x)[0], math.modf(y)[0])
            mask, (dx, dy) = canvas._mask(face, size, bold, words, anchor, start)
            left, top = int(x) + dx, int(y) + dy
            box = (left, top, left + mask.width, top + mask.height)
            image = getattr(draw, "image", None)
            under = commonest(image, box) if isinstance(image, Image.Image) else (0, 0, 0)
            colour = (fill[0], fill[1], fill[2]) if isinstance(fill, tuple) else (0, 0, 0)
            drawn.append(Drawn(words, size, box, colour, under))
        original(draw, xy, words, face, size, bold, fill, anchor)

    canvas._words = words_drawn  # type: ignore[assignment]
    try:
        yield drawn
    finally:
        canvas._words = original  # type: ignore[assignment]


def moments(name: str) -> dict[str, tuple[Any, Any]]:
    """(table view, hand view) at the start, in play, just after a deal, and at the end."""
    game = games.get(name)
    state = game.new_match(seed=21, options=OPTIONS.get(name, game.short_options()))
    rng = random.Random(21)
    states = [state]
    while state.to_move is not None:
        state = state.apply(rng.choice(state.legal_moves()))
        states.append(state)
    key = "round" if name == "cinq-as" else "deal"
    after = next(s for s in states if s.view(None)[key] == 2)
    middle = states[len(states) // 3]
    chosen = {"start": states[0], "play": middle, "deal-end": after, "over": states[-1]}
    return {
        moment: (s.view(None), s.view(s.to_move if s.to_move is not None else 0))
        for moment, s in chosen.items()
    }


def draw(
    view: Any, lang: str, table: bool, owner: str | None = None
) -> tuple[Image.Image, list[Drawn]]:
    renderer = renderer_for(view)
    words = i18n.words(lang)
    with recording() as drawn:
        if table:
            picture = renderer.table(view, NAMES, False, words)
        else:
            picture = draw_hand(view, renderer, False, words, owner)
    return picture, drawn


GAP = 8
"""Room kept between two texts on one line, so that "stock: 21" and "Trumps: ♥" never read as
one run of words."""


def joined(first: str, second: str) -> bool:
    """Runs drawn as one line on purpose ("▶ " then the name, the name then " · dealer"): the
    space between them is in their words."""
    return first.endswith(" ") or second.startswith(" ")


def overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    """The boxes touch: they share height and stand less than :data:`GAP` apart."""
    return a[0] < b[2] + GAP and b[0] < a[2] + GAP and a[1] < b[3] - 1 and b[1] < a[3] - 1


@pytest.fixture(scope="module", params=games.names())
def pictures(request: pytest.FixtureRequest) -> list[tuple[str, Image.Image, list[Drawn]]]:
    name = request.param
    out = []
    for moment, (public, seat_view) in moments(name).items():
        for lang in i18n.LANGS:
            for table, view, owner in (
                (True, public, None),
                (False, seat_view, None),
                (False, seat_view, NAMES[seat_view["seat"]]),  # a replay's, for spectators
            ):
                picture, drawn = draw(view, lang, table, owner)
                kind = "table" if table else "spectators' hand" if owner else "hand"
                out.append((f"{name} {kind} {moment} {lang}", picture, drawn))
    return out


def test_every_text_is_legible_on_a_phone(
    pictures: list[tuple[str, Image.Image, list[Drawn]]],
) -> None:
    for label, picture, drawn in pictures:
        assert drawn, label
        smallest = min(drawn, key=lambda d: d.size)
        height = smallest.size * PHONE / picture.width
        assert height >= SMALLEST, f"{label}: {smallest.words!r} is {height:.1f} px on a phone"


def test_every_text_stands_out_from_what_it_is_drawn_on(
    pictures: list[tuple[str, Image.Image, list[Drawn]]],
) -> None:
    for label, _, drawn in pictures:
        for item in drawn:
            ratio = contrast(item.fill, item.under)
            assert ratio >= CONTRAST, (
                f"{label}: {item.words!r} in {item.fill} on {item.under} has contrast {ratio:.2f}"
            )


def test_no_table_is_taller_than_one_and_a_half_widths(
    pictures: list[tuple[str, Image.Image, list[Drawn]]],
) -> None:
    for label, picture, _ in pictures:
        assert picture.height <= TALLEST * picture.width, f"{label}: {picture.size}"


def test_every_text_fits_its_place(
    pictures: list[tuple[str, Image.Image, list[Drawn]]],
) -> None:
    for label, picture, drawn in pictures:
        for item in drawn:
            x0, y0, x1, y1 = item.box
            inside = x0 >= 0 and y0 >= 0 and x1 <= picture.width and y1 <= picture.height
            assert inside, f"{label}: {item.words!r} leaves the picture at {item.box}"
            assert not item.words.rstrip().endswith("…"), f"{label}: {item.words!r} is cut short"
        for i, first in enumerate(drawn):
            for second in drawn[i + 1 :]:
                if joined(first.words, second.words):
                    continue
                assert not overlap(first.box, second.box), (
                    f"{label}: {first.words!r} and {second.words!r} overlap"
                )


def test_the_check_sees_small_text() -> None:
    view = games.get("piquet").new_match(seed=1).view(None)
    picture, drawn = draw(view, "en", True)
    assert min(d.size for d in drawn) * PHONE / picture.width >= SMALLEST
    small = Image.new("RGB", (1000, 100))
    with recording() as found:
        rendering.canvas.text(ImageDraw.Draw(small), (0, 0), "tiny", 20)
    assert found and found[0].size * PHONE / small.width < SMALLEST


def test_the_check_sees_faint_text() -> None:
    _, felt = rendering.canvas.canvas(1000, 100)
    with recording() as found:
        rendering.canvas.text(felt, (0, 0), "faint", 40, fill=(40, 110, 70))
    assert found and found[0].under == (24, 88, 58)
    assert contrast(found[0].fill, found[0].under) < CONTRAST
    assert round(contrast((255, 255, 255), (0, 0, 0)), 1) == 21.0


@pytest.mark.parametrize("name", games.names())
def test_every_end_of_deal_fits_a_phone(name: str) -> None:
    """Every table drawn as a deal (round, hand) ends and as the match ends, the breakdown
    with it, in the language whose words run longest, for two whole matches."""
    key = "round" if name == "cinq-as" else "deal"
    words = i18n.words("fr")
    for seed in (3, 4):
        state = games.get(name).new_match(seed=seed, options=OPTIONS[name])
        rng = random.Random(seed)
        shown = 0
        while True:
            before = state.view(None)[key]
            if state.to_move is not None:
                state = state.apply(rng.choice(state.legal_moves()))
            view = state.view(None)
            if view[key] != before or state.to_move is None:
                picture = renderer_for(view).table(view, NAMES, False, words)
                assert picture.height <= TALLEST * picture.width, (seed, view[key], picture.size)
                shown += 1
            if state.to_move is None:
                break
        assert shown >= 2
