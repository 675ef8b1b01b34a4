"""Which module draws which game: one module per game, listed here (like games._MODULES)."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, Final

from rendering.renderer import GameRenderer

# Adding a game's pictures means writing its module and adding its name here.
_MODULES: Final = ("bezique", "cinq_as", "ecarte", "piquet")

_RENDERERS: Final[dict[str, GameRenderer[Any]]] = {}
for _module in _MODULES:
    _renderer: GameRenderer[Any] = importlib.import_module(f"rendering.{_module}").RENDERER
    _RENDERERS[_renderer.game] = _renderer


def games() -> list[str]:
    """The games that have pictures, by canonical name."""
    return sorted(_RENDERERS)


def renderer_for(view: Mapping[str, object]) -> GameRenderer[Any]:
    """The renderer of ``view["game"]``; ValueError, before anything is drawn, if there is none."""
    if not isinstance(view, Mapping):
        raise ValueError(f"a view is a dict from state.view(), not {type(view).__name__}")
    game = view.get("game")
    found = _RENDERERS.get(game) if isinstance(game, str) else None
    if found is None:
        raise ValueError(f"no pictures for game {game!r}: pictures exist for {', '.join(games())}")
    return found
