"""The one list of games: each game's module registers its game where it lives.

A game's module ends with ``GAME = register(MyGame(...))``; importing the ``games`` package
imports every module in it (:func:`discover`), so a new module is found without a list to
edit. Everything else that needs a game's parts — the computer player in ``ai/``, the
pictures in ``rendering/`` — asks this registry where the game lives and finds its own part
beside it (:func:`part`), so no other package keeps a list of games either.

A game from outside the package (a test's toy game) is registered by whoever brings it and
withdrawn again with :func:`unregister`, or for a while with :func:`registering`.
"""

from __future__ import annotations

import importlib
import pkgutil
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TypeVar

from games.core import Game

G = TypeVar("G", bound=Game)

_GAMES: dict[str, Game] = {}
_ALIASES: dict[str, str] = {}
_HOMES: dict[str, tuple[str, str]] = {}
"""Each game's home: the package holding its rules module (``games``) and the module's name."""


def _fold(name: str) -> str:
    """Case-, accent- and separator-insensitive form of a game's name."""
    text = unicodedata.normalize("NFKD", name.strip().lower())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return text.replace("_", "-").replace(" ", "-")


def _home(game: Game) -> tuple[str, str]:
    """Where ``game``'s rules live, as (the package above ``games``, the module's own name):
    its other parts live beside them, under the same module name."""
    package, _, leaf = type(game).__module__.rpartition(".")
    above, _, last = package.rpartition(".")
    if last != "games" or not leaf:
        raise ValueError(
            f"{game.name}: a game's rules live in a module of a package named games "
            f"(games/<game>.py), not in {type(game).__module__}"
        )
    return above, leaf


def register(game: G) -> G:
    """Add ``game`` to the registry and return it; ValueError if its name or one of its
    aliases is another game's."""
    if _GAMES.get(game.name) is game:
        return game
    keys = {_fold(alias) for alias in (game.name, game.title, *game.aliases)}
    taken = sorted(key for key in keys if key in _ALIASES)
    if game.name in _GAMES or taken:
        raise ValueError(f"{game.name}: the names {', '.join(taken)} are another game's")
    home = _home(game)
    _GAMES[game.name] = game
    _HOMES[game.name] = home
    for key in keys:
        _ALIASES[key] = game.name
    return game


def unregister(name: str) -> Game:
    """Withdraw the game called ``name`` (or an alias) and return it; KeyError if none."""
    game = get(name)
    del _GAMES[game.name], _HOMES[game.name]
    for key in [key for key, owner in _ALIASES.items() if owner == game.name]:
        del _ALIASES[key]
    return game


@contextmanager
def registering(game: G) -> Iterator[G]:
    """``game`` registered inside the ``with`` block only, and withdrawn however it ends."""
    register(game)
    try:
        yield game
    finally:
        unregister(game.name)


def discover(package: str) -> None:
    """Import every module of ``package``: each game's module registers its game."""
    path = importlib.import_module(package).__path__
    for module in pkgutil.iter_modules(path):
        importlib.import_module(f"{package}.{module.name}")


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


def part(name: str, floor: str) -> str:
    """The module holding the game ``name``'s part on ``floor`` (``ai``, ``rendering``): the
    module of the game's own name in the package ``floor`` beside its ``games`` package —
    ``games.piquet``'s pictures are ``rendering.piquet``. The module may not exist: a game
    need not have every part. KeyError for an unknown game."""
    above, leaf = _HOMES[get(name).name]
    return f"{above}.{floor}.{leaf}" if above else f"{floor}.{leaf}"
