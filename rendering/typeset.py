"""Players' words made drawable: any script, one line, in display order, one font per run.

Names come from players and may hold anything: emoji, CJK, Arabic or Hebrew (right to left),
combining accents, control characters. Pictures are drawn with Pillow's basic layout, which is
the same on every machine (raqm, Pillow's complex layout, depends on system libraries that a
slim image may lack), so the three things complex layout would do are done here:

* **fallback**: each character is drawn by the first font of the chain that has it
  (``rendering.fonts.CHAIN``); a character no font has becomes ``SUBSTITUTE`` rather than the
  font's empty box, and invisible format characters (joiners, direction marks) are dropped;
* **shaping**: Arabic letters take their joined forms (arabic-reshaper maps them to the
  presentation forms, which the fonts have);
* **order**: right-to-left runs are reversed for display by a small bidi step (below), which
  keeps each base character with its combining marks, so accents stay on their letter.

The bidi step covers what one line of a name needs: the paragraph direction from the first
strong character, numbers kept left to right, neutrals between two runs of one direction taking
it, mirrored brackets. It does not honour explicit embedding controls (they are dropped).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Final, NamedTuple

from arabic_reshaper import ArabicReshaper

from rendering.fonts import CHAIN, Font, chain_font, coverage, face_for

SUBSTITUTE: Final = "?"
"""Drawn for a character that no shipped font has: clearly a stand-in, never a box."""
ELLIPSIS: Final = "…"

_ARABIC: Final = re.compile("[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff]")
# Harakat (vowel marks) are kept: they are part of how a name is spelt.
_RESHAPER: Final = ArabicReshaper(configuration={"delete_harakat": False})
_MIRRORED: Final = dict(zip("()[]{}<>«»", ")(][}{><»«", strict=True))
_SPACES: Final = frozenset({"Cc", "Zs", "Zl", "Zp"})
_MARKS: Final = frozenset({"Mn", "Me", "Mc"})


class Run(NamedTuple):
    """Consecutive characters, in display order, drawn by one face of the chain."""

    words: str
    face: int


def clean(words: str, bold: bool = False) -> str:
    """``words`` made drawable, still in logical (reading) order.

    Line breaks, tabs and other spaces become plain spaces (a line break would make Pillow lay
    out several lines); format characters are dropped; Arabic is shaped; a character no font
    has becomes ``SUBSTITUTE``, or is dropped if it is a mark or selector with nothing to show.
    """
    if words.isascii() and words.isprintable():
        return words  # the project's own words: all in DejaVu, nothing to do
    out = []
    for char in words:
        category = unicodedata.category(char)
        if category in _SPACES:
            out.append(" ")
        elif category != "Cf" and not _is_skin_tone(char):
            out.append(char)
    text = "".join(out)
    if _ARABIC.search(text):
        text = _RESHAPER.reshape(text)
    drawable = []
    for char in text:
        if face_for(char, bold) is not None:
            drawable.append(char)
        elif unicodedata.category(char) not in _MARKS:
            drawable.append(SUBSTITUTE)
    return "".join(drawable)


def clusters(words: str) -> list[str]:
    """``words`` cut into base characters, each with the marks and modifiers that follow it."""
    out: list[str] = []
    for char in words:
        if out and _joins(char):
            out[-1] += char
        else:
            out.append(char)
    return out


def _joins(char: str) -> bool:
    """Whether ``char`` belongs to the character before it (a combining mark)."""
    return unicodedata.category(char) in _MARKS


def _is_skin_tone(char: str) -> bool:
    """Emoji skin tones: a monochrome font can only draw them as a swatch beside the emoji,
    which reads as a broken glyph, so they are left out."""
    return "\U0001f3fb" <= char <= "\U0001f3ff"


def _direction(cluster: str) -> str:
    """ "L", "R" (right to left), "N" (a number) or "X" (neutral) for bidi purposes."""
    kind = unicodedata.bidirectional(cluster[0])
    if kind == "L":
        return "L"
    if kind in ("R", "AL"):
        return "R"
    if kind in ("EN", "AN"):
        return "N"
    return "X"


def _levels(kinds: Sequence[str]) -> list[int]:
    """Embedding levels (even: left to right) for clusters of the given kinds."""
    first = next((kind for kind in kinds if kind in ("L", "R")), "L")
    base = 1 if first == "R" else 0
    left_level = base + (base & 1)  # the nearest even level at or above base: 0 or 2
    # Strong direction around each position; numbers count as right to left for neutrals, and
    # follow the strong direction before them (a number after Latin letters is Latin).
    before: list[str] = []
    last = "L" if base == 0 else "R"
    for kind in kinds:
        before.append(last)
        if kind in ("L", "R"):
            last = kind
    after: list[str] = [""] * len(kinds)
    following = "L" if base == 0 else "R"
    for i in range(len(kinds) - 1, -1, -1):
        after[i] = following
        if kinds[i] in ("L", "R", "N"):
            following = "R" if kinds[i] == "N" else kinds[i]
    levels = []
    for i, kind in enumerate(kinds):
        if kind == "L":
            levels.append(left_level)
        elif kind == "R":
            levels.append(1)
        elif kind == "N":
            levels.append(left_level if before[i] == "L" else 2)
        else:
            around = before[i] if before[i] == after[i] else ("R" if base else "L")
            levels.append(left_level if around == "L" else 1)
    return levels


def display_order(words: str) -> list[str]:
    """The clusters of ``words`` in the order they are drawn, left to right."""
    parts = clusters(words)
    kinds = [_direction(part) for part in parts]
    if "R" not in kinds:
        return parts
    levels = _levels(kinds)
    order = list(range(len(parts)))
    for level in range(max(levels), 0, -1):  # reverse every run at or above each level
        i = 0
        while i < len(order):
            if levels[order[i]] < level:
                i += 1
                continue
            j = i
            while j < len(order) and levels[order[j]] >= level:
                j += 1
            order[i:j] = reversed(order[i:j])
            i = j
    out = []
    for index in order:
        part = parts[index]
        if levels[index] & 1 and part[0] in _MIRRORED:
            part = _MIRRORED[part[0]] + part[1:]
        out.append(part)
    return out


def _face_of(cluster: str, bold: bool) -> int:
    """The face of the base character if it has the whole ``cluster``, else the first that
    does (a letter and its accents are drawn by one font, so the accent sits on it)."""
    first = face_for(cluster[0], bold) or 0
    if len(cluster) > 1 and not all(ord(char) in coverage(first, bold) for char in cluster):
        for face in range(len(CHAIN)):
            if all(ord(char) in coverage(face, bold) for char in cluster):
                return face
    return first


def runs(words: str, bold: bool = False) -> list[Run]:
    """``words`` (already ``clean``) in display order, cut where the drawing face changes."""
    if words.isascii():
        return [Run(words, 0)] if words else []
    out: list[Run] = []
    for cluster in display_order(words):
        face = _face_of(cluster, bold)
        if out and out[-1].face == face:
            out[-1] = Run(out[-1].words + cluster, face)
        else:
            out.append(Run(cluster, face))
    return out


def _rtl_marked(cluster: str) -> bool:
    return len(cluster) > 1 and unicodedata.bidirectional(cluster[0]) in ("R", "AL")


def has_placed_marks(words: str) -> bool:
    """Whether ``words`` hold a right-to-left letter with marks, which ``layout`` places."""
    return any(_rtl_marked(cluster) for cluster in clusters(words))


def layout(words: str, face_font: Font) -> list[tuple[str, float]]:
    """Pieces of one run with their x offset from its start, for drawing one by one.

    Basic layout sets a mark at the pen after its letter, which suits left-to-right fonts
    (their marks reach back over the letter) but leaves Hebrew and Arabic points beside theirs.
    So a right-to-left letter's marks are centred on the letter's ink instead; everything else
    stays in pieces drawn as they are."""
    if not has_placed_marks(words):
        return [(words, 0.0)]
    out: list[tuple[str, float]] = []
    pending, start, pen = "", 0.0, 0.0
    for cluster in clusters(words):
        if not _rtl_marked(cluster):
            if not pending:
                start = pen
            pending += cluster
            pen += face_font.getlength(cluster)
            continue
        if pending:
            out.append((pending, start))
            pending = ""
        base = cluster[0]
        out.append((base, pen))
        left, _, right, _ = face_font.getbbox(base, anchor="ls")
        centre = pen + (left + right) / 2
        for mark in cluster[1:]:
            mark_left, _, mark_right, _ = face_font.getbbox(mark, anchor="ls")
            out.append((mark, centre - (mark_left + mark_right) / 2))
        pen += face_font.getlength(base)
    if pending:
        out.append((pending, start))
    return out


def width(pieces: Sequence[Run], size: int, bold: bool = False) -> float:
    """The width of ``pieces`` drawn one after the other at ``size`` pixels."""
    return sum(chain_font(piece.face, size, bold).getlength(piece.words) for piece in pieces)


@lru_cache(maxsize=4096)
def measure(words: str, size: int, bold: bool = False) -> float:
    """The drawn width of ``words`` (already ``clean``)."""
    return width(runs(words, bold), size, bold)


def fit(words: str, size: int, max_width: float, bold: bool = False) -> str:
    """``words`` (already ``clean``), or the longest start of them that fits with "…" after it.

    The cut falls between clusters, never between a letter and its accent, and is measured by
    the drawn width, whatever fonts the characters come from."""
    if measure(words, size, bold) <= max_width:
        return words
    parts = clusters(words)
    low, high = 0, len(parts)
    while low < high:  # the longest prefix that fits, by halving
        middle = (low + high + 1) // 2
        if measure(_cut(parts, middle), size, bold) <= max_width:
            low = middle
        else:
            high = middle - 1
    return _cut(parts, low)


def _cut(parts: Sequence[str], count: int) -> str:
    return "".join(parts[:count]).rstrip() + ELLIPSIS


def characters(pieces: Sequence[Run]) -> Iterator[tuple[str, int]]:
    """Every character drawn, with the face that draws it (for checks and tests)."""
    for piece in pieces:
        for char in piece.words:
            yield char, piece.face
