"""PNG encoding on one fixed palette made of the project's own colours.

Every picture is drawn from a few dozen colours (style.py) and the shades anti-aliasing puts
between two of them where they meet: a letter's edge on the felt, a suit symbol on paper, a
card's border on the baize. A palette holding those colours and, for each pair that meets, a
ramp of shades between them, renders the pictures as well as one tuned to each picture, and
mapping onto a fixed palette without dithering costs a sixth of building a palette per
picture (1.3 ms against 8 ms on a full Le 5 As table). Equal views still give equal pictures
(the same palette, the same pixels): the palette is built once per process, in a fixed order,
from constants only. Not always equal bytes: ISA-L's deflate may write the same rows as two
different, equally valid streams from one call to the next (seen in the bot, with pictures
drawn in threads side by side), so pictures are compared by their pixels, not their files.

Shades beyond a ramp's ends (the slight overshoot of the Lanczos reduction of card faces, just
inside a black stroke) take the ink itself, which is what was meant.
"""

from __future__ import annotations

import math
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Sequence
from functools import cache
from typing import Final

from PIL import Image

try:  # ISA-L's deflate: five times zlib's speed at level 1, and smaller (see COMPRESS_LEVEL)
    from isal.isal_zlib import compress as _deflate
except ImportError:  # a platform without its wheels: zlib gives the same pictures, slower
    from zlib import compress as _deflate

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
"""Deflate effort, with ISA-L's deflate (``isal``) where it is installed, zlib's otherwise.

Measured on this project's tables (mean of 28, from every game, on the 2-core machine): Pillow's
own PNG writer at zlib level 1 took 5.9 ms a table and made 34 KB; zlib level 1 alone, 2.5 ms
for the same; ISA-L level 1, 0.5 ms for 31 KB (level 0: 0.46 ms, 38 KB). Under load every
millisecond of a picture is paid by every move waiting behind it, so the pictures are written
here, in one IDAT chunk deflated by ISA-L: a fifth of the time, and smaller files."""

_SIGNATURE: Final = b"\x89PNG\r\n\x1a\n"
_NONE_FILTER: Final = 0
"""Scanlines are stored as they are: on a palette, PNG's predictors help little and cost much."""

Pair = tuple[RGB, RGB, float]
"""Two colours that meet at anti-aliased edges, and how much their shades matter (1 = text
and card edges in full view; less for cards washed into the felt)."""


