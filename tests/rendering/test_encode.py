"""PNG encoding on the fixed palette: the project's colours kept exactly, the shades between
them close enough that edges stay smooth, equal pictures giving equal bytes, files small."""

from __future__ import annotations

import io
import random
from concurrent.futures import ThreadPoolExecutor

import pytest
from PIL import Image, ImageDraw

import games
import rendering
from rendering import encode
from rendering.canvas import Draw, text
from rendering.faces import FACE_CODES, back, dimmed, face
from rendering.fonts import font
from rendering.style import FELT, FELT_DARK, GOLD, INK, MUTED, SMALL, tint
from tests.rendering.helpers import changed_share, image, mean_difference

NAMES = ("Alice", "Bob")


def test_palette_has_256_colours_and_is_the_same_when_built_again() -> None:
    first = encode.fixed_palette()
    encode.fixed_palette.cache_clear()
    assert encode.fixed_palette() == first
    assert len(first) == 256


def test_project_colours_are_kept_exactly() -> None:
    keys = encode.key_colours()
    picture = Image.new("RGB", (len(keys) * 4, 4))
    draw = ImageDraw.Draw(picture)
    for i, colour in enumerate(keys):
        draw.rectangle((i * 4, 0, i * 4 + 3, 3), fill=colour)
    assert image(encode.png(picture)).tobytes() == picture.tobytes()


@pytest.mark.parametrize("pair", encode.meeting_pairs(), ids=lambda pair: f"{pair[0]}-{pair[1]}")
def test_shades_between_colours_that_meet_stay_close(pair: encode.Pair) -> None:
    """Every shade anti-aliasing can put between two colours that meet maps to a palette
    colour near it: no band where an edge jumps from one colour to the other."""
    a, b, weight = pair
    ramp = Image.new("RGB", (256, 1))
    ramp.putdata([tint(a, i / 255, b) for i in range(256)])
    got = image(encode.png(ramp))
    worst = max(abs(x - y) for x, y in zip(ramp.tobytes(), got.tobytes(), strict=True))
    assert worst <= (20 if weight >= 1 else 32)


@pytest.mark.parametrize("ink", [INK, MUTED, GOLD])
@pytest.mark.parametrize("ground", [FELT, FELT_DARK])
def test_words_on_the_felt_look_as_drawn(
    ink: tuple[int, int, int], ground: tuple[int, int, int]
) -> None:
    picture = Image.new("RGB", (400, 60), ground)
    ImageDraw.Draw(picture).text((10, 10), "Alice wins · 10♥ Q♠", font=font(28), fill=ink)
    got = image(encode.png(picture))
    assert mean_difference(picture, got) < 0.5
    assert changed_share(picture, got, threshold=24) == 0


@pytest.mark.parametrize("four_colour", [False, True])
def test_every_card_face_keeps_its_colours(four_colour: bool) -> None:
    """Each face, at both sizes and washed out, laid on the felt: a colour drawn on a card and
    missing from the palette would show here."""
    codes = sorted(FACE_CODES)
    w, h = face(codes[0]).size
    sheet = Image.new("RGB", (w * 16, h * ((len(codes) + 15) // 16) * 2 + h), FELT)
    for i, code in enumerate(codes):
        x, y = (i % 16) * w, (i // 16) * h * 2
        for picture, dy in ((face(code, four_colour), 0), (dimmed(code, four_colour), h)):
            sheet.paste(picture, (x, y + dy), picture)
    small = face("KH", four_colour, bonus=True, scale=SMALL)
    sheet.paste(small, (0, sheet.height - h), small)
    sheet.paste(back(), (w, sheet.height - h), back())
    got = image(encode.png(sheet))
    assert mean_difference(sheet, got) < 1.0
    assert changed_share(sheet, got, threshold=40) == 0


def _moments(name: str, seed: int) -> list[games.core.State]:
    rng = random.Random(seed)
    found = [games.get(name).new_match(seed=seed)]
    while found[-1].to_move is not None and len(found) < 400:
        found.append(found[-1].apply(rng.choice(found[-1].legal_moves())))
    return found[:: max(1, len(found) // 8)]


@pytest.mark.parametrize("name", sorted(rendering.games()))
def test_pictures_are_small_and_equal_views_give_equal_bytes(name: str) -> None:
    for state in _moments(name, seed=5):
        table = rendering.table_png(state.view(None), NAMES, four_colour=True)
        assert len(table) <= 200_000
        assert rendering.table_png(state.view(None), NAMES, four_colour=True) == table
        seat = state.to_move if state.to_move is not None else 0
        hand = rendering.hand_png(state.view(seat))
        assert len(hand) <= 200_000
        assert rendering.hand_png(state.view(seat)) == hand


def test_words_drawn_on_the_palette_are_words_drawn_on_rgb_then_mapped() -> None:
    """Words (any script, on flat ground or across two grounds) give the pixels drawing them
    on an RGB picture and mapping the whole would; the second time from the kept pieces."""
    for _ in range(2):
        rgb = Image.new("RGB", (420, 80), FELT)
        rgb.paste(FELT_DARK, (200, 0, 420, 80))
        indexed = encode.quantize(rgb)
        for picture in (rgb, indexed):
            draw = Draw(picture)
            text(draw, (10, 10), "Zoë · ▶ 10♥ · ليلى 😀", 24, bold=True, fill=GOLD)
            text(draw, (150.5, 50), "across grounds", 22, fill=MUTED)
        assert indexed.tobytes() == encode.quantize(rgb).tobytes()


def test_png_holds_the_pixels_and_the_palette() -> None:
    state = games.get("cinq-as").new_match(seed=3)
    picture = rendering.table_image(state.view(None), NAMES)
    assert picture.mode == "P"
    data = rendering.png(picture)
    decoded = Image.open(io.BytesIO(data))
    decoded.load()
    assert decoded.mode == "P" and decoded.size == picture.size
    assert decoded.tobytes() == picture.tobytes()
    assert decoded.convert("RGB").tobytes() == picture.convert("RGB").tobytes()
    rgb = picture.convert("RGB")
    mapped = Image.open(io.BytesIO(rendering.png(rgb)))  # an RGB picture is mapped first
    assert mapped.convert("RGB").tobytes() == encode.quantize(rgb).convert("RGB").tobytes()


def test_pictures_drawn_in_threads_at_once_are_the_pictures_drawn_one_by_one() -> None:
    """The kept words and corners are shared by threads (the bot may draw in threads)."""
    views = [s.view(None) for name in ("bezique", "cinq-as") for s in _moments(name, seed=8)]
    alone = [rendering.table_png(view, NAMES) for view in views]
    encode._tiles.clear()
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda view: rendering.table_png(view, NAMES), views * 2))
    assert together == alone * 2
