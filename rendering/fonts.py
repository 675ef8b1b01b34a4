"""The shipped fonts (data/fonts, DejaVu Sans, see LICENSE-DejaVu.txt), loaded once.

This is the only file rendering/ reads: each font file is read into memory the first time it
is needed, and every size is made from those bytes. System fonts are never used, so a picture
looks the same on every machine.
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path
from typing import Final

from PIL import ImageFont

FONT_DIR: Final = Path(__file__).resolve().parent.parent / "data" / "fonts"
_FILES: Final = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}

Font = ImageFont.FreeTypeFont


@cache
def _font_bytes(bold: bool) -> bytes:
    path = FONT_DIR / _FILES[bold]
    try:
        return path.read_bytes()
    except OSError as error:
        raise RuntimeError(f"the font {path} is missing: it ships in data/fonts/") from error


@cache
def font(size: int, bold: bool = False) -> Font:
    """DejaVu Sans (bold or regular) at ``size`` pixels; basic layout, the same everywhere."""
    return ImageFont.truetype(
        io.BytesIO(_font_bytes(bold)), size, layout_engine=ImageFont.Layout.BASIC
    )
