"""The look shared by every picture: colours, sizes, the two suit palettes.

One place for these so that a hand and the four tables look like one set. Pictures are
encoded on a palette built from these colours (rendering/encode.py): a colour drawn anywhere
must be one of its key colours, and a pair of colours that meet at text or card edges one of
its meeting pairs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

RGB = tuple[int, int, int]

FELT: Final[RGB] = (24, 88, 58)
"""The baize (le tapis) every picture is laid on."""
FELT_DARK: Final[RGB] = (17, 64, 42)
FELT_LINE: Final[RGB] = (46, 120, 84)
INK: Final[RGB] = (244, 242, 232)
"""Text on the felt."""
MUTED: Final[RGB] = (168, 204, 182)
GOLD: Final[RGB] = (250, 204, 60)
"""Highlight: the legal cards, the player to move."""
DANGER: Final[RGB] = (255, 140, 120)

CARD_PAPER: Final[RGB] = (253, 252, 247)
TRUMP_PAPER: Final[RGB] = (250, 243, 226)
CARD_EDGE: Final[RGB] = (88, 88, 88)
BACK_RED: Final[RGB] = (150, 30, 44)
BACK_LINE: Final[RGB] = (198, 84, 96)
RIBBON_INK: Final[RGB] = (70, 46, 0)
"""The word on Le 5 As' gold bonus ribbon."""
DIM: Final = 0.55
"""How far a card that cannot be played now is washed into the felt."""

CARD_W: Final = 120
CARD_H: Final = 168
"""A card at full size, in pixels: indices stay legible at a phone's width."""

SMALL: Final = 0.75
"""Scale of the cards in dense parts of a table (melds, tricks already won)."""

BLACK: Final[RGB] = (24, 24, 24)
RED: Final[RGB] = (200, 22, 44)
BLUE: Final[RGB] = (22, 88, 200)
GREEN: Final[RGB] = (16, 128, 56)
PURPLE: Final[RGB] = (108, 44, 150)
"""Tarot trumps: their own colour in both palettes."""


@dataclass(frozen=True)
class Palette:
    """Ink of each suit. The four-colour deck helps players who confuse red and black."""

    spades: RGB
    hearts: RGB
    diamonds: RGB
    clubs: RGB
    trumps: RGB

    def ink(self, suit: str) -> RGB:
        return {
            "S": self.spades,
            "H": self.hearts,
            "D": self.diamonds,
            "C": self.clubs,
            "T": self.trumps,
        }[suit]


TWO_COLOURS: Final = Palette(BLACK, RED, RED, BLACK, PURPLE)
FOUR_COLOURS: Final = Palette(BLACK, RED, BLUE, GREEN, PURPLE)


def palette(four_colour: bool) -> Palette:
    return FOUR_COLOURS if four_colour else TWO_COLOURS


def tint(colour: RGB, amount: float, base: RGB = (255, 255, 255)) -> RGB:
    """``colour`` mixed into ``base``: amount 0 gives base, 1 gives colour."""
    r, g, b = (round(c * amount + w * (1 - amount)) for c, w in zip(colour, base, strict=True))
    return (r, g, b)
