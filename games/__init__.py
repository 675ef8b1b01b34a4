"""Tapis game engines: the rules of each game, pure Python, no I/O (docs/engine.md).

>>> import games
>>> games.get("lost-cities").name
'cinq-as'
"""

from __future__ import annotations

import importlib
import unicodedata

from games.cards import Card, format_card, parse_card, sort_cards, sort_key
from games.core import Game, IllegalMove, Option, Refusal, State

__all__ = [
    "Card",
    "Game",
    "IllegalMove",
    "Option",
    "Refusal",
    "State",
    "example",
    "format_card",
    "get",
    "names",
    "parse_card",
    "registered",
    "sort_cards",
    "sort_key",
]

# One module per game, each defining GAME; adding a game means adding its module here.
_MODULES = ("bezique", "cinq_as", "ecarte", "piquet")

_GAMES: dict[str, Game] = {}
_ALIASES: dict[str, str] = {}


def _fold(name: str) -> str:
    """Case-, accent- and separator-insensitive form of a game's name."""
    text = unicodedata.normalize("NFKD", name.strip().lower())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return text.replace("_", "-").replace(" ", "-")


def _register(game: Game) -> None:
    _GAMES[game.name] = game
    for alias in (game.name, game.title, *game.aliases):
        _ALIASES[_fold(alias)] = game.name


for _module in _MODULES:
    _register(importlib.import_module(f"games.{_module}").GAME)


def names() -> list[str]:
    """Canonical names of every registered game, sorted."""
    return sorted(_GAMES)


def registered() -> list[Game]:
    """Every registered game, in the order of :func:`names`: what help texts, examples and
    benchmarks list, so that no game is named by hand outside its own module."""
    return [_GAMES[name] for name in names()]


def example() -> Game:
    """The game that examples show (the first registered)."""
    return _GAMES[names()[0]]


def get(name: str) -> Game:
    """The game called ``name`` (or an alias: 'bésigue', 'five-aces' …); KeyError if none."""
    # A name as stored needs no folding (which Unicode makes slow, for every move).
    found = _GAMES.get(name) if isinstance(name, str) else None
    if found is not None:
        return found
    key = _ALIASES.get(_fold(name)) if isinstance(name, str) else None
    if key is None:
        raise KeyError(f"unknown game {name!r}: games are {', '.join(names())}")
    return _GAMES[key]
