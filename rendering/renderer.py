"""What a game's picture module provides: its name, title and table picture."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from PIL import Image

View = dict[str, Any]
Names = tuple[str, str]
TableDrawer = Callable[[View, Names, bool], Image.Image]
"""(public view, the two players' names, four_colour) → the table picture."""


@dataclass(frozen=True)
class GameRenderer:
    game: str
    """The engine's canonical name, as in ``view["game"]``."""
    title: str
    table: TableDrawer
    bonus_cards: frozenset[str] = field(default_factory=frozenset)
    """Cards drawn with the "bonus" ribbon wherever they appear (Le 5 As)."""
