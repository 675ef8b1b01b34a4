"""Piquet — Rubicon piquet, a partie of six deals (docs/rules/piquet.md).

Each deal: twelve cards each, talons of five (elder's) and three (younger's); elder then
younger exchange; the engine scores every declaration (point, sequences, sets, full hand,
repique); then twelve tricks without trumps, with points for leads and captures above the
nine, the last trick, the cards and capot.

Speed matters — the computer opponent searches with random playouts — so a hand is a 32-bit
mask (bit ``8 × suit + rank``, suits S H D C, ranks 7 … A: the canonical card order), one
byte per suit. Every per-suit fact (point, sequences, the play moves of that suit) is read
from tables indexed by that byte, and ``apply`` reads canonical moves with one dictionary
lookup before falling back to the general parser.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import repeat
from operator import add
from typing import Any, ClassVar, Final, TypedDict, cast

from games import core, fields, header
from games.cards import PIQUET_PACK, SUIT_NAMES, SUIT_SYMBOLS, SUITS, card_name, hand_order_by
from games.core import Seat
from games.deals import deck_for_deal
from games.moves import Syntax
from games.phrases import (
    cards_text,
    deal_line,
    entry_line,
    pair_line,
    points_text,
    seat_names,
)
from games.refusals import IllegalMove, not_held, not_in_pack
from games.registry import register
from games.words import ENGLISH, N_, Words, counted

NAME: Final = "piquet"
HAND_SIZE: Final = 12
TRICKS: Final = 12
ELDER_TALON: Final = 5
YOUNGER_TALON: Final = 3
MOST_DISCARDS: Final = (ELDER_TALON, YOUNGER_TALON)
"""How many cards elder (index 0) and younger (index 1) may exchange (piquet D3, D4)."""
REPIQUE: Final = 60
PIQUE: Final = 30
THRESHOLD: Final = 30
FULL_HAND: Final = 50
THE_CARDS: Final = 10
CAPOT: Final = 40

# Cards in canonical order: index = 8 × suit + rank, rank 0 = seven … 7 = ace.
_CODES: Final = PIQUET_PACK
_INDEX: Final = {card: i for i, card in enumerate(_CODES)}
_BIT: Final = {card: 1 << i for i, card in enumerate(_CODES)}
_SUIT_MASKS: Final = tuple(0xFF << (8 * suit) for suit in range(4))
_TEN: Final = 3
"""Rank index of the ten: cards "above the nine" (piquet D9) and sets (piquet D6) start here."""
_PIPS: Final = (7, 8, 9, 10, 10, 10, 10, 11)
_RANK_NAMES: Final = ("seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")
_RANK_PLURALS: Final = ("sevens", "eights", "nines", "tens", "jacks", "queens", "kings", "aces")
_COUNT_NAMES: Final = {
    1: "one",
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
}
_SEQUENCE_NAMES: Final = {
    3: "tierce",
    4: "quart",
    5: "quint",
    6: "sixième",
    7: "septième",
    8: "huitième",
}
_SEQUENCE_POINTS: Final = {3: 3, 4: 4, 5: 15, 6: 16, 7: 17, 8: 18}


def _bits(byte: int) -> tuple[int, ...]:
    return tuple(rank for rank in range(8) if byte >> rank & 1)


def _runs(byte: int) -> tuple[tuple[int, int], ...]:
    """Sequences of 3+ in one suit's byte, as (length, top rank)."""
    runs = []
    rank = 0
    while rank < 8:
        if byte >> rank & 1:
            start = rank
            while rank < 8 and byte >> rank & 1:
                rank += 1
            if rank - start >= 3:
                runs.append((rank - start, rank - 1))
        else:
            rank += 1
    return tuple(runs)


# Per suit and byte: the cards, the play moves, the " CARD" words of a discard move.
_CARDS: Final = tuple(
    tuple(tuple(_CODES[8 * suit + rank] for rank in _bits(byte)) for byte in range(256))
    for suit in range(4)
)
_PLAYS: Final = tuple(tuple(tuple(f"play {c}" for c in cards) for cards in s) for s in _CARDS)
_WORDS: Final = tuple(tuple(tuple(f" {c}" for c in cards) for cards in s) for s in _CARDS)
_LENGTH: Final = tuple(len(_bits(byte)) for byte in range(256))
_PIP_TOTAL: Final = tuple(sum(_PIPS[rank] for rank in _bits(byte)) for byte in range(256))
_RUNS: Final = tuple(_runs(byte) for byte in range(256))

_PLAY_MOVES: Final = {f"play {card}": i for i, card in enumerate(_CODES)}
_PLAY_MOVE: Final = tuple(f"play {card}" for card in _CODES)

Declaration = tuple[int, str, str, int]
"""(who, kind, text as said at the table, points); ``who`` is a seat, or a hand's index."""


def cards_of(mask: int) -> list[str]:
    """The cards of a mask, in canonical order."""
    return [
        *_CARDS[0][mask & 0xFF],
        *_CARDS[1][mask >> 8 & 0xFF],
        *_CARDS[2][mask >> 16 & 0xFF],
        *_CARDS[3][mask >> 24 & 0xFF],
    ]


def mask_of(cards: Iterable[str]) -> int:
    """The mask of piquet cards given as canonical codes (KeyError for a foreign card)."""
    mask = 0
    for card in cards:
        mask |= _BIT[card]
    return mask


