"""Card codes, packs and canonical card order (docs/engine.md, "Cards and moves").

A card is written rank then suit with no space: ``10H``, ``QS``, ``21T``. Engines keep cards as
their canonical code strings: they hash fast, compare exactly, and print as a player types
them. :class:`Card` is the small value type for code that wants the parts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from games.words import ENGLISH, N_, Words, either

SUITS: Final = ("S", "H", "D", "C", "T")
"""Suits in canonical order: spades, hearts, diamonds, clubs, then tarot trumps."""

SUIT_SYMBOLS: Final = {"S": "♠", "H": "♥", "D": "♦", "C": "♣", "T": "★"}
SUIT_NAMES: Final = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs", "T": "trumps"}

# Input accepts the printed symbols, both black and white forms.
_SYMBOL_TO_SUIT: Final = {
    "♠": "S",
    "♤": "S",
    "♥": "H",
    "♡": "H",
    "♦": "D",
    "♢": "D",
    "♣": "C",
    "♧": "C",
    "★": "T",
    # Suit letters of the other languages, where no language reads them otherwise: French
    # "P" (pique) and Swedish "R" (ruter). French C, K, T and Swedish K clash and are not read.
    "P": "S",
    "R": "D",
}

_SUIT_WORDS: Final = {
    "S": N_("spades"),
    "H": N_("hearts"),
    "D": N_("diamonds"),
    "C": N_("clubs"),
    "T": N_("trumps"),
}

COLOUR_RANKS: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
TRUMP_RANKS: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "19", "20", "21")

_RANK_ORDER: Final = {rank: i for i, rank in enumerate(COLOUR_RANKS)}
_TRUMP_ORDER: Final = {rank: i for i, rank in enumerate(TRUMP_RANKS)}
_SUIT_ORDER: Final = {suit: i for i, suit in enumerate(SUITS)}
# Lenient spellings of ranks players type, French (V valet, D dame, R roi) and Swedish (Kn
# knekt, D dam, E ess) included; "1" for the ace is not accepted (ambiguous with 10).
_RANK_ALIASES: Final = {"T": "10", "V": "J", "D": "Q", "R": "K", "KN": "J", "E": "A"}


@dataclass(frozen=True, order=False, slots=True)
class Card:
    """A card as a value: ``Card("10", "H")``; ``str(card)`` is its code."""

    rank: str
    suit: str

    @classmethod
    def parse(cls, text: str) -> Card:
        code = parse_card(text)
        return cls(code[:-1], code[-1])

    @property
    def code(self) -> str:
        return self.rank + self.suit

    @property
    def symbol(self) -> str:
        """The card as printed on a table: ``Q♠``."""
        return self.rank + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"


def _valid(rank: str, suit: str) -> bool:
    if suit == "T":
        return rank in _TRUMP_ORDER
    return suit in _SUIT_ORDER and rank in _RANK_ORDER


def parse_card(text: str) -> str:
    """Return the canonical code of ``text`` (``"q♠"`` → ``"QS"``); ValueError if it is none.

    Case-insensitive; suit symbols accepted. Whether the card belongs to a given game's pack is
    the game's business, not this function's.
    """
    raw = text.strip().upper()
    if len(raw) < 2:
        raise ValueError(f"{text!r} is not a card: write rank then suit, like 10H, QS or 21T.")
    suit = _SYMBOL_TO_SUIT.get(raw[-1], raw[-1])
    rank = raw[:-1]
    rank = _RANK_ALIASES.get(rank, rank)
    if not _valid(rank, suit):
        raise ValueError(
            f"{text!r} is not a card: write rank (2-10, J, Q, K, A; trumps 2-10, 19-21) "
            "then suit (S, H, D, C, T), like 10H, QS or 21T."
        )
    return rank + suit


def card_name(code: str, words: Words = ENGLISH) -> str:
    """A card as the pictures name it in the reader's language: ``Q♠``, in French ``D♠``
    (dame), in Swedish ``Kn♥`` for the jack (knekt). The suit is always its symbol."""
    return rank_letter(code[:-1], words) + SUIT_SYMBOLS[code[-1]]


@dataclass(frozen=True, slots=True)
class Cards:
    """Cards named in a sentence as the pictures name them, in the reader's language: one
    card (``Q♠``), or several as alternatives (``7♠, 8♠ or D♠``), or several separated by
    ``sep`` (``", "`` for a list, ``" "`` for the cards of one meld)."""

    codes: tuple[str, ...]
    sep: str | None = None
    """None: several cards are alternatives, the last joined by "or"."""

    @classmethod
    def of(cls, codes: Iterable[str], sep: str | None = None) -> Cards:
        """The cards of ``codes``, told in canonical order."""
        return cls(tuple(sort_cards(codes)), sep)

    def say(self, words: Words = ENGLISH) -> str:
        names = [card_name(code, words) for code in self.codes]
        return either(names, words) if self.sep is None else self.sep.join(names)


def rank_letter(rank: str, words: Words = ENGLISH) -> str:
    """A rank as printed in the corner of a card in the reader's language."""
    if rank == "J":
        return words.pgettext("card rank", "J")
    if rank == "Q":
        return words.pgettext("card rank", "Q")
    if rank == "K":
        return words.pgettext("card rank", "K")
    if rank == "A":
        return words.pgettext("card rank", "A")
    return rank