def png(image: Image.Image) -> bytes:
    """``image`` as PNG bytes on the fixed palette. A picture drawn on the palette already
    (mode "P", :func:`blank`) is written as it is; an RGB one is mapped onto it first.

    The file holds what every reader needs and nothing else: the header, the palette, the
    pixels (8-bit indices, unfiltered), the end. Equal pictures give equal headers, palettes
    and pixels; the deflated pixels may differ (see the module's docstring)."""
    indexed = image if image.mode == "P" else quantize(image)
    width, height = indexed.size
    # A column of zeros to the left of the pixels: each row then starts with the byte of its
    # filter type (0, none), as PNG stores rows, without copying them one by one in Python.
    rows = indexed.crop((-1, 0, width, height)).tobytes()
    palette = indexed.getpalette() or []
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8 bits, indexed colour
    return b"".join(
        (
            _SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", bytes(palette[: 3 * COLOURS])),
            _chunk(b"IDAT", _deflate(rows, COMPRESS_LEVEL)),
            _chunk(b"IEND", b""),
        )
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(data, zlib.crc32(kind))
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


def quantize(image: Image.Image) -> Image.Image:
    """``image`` (RGB) on the fixed palette, without dithering: a shade between two ramp steps
    takes the nearer one, which at this spacing no eye tells from the exact shade, and flat
    areas stay flat (dither would speckle them and grow the file). Each pixel is mapped on its
    own, so mapping a part of a picture gives the very pixels mapping the whole would."""
    return image.quantize(palette=_palette_image(), dither=Image.Dither.NONE)


def blank(width: int, height: int, colour: RGB) -> Image.Image:
    """A picture on the fixed palette, all ``colour``: drawing on it directly spares the
    mapping of every pixel at the end (a sixth of a table's drawing time)."""
    image = Image.new("P", (width, height), index_of(colour))
    image.putpalette(_palette_bytes())
    return image


def index_of(colour: RGB) -> int:
    """The palette index ``quantize`` gives ``colour``: its own for the project's colours."""
    found = _indices().get(colour)
    if found is None:
        found = _indices()[colour] = quantize(Image.new("RGB", (1, 1), colour)).tobytes()[0]
    return found


@cache
def _indices() -> dict[RGB, int]:
    """Palette colours to their indices; a colour met more than once (padding) keeps its
    first. Colours outside the palette are added as they are met, each mapped once."""
    found: dict[RGB, int] = {}
    for index, colour in enumerate(fixed_palette()):
        found.setdefault(colour, index)
    sample = Image.new("RGB", (len(found), 1))
    sample.putdata(list(found))
    mapped = quantize(sample).tobytes()
    # What quantize gives each colour, which for a palette colour may be another entry of
    # the same colour: the pictures are the same, the bytes too.
    return {colour: mapped[i] for i, colour in enumerate(found)}


@cache
def _palette_bytes() -> bytes:
    return bytes(channel for colour in fixed_palette() for channel in colour)


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


TILES: Final = 16384
"""Blended pieces kept: a few hundred distinct words and card corners recur across all
pictures, on a few grounds each; a piece weighs a few hundred bytes."""
GROUND_KEY: Final = 2048
"""A flat ground keys a blended piece by its colour; one of several colours, by its pixels if
there are at most this many (a card's corner over the card before it in a fan, a word across
a label's edge). Larger ones are mapped afresh."""
_TOUCHED: Final = [0] + [255] * 255
"""Any coverage at all: the pixels a blended piece changes."""
_tiles: OrderedDict[Hashable, Image.Image] = OrderedDict()
_keeping: Final = threading.Lock()
_touched: OrderedDict[Hashable, Image.Image] = OrderedDict()


def blend(
    image: Image.Image,
    xy: tuple[int, int],
    source: RGB | Image.Image,
    mask: Image.Image,
    key: Hashable | None = None,
) -> None:
    """Lay ``source`` — a colour, or a picture the size of ``mask`` — on ``image`` (mode "P")
    at ``xy`` through ``mask`` (mode "L"): the very pixels that laying it on the RGB picture
    and mapping the whole onto the palette would give, where the ground under it is made of
    the palette's colours (it is, but for the shades where two cards' edges cross).

    Only the pixels ``mask`` touches are mapped. The mapped piece is kept under ``key`` (what
    ``source`` and ``mask`` are, None: not kept) and its ground, so the same word or corner
    on the same ground is laid again without any mapping."""
    x, y = xy
    w, h = mask.size
    box = (max(0, x), max(0, y), min(image.width, x + w), min(image.height, y + h))
    if box[0] >= box[2] or box[1] >= box[3]:
        return
    if box != (x, y, x + w, y + h):  # partly outside the picture: lay the part inside
        inner = (box[0] - x, box[1] - y, box[2] - x, box[3] - y)
        mask = mask.crop(inner)
        if isinstance(source, Image.Image):
            source = source.crop(inner)
        key = None
    ground = image.crop(box)
    if key is None:
        tile, touched = _mapped(ground, source, mask), mask.point(_TOUCHED, "1")
    else:
        low, high = ground.getextrema()
        place: Hashable = low if low == high else None
        if place is None and w * h <= GROUND_KEY:
            place = ground.tobytes()
        touched = _kept(_touched, key, lambda: mask.point(_TOUCHED, "1"))
        if place is None:
            tile = _mapped(ground, source, mask)
        else:
            tile = _kept(_tiles, (key, place), lambda: _mapped(ground, source, mask))
    image.paste(tile, box[:2], touched)


def _mapped(ground: Image.Image, source: RGB | Image.Image, mask: Image.Image) -> Image.Image:
    rgb = ground.convert("RGB")
    rgb.paste(source, (0, 0), mask)
    return quantize(rgb)


def _kept(
    store: OrderedDict[Hashable, Image.Image], key: Hashable, make: Callable[[], Image.Image]
) -> Image.Image:
    """``store[key]``, made first if missing; the least recently used dropped past ``TILES``."""
    with _keeping:  # pictures may be drawn in threads (TAPIS_RENDER_PROCESSES=0)
        found = store.get(key)
        if found is not None:
            store.move_to_end(key)
            return found
    made = make()
    with _keeping:
        store[key] = made
        if len(store) > TILES:
            store.popitem(last=False)
    return made
