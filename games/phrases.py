"""Phrases every game's words are built from: cards, lists of cards, points, players' names.

Each game's module writes its own sentences (its moves, its deal breakdown, its rules help);
what they share — a card as the pictures name it, "keep all cards", "3 points", who is who
when no names are given — is here, so that the four games say these things alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from games.cards import COLOUR_RANKS, SUITS, TRUMP_RANKS, card_name
from games.words import ENGLISH, Words

_RANKS = frozenset(COLOUR_RANKS) | frozenset(TRUMP_RANKS)

# The move words of French and Swedish players (docs/notation.md): the rules help lists them,
# and the move parser (games/core.py) reads each as the English verb it stands for, with or
# without accents. Only words no language uses for another move are here.
MOVE_WORDS: Final = {
    "play": ("jouer", "spela"),
    "discard": ("écarter", "kasta"),
    "draw": ("piocher", "dra"),
    "meld": ("annoncer", "melda"),
    "exchange": ("échanger", "byta"),
    "declare": ("déclarer", "visa"),
    "propose": ("proposer", "föreslå"),
    "accept": ("accepter", "anta"),
    "refuse": ("refuser", "vägra"),
    "king": ("roi", "kung"),
}
"""Each English move word's French and Swedish words, as the rules help lists them."""


def cards_text(cards: Iterable[str], words: Words = ENGLISH) -> str:
    """Cards as the pictures name them, separated by spaces: ``7♠ D♥`` in French."""
    return " ".join(card_name(card, words) for card in cards)


def is_card(word: str) -> bool:
    """Whether ``word`` is a card code (a move's word may be a count or a suit letter)."""
    return len(word) > 1 and word[-1] in SUITS and word[:-1] in _RANKS


def points_text(value: int, words: Words = ENGLISH) -> str:
    """ "1 point", "2 points", "−3 points", in the reader's language and number format."""
    return words.ngettext("{n} point", "{n} points", abs(value)).format(n=words.number(value))


def seat_names(words: Words = ENGLISH, names: Sequence[str] | None = None) -> tuple[str, str]:
    """Seat 0's and seat 1's names: those given, else "Player 1" and "Player 2" (callers
    should give the players' names). Never "You", even in a seat's view: the sentences these
    names go into are in the third person ("{name} scores 2 points"), which "You" would
    break in every language."""
    if names is not None and len(names) == 2:
        return str(names[0]), str(names[1])
    return words.gettext("Player 1"), words.gettext("Player 2")


def describe_common(
    move: str, words: Words = ENGLISH, fixed: Mapping[str, str] | None = None
) -> str:
    """The moves several games share: a card played, a discard (cards named, or counted as
    an opponent sees it, or none: keep all cards); a move of a game's ``fixed`` table (whole
    move -> its phrase, marked with ``N_``) is that phrase. Anything else is given back as
    it is."""
    if fixed is not None and move in fixed:
        return words.gettext(fixed[move])
    verb, *rest = move.split()
    if verb == "play" and len(rest) == 1 and is_card(rest[0]):
        return card_name(rest[0], words)
    if verb == "discard":
        if not rest:
            return words.gettext("keep all cards")
        if len(rest) == 2 and rest[0].isdigit() and rest[1] in ("card", "cards"):
            count = int(rest[0])
            return words.ngettext("discard {n} card", "discard {n} cards", count).format(
                n=words.number(count)
            )
        if all(is_card(word) for word in rest):
            return words.gettext("discard {cards}").format(cards=cards_text(rest, words))
    return move


def deal_line(
    label: str, names: tuple[str, str], scores: Sequence[int], words: Words = ENGLISH
) -> str:
    """The closing line of a breakdown: "Deal 3: Alice 45, Bob 12." (``label``: "Deal 3")."""
    return words.gettext("{deal}: {first} {first_score}, {second} {second_score}.").format(
        deal=label,
        first=names[0],
        first_score=words.number(scores[0]),
        second=names[1],
        second_score=words.number(scores[1]),
    )


def closing_lines(
    label: str,
    names: tuple[str, str],
    scores: Sequence[int],
    result: Mapping[str, Any] | None,
    words: Words = ENGLISH,
) -> list[str]:
    """How a breakdown ends: the deal's points, then the match's end if it came with it."""
    return [deal_line(label, names, scores, words), *result_lines(result, names, words)]


def notation_help(syntax: Mapping[str, object], words: Words = ENGLISH) -> str:
    """How to type a game's moves in any of the three languages (docs/notation.md)."""
    verbs = ", ".join(
        words.gettext("`{verb}` (French `{fr}`, Swedish `{sv}`)").format(
            verb=verb, fr=MOVE_WORDS[verb][0], sv=MOVE_WORDS[verb][1]
        )
        for verb in syntax
        if verb in MOVE_WORDS
    )
    return "\n".join(
        (
            words.gettext("Typing moves: {verbs}.").format(verbs=verbs),
            words.gettext(
                "A card is its rank then its suit, like `QS` or `Q♠`. Ranks are 2 to 10, J, Q, "
                "K and A; French letters V, D and R (valet, dame, roi) and Swedish Kn, D and E "
                "(knekt, dam, ess) are read too. Suits are S, H, D and C, or their symbols ♠ ♥ ♦ "
                "♣; P (pique) and R (ruter) are read as spades and diamonds. The French C, K "
                "and T and the Swedish K mean other things, so use the symbols or the English "
                "letters for those suits."
            ),
        )
    )


def result_lines(
    result: Mapping[str, Any] | None, who: Sequence[str], words: Words = ENGLISH
) -> list[str]:
    """The end of a match, the winner named first: "Alice wins 25 – 8." ([] while playing)."""
    if not result:
        return []
    scores = result.get("scores") or [0, 0]
    winner = result.get("winner")
    if winner not in (0, 1):
        return [
            words.gettext("The match is drawn, {score} all.").format(score=words.number(scores[0]))
        ]
    return [
        words.gettext("{winner} wins {high} – {low}.").format(
            winner=who[winner],
            high=words.number(scores[winner]),
            low=words.number(scores[1 - winner]),
        )
    ]
