"""Which module draws which game: the module beside the game's rules that the game registry
names (``rendering.piquet`` for ``games.piquet``), so no list of games is kept here."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

import games as rules
from rendering.renderer import GameRenderer

_FOUND: dict[str, tuple[rules.Game, GameRenderer[Any] | None]] = {}
"""What :func:`_renderer` found for each game, kept while the same game holds the name: every
picture asks, and a game's registry entry is the only thing that may change."""


def _renderer(name: str) -> GameRenderer[Any] | None:
    """``RENDERER`` of the registered game ``name``'s pictures module; None if the game is
    unknown or has no pictures."""
    try:
        game = rules.get(name)
    except KeyError:
        return None
    if game.name != name:  # a view names its game as the engine does, never by an alias
        return None
    found = _FOUND.get(name)
    if found is None or found[0] is not game:
        found = _FOUND[name] = (game, _module_renderer(game))
    return found[1]


def _module_renderer(game: rules.Game) -> GameRenderer[Any] | None:
    where = rules.part(game.name, "rendering")
    try:
        module = importlib.import_module(where)
    except ModuleNotFoundError as error:
        if error.name != where:  # the module exists, and something it imports does not
            raise
        return None
    found: GameRenderer[Any] = module.RENDERER
    if found.game != game.name:
        raise ValueError(f"{where} draws {found.game!r}, not {game.name!r}")
    return found


def games() -> list[str]:
    """The games that have pictures, by canonical name."""
    return [game.name for game in rules.registered() if _renderer(game.name) is not None]


def renderer_for(view: Mapping[str, object]) -> GameRenderer[Any]:
    """The renderer of ``view["game"]``; ValueError, before anything is drawn, if there is none."""
    if not isinstance(view, Mapping):
        raise ValueError(f"a view is a dict from state.view(), not {type(view).__name__}")
    game = view.get("game")
    found = _renderer(game) if isinstance(game, str) else None
    if found is None:
        raise ValueError(f"no pictures for game {game!r}: pictures exist for {', '.join(games())}")
    return found


# Loading every game's pictures now makes a broken module fail at import, not at a first picture.
games()