def suit_name(suit: str, words: Words = ENGLISH) -> str:
    """A suit's name in the reader's language ("hearts", "cœur", "hjärter")."""
    return words.gettext(_SUIT_WORDS[suit])


def format_card(code: str, symbols: bool = False) -> str:
    """The code as shown to a player; with ``symbols``, the suit as its symbol (``Q♠``)."""
    return code[:-1] + SUIT_SYMBOLS[code[-1]] if symbols else code


def suit_of(code: str) -> str:
    return code[-1]


def rank_of(code: str) -> str:
    return code[:-1]


def sort_key(code: str) -> tuple[int, int]:
    """Canonical order: suit S H D C T, then rank 2 … 10 J Q K A (trumps 2 … 10 19 20 21)."""
    suit = code[-1]
    order = _TRUMP_ORDER if suit == "T" else _RANK_ORDER
    return _SUIT_ORDER[suit], order[code[:-1]]


_PLACE: Final = {
    rank + suit: 16 * _SUIT_ORDER[suit] + order[rank]
    for suit in SUITS
    for order in (_TRUMP_ORDER if suit == "T" else _RANK_ORDER,)
    for rank in order
}
"""Every card's place in canonical order as one int: ``sort_key`` read from a table (every
view sorts a hand, and a tuple key built per card made it a good share of the view's cost)."""


def sort_cards(cards: Iterable[str]) -> list[str]:
    """``cards`` in canonical order (``sort_key``); KeyError for a code that is no card."""
    return sorted(cards, key=_PLACE.__getitem__)


def sorted_insert(
    keys: Mapping[str, tuple[int, int]],
) -> Callable[[tuple[str, ...], str], tuple[str, ...]]:
    """Adding a card to a hand kept in the order of ``keys`` (each card's precomputed sort
    key), so a view never tells when a card came; made once per game, for playout speed."""

    def insert(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
        key = keys[card]
        for i, held in enumerate(hand):
            if keys[held] > key:
                return (*hand[:i], card, *hand[i:])
        return (*hand, card)

    return insert


def hand_order_by(ranks: Sequence[str]) -> Callable[[str], tuple[int, int]]:
    """A hand's order for a game that ranks its cards its own way: suits grouped (S H D C),
    then ``ranks``, highest first, so that a player reads the hand as the game values it."""

    def hand_order(card: str) -> tuple[int, int]:
        return "SHDC".index(card[-1]), ranks.index(card[:-1])

    return hand_order


def _pack(ranks: Iterable[str], suits: Iterable[str]) -> tuple[str, ...]:
    ranks = tuple(ranks)
    return tuple(rank + suit for suit in suits for rank in ranks)


PIQUET_PACK: Final = _pack(("7", "8", "9", "10", "J", "Q", "K", "A"), ("S", "H", "D", "C"))
"""The 32-card pack, 7 to A in four suits (Écarté, Piquet)."""

DOUBLE_PACK: Final = tuple(sort_cards(PIQUET_PACK + PIQUET_PACK))
"""Two 32-card packs: every card twice (Bézigue)."""

TAROT_SET: Final = _pack(
    ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"), ("S", "H", "D", "C")
) + tuple(rank + "T" for rank in ("2", "3", "4", "5", "6", "7", "8", "9", "10", "19", "20", "21"))
"""Le 5 As' 60 playing cards: 2-10 and J Q K in the four colours, trumps 2-10 and 19-21."""

ACE_MARKERS: Final = ("AS", "AH", "AD", "AC", "1T")
"""The five "aces" laid out as markers of Le 5 As' discard piles; never played."""


def check_deck(cards: Iterable[str], pack: Iterable[str]) -> tuple[str, ...]:
    """Parse a deck and check it is exactly ``pack`` reordered; ValueError names the fault."""
    try:
        deck = tuple(parse_card(card) for card in cards)
    except ValueError as error:
        raise ValueError(f"wrong deck: {error}") from None
    have, want = Counter(deck), Counter(pack)
    if have == want:
        return deck
    unknown = sorted(set(have) - set(want), key=sort_key)
    if unknown:
        raise ValueError(f"wrong deck: {', '.join(unknown)} not in this game's pack")
    missing = sort_cards((want - have).elements())
    extra = sort_cards((have - want).elements())
    parts = []
    if missing:
        parts.append("missing " + ", ".join(missing))
    if extra:
        parts.append("too many " + ", ".join(extra))
    raise ValueError(
        f"wrong deck ({len(deck)} cards for {sum(want.values())}): " + "; ".join(parts)
    )
