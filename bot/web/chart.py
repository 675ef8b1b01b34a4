"""A rating-over-time chart as inline SVG: no script, no picture to fetch, scales to any width.

The points are computed here; the template writes them into an ``<svg>`` with a title and a
description for screen readers, in the page's language.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from bot.service.queries import Point
from games.words import ENGLISH, Words

WIDTH: Final = 600
HEIGHT: Final = 220
PAD_LEFT: Final = 76
"""Room left of the data for the ratings' labels (right-aligned against it): a label never
runs over a point."""
PAD: Final = 14
PAD_BOTTOM: Final = 40
"""Room under the data for the x axis and its labels (the first and last match)."""


BOTTOM: Final = HEIGHT - PAD_BOTTOM
"""The lowest point's y."""


@dataclass(frozen=True)
class Chart:
    title: str
    description: str
    points: str  # the polyline's "x,y x,y …"
    low: float
    high: float
    first: int
    last: int
    y_low: float  # where the low and high labels sit
    y_high: float
    dots: list[tuple[float, float]]
    ticks: list[tuple[float, int]] = field(default_factory=list)
    """(x, match count) of each label under the x axis: the first match and the last."""
    y_axis: float = HEIGHT - PAD_BOTTOM + PAD

    width: int = WIDTH
    height: int = HEIGHT
    left: int = PAD_LEFT


def chart(points: list[Point], title: str, words: Words = ENGLISH) -> Chart:
    """The chart of ``points`` (matches played → rating), oldest first, described in
    ``words``'s language."""
    if not points:
        return Chart(title, words.gettext("No rated match yet."), "", 0, 0, 0, 0, BOTTOM, PAD, [])
    low = min(p.rating for p in points)
    high = max(p.rating for p in points)
    if high - low < 1:
        low, high = low - 1, high + 1
    first, last = points[0].games, points[-1].games
    span = max(1, last - first)

    def x(games: int) -> float:
        if last == first:
            return (PAD_LEFT + WIDTH - PAD) / 2
        return PAD_LEFT + (games - first) / span * (WIDTH - PAD_LEFT - PAD)

    def y(rating: float) -> float:
        return PAD + (high - rating) / (high - low) * (BOTTOM - PAD)

    coords = [(round(x(p.games), 1), round(y(p.rating), 1)) for p in points]
    description = words.ngettext(
        "Rating after {n} rated match (match {last}): {end}.",
        "Rating after each of {n} rated matches (matches {first} to {last}): from {start} to "
        "{end}, lowest {low}, highest {high}.",
        len(points),
    ).format(
        n=words.number(len(points)),
        first=words.number(first),
        last=words.number(last),
        start=words.number(round(points[0].rating)),
        end=words.number(round(points[-1].rating)),
        low=words.number(round(low)),
        high=words.number(round(high)),
    )
    return Chart(
        title=title,
        description=description,
        points=" ".join(f"{a},{b}" for a, b in coords),
        low=low,
        high=high,
        first=first,
        last=last,
        y_low=y(low),
        y_high=y(high),
        dots=coords if len(coords) <= 60 else [],
        # One match is one dot: its label under it still says which match it was.
        ticks=[(x(first), first)] if last == first else [(x(first), first), (x(last), last)],
    )
