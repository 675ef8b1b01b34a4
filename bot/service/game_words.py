"""The games' own words, each said through one call site: a game's title, a move, a deal's
breakdown and the rules, as the game itself words them in the reader's language, and card
codes turned into what people read. The rest of the service's words (``wording``) are made
of these; it imports no other room.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

import games
from games.cards import SUIT_SYMBOLS
from games.kinds import Json
from games.words import Words

_CARD = re.compile(r"\b(10|[2-9]|1[0-9]|2[01]|[JQKA])([SHDCT])\b")


@functools.cache
def _rules(name: str) -> games.Game:
    return games.get(name)


def game_title(name: str, w: Words) -> str:
    """A game's name as the reader's language writes it (Piquet is Pikett in Swedish)."""
    return _rules(name).title_in(w)


def pretty(text: str) -> str:
    """Card codes with their suit symbols, for text people read (``Q♠``, not ``QS``)."""
    return _CARD.sub(lambda m: m.group(1) + SUIT_SYMBOLS[m.group(2)], text)


def move_text(game: str, move: str, w: Words) -> str:
    """A move in players' words, as its game names it: 'Q♠', 'draw from the ♦ pile', 'keep all
    cards' (the cards drawn with their suits' symbols when no game is named)."""
    if not game:
        return pretty(move.removeprefix("play "))
    return _rules(game).describe(move, w)


def deal_summary(game: str, view: Json, w: Words, names: Sequence[str] | None = None) -> list[str]:
    """The breakdown of the deal that ended last, as its game scores it ([] before any)."""
    return _rules(game).deal_summary(view, w, names)


def rules_text(game: str, w: Words) -> str:
    """``/tapis rules``: how to play, each move word and option in plain words, as the game
    itself explains them in the reader's language."""
    return f"**{game_title(game, w)}**\n\n{_rules(game).rules_help(w)}"
