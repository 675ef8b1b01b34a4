"""What a game's picture module provides: its name, title and table picture."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, NamedTuple, TypeVar

from PIL import Image

import games
from games.cards import sort_key
from games.words import ENGLISH, Words

View = Mapping[str, Any]
"""A view as it reaches the pictures: parsed JSON, checked as it is read."""
V = TypeVar("V")
"""A game's own view type (``games.ecarte.EcarteView`` …), which its drawers are typed with."""
Names = tuple[str, str]


class ExtraRow(NamedTuple):
    """A row of other cards under the hand picture."""

    title: str
    cards: list[str]
    playable: bool = False
    """True for cards the player may play from there (highlighted like the hand); False for
    cards shown for the record (own discards), drawn plain whatever the turn."""


def no_extras(view: Any, words: Words, owner: str | None) -> Sequence[ExtraRow]:
    return ()


def no_note(view: Any, words: Words) -> str:
    return ""


@dataclass(frozen=True)
class GameRenderer(Generic[V]):
    """A game's pictures, typed with the view its engine exports (docs/views.md), so mypy
    checks every key a drawer reads against the engine's contract."""

    game: str
    """The engine's canonical name, as in ``view["game"]``."""
    title: str
    table: Callable[[V, Names, bool, Words], Image.Image]
    """(public view, the two players' names, four_colour, words) → the table picture."""
    bonus_cards: frozenset[str] = field(default_factory=frozenset)
    """Cards drawn with the "bonus" ribbon wherever they appear (Le 5 As)."""
    marking_verbs: frozenset[str] | None = None
    """The moves whose cards the hand picture lights up; None: every legal move."""
    dim_unmarked: bool = True
    """Wash out the cards not lit; False where they remain playable by another move."""
    hand_note: Callable[[V, Words], str] = no_note
    """Words after the title of the hand picture: what a player needs beside their cards when
    they look at their hand alone (trumps, the deal)."""
    hand_extras: Callable[[V, Words, str | None], Sequence[ExtraRow]] = no_extras
    """Rows under the hand picture (cards on the table, own discards); empty rows are left out.
    Titled for the hand's owner (None: "your discards") or, by name, for a spectator
    ("Bob's discards")."""
    hand_order: Callable[[str], Any] = sort_key
    """The sort key of a card in the hand: the game's own order, suits grouped."""

    def title_in(self, words: Words = ENGLISH) -> str:
        """The game's name in the reader's language, as its engine gives it."""
        return games.get(self.game).title_in(words)

    def extras(self, view: V, words: Words = ENGLISH, owner: str | None = None) -> list[ExtraRow]:
        """The non-empty :attr:`hand_extras` of ``view``; ValueError if one is not a card list."""
        rows = []
        for row in self.hand_extras(view, words, owner):
            if not isinstance(row.cards, list) or not all(isinstance(c, str) for c in row.cards):
                raise ValueError(f"{self.title} view: {row.title!r} must be a list of card codes")
            if row.cards:
                rows.append(row)
        return rows
