"""Tapis pictures: pure functions from a view (``state.view(seat)`` or ``view(None)``) to PNG.

>>> import games, rendering
>>> state = games.get("cinq-as").new_match(seed=1)
>>> rendering.hand_png(state.view(0))[:4]
b'\\x89PNG'

Pillow only, no I/O but reading the shipped fonts once. Card faces are cached; nothing that
depends on a view is. A view of an unknown game, an unknown card or a malformed view raises
ValueError, and no picture is made.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from PIL import Image

from games.words import ENGLISH, Words
from rendering.encode import png
from rendering.hand import draw_hand
from rendering.registry import games, renderer_for
from rendering.renderer import GameRenderer

__all__ = ["games", "hand_png", "table_png"]


def hand_png(
    view: Mapping[str, Any], *, four_colour: bool = False, words: Words = ENGLISH
) -> bytes:
    """A player's hand as PNG bytes, from ``state.view(seat)``, in ``words``'s language."""
    renderer = renderer_for(view)
    return _png(renderer, lambda: draw_hand(view, renderer, four_colour, words))


def table_png(
    view: Mapping[str, Any],
    names: tuple[str, str],
    *,
    four_colour: bool = False,
    words: Words = ENGLISH,
) -> bytes:
    """The table as PNG bytes, from the public view; ``names`` are seat 0's and seat 1's;
    every word drawn is in ``words``'s language.

    A player's view is refused: the table goes to everyone, and a player's view may hold words
    only that player may read (their own face-down discards in ``last_move``)."""
    renderer = renderer_for(view)
    if view.get("seat") is not None:
        raise ValueError(
            f"a table picture is drawn from the public view, state.view(None), "
            f"not from seat {view.get('seat')!r}'s view"
        )
    if (
        not isinstance(names, (tuple, list))
        or len(names) != 2
        or not all(isinstance(name, str) for name in names)
    ):
        raise ValueError("names must be two strings: seat 0's name and seat 1's")
    pair = (names[0], names[1])
    return _png(renderer, lambda: renderer.table(view, pair, four_colour, words))


def _png(renderer: GameRenderer[Any], draw: Callable[[], Image.Image]) -> bytes:
    """Draw, then encode; a view missing a key or holding the wrong type is a ValueError."""
    try:
        image = draw()
    except (KeyError, IndexError, TypeError, AttributeError) as error:
        raise ValueError(f"malformed {renderer.title} view: {error!r}") from None
    return png(image)
