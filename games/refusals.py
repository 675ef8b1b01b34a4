"""Refusals: what the rules say to a player who asks for something they do not allow.

The engines speak no language of their own: a refusal carries a marked message with named
blanks, and whoever tells it words it in the reader's language. Every other room of the
rules raises these, the move parser included, so they live below all of them.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.cards import Cards
from games.phrases import typed_in
from games.words import ENGLISH, Blank, Message, Words, counted


class Refusal(ValueError):
    """Something a player asked that the rules refuse (a move, a match's options), and why,
    as a marked message told in the reader's language by :meth:`say`; ``str(error)`` is the
    English."""

    def __init__(self, reason: str | Message, /, **blanks: Blank) -> None:
        self.reason = reason if isinstance(reason, Message) else Message(reason, **blanks)
        super().__init__(self.reason)

    def __str__(self) -> str:
        # Worded only when read: a search that tries moves may be refused many times unread.
        return self.reason.say(ENGLISH)

    def say(self, words: Words = ENGLISH) -> str:
        """The reason in ``words``'s language, its moves in the reader's move words."""
        return typed_in(self.reason.say(words), words)


class IllegalMove(Refusal):
    """A move that is malformed or not allowed now, and why, as a whole sentence.

    The engines speak no language of their own: the reason is a marked message with named
    blanks (cards as :class:`~games.cards.Cards`, numbers as numbers), told in the reader's
    language by :meth:`say` with the reader's :class:`~games.words.Words`. ``str(error)`` is
    the English sentence, for logs and replays. What *would* be accepted is the legal moves,
    which whoever tells the refusal lists after it.
    """


def not_held(codes: Iterable[str]) -> IllegalMove:
    """The refusal of cards that are not in the mover's hand, in every game."""
    cards = Cards.of(codes, sep=", ")
    return IllegalMove(
        counted(
            "You do not hold {cards}.",
            "You do not hold these cards: {cards}.",
            len(cards.codes),
            cards=cards,
        )
    )


def not_in_pack(codes: Iterable[str]) -> IllegalMove:
    """The refusal of cards a 32-card pack does not have (a 2, say), in the games played with it."""
    cards = Cards.of(codes, sep=", ")
    return IllegalMove(
        counted(
            "{cards} is not in this game's pack, which has 7 to A in each suit.",
            "{cards} are not in this game's pack, which has 7 to A in each suit.",
            len(cards.codes),
            cards=cards,
        )
    )
