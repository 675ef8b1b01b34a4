"""Phrases every game's words are built from: cards, lists of cards, points, players' names.

Each game's module writes its own sentences (its moves, its deal breakdown, its rules help);
what they share — a card as the pictures name it, "keep all cards", "3 points", who is who
when no names are given — is here, so that the four games say these things alike.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from games.cards import COLOUR_RANKS, SUIT_SYMBOLS, SUITS, TRUMP_RANKS, card_name, rank_letter
from games.words import ENGLISH, N_, Words

_RANKS = frozenset(COLOUR_RANKS) | frozenset(TRUMP_RANKS)

# The move words of French and Swedish players (docs/notation.md): the rules help lists them,
# and the move parser (games/moves.py) reads each as the English verb it stands for, with or
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


def move_word(verb: str, words: Words = ENGLISH) -> str:
    """An English move word as a player of ``words``'s language types it (``écarter``)."""
    spelt = MOVE_WORDS.get(verb)
    if spelt is None or words.lang not in ("fr", "sv"):
        return verb
    return spelt[0] if words.lang == "fr" else spelt[1]


_TYPED_MOVE = re.compile(r"`([a-z]+)(?=[ `])")


def typed_in(text: str, words: Words = ENGLISH) -> str:
    """``text`` with every move it shows as typed (between backticks: `discard`, `play Q♠`)
    in the reader's own move word (`écarter`, `jouer Q♠`), which the parser reads too; the
    notation's other words (options, cards) stay as they are."""
    if words.lang not in ("fr", "sv"):
        return text
    return _TYPED_MOVE.sub(lambda m: "`" + move_word(m.group(1), words), text)


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


def notation_help(
    syntax: Mapping[str, object], words: Words = ENGLISH, pack: Iterable[str] = ()
) -> str:
    """How to type a game's moves in any of the three languages (docs/notation.md): its
    move words, then its cards, with the ranks its ``pack`` holds (7 to A for a piquet
    pack) in the reader's letters."""
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
            " ".join(
                (
                    words.gettext("A card is its rank then its suit, like `QS` or `Q♠`."),
                    ranks_text(pack, words),
                    words.gettext(
                        "Suits are S, H, D and C (spades, hearts, diamonds and clubs), or "
                        "their symbols ♠ ♥ ♦ ♣."
                    ),
                    *(
                        [words.gettext("The trumps are T or ★.")]
                        if any(code.endswith("T") for code in pack)
                        else []
                    ),
                )
            ),
            words.gettext(
                "French and Swedish letters are read too: V, D and R (valet, dame, roi) for "
                "the jack, queen and king, Kn, D and E (knekt, dam, ess) for the jack, queen "
                "and ace; P (pique) for spades and R (ruter) for diamonds. For hearts and "
                "clubs, type H and C or the symbols."
            ),
        )
    )


def ranks_text(pack: Iterable[str], words: Words = ENGLISH) -> str:
    """The ranks of a pack as a sentence, in the reader's letters: "Ranks are 7 to 10, J, Q,
    K and A." (a tarot pack's trumps numbered past 10 said apart)."""
    ranks = {code[:-1] for code in pack}
    numbers = sorted(int(rank) for rank in ranks if rank.isdigit())
    low = [n for n in numbers if n <= 10]
    faces = [rank_letter(rank, words) for rank in ("J", "Q", "K", "A") if rank in ranks]
    if not low:
        return ""
    said = words.gettext("Ranks are {low} to 10, {faces}.").format(
        low=words.number(low[0]), faces=_all_of(faces, words)
    )
    high = [words.number(n) for n in numbers if n > 10]
    if high:
        said += " " + words.gettext("The trumps' bonus cards are {ranks}.").format(
            ranks=_all_of(high, words)
        )
    return said


def _all_of(items: Sequence[str], words: Words) -> str:
    """ "J, Q, K and A" in the reader's language."""
    if len(items) < 2:
        return "".join(items)
    return words.gettext("{items} and {last}").format(items=", ".join(items[:-1]), last=items[-1])


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


