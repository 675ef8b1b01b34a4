"""PNG encoding on one fixed palette made of the project's own colours.

Every picture is drawn from a few dozen colours (style.py) and the shades anti-aliasing puts
between two of them where they meet: a letter's edge on the felt, a suit symbol on paper, a
card's border on the baize. A palette holding those colours and, for each pair that meets, a
ramp of shades between them, renders the pictures as well as one tuned to each picture, and
mapping onto a fixed palette without dithering costs a sixth of building a palette per
picture (1.3 ms against 8 ms on a full Le 5 As table). Equal views still give equal bytes: the
palette is built once per process, in a fixed order, from constants only.

Shades beyond a ramp's ends (the slight overshoot of the Lanczos reduction of card faces, just
inside a black stroke) take the ink itself, which is what was meant.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Final

from PIL import Image

from rendering.style import (
    BACK_LINE,
    BACK_RED,
    CARD_EDGE,
    CARD_PAPER,
    DIM,
    FELT,
    FELT_DARK,
    FELT_LINE,
    FOUR_COLOURS,
    GOLD,
    INK,
    MUTED,
    RGB,
    RIBBON_INK,
    TRUMP_PAPER,
    TWO_COLOURS,
    Palette,
    tint,
)

COLOURS: Final = 256
COMPRESS_LEVEL: Final = 1
"""zlib effort. Measured on a full Le 5 As table: level 1 deflates in 3.1 ms to 63 KB, level 3
in 3.4 ms to 57 KB, level 6 in 7 ms to 45 KB. Under load every millisecond of a picture is
paid by every move waiting behind it, and 63 KB is far below what Discord takes."""

Pair = tuple[RGB, RGB, float]
"""Two colours that meet at anti-aliased edges, and how much their shades matter (1 = text
and card edges in full view; less for cards washed into the felt)."""


def png(image: Image.Image) -> bytes:
    """``image`` (RGB) as PNG bytes on the fixed palette, without dithering: a shade between
    two ramp steps takes the nearer one, which at this spacing no eye tells from the exact
    shade, and flat areas stay flat (dither would speckle them and grow the file)."""
    out = io.BytesIO()
    indexed = image.quantize(palette=_palette_image(), dither=Image.Dither.NONE)
    indexed.save(out, format="PNG", compress_level=COMPRESS_LEVEL)
    return out.getvalue()


@cache
def _palette_image() -> Image.Image:
    return _holder(fixed_palette())


def _holder(colours: Sequence[RGB]) -> Image.Image:
    holder = Image.new("P", (1, 1))
    holder.putpalette([channel for colour in colours for channel in colour])
    holder.load()  # settle the palette now: later pictures only read it, from any thread
    return holder


@cache
def fixed_palette() -> tuple[RGB, ...]:
    """The 256 colours: the project's colours first, then ramps between those that meet,
    as many steps per ramp as fit, more for pairs far apart (their edges show more shades)."""
    keys = list(dict.fromkeys(key_colours()))
    pairs = meeting_pairs()
    room = COLOURS - len(keys)
    spacing = sum(weight * _distance(a, b) for a, b, weight in pairs) / room
    flat = set(keys)
    while True:  # widen the spacing of the steps until every ramp fits
        ramps = [c for c in dict.fromkeys(_ramps(pairs, spacing)) if c not in flat]
        if len(ramps) <= room:
            break
        spacing *= 1.02
    ramps = _clear_of_keys(keys, ramps)
    colours = keys + ramps
    colours += [colours[-1]] * (COLOURS - len(colours))  # pad: PNG palettes take any count
    return tuple(colours)


def _clear_of_keys(keys: list[RGB], ramps: list[RGB]) -> list[RGB]:
    """``ramps`` without the shades Pillow would put in place of a project colour.

    Pillow maps a colour through a cache of 4×4×4 cells, each taking the palette colour
    nearest a corner of the cell, so a shade a step away from a flat colour (a court card's
    panel, say) may win its cell and tint the whole area. Such shades are dropped, until every
    project colour maps onto itself."""
    sample = Image.new("RGB", (len(keys), 1))
    sample.putdata(keys)
    while True:
        indexed = sample.quantize(palette=_holder(keys + ramps), dither=Image.Dither.NONE)
        thieves = {index - len(keys) for index in indexed.tobytes() if index >= len(keys)}
        if not thieves:
            return ramps
        ramps = [colour for i, colour in enumerate(ramps) if i not in thieves]


def _ramps(pairs: Iterable[Pair], spacing: float) -> list[RGB]:
    out: list[RGB] = []
    for a, b, weight in pairs:
        steps = max(1, min(15, round(weight * _distance(a, b) / spacing)))
        out += [tint(a, i / (steps + 1), b) for i in range(1, steps + 1)]
    return out


def _distance(a: RGB, b: RGB) -> float:
    return math.dist(a, b)


def _inks(decks: Sequence[Palette] = (TWO_COLOURS, FOUR_COLOURS)) -> list[RGB]:
    """The suit inks of both decks, each once."""
    found = [deck.ink(suit) for deck in decks for suit in "SHDCT"]
    return list(dict.fromkeys(found))


def _face_colours() -> list[RGB]:
    """The flat colours of the card faces and back (faces.py draws with nothing else)."""
    out = [CARD_PAPER, TRUMP_PAPER, CARD_EDGE, GOLD, RIBBON_INK, BACK_RED, BACK_LINE]
    for ink in _inks():
        # The ink, the court's panel, the jack's cap, a trump's frame and large number.
        out += [ink, tint(ink, 0.12), tint(ink, 0.6), tint(ink, 0.45), tint(ink, 0.8)]
    return out


def key_colours() -> list[RGB]:
    """Colours drawn flat: the felt and its inks, the face colours, and the same washed into
    the felt (a card that cannot be played now, faces.dimmed)."""
    faces = _face_colours()
    return [FELT, FELT_DARK, FELT_LINE, INK, MUTED, GOLD, *faces, *(_dim(c) for c in faces)]


def _dim(colour: RGB) -> RGB:
    return tint(colour, 1 - DIM, FELT)


def meeting_pairs() -> list[Pair]:
    """Pairs of colours with anti-aliased shades between them, the most visible first.

    Shapes drawn straight onto a picture (bands, chips, outlines) have no anti-aliasing; the
    shades come from text, and from card faces, drawn twice as large and then reduced."""
    grounds = (FELT, FELT_DARK)
    pairs: list[Pair] = [(ink, ground, 1.0) for ground in grounds for ink in (INK, MUTED, GOLD)]
    pairs += [(FELT_LINE, FELT, 0.6), (FELT_DARK, FELT, 0.6), (CARD_EDGE, FELT, 1.0)]
    face: list[Pair] = [(CARD_EDGE, CARD_PAPER, 0.8), (CARD_EDGE, TRUMP_PAPER, 0.6)]
    for ink in _inks():
        face += [(ink, CARD_PAPER, 1.0), (ink, tint(ink, 0.12), 0.6), (GOLD, ink, 0.8)]
    purple = TWO_COLOURS.trumps
    face += [(purple, TRUMP_PAPER, 1.0), (tint(purple, 0.8), TRUMP_PAPER, 0.6)]
    face += [(RIBBON_INK, GOLD, 0.8), (CARD_EDGE, GOLD, 0.4), (GOLD, CARD_PAPER, 0.6)]
    face += [(BACK_LINE, BACK_RED, 1.0), (CARD_PAPER, BACK_RED, 0.8), (CARD_PAPER, BACK_LINE, 0.6)]
    washed = [(_dim(a), _dim(b), weight * 0.5) for a, b, weight in face]
    washed += [(_dim(CARD_EDGE), FELT, 0.6)]
    return pairs + face + washed
