"""Moves as players type them, read into the canonical notation every engine plays.

Each game declares its move words and what each takes (its :data:`Syntax`); a move typed
in any case, with cards in any order, written with symbols or letters, or with the verb in
another language's words, reads as one canonical text, or is refused saying why. Whether
the move is legal now is the state's business, not the parser's.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from typing import Final

from games.cards import SUITS, parse_card, sort_cards
from games.phrases import MOVE_WORDS
from games.refusals import IllegalMove
from games.words import N_, Either, Message

# How a verb takes its words: "none" (no words), "card" (exactly one card), "cards" (any number
# of cards, none allowed), "cards+" (one or more cards), "suit?" (optional suit letter), or a
# tuple of literal words accepted after the verb.
Syntax = str | tuple[str, ...]


def _parse_suit(word: str) -> str:
    try:
        return parse_card("2" + word)[-1]
    except ValueError:
        raise IllegalMove(
            N_("“{word}” is not a suit: write one of ♠ ♥ ♦ ♣ ★, or `S`, `H`, `D`, `C` or `T`."),
            word=word,
        ) from None


def canonical_move(
    text: str,
    syntax: Mapping[str, Syntax],
    card_words: str = N_("Write a card's rank, then its suit."),
) -> str:
    """Rewrite a move as typed into canonical notation, or raise IllegalMove saying why.

    ``"Discard 9h  7s"`` → ``"discard 7S 9H"``: verb in lower case, cards as codes in
    canonical order, one space between words. Whether the move is legal now is not checked.
    """
    if not isinstance(text, str):
        raise IllegalMove(N_("A move is written as text, like `play Q♠`."))
    words = text.replace(",", " ").split()
    if not words:
        raise IllegalMove(N_("The move is empty: it begins with {verbs}."), verbs=_verbs(syntax))
    verb, rest = words[0].lower(), words[1:]
    if verb not in syntax:
        verb = _VERB_WORDS.get(_plain(verb), verb)
    kind = syntax.get(verb)
    if kind is None:
        raise IllegalMove(
            N_("“{word}” is not a move of this game: its moves begin with {verbs}."),
            word=words[0],
            verbs=_verbs(syntax),
        )
    if isinstance(kind, tuple):
        if len(rest) != 1 or rest[0].lower() not in kind:
            forms = Either([f"`{verb} {word}`" for word in kind])
            raise IllegalMove(N_("Write {forms}."), forms=forms)
        return f"{verb} {rest[0].lower()}"
    if kind == "none":
        if rest:
            raise IllegalMove(N_("Nothing follows `{verb}`."), verb=verb)
        return verb
    if kind == "suit?":
        if not rest:
            return verb
        if len(rest) > 1:
            raise IllegalMove(N_("`{verb}` takes at most one suit, like `{verb} ♥`."), verb=verb)
        return f"{verb} {_parse_suit(rest[0])}"
    try:
        cards = [parse_card(word) for word in rest]
    except ValueError:
        wrong = next(word for word in rest if not _reads_as_card(word))
        raise IllegalMove(
            N_("“{word}” is not a card. {how}"), word=wrong, how=Message(card_words)
        ) from None
    if kind == "card" and len(cards) != 1:
        raise IllegalMove(N_("`{verb}` takes exactly one card, like `{verb} Q♠`."), verb=verb)
    if kind == "cards+" and not cards:
        raise IllegalMove(N_("`{verb}` takes at least one card, like `{verb} Q♠`."), verb=verb)
    return " ".join([verb, *sort_cards(cards)])


# Every move word of MOVE_WORDS is read as its English verb, with or without accents, and so
# are a few other spellings; a verb a game does not know is refused as usual.
_OTHER_SPELLINGS: Final = {"joue": "play", "ecarte": "discard", "pioche": "draw"}


def _plain(word: str) -> str:
    """``word`` without accents, so 'écarter' and 'ecarter', 'föreslå' and 'foresla' agree."""
    text = unicodedata.normalize("NFKD", word)
    return "".join(ch for ch in text if not unicodedata.combining(ch))


_VERB_WORDS: Final = {
    **{_plain(word): verb for verb, spelt in MOVE_WORDS.items() for word in spelt},
    **_OTHER_SPELLINGS,
}


def _reads_as_card(word: str) -> bool:
    try:
        parse_card(word)
    except ValueError:
        return False
    return True


def _verbs(syntax: Mapping[str, Syntax]) -> Either:
    """A game's move words as typed, for a refusal: "`discard` or `play`"."""
    return Either([f"`{verb}`" for verb in sorted(syntax)])


def move_cards(move: str) -> list[str]:
    """The card codes named by a canonical move (``"discard 7S 9H"`` → ``["7S", "9H"]``)."""
    return [word for word in move.split()[1:] if word[-1] in SUITS and len(word) > 1]