def settlement(a: int, b: int) -> int:
    """The winner's game score after the last deal (piquet D2); 0 for equal totals.

    If the loser reached 100, the winner scores 100 + the difference; under 100 (rubicon),
    100 + the sum of both totals.
    """
    high, low = max(a, b), min(a, b)
    if high == low:
        return 0
    return 100 + (high - low if low >= 100 else high + low)


def sequence_points(length: int) -> int:
    """3 = 3, 4 = 4, 5 = 15, 6 = 16, 7 = 17, 8 = 18 (the seed's table)."""
    return _SEQUENCE_POINTS[length]


# -- declarations --------------------------------------------------------------------------
def _point(hand: int) -> tuple[tuple[int, int], int]:
    """The best point (length, pip total) and the mask of every suit holding it."""
    best = (0, 0)
    suits = 0
    for suit in range(4):
        byte = hand >> (8 * suit) & 0xFF
        key = (_LENGTH[byte], _PIP_TOTAL[byte])
        if key > best:
            best, suits = key, _SUIT_MASKS[suit]
        elif key == best:
            suits |= _SUIT_MASKS[suit]  # piquet D7: either tied suit may serve
    return best, suits


def _sequences(hand: int) -> list[tuple[int, int, int]]:
    """Every sequence of 3+ as (length, top rank, suit), best first."""
    found = []
    for suit in range(4):
        for length, top in _RUNS[hand >> (8 * suit) & 0xFF]:
            found.append((length, top, suit))
    found.sort(key=lambda seq: (-seq[0], -seq[1], seq[2]))  # equal ones in suit order
    return found


def _sequence_cards(length: int, top: int, suit: int) -> int:
    return ((1 << length) - 1) << (top - length + 1 + 8 * suit)


def _sets(hand: int) -> list[tuple[int, int]]:
    """Every trio or quatorze of tens and above (piquet D6) as (count, rank), best first."""
    found = []
    for rank in range(_TEN, 8):
        count = (
            (hand >> rank & 1)
            + (hand >> (rank + 8) & 1)
            + (hand >> (rank + 16) & 1)
            + (hand >> (rank + 24) & 1)
        )
        if count >= 3:
            found.append((count, rank))
    found.sort(reverse=True)  # a quatorze beats any trio; among equals the higher rank
    return found


def _rank_cards(rank: int) -> int:
    return 0x01010101 << rank


def _class_winner(a: tuple[int, int], b: tuple[int, int]) -> int | None:
    """0 or 1 for the better holding, keyed (length, pips) or (length, top) or (count, rank);
    None when equal: neither scores."""
    if a == b:
        return None
    return 0 if a > b else 1


def declare(hands: tuple[int, int]) -> list[Declaration]:
    """Every declaration of a deal, in the order announced (``who`` = index in ``hands``,
    elder first).

    Point, sequences, sets, full hand (piquet D5–D7), each class scored by its better holder
    alone; repique (piquet D8) is added the moment a player reaches 30 from declarations
    while the other has scored nothing.
    """
    out: list[Declaration] = []
    totals = [0, 0]
    repiqued = False
    covered = [0, 0]
    point_suits = [0, 0]

    def score(who: int, kind: str, text: str, points: int) -> None:
        out.append((who, kind, text, points))
        totals[who] += points

    def check_repique() -> None:
        nonlocal repiqued
        for who in (0, 1):
            if not repiqued and totals[who] >= THRESHOLD and totals[1 - who] == 0:
                repiqued = True
                score(who, "repique", "repique", REPIQUE)

    points = [_point(hand) for hand in hands]
    who = _class_winner(points[0][0], points[1][0])
    if who is not None:
        (length, pips), point_suits[who] = points[who]
        score(who, "point", f"point of {_COUNT_NAMES[length]}, {pips}", length)
        check_repique()

    sequences = [_sequences(hand) for hand in hands]
    best = [(found[0][0], found[0][1]) if found else (0, 0) for found in sequences]
    who = _class_winner(best[0], best[1])  # the longer, then the higher top card
    if who is not None:
        for length, top, suit in sequences[who]:  # piquet D5: the winner scores all his
            name = (
                f"{_SEQUENCE_NAMES[length]} to the {_RANK_NAMES[top]} in {SUIT_NAMES[SUITS[suit]]}"
            )
            score(who, "sequence", name, _SEQUENCE_POINTS[length])
            covered[who] |= _sequence_cards(length, top, suit)
        check_repique()

    sets = [_sets(hand) for hand in hands]
    who = _class_winner(sets[0][0] if sets[0] else (0, 0), sets[1][0] if sets[1] else (0, 0))
    if who is not None:
        for count, rank in sets[who]:
            name = ("quatorze" if count == 4 else "trio") + f" of {_RANK_PLURALS[rank]}"
            score(who, "set", name, 14 if count == 4 else 3)
            covered[who] |= _rank_cards(rank) & hands[who]
        check_repique()

    for who in (0, 1):
        if _full_hand(hands[who], covered[who], point_suits[who]):
            score(who, "full hand", "full hand", FULL_HAND)
            check_repique()
    return out


def _full_hand(hand: int, covered: int, point_suits: int) -> bool:
    """piquet D7: every card in a combination that scored; any tied best point suit serves."""
    if covered & hand == hand:
        return True
    for suit_mask in _SUIT_MASKS:
        if point_suits & suit_mask and (covered | suit_mask) & hand == hand:
            return True
    return False


def declarations_of(elder: Iterable[str], younger: Iterable[str]) -> list[Declaration]:
    """:func:`declare` for two hands given as card codes (``who`` 0 = elder, 1 = younger)."""
    return declare((mask_of(elder), mask_of(younger)))


