"""Card faces and the card back, drawn by the project and cached.

Faces are drawn at twice their size and scaled down once, so their edges are smooth; a face
depends only on the card, the palette and the size, never on a view, so each is drawn once per
process (a few dozen milliseconds in all), then laid as a :class:`Cutout`. A new colour on a
face must join ``encode.key_colours`` (a test checks every face against the palette).

Design: large "jumbo" corner indices (rank over suit, top left, repeated upside down bottom
right), which stay visible when cards overlap in a fanned hand; a large suit symbol in the
free corner; court cards framed with a crown; tarot trumps on cream paper with a purple frame;
Le 5 As' bonus cards carry a gold "bonus" ribbon.

The corner letters of the jack, queen, king and ace are the reader's (:data:`Corners`): V D R
in French, Kn D K E in Swedish, as the labels under the cards and the moves typed name them.
A face is cached by its letters, so each language's faces are drawn once.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache
from typing import Final

from PIL import Image, ImageDraw

from games.cards import COLOUR_RANKS, SUIT_NAMES, SUIT_SYMBOLS, TRUMP_RANKS, rank_letter
from games.words import ENGLISH, Words
from rendering.encode import blend, quantize
from rendering.fonts import Font, font
from rendering.style import (
    BACK_LINE,
    BACK_RED,
    CARD_EDGE,
    CARD_H,
    CARD_PAPER,
    CARD_W,
    DIM,
    FELT,
    GOLD,
    RGB,
    RIBBON_INK,
    TRUMP_PAPER,
    palette,
    tint,
)

_SS: Final = 2
"""Supersampling factor: faces are drawn this many times larger, then reduced."""
_W: Final = CARD_W * _SS
_H: Final = CARD_H * _SS
_RADIUS: Final = 9 * _SS

COURTS: Final = ("J", "Q", "K")
FACE_CODES: Final = frozenset(
    [rank + suit for suit in "SHDC" for rank in COLOUR_RANKS]
    + [rank + "T" for rank in (*TRUMP_RANKS, "1")]
)
"""Every card a picture can show: French 2-A, tarot trumps 2-10 and 19-21, and "1T", the
trump marker of Le 5 As' discard piles."""


Corners = tuple[str, str, str, str]
"""The letters printed in the corner of the jack, queen, king and ace, in that order."""
LETTERED: Final = ("J", "Q", "K", "A")
ENGLISH_CORNERS: Final[Corners] = LETTERED


def corners(words: Words = ENGLISH) -> Corners:
    """The corner letters of the reader's language: ``("V", "D", "R", "A")`` in French."""
    jack, queen, king, ace = (rank_letter(rank, words) for rank in LETTERED)
    return jack, queen, king, ace


def corner_letter(rank: str, letters: Corners = ENGLISH_CORNERS) -> str:
    """What the corner of a card of ``rank`` shows: its number, or the reader's letter."""
    return letters[LETTERED.index(rank)] if rank in LETTERED else rank


def check_code(code: object) -> str:
    """``code`` if it is a card a picture can show; ValueError naming it otherwise."""
    if not isinstance(code, str) or code not in FACE_CODES:
        raise ValueError(
            f"cannot draw card {code!r}: a card is a canonical code such as 10H, QS or 21T "
            "(ranks 2-10 J Q K A in S H D C; trumps 1-10, 19-21 in T)"
        )
    return code


def size_of(scale: float) -> tuple[int, int]:
    return round(CARD_W * scale), round(CARD_H * scale)