def _pair(label: str, names: Sequence[str], values: Sequence[Any], words: Words) -> str:
    """ "Tricks: Alice 2, Bob 1." — one count for each player, by name."""
    return words.gettext("{label}: {first} {a}, {second} {b}.").format(
        label=label,
        first=names[0],
        a=words.number(int(values[0])),
        second=names[1],
        b=words.number(int(values[1])),
    )


def trick_text(cards: Iterable[Mapping[str, Any]], names: Sequence[str], words: Words) -> str:
    """The cards of a trick in the order played, each by whoever played it: "Bob 8♠, Alice
    10♠"."""
    return ", ".join(
        words.gettext("{name} {card}").format(
            name=names[int(entry["seat"])], card=card_name(str(entry["card"]), words)
        )
        for entry in cards
    )


def last_trick(view: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The last finished trick a view shows (``last_trick``, or the last of ``tricks``)."""
    trick = view.get("last_trick")
    if isinstance(trick, Mapping):
        return trick
    tricks = view.get("tricks")
    if isinstance(tricks, list) and tricks and isinstance(tricks[-1], Mapping):
        return tricks[-1]
    return None


def trick_won_text(trick: Mapping[str, Any], names: Sequence[str], words: Words) -> str:
    """ "Alice takes the trick (Bob 8♠, Alice 10♠)." """
    return words.gettext("{name} takes the trick ({cards}).").format(
        name=names[int(trick["winner"])], cards=trick_text(trick["cards"], names, words)
    )


def table_lines(
    view: Mapping[str, Any],
    words: Words = ENGLISH,
    names: Sequence[str] | None = None,
    deal_line: str = N_("Deal {n}, dealt by {name}."),
) -> list[str]:
    """What every trick game's table shows, one sentence a line, from the keys their views
    share (docs/views.md): the deal, trumps and the turn-up, the stock, the trick on the
    table, the last trick and who took it, tricks taken and the deal's points so far. Each
    game adds what is its own (:meth:`games.core.Game.table_text`); ``deal_line`` is how it
    calls a deal (Écarté's are hands)."""
    who = seat_names(words, names)
    lines = []
    deal, dealer = view.get("deal"), view.get("dealer")
    if isinstance(deal, int) and dealer in (0, 1):
        lines.append(words.gettext(deal_line).format(n=words.number(deal), name=who[int(dealer)]))
    trump, turn_up = view.get("trump"), view.get("turn_up")
    if isinstance(trump, str) and trump in SUIT_SYMBOLS:
        if isinstance(turn_up, str):
            lines.append(
                words.gettext("Trumps: {suit} (the card turned up: {card}).").format(
                    suit=SUIT_SYMBOLS[trump], card=card_name(turn_up, words)
                )
            )
        else:
            lines.append(words.gettext("Trumps: {suit}.").format(suit=SUIT_SYMBOLS[trump]))
    stock = view.get("stock")
    if isinstance(stock, int):
        lines.append(
            words.ngettext(
                "{n} card is left in the stock.", "{n} cards are left in the stock.", stock
            ).format(n=words.number(stock))
        )
    trick = view.get("trick")
    if isinstance(trick, list) and trick:
        lines.append(
            words.gettext("On the table: {cards}.").format(cards=trick_text(trick, who, words))
        )
    won = view.get("tricks_won")
    if isinstance(won, list) and len(won) == 2 and any(won):
        lines.append(_pair(words.gettext("Tricks taken"), who, won, words))
    points = view.get("deal_scores")
    if isinstance(points, list) and len(points) == 2 and any(points):
        lines.append(_pair(words.gettext("Points this deal"), who, points, words))
    return lines


def entry_line(name: str, what: str, points: int | None, words: Words = ENGLISH) -> str:
    """One score at the table, by whoever made it: "Alice: bezique, 40 points."."""
    if points is None:
        return words.gettext("{name}: {what}.").format(name=name, what=what)
    return words.gettext("{name}: {what}, {points}.").format(
        name=name, what=what, points=points_text(points, words)
    )


def pair_line(label: str, names: Sequence[str], values: Sequence[Any], words: Words) -> str:
    """ "Brisques: Alice 2, Bob 1." (``label`` already in the reader's language)."""
    return _pair(label, names, values, words)
