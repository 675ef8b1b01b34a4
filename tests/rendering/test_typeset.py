"""Players' names in any script: fallback fonts, no missing-glyph box, right to left, ellipsis;
and scores that read well when negative."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rendering
from rendering import typeset
from rendering.canvas import number, pair
from rendering.fonts import CHAIN, chain_font, coverage
from tests.rendering import views
from tests.rendering.helpers import image, mean_difference

SAMPLES = {
    "latin": "Zoé Ångström-Øberg",
    "combining": "Re\u0301my Ba\u0301\u0323o",
    "greek and cyrillic": "Ελένη Дмитрий",
    "emoji": "😀🎉 Ana 👍🏽🦄",
    "chinese": "李小龙",
    "japanese": "山田 たろう カタカナ",
    "korean": "김민준",
    "arabic": "محمد علي",
    "arabic with harakat": "مُحَمَّد",
    "hebrew": "שלום כהן",
    "hebrew with points": "שָׁלוֹם",
    "hebrew with cantillation": "בְּרֵאשִׁ֖ית",
}


@pytest.mark.parametrize("script", sorted(SAMPLES))
@pytest.mark.parametrize("bold", [False, True])
def test_every_glyph_drawn_is_a_real_one(script: str, bold: bool) -> None:
    """Each character is drawn by a font whose cmap has it, and its glyph is not the font's
    missing-glyph box (U+FFFF, a noncharacter, is drawn as that box by every font)."""
    pieces = typeset.runs(typeset.clean(SAMPLES[script], bold), bold)
    drawn = list(typeset.characters(pieces))
    assert drawn and typeset.SUBSTITUTE not in (char for char, _ in drawn)
    for char, face in drawn:
        assert ord(char) in coverage(face, bold), (char, CHAIN[face].name)
        if char.isspace():
            continue
        face_font = chain_font(face, 28, bold)
        box = bytes(face_font.getmask("\uffff"))
        assert bytes(face_font.getmask(char)) != box, (char, CHAIN[face].name)


def test_each_fallback_font_is_used() -> None:
    faces = {
        face
        for name in SAMPLES.values()
        for _, face in typeset.characters(typeset.runs(typeset.clean(name)))
    }
    assert faces == set(range(len(CHAIN)))


def test_what_no_font_has_becomes_a_clean_substitute() -> None:
    assert typeset.clean("a\U0010fffdb") == "a?b"  # private use: no font draws it
    assert typeset.clean("x\u200dy\u200ez") == "xyz"  # joiners and direction marks: invisible
    assert typeset.clean("👍🏽") == "👍"  # a skin tone would be a swatch beside it
    assert typeset.clean("Al\nice\tB") == "Al ice B"


def test_right_to_left_is_reversed_and_marks_stay_on_their_letter() -> None:
    assert "".join(piece.words for piece in typeset.runs("שלום")) == "םולש"
    shown = typeset.display_order("שָׁלוֹם")
    assert shown[-1] == "שָׁ" and shown[0] == "ם"
    # A Latin name with a Hebrew one inside keeps its own order around it.
    assert "".join(typeset.display_order("Ana שלום Bo")) == "Ana םולש Bo"
    assert "".join(typeset.display_order("מספר 123")) == "123 רפסמ"


def test_arabic_letters_are_joined() -> None:
    shaped = typeset.clean("محمد")
    assert all(0xFE70 <= ord(char) <= 0xFEFF for char in shaped)


@pytest.mark.parametrize("script", sorted(SAMPLES))
def test_long_names_are_cut_with_an_ellipsis_by_drawn_width(script: str) -> None:
    words = typeset.clean(SAMPLES[script] * 6)
    short = typeset.fit(words, 28, 200, bold=True)
    assert short.endswith("…") and len(short) < len(words)
    assert typeset.measure(short, 28, True) <= 200
    # Never cut between a letter and its marks.
    assert short[:-1] == "".join(typeset.clusters(words)[: len(typeset.clusters(short[:-1]))])


@pytest.mark.parametrize("game", sorted(views.SAMPLES))
def test_tables_draw_names_in_every_script(game: str) -> None:
    view = views.SAMPLES[game](None)
    plain = image(rendering.table_png(view, ("??", "Bob")))
    for name in SAMPLES.values():
        picture = image(rendering.table_png(view, (name, "Bob")))
        assert picture.width == 1000
        assert mean_difference(picture, plain) > 0, name


def test_scores_use_a_minus_sign_and_a_spaced_dash() -> None:
    assert number(-20) == "−20" and number(0) == "0" and number(7) == "7"
    assert number(5, signed=True) == "+5" and number(-5, signed=True) == "−5"
    assert number(0, signed=True) == "0"
    assert pair(-20, -2) == "−20 – −2"


def test_negative_scores_are_drawn_with_the_minus_sign() -> None:
    view = views.cinq_as(None)
    view["round_scores"] = [[-20, -2]]
    minus = image(rendering.table_png(view, ("Alice", "Bob")))
    view["round_scores"] = [[20, 2]]
    plus = image(rendering.table_png(view, ("Alice", "Bob")))
    foot = (0, minus.height - 80, 1000, minus.height)
    assert mean_difference(minus.crop(foot), plus.crop(foot)) > 0


def test_right_to_left_names_are_drawn_in_display_order() -> None:
    """Drawn by canvas.text, a Hebrew name is the reversed letters drawn left to right."""
    from PIL import Image, ImageDraw

    from rendering.canvas import text
    from rendering.fonts import font

    drawn = Image.new("RGB", (300, 60))
    white = (255, 255, 255)
    width = text(ImageDraw.Draw(drawn), (10, 30), "שלום", 28, anchor="lm", fill=white)
    expected = Image.new("RGB", (300, 60))
    ImageDraw.Draw(expected).text((10, 30), "םולש", font=font(28), anchor="lm", fill=white)
    assert width > 0 and drawn.tobytes() == expected.tobytes()


def test_right_to_left_marks_are_centred_on_their_letter() -> None:
    face_font = chain_font(0, 28)
    placed = typeset.layout("".join(typeset.display_order("שָׁ")), face_font)
    (base, x), *marks = placed
    assert base == "ש" and len(marks) == 2
    left, _, right, _ = face_font.getbbox(base, anchor="ls")
    for mark, offset in marks:
        mark_left, _, mark_right, _ = face_font.getbbox(mark, anchor="ls")
        centre = offset + (mark_left + mark_right) / 2
        assert abs(centre - (x + (left + right) / 2)) < 0.5
    assert typeset.layout("élève", face_font) == [("élève", 0.0)]  # left to right: as it is


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=40))
def test_any_text_draws_on_one_line_without_error(words: str) -> None:
    """Whatever a player calls themselves: no exception, fits the room given, one line."""
    from PIL import Image, ImageDraw

    from rendering.canvas import text

    picture = Image.new("RGB", (400, 60))
    width = text(ImageDraw.Draw(picture), (10, 30), words, 28, anchor="lm", max_width=300)
    assert 0 <= width <= 300
    assert "\n" not in typeset.clean(words)