# -- discards ------------------------------------------------------------------------------
def _discard_moves(words: tuple[str, ...], most: int) -> list[str]:
    """Every ``discard`` of 0 … ``most`` of the cards whose " CODE" words are given.

    The words are in canonical order, so each combination, taken in index order, is already
    canonical; each move is one shorter move plus one word (1,586 moves for elder's 12 cards
    and 5), with no list of combinations built. ``by_size[k]`` holds the moves of ``k``
    cards among the words seen so far; each new word extends those of ``k - 1``.
    """
    by_size: list[list[str]] = [["discard"]] + [[] for _ in range(most)]
    for word in words:
        for size in range(most, 0, -1):
            shorter = by_size[size - 1]
            if shorter:
                by_size[size] += map(add, shorter, repeat(word))
    moves: list[str] = []
    for group in by_size:
        moves += group
    return moves


def _fast_discard(move: str) -> int | None:
    """The mask of a discard typed in codes, one space apart, in any order; None when
    the general parser must read it (lower case, symbols, an error to explain).

    The cards are checked directly: the 1,586 moves of ``legal_moves`` are never built.
    """
    if move[7:8] not in ("", " "):
        return None
    mask = 0
    bits = _BIT
    for word in move.split(" ")[1:]:
        bit = bits.get(word)
        if bit is None or mask & bit:
            return None
        mask |= bit
    return mask


def _discard_mask(cards: list[str]) -> int:
    mask = 0
    for card in cards:
        bit = _BIT[card]
        if mask & bit:
            raise IllegalMove(N_("Each card may be discarded only once."))
        mask |= bit
    return mask


def _stored_masks(masks: tuple[int, int]) -> list[list[str]]:
    return [cards_of(mask) for mask in masks]


def _read_masks(value: Any) -> tuple[int, int]:
    if len(value) != 2:
        raise ValueError("expected one list per seat")
    return mask_of(value[0]), mask_of(value[1])


def _read_exchanged(value: Any) -> tuple[int | None, int | None]:
    return _count_or_none(value[0], ELDER_TALON), _count_or_none(value[1], YOUNGER_TALON)


def _stored_lead(lead: int) -> str | None:
    return _CODES[lead] if lead >= 0 else None


def _read_lead(value: Any) -> int:
    return _INDEX[value] if value else -1


LastTrick = tuple[Seat, int, int, Seat]


def _stored_last_trick(trick: LastTrick | None) -> list[Any] | None:
    if trick is None:
        return None
    return [trick[0], _CODES[trick[1]], _CODES[trick[2]], trick[3]]


def _read_last_trick(value: Any) -> LastTrick | None:
    if value is None:
        return None
    return (
        fields.read_seat(value[0]),
        _INDEX[value[1]],
        _INDEX[value[2]],
        fields.read_seat(value[3]),
    )


def _read_declarations(value: Any) -> tuple[Declaration, ...]:
    return cast(
        tuple[Declaration, ...],
        fields.read_rows(value, fields.read_seat, str, str, fields.read_int),
    )


Previous = tuple[Seat, tuple[Declaration, ...], tuple[int, int], tuple[int, int], LastTrick]
"""The deal that ended last, for its breakdown: (dealer, declarations and bonuses, the deal's
scores, tricks won, the last trick)."""


def _stored_previous(previous: Previous) -> list[Any]:
    dealer, decls, scores, tricks, last = previous
    return [dealer, fields.lists(decls), list(scores), list(tricks), _stored_last_trick(last)]


def _read_previous(value: Any) -> Previous:
    dealer, decls, scores, tricks, last = value
    trick = _read_last_trick(last)
    if trick is None:
        raise ValueError("a finished deal has a last trick")
    return (
        fields.read_seat(dealer),
        _read_declarations(decls),
        fields.read_scores(scores),
        fields.read_scores(tricks),
        trick,
    )


class DeclarationView(TypedDict):
    """A declaration or bonus scored this deal (piquet X4, X5, X7)."""

    seat: Seat
    kind: str
    text: str
    points: int


class PiquetDealView(TypedDict):
    """The deal that ended last, all of it public once played: what its breakdown needs."""

    deal: int
    dealer: Seat
    declarations: list[DeclarationView]
    deal_scores: list[int]
    tricks_won: list[int]
    last_trick: core.TrickView


class PiquetView(core.BaseView):
    """A seat's view of a Piquet match, field by field in docs/views.md."""

    deal: int
    deals: int
    dealer: Seat
    elder: Seat
    phase: str
    talons: list[int]
    exchanged: list[int | None]
    talon_seen: list[str]
    discarded: list[str]
    declarations: list[DeclarationView]
    trick: list[core.CardEntry]
    last_trick: core.TrickView | None
    tricks_won: list[int]
    deal_scores: list[int]
    deal_history: list[list[int]]
    hand_sizes: list[int]
    last_move: core.MoveView | None
    last_deal: PiquetDealView | None


