"""Deals fixed by the seed: each deal's shuffle, the lots drawn, and decks given by hand.

A match is replayed from its seed and its moves alone, so no state carries a random
generator: every shuffle and every lot is derived afresh from the seed and what it is for.
A test (or a puzzle) may fix the decks of the first deals instead (docs/engine.md ``deck``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, cast

from games.cards import check_deck

if TYPE_CHECKING:
    from games.kinds import Seat


def shuffled(pack: Sequence[str], seed: int, game: str, deal: int) -> tuple[str, ...]:
    """The deck of deal number ``deal`` (0-based) of a match: fixed by the seed alone.

    Each deal has its own generator, derived from the seed by a string (Python hashes string
    seeds with SHA-512, stable across runs and versions), so no state carries an RNG.
    """
    deck = list(pack)
    random.Random(f"tapis/{game}/{seed}/deal/{deal}").shuffle(deck)
    return tuple(deck)


def draw_lots(seed: int, game: str, what: str) -> Seat:
    """Seat 0 or 1, drawn by lot from the seed (who deals first, who plays first)."""
    return random.Random(f"tapis/{game}/{seed}/{what}").randrange(2)


def seat_or_lot(chosen: int | None, seed: int, game: str, what: str) -> Seat:
    """The seat an option names (first dealer, first player), else one drawn by lot."""
    return draw_lots(seed, game, what) if chosen is None else chosen


def normalize_decks(
    deck: Sequence[str] | Sequence[Sequence[str]] | None, pack: Sequence[str]
) -> tuple[tuple[str, ...], ...]:
    """docs/engine.md ``deck``: one deck, or a list of decks for the first deals in turn."""
    if deck is None:
        return ()
    if isinstance(deck, str):
        raise ValueError("deck must be a list of card codes, or a list of such lists")
    items = list(deck)
    if not items:
        raise ValueError("deck is empty")
    if all(isinstance(item, str) for item in items):
        return (check_deck(cast(list[str], items), pack),)
    if any(isinstance(item, str) for item in items):
        raise ValueError("deck must be a list of card codes, or a list of such lists, not a mix")
    return tuple(check_deck(item, pack) for item in items)


def deck_for_deal(
    decks: tuple[tuple[str, ...], ...], pack: Sequence[str], seed: int, game: str, deal: int
) -> tuple[str, ...]:
    """The deck of deal number ``deal``: the one given for it, else the seed's shuffle."""
    if deal < len(decks):
        return decks[deal]
    return shuffled(pack, seed, game, deal)