@cache
def face(
    code: str,
    four_colour: bool = False,
    bonus: bool = False,
    scale: float = 1.0,
    letters: Corners = ENGLISH_CORNERS,
) -> Image.Image:
    """The face of ``code`` as an RGBA image (transparent round corners), its corner letter
    from ``letters``."""
    check_code(code)
    big = Image.new("RGBA", (_W, _H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    rank, suit = code[:-1], code[-1]
    ink = palette(four_colour).ink(suit)
    paper = TRUMP_PAPER if suit == "T" else CARD_PAPER
    _blank(draw, paper)
    if suit == "T":
        inset = 7 * _SS
        draw.rounded_rectangle(
            (inset, inset, _W - inset, _H - inset), 6 * _SS, outline=tint(ink, 0.45), width=_SS
        )
    if rank in COURTS and suit != "T":
        _court(draw, rank, suit, ink)
    else:
        _big_symbol(draw, rank, suit, ink)
    _indices(big, corner_letter(rank, letters), suit, ink, paper)
    if bonus:
        _ribbon(draw)
    return _reduce(big, scale)


@cache
def back(scale: float = 1.0) -> Image.Image:
    """The back of every card: a red lattice in a white margin."""
    big = Image.new("RGBA", (_W, _H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    _blank(draw, CARD_PAPER)
    m = 8 * _SS
    draw.rounded_rectangle((m, m, _W - m, _H - m), 5 * _SS, fill=BACK_RED)
    step = 18 * _SS
    for k in range(-_H, _W + _H, step):
        draw.line((k, m, k + (_H - 2 * m), _H - m), fill=BACK_LINE, width=_SS)
        draw.line((k, _H - m, k + (_H - 2 * m), m), fill=BACK_LINE, width=_SS)
    # Clear the lattice that ran over the margin, then redraw the frame.
    mask = Image.new("L", (_W, _H), 0)
    ImageDraw.Draw(mask).rounded_rectangle((m, m, _W - m, _H - m), 5 * _SS, fill=255)
    plain = Image.new("RGBA", (_W, _H), (0, 0, 0, 0))
    _blank(ImageDraw.Draw(plain), CARD_PAPER)
    big = Image.composite(big, plain, mask)
    draw = ImageDraw.Draw(big)
    draw.rounded_rectangle((m, m, _W - m, _H - m), 5 * _SS, outline=BACK_LINE, width=2 * _SS)
    cx, cy, r = _W // 2, _H // 2, 22 * _SS
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=BACK_RED, outline=CARD_PAPER, width=3 * _SS)
    _centred(draw, (cx, cy), "T", font(30 * _SS, bold=True), CARD_PAPER)
    return _reduce(big, scale)


@cache
def dimmed(
    code: str,
    four_colour: bool = False,
    bonus: bool = False,
    scale: float = 1.0,
    letters: Corners = ENGLISH_CORNERS,
) -> Image.Image:
    """A face washed into the felt: a card that cannot be played now."""
    card = face(code, four_colour, bonus, scale, letters)
    alpha = card.getchannel("A")
    felt = Image.new("RGBA", card.size, (*FELT, 255))
    washed = Image.blend(card, felt, DIM)
    washed.putalpha(alpha)
    return washed


_CORNERS: Final = itertools.count(1)


@dataclass(frozen=True)
class Cutout:
    """A card ready to lay on a picture, in pieces: the opaque ones are copied as they are, the
    four corners (rounded, partly transparent) blended. Copying is far cheaper than blending,
    and the pixels laid are the same, since blending an opaque pixel gives that pixel."""

    pieces: tuple[tuple[tuple[int, int], Image.Image, bool], ...]
    """(offset, piece, blended) in the order laid."""
    indexed: tuple[tuple[tuple[int, int], Image.Image, Image.Image | None, int], ...]
    """The same for a picture on the fixed palette: (offset, the opaque piece mapped onto the
    palette, None, 0) or (offset, the piece, its alpha, a number no other corner has) for a
    corner, blended where it falls (``encode.blend`` keeps it by that number)."""

    @classmethod
    def of(cls, picture: Image.Image) -> Cutout:
        w, h = picture.size
        clear = picture.getchannel("A").point(lambda value: 255 if value < 255 else 0)
        left, top, right, bottom = _corner_extents(clear)
        opaque = [
            (left, 0, w - right, top),
            (0, top, w, h - bottom),
            (left, h - bottom, w - right, h),
        ]
        corners = [
            (0, 0, left, top),
            (w - right, 0, w, top),
            (0, h - bottom, left, h),
            (w - right, h - bottom, w, h),
        ]
        body = picture.convert("RGB")
        pieces = [((x0, y0), body.crop((x0, y0, x1, y1)), False) for x0, y0, x1, y1 in opaque]
        pieces += [((x0, y0), picture.crop((x0, y0, x1, y1)), True) for x0, y0, x1, y1 in corners]
        kept = tuple(
            (xy, piece, blend) for xy, piece, blend in pieces if piece.width * piece.height
        )
        indexed = tuple(
            (xy, piece, piece.getchannel("A"), next(_CORNERS))
            if blend
            else (xy, quantize(piece), None, 0)
            for xy, piece, blend in kept
        )
        return cls(kept, indexed)

    def lay(self, image: Image.Image, xy: tuple[int, int]) -> None:
        """Lay the card on ``image`` (RGB, or on the fixed palette) with its top left corner
        at ``xy``: on the palette, the same pixels as laid on RGB and mapped afterwards."""
        x, y = xy
        if image.mode == "P":
            for (dx, dy), piece, alpha, corner in self.indexed:
                if alpha is None:
                    image.paste(piece, (x + dx, y + dy))
                else:
                    blend(image, (x + dx, y + dy), piece, alpha, ("corner", corner))
            return
        for (dx, dy), piece, blended in self.pieces:
            image.paste(piece, (x + dx, y + dy), piece if blended else None)


def _corner_extents(clear: Image.Image) -> tuple[int, int, int, int]:
    """How far the transparent pixels (white in ``clear``) reach in from each side, each
    quarter measured from its own corner: (left, top, right, bottom). The four corner boxes
    these make hold every transparent pixel, whatever the shape; for a card they are small."""
    w, h = clear.size
    left = top = right = bottom = 0
    for qx, qy in ((0, 0), (1, 0), (0, 1), (1, 1)):
        x0, y0 = qx * (w // 2), qy * (h // 2)
        box = clear.crop((x0, y0, x0 + w // 2 + qx * (w % 2), y0 + h // 2 + qy * (h % 2)))
        found = box.getbbox()
        if found is None:
            continue
        if qx == 0:
            left = max(left, found[2])
        else:
            right = max(right, box.width - found[0])
        if qy == 0:
            top = max(top, found[3])
        else:
            bottom = max(bottom, box.height - found[1])
    return left, top, right, bottom


@cache
def face_cutout(
    code: str,
    four_colour: bool = False,
    bonus: bool = False,
    scale: float = 1.0,
    letters: Corners = ENGLISH_CORNERS,
) -> Cutout:
    return Cutout.of(face(code, four_colour, bonus, scale, letters))


@cache
def dimmed_cutout(
    code: str,
    four_colour: bool = False,
    bonus: bool = False,
    scale: float = 1.0,
    letters: Corners = ENGLISH_CORNERS,
) -> Cutout:
    return Cutout.of(dimmed(code, four_colour, bonus, scale, letters))


@cache
def back_cutout(scale: float = 1.0) -> Cutout:
    return Cutout.of(back(scale))


def describe(code: str) -> str:
    """``"10H"`` → ``"10 of hearts"``: for alt text and error messages."""
    check_code(code)
    return f"{code[:-1]} of {SUIT_NAMES[code[-1]]}"


# -- drawing ----------------------------------------------------------------------------------
def _blank(draw: ImageDraw.ImageDraw, paper: RGB) -> None:
    draw.rounded_rectangle(
        (0, 0, _W - 1, _H - 1), _RADIUS, fill=paper, outline=CARD_EDGE, width=2 * _SS
    )


def _centred(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, face_font: Font, fill: RGB
) -> None:
    """Draw ``text`` with its inked box centred on ``centre`` (glyphs, not line metrics)."""
    left, top, right, bottom = draw.textbbox((0, 0), text, font=face_font)
    x = centre[0] - (left + right) / 2
    y = centre[1] - (top + bottom) / 2
    draw.text((x, y), text, font=face_font, fill=fill)


def _ink_width(draw: ImageDraw.ImageDraw, text: str, face_font: Font) -> float:
    left, _, right, _ = draw.textbbox((0, 0), text, font=face_font)
    return right - left


def _index_image(rank: str, suit: str, ink: RGB, paper: RGB) -> Image.Image:
    """Rank over suit symbol, as one block, so the bottom-right copy is the same turned over."""
    width, height = 46 * _SS, 74 * _SS
    block = Image.new("RGBA", (width, height), (*paper, 0))
    draw = ImageDraw.Draw(block)
    size = 38 if len(rank) < 2 else 32
    # A letter of two (Swedish "Kn") is no wider than "10", so it clears a court's frame.
    widest = _ink_width(draw, "10", font(32 * _SS, bold=True))
    while size > 24 and _ink_width(draw, rank, font(size * _SS, bold=True)) > widest:
        size -= 1
    rank_font = font(size * _SS, bold=True)
    _centred(draw, (width / 2, 20 * _SS), rank, rank_font, ink)
    _centred(draw, (width / 2, 54 * _SS), SUIT_SYMBOLS[suit], font(30 * _SS), ink)
    return block


def _indices(card: Image.Image, rank: str, suit: str, ink: RGB, paper: RGB) -> None:
    # One index only: in a fanned hand the top-left corner is the part always in view, and
    # the space of a second index goes to a larger symbol.
    card.alpha_composite(_index_image(rank, suit, ink, paper), (3 * _SS, 5 * _SS))


def _big_symbol(draw: ImageDraw.ImageDraw, rank: str, suit: str, ink: RGB) -> None:
    symbol = SUIT_SYMBOLS[suit]
    if rank in ("A", "1"):
        _centred(draw, (70 * _SS, 100 * _SS), symbol, font(84 * _SS), ink)
        return
    _centred(draw, (78 * _SS, 64 * _SS), symbol, font(60 * _SS), ink)
    if suit == "T":
        # A trump is its number: repeat it large.
        _centred(draw, (_W / 2, 116 * _SS), rank, font(36 * _SS, bold=True), tint(ink, 0.8))
        return
    # Pips along the foot, so a glance tells a 7 from a 9 without reading the index.
    count = int(rank) if rank.isdigit() else 0
    pip = font(15 * _SS)
    per_row = (count + 1) // 2 if count > 5 else count
    for i in range(count):
        row, col = divmod(i, per_row) if per_row else (0, 0)
        in_row = per_row if row == 0 else count - per_row
        x = _W / 2 + (col - (in_row - 1) / 2) * 17 * _SS
        _centred(draw, (x, (120 + row * 20) * _SS), symbol, pip, ink)


def _court(draw: ImageDraw.ImageDraw, rank: str, suit: str, ink: RGB) -> None:
    x0, y0, x1, y1 = 48 * _SS, 14 * _SS, _W - 10 * _SS, _H - 12 * _SS
    draw.rounded_rectangle((x0, y0, x1, y1), 6 * _SS, fill=tint(ink, 0.12), outline=ink, width=_SS)
    cx = (x0 + x1) / 2
    _crown(draw, rank, cx, y0 + 34 * _SS, ink)
    _centred(draw, (cx, y0 + 88 * _SS), SUIT_SYMBOLS[suit], font(54 * _SS), ink)


def _crown(draw: ImageDraw.ImageDraw, rank: str, cx: float, cy: float, ink: RGB) -> None:
    """A king's crown (three spikes), a queen's (five pearls), a jack's cap (one feather)."""
    u = _SS
    half = 20 * u
    base = (cx - half, cy + 6 * u, cx + half, cy + 13 * u)
    if rank == "K":
        points = [
            (cx - half, cy + 6 * u),
            (cx - half, cy - 14 * u),
            (cx - 10 * u, cy - 2 * u),
            (cx, cy - 18 * u),
            (cx + 10 * u, cy - 2 * u),
            (cx + half, cy - 14 * u),
            (cx + half, cy + 6 * u),
        ]
        draw.polygon(points, fill=GOLD, outline=ink, width=u)
        draw.rectangle(base, fill=GOLD, outline=ink, width=u)
    elif rank == "Q":
        draw.chord(
            (cx - half, cy - 16 * u, cx + half, cy + 24 * u),
            180,
            360,
            fill=GOLD,
            outline=ink,
            width=u,
        )
        for dx in (-16, -8, 0, 8, 16):
            r = 3 * u
            px, py = cx + dx * u, cy - 12 * u + abs(dx) * u * 0.45
            draw.ellipse((px - r, py - r, px + r, py + r), fill=GOLD, outline=ink, width=u)
        draw.rectangle(base, fill=GOLD, outline=ink, width=u)
    else:
        draw.pieslice(
            (cx - half, cy - 14 * u, cx + half, cy + 26 * u),
            180,
            360,
            fill=tint(ink, 0.6),
            outline=ink,
            width=u,
        )
        draw.line((cx + 4 * u, cy - 6 * u, cx + 18 * u, cy - 20 * u), fill=GOLD, width=4 * u)
        draw.rectangle(base, fill=GOLD, outline=ink, width=u)


def _ribbon(draw: ImageDraw.ImageDraw) -> None:
    """Le 5 As' bonus cards (cinq-as D5): they multiply an expedition instead of adding to it.

    The ribbon runs along the top, right of the index: the strip of a card that stays in view
    when an expedition stacks its cards, as well as in a fanned hand."""
    x0, y0, x1, y1 = 54 * _SS, 4 * _SS, _W - 5 * _SS, 24 * _SS
    draw.rectangle((x0, y0, x1, y1), fill=GOLD, outline=CARD_EDGE, width=_SS)
    _centred(draw, ((x0 + x1) / 2, (y0 + y1) / 2), "BONUS", font(13 * _SS, bold=True), RIBBON_INK)


def _reduce(big: Image.Image, scale: float) -> Image.Image:
    return big.resize(size_of(scale), Image.Resampling.LANCZOS)