@header.match_state
class PiquetState(header.MatchState):
    syntax: ClassVar[Mapping[str, Syntax]] = {"play": "card", "discard": "cards"}
    stored_keys: ClassVar[Mapping[str, str]] = {"_totals": "scores"}

    # The header (seed, deals, deal, dealer, totals …) is MatchState's; these are Piquet's.
    # The last move is (seat, move, what the others see of it): discards are face down.
    _deck: tuple[str, ...] = fields.stored(write=list, read=fields.read_cards)
    _hands: tuple[int, int] = fields.stored(write=_stored_masks, read=_read_masks)
    _discards: tuple[int, int] = fields.stored(write=_stored_masks, read=_read_masks)
    _exchanged: tuple[int | None, int | None] = fields.stored(write=list, read=_read_exchanged)
    """Cards exchanged by elder, by younger (None: not yet); also how much of each talon
    was taken, from its first card on."""
    _lead: int = fields.stored(write=_stored_lead, read=_read_lead)
    """Index of the card led to the trick in progress, or -1 (no trick in progress)."""
    _played: int = fields.stored(write=cards_of, read=mask_of)
    _tricks: tuple[int, int] = fields.stored(write=list, read=fields.read_scores)
    _last_trick: LastTrick | None = fields.stored(write=_stored_last_trick, read=_read_last_trick)
    """(leader, card led, card played second, winner) of the last completed trick."""
    _deal_scores: tuple[int, int] = fields.stored(write=list, read=fields.read_scores)
    _bonus: bool = fields.stored(read=bool)
    """Repique or pique was scored this deal: a player never scores both (piquet D10)."""
    _decls: tuple[Declaration, ...] = fields.stored(
        "declarations", write=fields.lists, read=_read_declarations
    )
    _previous: Previous | None = fields.stored(
        write=_stored_previous, read=_read_previous, optional=True
    )
    """The deal that ended last (None before the first ends), shown until the next ends."""

    # -- the contract ---------------------------------------------------------------------
    @property
    def elder(self) -> Seat:
        return 1 - self._dealer

    def _legal_moves(self) -> list[str]:
        seat = self._turn
        if seat is None:
            return []
        hand = self._hands[seat]
        if self._exchanged[1] is not None:
            lead = self._lead
            if lead >= 0:
                suit = lead >> 3
                byte = hand >> (8 * suit) & 0xFF
                if byte:  # the follower must follow suit if able
                    return list(_PLAYS[suit][byte])
            return [
                *_PLAYS[0][hand & 0xFF],
                *_PLAYS[1][hand >> 8 & 0xFF],
                *_PLAYS[2][hand >> 16 & 0xFF],
                *_PLAYS[3][hand >> 24 & 0xFF],
            ]
        words = (
            _WORDS[0][hand & 0xFF]
            + _WORDS[1][hand >> 8 & 0xFF]
            + _WORDS[2][hand >> 16 & 0xFF]
            + _WORDS[3][hand >> 24 & 0xFF]
        )
        return _discard_moves(words, MOST_DISCARDS[seat != self.elder])

    def apply(self, move: str) -> PiquetState:
        seat = self._turn
        if seat is None:
            raise self.over()
        if isinstance(move, str):  # fast paths for moves as ``legal_moves`` writes them
            index = _PLAY_MOVES.get(move)
            if index is not None:
                return self._play(seat, index)
            if move.startswith("discard"):
                mask = _fast_discard(move)
                if mask is not None:
                    return self._exchange(seat, mask)
        canonical = self.canonical(move)
        verb, *cards = canonical.split(" ")
        foreign = [card for card in cards if card not in _BIT]
        if foreign:
            raise not_in_pack(foreign)
        if verb == "play":
            return self._play(seat, _INDEX[cards[0]])
        return self._exchange(seat, _discard_mask(cards))

    # -- the exchange (piquet D3, D4) ----------------------------------------------------
    def _exchange(self, seat: Seat, mask: int) -> PiquetState:
        if self._exchanged[1] is not None:
            raise IllegalMove(N_("The exchange is over: play a card."))
        younger = seat != self.elder
        hand = self._hands[seat]
        if mask & ~hand:
            raise not_held(cards_of(mask & ~hand))
        count = bin(mask).count("1")
        most = MOST_DISCARDS[younger]
        if count > most:
            raise IllegalMove(
                counted(
                    "You may discard at most {n} card, or none to keep them all.",
                    "You may discard at most {n} cards, or none to keep them all.",
                    most,
                )
            )
        start = HAND_SIZE * 2 + (ELDER_TALON if younger else 0)
        taken = mask_of(self._deck[start : start + count])
        new = self._copy()
        new._hands = self._with(self._hands, seat, (hand & ~mask) | taken)
        new._discards = self._with(self._discards, seat, mask)
        move = "discard " + " ".join(cards_of(mask)) if mask else "discard"
        # piquet X9: the others learn how many cards, never which
        public = "discard" if not count else f"discard {count} card{'s' if count > 1 else ''}"
        new._last = (seat, move, public)
        if not younger:
            new._exchanged = (count, None)
            new._turn = 1 - seat
            return new
        new._exchanged = (self._exchanged[0], count)
        new._turn = self.elder
        new._declare()
        return new

    def _declare(self) -> None:
        """Score every declaration, in order, as the table announces them (piquet D5–D8)."""
        elder = self.elder
        hands = self._hands
        found = declare((hands[elder], hands[1 - elder]))
        seats = (elder, 1 - elder)
        decls = tuple((seats[who], kind, text, pts) for who, kind, text, pts in found)
        gained = [0, 0]
        for seat, _kind, _text, points in decls:
            gained[seat] += points
        self._decls = decls
        self._bonus = any(kind == "repique" for _s, kind, _t, _p in decls)
        self._deal_scores = (gained[0], gained[1])
        self._totals = (self._totals[0] + gained[0], self._totals[1] + gained[1])

    # -- play (piquet D9, D10) -----------------------------------------------------------
    def _play(self, seat: Seat, index: int) -> PiquetState:
        if self._exchanged[1] is None:
            most = MOST_DISCARDS[seat != self.elder]
            raise IllegalMove(
                counted(
                    "First comes the exchange: discard up to {n} card, or none to keep them all.",
                    "First comes the exchange: discard up to {n} cards, or none to keep them all.",
                    most,
                )
            )
        bit = 1 << index
        hand = self._hands[seat]
        if not hand & bit:
            raise not_held((_CODES[index],))
        lead = self._lead
        new = self._copy()
        new._hands = self._with(self._hands, seat, hand & ~bit)
        new._last = (seat, _PLAY_MOVE[index], _PLAY_MOVE[index])
        if lead < 0:
            new._lead = index
            new._turn = 1 - seat
            if index & 7 >= _TEN:  # piquet D9: leading a card above the nine
                new._gain(seat, 1)
            return new
        suit = lead >> 3
        if index >> 3 != suit and hand & _SUIT_MASKS[suit]:
            raise IllegalMove(
                N_("You must follow the suit led, {suit}, when you can."),
                suit=SUIT_SYMBOLS[SUITS[suit]],
            )
        leader = 1 - seat
        if index >> 3 == suit and index > lead:
            winner = seat
            if index & 7 >= _TEN:  # piquet D9: won second with a card above the nine
                new._gain(seat, 1)
        else:
            winner = leader
        tricks = self._tricks
        tricks = (tricks[0] + 1, tricks[1]) if winner == 0 else (tricks[0], tricks[1] + 1)
        new._tricks = tricks
        new._played = self._played | bit | (1 << lead)
        new._last_trick = (leader, lead, index, winner)
        new._lead = -1
        new._turn = winner
        if tricks[0] + tricks[1] == TRICKS:
            new._gain(winner, 1)  # piquet D9: the last trick
            new._end_deal()
        return new

    def _gain(self, seat: Seat, points: int) -> None:
        """Score play points; pique (piquet D10) the moment they bring 30 against nothing."""
        self._add(seat, points)
        deal_scores = self._deal_scores
        if not self._bonus and deal_scores[seat] >= THRESHOLD and deal_scores[1 - seat] == 0:
            self._bonus = True
            self._decls = (*self._decls, (seat, "pique", "pique", PIQUE))
            self._add(seat, PIQUE)

    def _add(self, seat: Seat, points: int) -> None:
        deal, total = self._deal_scores, self._totals
        if seat == 0:
            self._deal_scores = (deal[0] + points, deal[1])
            self._totals = (total[0] + points, total[1])
        else:
            self._deal_scores = (deal[0], deal[1] + points)
            self._totals = (total[0], total[1] + points)

    def _end_deal(self) -> None:
        """The cards or capot (not counted toward pique), then the next deal or the end."""
        tricks = self._tricks
        for seat in (0, 1):
            if tricks[seat] == TRICKS:
                self._decls = (*self._decls, (seat, "capot", "capot", CAPOT))
                self._add(seat, CAPOT)
            elif tricks[seat] > TRICKS // 2:
                self._decls = (*self._decls, (seat, "cards", "the cards", THE_CARDS))
                self._add(seat, THE_CARDS)
        self._history = (*self._history, self._deal_scores)
        assert self._last_trick is not None
        self._previous = (self._dealer, self._decls, self._deal_scores, tricks, self._last_trick)
        if self._deal_no + 1 < self._goal:
            self._start_deal(self._deal_no + 1, 1 - self._dealer)
            return
        a, b = self._totals
        self._turn = None
        self._result = {
            "winner": 0 if a > b else 1 if b > a else None,  # piquet D2: equal totals, a draw
            "scores": [a, b],
            "deals": [list(scores) for scores in self._history],
            "settlement": settlement(a, b),
            "rubicon": a != b and min(a, b) < 100,
        }

    def _start_deal(self, deal: int, dealer: Seat) -> None:
        deck = deck_for_deal(self._decks, _CODES, self._seed, NAME, deal)
        elder_hand = mask_of(deck[:HAND_SIZE])
        younger_hand = mask_of(deck[HAND_SIZE : 2 * HAND_SIZE])
        self._deal_no = deal
        self._dealer = dealer
        self._deck = deck
        self._hands = (younger_hand, elder_hand) if dealer == 0 else (elder_hand, younger_hand)
        self._discards = (0, 0)
        self._exchanged = (None, None)
        self._turn = 1 - dealer
        self._lead = -1
        self._played = 0
        self._tricks = (0, 0)
        self._last_trick = None
        self._deal_scores = (0, 0)
        self._bonus = False
        self._decls = ()

    # -- helpers --------------------------------------------------------------------------
    @staticmethod
    def _with(pair: tuple[int, int], seat: Seat, value: int) -> tuple[int, int]:
        return (value, pair[1]) if seat == 0 else (pair[0], value)

    def _talon_left(self, younger: bool) -> list[str]:
        """The untaken cards of elder's or younger's talon (all of it before the exchange)."""
        start = HAND_SIZE * 2 + (ELDER_TALON if younger else 0)
        taken = self._exchanged[younger] or 0
        return list(self._deck[start + taken : start + (YOUNGER_TALON if younger else ELDER_TALON)])

    # -- views ----------------------------------------------------------------------------
    def view(self, seat: Seat | None) -> PiquetView:
        base = core.base_view(
            self, seat, cards_of(self._hands[seat]) if seat in (0, 1) else (), ordered=True
        )
        elder = self.elder
        talon_seen: list[str] = []
        discarded: list[str] = []
        if seat is not None:
            younger = seat != elder
            if self._exchanged[younger] is not None:  # piquet D3, D4: own leftovers only
                talon_seen = self._talon_left(younger)
            discarded = cards_of(self._discards[seat])
        talons = [
            ELDER_TALON - (self._exchanged[0] or 0),
            YOUNGER_TALON - (self._exchanged[1] or 0),
        ]
        trick: list[core.CardEntry] = []
        if self._lead >= 0 and self._turn is not None:  # the leader is the one not to move
            trick = [{"seat": 1 - self._turn, "card": _CODES[self._lead]}]
        last_trick = self._last_trick
        view: PiquetView = {
            **base,
            "deal": self._deal_no + 1,
            "deals": self._goal,
            "dealer": self._dealer,
            "elder": elder,
            "phase": (
                "over"
                if self._turn is None
                else "discard"
                if self._exchanged[1] is None
                else "play"
            ),
            "talons": talons,
            "exchanged": list(self._exchanged),
            "talon_seen": talon_seen,
            "discarded": discarded,
            "declarations": (
                [
                    {"seat": who, "kind": kind, "text": text, "points": points}
                    for who, kind, text, points in self._decls
                ]
                if self._decls
                else []
            ),
            "trick": trick,
            "last_trick": (
                None
                if last_trick is None
                else {
                    "cards": [
                        {"seat": last_trick[0], "card": _CODES[last_trick[1]]},
                        {"seat": 1 - last_trick[0], "card": _CODES[last_trick[2]]},
                    ],
                    "winner": last_trick[3],
                }
            ),
            "tricks_won": list(self._tricks),
            "deal_scores": list(self._deal_scores),
            "deal_history": list(map(list, self._history)),
            "hand_sizes": [self._hands[0].bit_count(), self._hands[1].bit_count()],
            "last_move": self._last_move_view(seat),
            "last_deal": self._last_deal(),
        }
        return view

    def _last_deal(self) -> PiquetDealView | None:
        if self._previous is None:
            return None
        dealer, decls, scores, tricks, last = self._previous
        return {
            "deal": len(self._history),
            "dealer": dealer,
            "declarations": [
                {"seat": who, "kind": kind, "text": text, "points": points}
                for who, kind, text, points in decls
            ],
            "deal_scores": list(scores),
            "tricks_won": list(tricks),
            "last_trick": {
                "cards": [
                    {"seat": last[0], "card": _CODES[last[1]]},
                    {"seat": 1 - last[0], "card": _CODES[last[2]]},
                ],
                "winner": last[3],
            },
        }

    def zones(self) -> dict[str, list[str]]:
        trick = [_CODES[self._lead]] if self._lead >= 0 else []
        return {
            "hand0": cards_of(self._hands[0]),
            "hand1": cards_of(self._hands[1]),
            "elder_talon": self._talon_left(False),
            "younger_talon": self._talon_left(True),
            "discards0": cards_of(self._discards[0]),
            "discards1": cards_of(self._discards[1]),
            "trick": trick,
            "played": cards_of(self._played),
        }

    # -- stored states --------------------------------------------------------------------
    def _start(self, first: Seat) -> None:
        self._previous = None
        self._start_deal(0, first)  # piquet D1

    def _check(self) -> None:
        """Reject a stored state whose cards do not fit a deal of piquet (a corrupt row)."""
        pack = fields.sorted_pack(_CODES)
        if sorted(self._deck) != pack:
            raise ValueError("the deal's cards do not add up to the piquet pack")
        cards = [card for zone in self.zones().values() for card in zone]
        if sorted(cards) != pack:
            raise ValueError("cards do not add up to the piquet pack")
        held = [bin(hand).count("1") for hand in self._hands]
        if (held[0] != held[1] and self._lead < 0) or abs(held[0] - held[1]) > 1:
            raise ValueError("the hands' sizes do not fit a deal of piquet")
        if not 0 <= self._deal_no < self._goal:
            raise ValueError("impossible deal number")
        if bin(self._played).count("1") != 2 * sum(self._tricks):
            raise ValueError("the played cards do not fit the tricks won")


