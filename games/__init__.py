"""Tapis game engines: the rules of each game, pure Python, no I/O (docs/engine.md).

>>> import games
>>> game = games.example()
>>> games.get(game.title.upper()) is game
True

Importing the package imports every module in it; each game's module registers its game
(:mod:`games.registry`), so adding a game means adding its module, nothing more.
"""

from __future__ import annotations

from games.cards import Card, format_card, parse_card, sort_cards, sort_key
from games.core import Game, Option, State
from games.refusals import IllegalMove, Refusal
from games.registry import (
    discover,
    example,
    get,
    names,
    part,
    register,
    registered,
    registering,
    unregister,
)

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
    "part",
    "register",
    "registered",
    "registering",
    "sort_cards",
    "sort_key",
    "unregister",
]

discover(__name__)
