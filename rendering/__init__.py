"""Tapis pictures: pure functions from a view (``state.view(seat)`` or ``view(None)``) to PNG.

>>> import games, rendering
>>> state = games.get("cinq-as").new_match(seed=1)
>>> rendering.hand_png(state.view(0))[:4]
b'\\x89PNG'

Pillow only, no I/O but reading the shipped fonts once. Card faces are cached; nothing that
depends on a view is. A view of an unknown game, an unknown card or a malformed view raises
ValueError before anything is drawn.
"""

from __future__ import annotations

from typing import Any

from rendering.canvas import png
from rendering.hand import draw_hand
from rendering.registry import games, renderer_for

__all__ = ["games", "hand_png", "table_png"]


def hand_png(view: dict[str, Any], *, four_colour: bool = False) -> bytes:
    """A player's hand as PNG bytes, from ``state.view(seat)``."""
    renderer = renderer_for(view)
    return png(draw_hand(view, renderer, four_colour))


def table_png(view: dict[str, Any], names: tuple[str, str], *, four_colour: bool = False) -> bytes:
    """The table as PNG bytes, from the public view; ``names`` are seat 0's and seat 1's."""
    renderer = renderer_for(view)
    if (
        not isinstance(names, (tuple, list))
        or len(names) != 2
        or not all(isinstance(name, str) for name in names)
    ):
        raise ValueError("names must be two strings: seat 0's name and seat 1's")
    try:
        image = renderer.table(view, (names[0], names[1]), four_colour)
    except (KeyError, IndexError, TypeError, AttributeError) as error:
        raise ValueError(f"malformed {renderer.title} view: {error!r}") from None
    return png(image)
