"""What a game's picture module provides: its name, title and table picture."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from PIL import Image

View = dict[str, Any]
Names = tuple[str, str]
TableDrawer = Callable[[View, Names, bool], Image.Image]
"""(public view, the two players' names, four_colour) → the table picture."""


class ExtraRow(NamedTuple):
    """A row of other cards under the hand picture."""

    title: str
    cards: list[str]
    playable: bool = False
    """True for cards the player may play from there (highlighted like the hand); False for
    cards shown for the record (own discards), drawn plain whatever the turn."""


HandExtras = Callable[[View], Sequence[ExtraRow]]


def no_extras(view: View) -> Sequence[ExtraRow]:
    return ()


def no_note(view: View) -> str:
    return ""


@dataclass(frozen=True)
class GameRenderer:
    game: str
    """The engine's canonical name, as in ``view["game"]``."""
    title: str
    table: TableDrawer
    bonus_cards: frozenset[str] = field(default_factory=frozenset)
    """Cards drawn with the "bonus" ribbon wherever they appear (Le 5 As)."""
    marking_verbs: frozenset[str] | None = None
    """The moves whose cards the hand picture lights up; None: every legal move."""
    dim_unmarked: bool = True
    """Wash out the cards not lit; False where they remain playable by another move."""
    hand_note: Callable[[View], str] = no_note
    """Words after the title of the hand picture: what a player needs beside their cards when
    they look at their hand alone (trumps, the deal)."""
    hand_extras: HandExtras = no_extras
    """Rows under the hand picture (cards on the table, own discards); empty rows are left out."""

    def extras(self, view: View) -> list[ExtraRow]:
        """The non-empty :attr:`hand_extras` of ``view``; ValueError if one is not a card list."""
        rows = []
        for row in self.hand_extras(view):
            if not isinstance(row.cards, list) or not all(isinstance(c, str) for c in row.cards):
                raise ValueError(f"{self.title} view: {row.title!r} must be a list of card codes")
            if row.cards:
                rows.append(row)
        return rows
