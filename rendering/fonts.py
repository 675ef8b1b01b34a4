"""The shipped fonts (``rendering/typefaces``, each with its licence), loaded once.

This is the only file rendering/ reads: each font file is read into memory, through
``importlib.resources``, the first time it is needed, and every size is made from those
bytes. The fonts are package data, so an installed wheel or a copied ``rendering/`` draws the
same as a checkout; system fonts are never used, so a picture looks the same on every machine.

The fonts form a chain: DejaVu Sans draws everything it can (all of the project's own words and
most Latin, Greek and Cyrillic names); a character it lacks is drawn by the first font further
down that has it (see ``rendering.typeset``). The chain and how the fallback files were obtained
are described in ``rendering/typefaces/README.md``.
"""

from __future__ import annotations

import io
from functools import cache
from importlib import resources
from typing import Final, NamedTuple

from fontTools.ttLib import TTFont
from PIL import ImageFont

FOLDER: Final = "typefaces"


class Face(NamedTuple):
    """One family of the chain: its regular and bold files (the same file when it has no bold),
    and the blocks of code points it draws before any face above it (a script's own font
    draws it better than DejaVu's broad coverage does)."""

    name: str
    regular: str
    bold: str
    first_for: tuple[tuple[int, int], ...] = ()


CHAIN: Final = (
    Face("DejaVu Sans", "DejaVuSans.ttf", "DejaVuSans-Bold.ttf"),
    # DejaVu's Hebrew points sit on their letter without mark positioning, which basic layout
    # lacks; Noto Sans Hebrew adds the cantillation marks DejaVu has not.
    Face("Noto Sans Hebrew", "NotoSansHebrew-Regular.ttf", "NotoSansHebrew-Bold.ttf"),
    Face(
        "Noto Sans Arabic",
        "NotoSansArabic-Regular.ttf",
        "NotoSansArabic-Bold.ttf",
        ((0x0600, 0x06FF), (0x0750, 0x077F), (0x08A0, 0x08FF), (0xFB50, 0xFDFF), (0xFE70, 0xFEFF)),
    ),
    # Pictographs only: the card suits and arrows Tapis itself draws stay DejaVu's.
    Face("Noto Emoji", "NotoEmoji-Regular.ttf", "NotoEmoji-Bold.ttf", ((0x1F000, 0x1FAFF),)),
    # CJK ideographs, kana and hangul: one file, no bold; the largest, so it comes last.
    Face("Droid Sans Fallback", "DroidSansFallback.ttf", "DroidSansFallback.ttf"),
)
"""Tried in this order for each character; the first is the face of every word Tapis writes."""

Font = ImageFont.FreeTypeFont


def _file(index: int, bold: bool) -> str:
    face = CHAIN[index]
    return face.bold if bold else face.regular


@cache
def font_bytes(name: str) -> bytes:
    """The bytes of the font file ``name``, read from the installed ``rendering`` package."""
    try:
        return resources.files("rendering").joinpath(FOLDER, name).read_bytes()
    except OSError as error:
        raise RuntimeError(
            f"the font {name} is missing: it ships in the rendering package ({FOLDER}/)"
        ) from error


@cache
def coverage(index: int, bold: bool = False) -> frozenset[int]:
    """The code points that face ``index`` of the chain has a glyph for (its cmap)."""
    data = io.BytesIO(font_bytes(_file(index, bold)))
    cmap: dict[int, str] = TTFont(data, lazy=True)["cmap"].getBestCmap()
    return frozenset(cmap)


@cache
def face_for(char: str, bold: bool = False) -> int | None:
    """The index in the chain of the first face that can draw ``char``, or None if none can."""
    point = ord(char)
    for index, face in enumerate(CHAIN):
        preferred = any(low <= point <= high for low, high in face.first_for)
        if preferred and point in coverage(index, bold):
            return index
    for index in range(len(CHAIN)):
        if point in coverage(index, bold):
            return index
    return None


@cache
def chain_font(index: int, size: int, bold: bool = False) -> Font:
    """Face ``index`` of the chain at ``size`` pixels, basic layout (see ``rendering.typeset``)."""
    return ImageFont.truetype(
        io.BytesIO(font_bytes(_file(index, bold))), size, layout_engine=ImageFont.Layout.BASIC
    )


def font(size: int, bold: bool = False) -> Font:
    """DejaVu Sans (bold or regular) at ``size`` pixels; basic layout, the same everywhere."""
    return chain_font(0, size, bold)
