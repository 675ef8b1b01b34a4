"""Tapis pictures: pure functions from a view (``state.view(seat)`` or ``view(None)``) to PNG.

>>> import games, rendering
>>> state = games.example().new_match(seed=1)
>>> rendering.hand_png(state.view(0))[:4]
b'\\x89PNG'

Pillow only, no I/O but reading the shipped fonts once. Card faces and drawn words are
cached; nothing that depends on a view is. A view of an unknown game, an unknown card or a
malformed view raises ValueError, and no picture is made.

A hand picture is drawn in two steps, so that a caller may cache it or draw it elsewhere:
``hand_scene`` reads from the view what the picture shows (small, hashable: equal scenes give
equal pictures), ``scene_png`` draws and encodes it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from PIL import Image

from games.words import ENGLISH, Words
from rendering.encode import png
from rendering.hand import HandScene, draw_scene, read_scene
from rendering.registry import games, renderer_for
from rendering.renderer import GameRenderer

__all__ = [
    "HandScene",
    "games",
    "hand_png",
    "hand_scene",
    "png",
    "scene_image",
    "scene_png",
    "table_image",
    "table_png",
]

T = TypeVar("T")


def hand_png(
    view: Mapping[str, Any],
    *,
    four_colour: bool = False,
    words: Words = ENGLISH,
    owner: str | None = None,
) -> bytes:
    """A player's hand as PNG bytes, from ``state.view(seat)``, in ``words``'s language;
    for spectators, in the third person, when ``owner`` names its player."""
    return scene_png(hand_scene(view, four_colour=four_colour, words=words, owner=owner))


def hand_scene(
    view: Mapping[str, Any],
    *,
    four_colour: bool = False,
    words: Words = ENGLISH,
    owner: str | None = None,
) -> HandScene:
    """What the hand picture of ``view`` shows, its words in ``words``'s language, spoken to
    its player or, when ``owner`` names that player, to spectators; ValueError for a view
    that cannot be drawn."""
    renderer = renderer_for(view)
    return _drawn(renderer, lambda: read_scene(view, renderer, four_colour, words, owner))


def scene_image(scene: HandScene) -> Image.Image:
    """The hand picture of ``scene`` (from :func:`hand_scene`), to :func:`png`."""
    renderer = renderer_for({"game": scene.game})
    return _drawn(renderer, lambda: draw_scene(scene, renderer))


def scene_png(scene: HandScene) -> bytes:
    """The hand picture of ``scene`` as PNG bytes: ``hand_png`` of a view of that scene."""
    return png(scene_image(scene))


def table_image(
    view: Mapping[str, Any],
    names: tuple[str, str],
    *,
    four_colour: bool = False,
    words: Words = ENGLISH,
) -> Image.Image:
    """The table picture, to :func:`png`; see :func:`table_png`."""
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
    return _drawn(renderer, lambda: renderer.table(view, pair, four_colour, words))


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
    return png(table_image(view, names, four_colour=four_colour, words=words))


def _drawn(renderer: GameRenderer[Any], draw: Callable[[], T]) -> T:
    """``draw()``; a view missing a key or holding the wrong type is a ValueError."""
    try:
        return draw()
    except (KeyError, IndexError, TypeError, AttributeError) as error:
        raise ValueError(f"malformed {renderer.title} view: {error!r}") from None