hand_order: Final = hand_order_by(("A", "K", "Q", "J", "10", "9", "8", "7"))
"""A card's place in a hand: suits grouped, then from the ace down."""


# -- words: Piquet's moves, deal breakdown and rules help in players' words -------------------
_RANK_CODES: Final = dict(zip(_RANK_NAMES, ("7", "8", "9", "10", "J", "Q", "K", "A"), strict=True))
_SUIT_CODES: Final = {name: suit for suit, name in SUIT_NAMES.items()}
_SETS: Final = {
    ("quatorze", "tens"): N_("quatorze of tens"),
    ("quatorze", "jacks"): N_("quatorze of jacks"),
    ("quatorze", "queens"): N_("quatorze of queens"),
    ("quatorze", "kings"): N_("quatorze of kings"),
    ("quatorze", "aces"): N_("quatorze of aces"),
    ("trio", "tens"): N_("trio of tens"),
    ("trio", "jacks"): N_("trio of jacks"),
    ("trio", "queens"): N_("trio of queens"),
    ("trio", "kings"): N_("trio of kings"),
    ("trio", "aces"): N_("trio of aces"),
}
_SEQUENCES: Final = {
    "tierce": N_("tierce to {card}"),
    "quart": N_("quart to {card}"),
    "quint": N_("quint to {card}"),
    "sixième": N_("sixième to {card}"),
    "septième": N_("septième to {card}"),
    "huitième": N_("huitième to {card}"),
}
_BONUSES: Final = {
    "full hand": N_("full hand"),
    "repique": N_("repique"),
    "pique": N_("pique"),
    "capot": N_("capot"),
    "cards": N_("the cards"),
}
_IN_PLAY: Final = ("pique", "cards", "capot")
"""Kinds scored with or after the play, told after the play's points (not declarations)."""


