"""Card faces: every card any game shows is drawn, legibly sized, and bad codes are refused."""

from __future__ import annotations

import pytest
from PIL import Image

from bot import i18n
from games.cards import ACE_MARKERS, DOUBLE_PACK, PIQUET_PACK, TAROT_SET
from rendering import encode
from rendering.faces import (
    ENGLISH_CORNERS,
    FACE_CODES,
    Cutout,
    _index_image,
    back,
    check_code,
    corners,
    describe,
    dimmed,
    dimmed_cutout,
    face,
    face_cutout,
    size_of,
)
from rendering.style import CARD_H, CARD_PAPER, CARD_W, FELT, SMALL
from tests.rendering.helpers import colours, mean_difference


def test_every_card_of_every_pack_has_a_face() -> None:
    assert set(PIQUET_PACK) | set(DOUBLE_PACK) | set(TAROT_SET) | set(ACE_MARKERS) <= FACE_CODES


@pytest.mark.parametrize("code", sorted(FACE_CODES))
def test_face_is_a_full_size_drawn_card(code: str) -> None:
    picture = face(code)
    assert picture.size == (CARD_W, CARD_H)
    assert picture.mode == "RGBA"
    assert colours(picture.convert("RGB")) > 20  # ink, paper and anti-aliasing, not blank
    # Rounded corners: the very corner is transparent, the middle is opaque.
    assert picture.getpixel((0, 0))[3] == 0
    assert picture.getpixel((CARD_W // 2, CARD_H // 2))[3] == 255


def test_faces_differ_from_each_other() -> None:
    seen = {face(code).tobytes() for code in FACE_CODES}
    assert len(seen) == len(FACE_CODES)


def test_faces_are_cached_and_sized() -> None:
    assert face("QS") is face("QS")
    assert face("QS", scale=SMALL).size == size_of(SMALL)
    assert back().size == (CARD_W, CARD_H)
    assert colours(back().convert("RGB")) > 10


def test_four_colour_deck_changes_diamonds_and_clubs_only() -> None:
    for code in ("7D", "KC"):
        assert mean_difference(face(code), face(code, four_colour=True)) > 1
    for code in ("7S", "KH", "21T"):
        assert face(code).tobytes() == face(code, four_colour=True).tobytes()
    # Diamonds blue, clubs green: the ink of the big symbol tells.
    r, g, b, _ = face("AD", four_colour=True).getpixel((70, 100))
    assert b > r and b > g
    r, g, b, _ = face("AC", four_colour=True).getpixel((70, 100))
    assert g > r and g > b


def test_bonus_cards_are_marked() -> None:
    """cinq-as D5: bonus cards carry a ribbon, so they differ from the same card without."""
    assert mean_difference(face("JS", bonus=True), face("JS")) > 1


def test_dimmed_faces_are_darker() -> None:
    assert mean_difference(dimmed("AH"), face("AH")) > 20


@pytest.mark.parametrize("code", ["", "1S", "11H", "ZZ", "qs", "7X", "22T", "AT", None, 7, "Q♠"])
def test_unknown_card_is_a_clear_value_error(code: object) -> None:
    with pytest.raises(ValueError, match="cannot draw card"):
        check_code(code)
    with pytest.raises(ValueError, match="cannot draw card"):
        face(code)  # type: ignore[arg-type]


def test_describe() -> None:
    assert describe("10H") == "10 of hearts"


@pytest.mark.parametrize("scale", [1.0, SMALL])
def test_a_cutout_lays_exactly_the_pixels_of_the_card(scale: float) -> None:
    """Laid in pieces (opaque ones copied, corners blended), every card, washed out or not,
    gives the pixels of the card blended whole, over other cards and across the edge."""
    for code in sorted(FACE_CODES):
        for four_colour in (False, True):
            pairs = [
                (
                    face(code, four_colour, False, scale),
                    face_cutout(code, four_colour, False, scale),
                ),
                (
                    dimmed(code, four_colour, True, scale),
                    dimmed_cutout(code, four_colour, True, scale),
                ),
            ]
            for picture, cutout in pairs:
                blended = Image.new("RGB", (260, 220), FELT)
                blended.paste(back(scale), (5, 7), back(scale))
                laid = blended.copy()
                for xy in ((20, 15), (-30, 100), (200, -40)):
                    blended.paste(picture, xy, picture)
                    cutout.lay(laid, xy)
                assert laid.tobytes() == blended.tobytes(), code


def test_only_the_corners_of_a_card_are_blended() -> None:
    cutout = face_cutout("10H")
    blended = sum(p.width * p.height for _, p, blend in cutout.pieces if blend)
    assert 0 < blended < 0.02 * CARD_W * CARD_H


def test_any_shape_is_laid_exactly() -> None:
    """Transparency anywhere (here a hole in the middle and a notch in an edge) falls in a
    blended piece."""
    shape = Image.new("RGBA", (40, 30), (200, 0, 0, 255))
    for xy in ((20, 15), (7, 0), (39, 22)):
        shape.putpixel(xy, (0, 0, 0, 0))
    ground, laid = Image.new("RGB", (60, 50), FELT), Image.new("RGB", (60, 50), FELT)
    ground.paste(shape, (3, 4), shape)
    Cutout.of(shape).lay(laid, (3, 4))
    assert laid.tobytes() == ground.tobytes()


def test_cards_laid_on_the_palette_are_the_cards_laid_on_rgb_then_mapped() -> None:
    """On a picture drawn on the fixed palette a card gives the pixels laying it on an RGB
    picture and mapping the whole would, wherever it lies on flat colours (felt, paper), and
    again from the kept corners; also partly off the picture."""
    places = ((10, 5), (-90, 190), (200, -40))  # apart: a corner over a card is not flat
    for cutout in (face_cutout("QH", True), dimmed_cutout("10T", False, True, SMALL)):
        for _ in range(2):  # the second time from the corners kept the first time
            rgb = Image.new("RGB", (260, 220), FELT)
            rgb.paste(CARD_PAPER, (150, 0, 260, 90))
            indexed = encode.quantize(rgb)
            for xy in places:
                cutout.lay(rgb, xy)
                cutout.lay(indexed, xy)
                assert indexed.tobytes() == encode.quantize(rgb).tobytes()


def test_the_corner_letters_are_the_readers() -> None:
    assert corners(i18n.words("en")) == ENGLISH_CORNERS == ("J", "Q", "K", "A")
    assert corners(i18n.words("fr")) == ("V", "D", "R", "A")
    assert corners(i18n.words("sv")) == ("Kn", "D", "K", "E")
    swedish = corners(i18n.words("sv"))
    # Faces are cached by their letters: a language's queen is its own picture, a seven is not.
    assert face("QS", letters=swedish) is not face("QS")
    assert mean_difference(face("QS", letters=swedish), face("QS")) > 0.5
    assert face("7S", letters=swedish).tobytes() == face("7S").tobytes()


def test_a_corner_of_two_letters_is_no_wider_than_ten() -> None:
    """ "Kn" (knekt) is drawn small enough to clear the court's frame, as "10" is."""

    def inked(rank: str) -> int:
        left, _, right, _ = _index_image(rank, "H", (0, 0, 0), CARD_PAPER).getbbox() or (0, 0, 0, 0)
        return right - left

    assert inked("Kn") <= inked("10") + 2  # drawn twice as large: a pixel of anti-aliasing
    assert inked("K") < inked("10")
