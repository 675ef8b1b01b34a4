"""Image helpers for the picture tests: open PNG bytes, compare with a tolerance."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image, ImageChops, ImageStat

GOLDEN = Path(__file__).parent / "golden"
FAILED = Path(__file__).parent / "failed"
"""Where a failed comparison leaves both images (ignored by git)."""


def image(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    picture = Image.open(io.BytesIO(data))
    picture.load()
    return picture.convert("RGB")


def colours(picture: Image.Image) -> int:
    """How many distinct colours: a blank or half-drawn picture has very few."""
    found = picture.getcolors(maxcolors=1 << 16)
    return len(found) if found is not None else 1 << 16


def mean_difference(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference per channel, 0-255."""
    stat = ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB")))
    return sum(stat.mean) / len(stat.mean)


def region_mean(picture: Image.Image, box: tuple[int, int, int, int]) -> float:
    """Mean brightness of a region (to tell a lit card from a washed-out one)."""
    return float(sum(ImageStat.Stat(picture.crop(box).convert("L")).mean))


def changed_share(a: Image.Image, b: Image.Image, threshold: int = 40) -> float:
    """Share of pixels whose brightness differs by more than ``threshold``: a card changed in a
    corner of a picture moves this much more than the mean difference does."""
    histogram = ImageChops.difference(a.convert("RGB"), b.convert("RGB")).convert("L").histogram()
    return sum(histogram[threshold + 1 :]) / (a.width * a.height)