def declaration_text(kind: str, text: str, words: Words = ENGLISH) -> str:
    """A declaration or bonus as said at the table, in the reader's language: the engine
    keeps its English words (stored with the match), read back here piece by piece."""
    if kind == "point":
        length, pips = text.removeprefix("point of ").split(", ")
        count = _COUNT_VALUES.get(length, 0)
        return words.ngettext(
            "point of {n} card ({pips})", "point of {n} cards ({pips})", count
        ).format(n=words.number(count), pips=words.number(int(pips)))
    if kind == "sequence":
        name, rest = text.split(" to the ", 1)
        rank, suit = rest.split(" in ", 1)
        card = card_name(_RANK_CODES[rank] + _SUIT_CODES[suit], words)
        return words.gettext(_SEQUENCES[name]).format(card=card)
    if kind == "set":
        which, ranks = text.split(" of ", 1)
        return words.gettext(_SETS[which, ranks])
    return words.gettext(_BONUSES.get(kind, text))


_COUNT_VALUES: Final = {name: count for count, name in _COUNT_NAMES.items()}


def deal_summary(
    view: PiquetView, words: Words = ENGLISH, names: Sequence[str] | None = None
) -> list[str]:
    """The deal that ended last, as piquet D5–D10 score it: the declarations, the play
    (pique with it), the last trick, the cards or capot; after the last deal, the
    settlement and the rubicon (piquet D2)."""
    deal = view.get("last_deal")
    if deal is None:
        return []
    who = seat_names(words, names)
    decls = deal["declarations"]
    lines = []

    def said(entry: DeclarationView) -> str:
        return words.gettext("{name}: {what}, {points}.").format(
            name=who[entry["seat"]],
            what=declaration_text(entry["kind"], entry["text"], words),
            points=points_text(entry["points"], words),
        )

    lines += [said(entry) for entry in decls if entry["kind"] not in _IN_PLAY]
    last = deal["last_trick"]
    for seat in (0, 1):
        declared = sum(entry["points"] for entry in decls if entry["seat"] == seat)
        played = deal["deal_scores"][seat] - declared - (last["winner"] == seat)
        if played:
            lines.append(
                words.gettext("{name}: {points} in play.").format(
                    name=who[seat], points=points_text(played, words)
                )
            )
    lines += [said(entry) for entry in decls if entry["kind"] == "pique"]
    lines.append(
        words.gettext("{name}: the last trick, 1 point ({cards}).").format(
            name=who[last["winner"]],
            cards=cards_text([entry["card"] for entry in last["cards"]], words),
        )
    )
    lines.append(
        words.gettext("Tricks: {first} {first_count}, {second} {second_count}.").format(
            first=who[0],
            first_count=words.number(deal["tricks_won"][0]),
            second=who[1],
            second_count=words.number(deal["tricks_won"][1]),
        )
    )
    lines += [said(entry) for entry in decls if entry["kind"] in ("cards", "capot")]
    label = words.gettext("Deal {n}").format(n=words.number(deal["deal"]))
    lines.append(deal_line(label, who, deal["deal_scores"], words))
    result = view["result"]
    if result is not None:
        lines += settlement_lines(result["scores"], who, words)
    return lines


def settlement_lines(scores: Sequence[int], who: Sequence[str], words: Words) -> list[str]:
    """The end of the partie as piquet D2 settles it: the winner, the game score, the rubicon."""
    a, b = scores[0], scores[1]
    if a == b:
        return [words.gettext("The partie is drawn, {score} all.").format(score=words.number(a))]
    winner = 0 if a > b else 1
    high, low = max(a, b), min(a, b)
    if low >= 100:
        how = words.gettext("{winner} scores 100 + {high} − {low} = {total}.")
    else:
        how = words.gettext(
            "{loser} stayed under 100, the rubicon: {winner} scores 100 + {high} + {low} = {total}."
        )
    return [
        words.gettext("{winner} wins the partie {high} – {low}.").format(
            winner=who[winner], high=words.number(high), low=words.number(low)
        ),
        how.format(
            winner=who[winner],
            loser=who[1 - winner],
            high=words.number(high),
            low=words.number(low),
            total=words.number(settlement(a, b)),
        ),
    ]


def rules_help(words: Words = ENGLISH) -> tuple[str, ...]:
    """How to play Piquet, from docs/rules/piquet.md, in plain words, a paragraph a string."""
    return (
        words.gettext(
            "Piquet is played with 32 cards, from the seven to the ace, without trumps. "
            "A partie is six deals, and the deal alternates. The player who does not deal "
            "is elder, the dealer is younger. Each gets twelve cards; the eight left over "
            "make two talons, five cards for elder and three for younger."
        ),
        words.gettext(
            "The ace ranks highest, then the king, queen, jack, ten, nine, eight and seven. "
            "For the point the cards count: the ace 11, the king, queen, jack and ten 10 "
            "each, the nine, eight and seven their number."
        ),
        words.gettext(
            "First the exchange: elder discards up to five cards and takes as many from "
            "the top of their talon, then younger up to three from theirs. Then the "
            "declarations, which Tapis counts for you: the point (the longest suit, 1 "
            "point a card), sequences (three or more cards in a row in one suit) and "
            "sets of tens or better (a trio scores 3, a quatorze 14). In each class only "
            "the better holding scores. A player who reaches 30 from declarations "
            "before the other scores anything adds the repique, 60."
        ),
        words.gettext(
            "The scores in full. Point: 1 a card of your longest suit; with equal lengths "
            "the higher count of the cards wins; still equal, nobody scores. Sequences: a "
            "tierce (three in a row) 3, a quart 4, a quint 15, a sixième 16, a septième 17, "
            "a huitième 18; the longer best sequence wins, then the higher top card; still "
            "equal, nobody scores; the winner scores every sequence they hold. Sets of tens, "
            "jacks, queens, kings or aces: a trio 3, a quatorze 14; a quatorze beats any "
            "trio, then the higher rank wins; the winner scores all their sets. A full hand, "
            "every card in a combination that scored, adds 50. There is no carte blanche "
            "in this game."
        ),
        words.gettext(
            "Then twelve tricks, without trumps: follow suit if you can. Leading a ten or "
            "better scores 1, and so does winning a trick second with a ten or better; "
            "the last trick scores 1 more. Reaching 30 in declarations and play before "
            "the other scores anything adds the pique, 30. Seven tricks or more win the "
            "cards, 10; all twelve win the capot, 40."
        ),
        words.gettext(
            "After the last deal the higher total wins. If the loser reached 100, the "
            "winner scores 100 and the difference; if not, the loser is rubiconed and the "
            "winner scores 100 and both totals."
        ),
        words.gettext(
            "For example, elder holds A K Q J 10 of hearts and the kings of the other three "
            "suits, and younger's best are a point of four and a tierce. Elder scores the "
            "point of five (count 51) 5, the quint to the ace 15 and the quatorze of kings "
            "14: 34 before younger scores anything, so the repique adds 60, and 94 are "
            "scored before the first card is played. A partie that ends 120 to 85 is won "
            "by 100 + 120 + 85 = 305, since the loser stayed under 100; one that ends 130 "
            "to 104 by 100 + 26 = 126."
        ),
        words.gettext(
            "Moves: `discard` and the cards you give up, like `discard 7S 8D 9C`; "
            "`discard` alone keeps all your cards. Then `play` and a card, like `play AH`."
        ),
        words.gettext(
            "Options: `deals` is the number of deals in the partie, 1 to 12 (6 if not "
            "given). `first_seat` chooses who deals first: 0 for the challenger, 1 for the "
            "other player; without it, the lot decides."
        ),
    )


class Piquet(core.Game):
    name = NAME
    title = N_("Piquet")
    aliases = ("rubicon piquet", "piquet au cent", "pikett")
    pack = _CODES
    goal_option = core.Option("deals", 6, minimum=1, maximum=12, help="deals in the partie")
    first_seat_role = "dealer"
    first_seat_help = "who deals first (default: lot)"
    summary = (
        "Rubicon Piquet with 32 cards: exchange with the talon, score point, sequences and "
        "sets, then twelve tricks; six deals make a partie."
    )
    example_moves = ("discard 7S 8D 9C", "play AH")
    example_options = "deals=2"

    def goal_text(self, value: int, words: Words = ENGLISH) -> str:
        return words.ngettext("in {n} deal", "in {n} deals", value).format(n=words.number(value))

    public_facts = ("declarations",)
    by_role = ("talons", "exchanged")

    def table_extras(
        self, view: Mapping[str, Any], words: Words, names: tuple[str, str]
    ) -> list[str]:
        lines = []
        elder = view.get("elder")
        talons = view.get("talons")
        if elder in (0, 1) and isinstance(talons, list) and len(talons) == 2 and any(talons):
            by_seat = talons if elder == 0 else [talons[1], talons[0]]
            lines.append(
                pair_line(words.gettext("Cards left in the talons"), names, by_seat, words)
            )
        if view.get("discarded"):
            lines.append(
                words.gettext("Your discards: {cards}.").format(
                    cards=cards_text(view["discarded"], words)
                )
            )
        if view.get("talon_seen"):
            lines.append(
                words.gettext("Talon cards you may look at: {cards}.").format(
                    cards=cards_text(view["talon_seen"], words)
                )
            )
        for entry in view.get("declarations") or ():
            what = declaration_text(entry["kind"], entry["text"], words)
            lines.append(entry_line(names[int(entry["seat"])], what, int(entry["points"]), words))
        return lines

    def entry_text(self, key: str, entry: Mapping[str, Any], words: Words = ENGLISH) -> str | None:
        if key == "declarations":
            return declaration_text(entry["kind"], entry["text"], words)
        return None

    def _secrets(self, seat: Seat, dealer: Seat) -> tuple[list[int], list[int]]:
        elder_cards = range(HAND_SIZE)
        younger_cards = range(HAND_SIZE, 2 * HAND_SIZE)
        elder_talon = range(2 * HAND_SIZE, 2 * HAND_SIZE + ELDER_TALON)
        younger_talon = range(2 * HAND_SIZE + ELDER_TALON, len(_CODES))
        if seat == dealer:  # seat is younger: elder's hand and elder's talon are hidden
            return list(elder_cards), list(elder_talon)
        return list(younger_cards), list(younger_talon)


def _count_or_none(value: Any, most: int) -> int | None:
    if value is None:
        return None
    if not 0 <= fields.read_int(value) <= most:
        raise ValueError(f"an exchange is 0 to {most} cards, not {value!r}")
    return int(value)


GAME: Final = register(
    Piquet(
        # No describe: Piquet's moves are all shared ones, a card played or a discard.
        PiquetState,
        deal_summary=deal_summary,
        rules_help=rules_help,
    )
)
