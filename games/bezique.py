"""Bézigue — two-handed Bezique with a double pack of 64 cards (docs/rules/bezique.md).

Stage 1 (while the stock lasts): free play; the winner of each trick may score one meld and
one seven action, then both draw. Stage 2 (the last 8 tricks): follow, beat, trump. Brisques
and the last trick are counted at the end of each deal; 1500 wins, at once if reached mid-deal.

Speed matters — the computer opponent searches with random playouts — so cards are small
ints (``suit * 8 + rank``, which sorts in canonical order), a card laid on the table is one int
carrying its meld history, move strings are precomputed, and the moves a trick winner may score
are worked out once, when the trick is won, and kept as the state's legal moves.
"""

from __future__ import annotations

from bisect import insort
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations, product
from typing import Any, ClassVar, Final, NamedTuple, TypedDict, cast

from games import core, fields, header
from games.cards import DOUBLE_PACK, SUIT_SYMBOLS, Cards, hand_order_by
from games.core import Seat
from games.deals import deck_for_deal, shuffled
from games.moves import Syntax, move_cards
from games.phrases import (
    cards_text,
    closing_lines,
    describe_common,
    entry_line,
    pair_line,
    points_text,
    seat_names,
)
from games.refusals import IllegalMove, not_held, not_in_pack
from games.registry import register
from games.words import ENGLISH, N_, Words

NAME: Final = "bezique"
HAND_SIZE: Final = 8
DECK_SIZE: Final = 64
TURN_UP_AT: Final = 2 * HAND_SIZE  # deck[16] (docs/engine.md)

# -- cards as ints ----------------------------------------------------------------------------
SUITS4: Final = ("S", "H", "D", "C")
RANKS: Final = ("7", "8", "9", "10", "J", "Q", "K", "A")  # code order: int order is canonical
SEVEN, TEN, JACK, QUEEN, KING, ACE = 0, 3, 4, 5, 6, 7
CODES: Final = tuple(rank + suit for suit in SUITS4 for rank in RANKS)
INDEX: Final = {code: i for i, code in enumerate(CODES)}
# Trick rank, high to low A 10 K Q J 9 8 7.
POWER: Final = tuple((0, 1, 2, 6, 3, 4, 5, 7)[i & 7] for i in range(32))
BRISQUE: Final = tuple(10 if i & 7 in (TEN, ACE) else 0 for i in range(32))
IS_BRISQUE: Final = tuple(1 if points else 0 for points in BRISQUE)
RANK_WORD: Final = {JACK: "jacks", QUEEN: "queens", KING: "kings", ACE: "aces"}
QS, JD = INDEX["QS"], INDEX["JD"]

# A card on the table is one int: the card, then its level in each meld class (bezique D7):
# A (marriage 1, sequence 2) at bit 5, B (bezique 1, double 2) at bit 7, C (four 1) at bit 9.
CLASS_A, CLASS_B, CLASS_C = 0, 1, 2
_SHIFT: Final = (5, 7, 9)


def _level(copy: int, cls: int) -> int:
    return (copy >> _SHIFT[cls]) & 3


def _served(copy: int) -> tuple[int, int, int, int]:
    """How much a table copy has served (bezique D10): level sum, then A, then B, then C."""
    a, b, c = _level(copy, 0), _level(copy, 1), _level(copy, 2)
    return a + b + c, a, b, c


# -- moves ------------------------------------------------------------------------------------
PLAY, MELD, EXCHANGE, DECLARE, DRAW = 0, 1, 2, 3, 4
LEAD, FOLLOW, SCORE = 0, 1, 2
PHASE_WORD: Final = ("lead", "follow", "score")
PLAY_MOVE: Final = tuple(f"play {code}" for code in CODES)


@dataclass(frozen=True, slots=True)
class Meld:
    """One meld of the rules table: the cards it needs, its class and level (bezique D7)."""

    kind: str  # "four", "marriage", "bezique", "double bezique", "sequence"
    cls: int
    level: int
    need: tuple[tuple[int, int], ...]  # (card, copies needed)
    suit: int  # marriage/sequence suit, four's rank; -1 for the beziques
    move: str

    def name(self, trump: int) -> str:
        if self.kind == "four":
            return "four " + RANK_WORD[self.suit]
        if self.kind == "marriage":
            return "trump marriage" if self.suit == trump else "plain marriage"
        if self.kind == "sequence":
            return "trump sequence"
        return self.kind

    def points(self, trump: int) -> int:
        if self.kind == "four":
            return {ACE: 100, KING: 80, QUEEN: 60, JACK: 40}[self.suit]
        if self.kind == "marriage":
            return 40 if self.suit == trump else 20
        return {"bezique": 40, "double bezique": 500, "sequence": 250}[self.kind]

    @property
    def cards(self) -> list[str]:
        return [CODES[card] for card, count in self.need for _ in range(count)]


def _meld(kind: str, cls: int, level: int, cards: list[int], suit: int) -> Meld:
    counts = Counter(sorted(cards))
    need = tuple(counts.items())
    move = "meld " + " ".join(CODES[card] for card in sorted(cards))
    return Meld(kind, cls, level, need, suit, move)


def _all_melds() -> dict[str, Meld]:
    melds: list[Meld] = []
    for s in range(4):
        melds.append(_meld("marriage", CLASS_A, 1, [s * 8 + KING, s * 8 + QUEEN], s))
        ranks = (ACE, TEN, KING, QUEEN, JACK)
        melds.append(_meld("sequence", CLASS_A, 2, [s * 8 + r for r in ranks], s))
    melds.append(_meld("bezique", CLASS_B, 1, [QS, JD], -1))
    melds.append(_meld("double bezique", CLASS_B, 2, [QS, QS, JD, JD], -1))
    for rank in (JACK, QUEEN, KING, ACE):
        for counts in product(range(3), repeat=4):
            if sum(counts) == 4:  # any four of the rank, copies allowed
                cards = [s * 8 + rank for s in range(4) for _ in range(counts[s])]
                melds.append(_meld("four", CLASS_C, 1, cards, rank))
    return {meld.move: meld for meld in melds}


MELDS: Final = _all_melds()
MARRIAGES: Final = tuple(MELDS[f"meld Q{s} K{s}"] for s in SUITS4)
SEQUENCES: Final = tuple(MELDS[f"meld 10{s} J{s} Q{s} K{s} A{s}"] for s in SUITS4)
BEZIQUE: Final = MELDS["meld QS JD"]
DOUBLE: Final = MELDS["meld QS QS JD JD"]


def _fours_table() -> dict[int, tuple[tuple[str, ...], ...]]:
    """For a rank, the four-moves open to a player by how many copies (0-2) of each suit
    may serve, indexed ``S*27 + H*9 + D*3 + C``: each choice of cards is its own move
    (bezique X3)."""
    table = {}
    for rank in (JACK, QUEEN, KING, ACE):
        rows = []
        for avail in product(range(3), repeat=4):
            moves = [
                meld.move
                for meld in MELDS.values()
                if meld.kind == "four"
                and meld.suit == rank
                and all(count <= avail[card >> 3] for card, count in meld.need)
            ]
            rows.append(tuple(moves))
        table[rank] = tuple(rows)
    return table


FOURS: Final = _fours_table()

_MOVES: Final[dict[str, tuple[int, Any]]] = {
    **{move: (PLAY, card) for card, move in enumerate(PLAY_MOVE)},
    **{move: (MELD, meld) for move, meld in MELDS.items()},
    "exchange": (EXCHANGE, None),
    "declare 7": (DECLARE, None),
    "draw": (DRAW, None),
}

Hand = tuple[int, ...]
Pair = tuple[int, int]


def _without(cards: Hand, card: int) -> Hand:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def _with(cards: Hand, card: int) -> Hand:
    new = list(cards)
    insort(new, card)
    return tuple(new)


def _pair(pair: Pair, seat: Seat, value: int) -> Pair:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


def feasible(meld: Meld, hand: Hand, table: Hand) -> bool:
    """Whether some choice of copies makes ``meld`` obey bezique D7: whether
    :func:`meld_moves` offers it (a sequence only in trumps).

    Per card: copies in hand (h), on the table unused in the meld's class (t0), on the table
    used at a lower level of the class (t1). Without t1 copies there is no reuse; with them,
    the meld must add a card from the hand, which it can whenever one of its cards is held.
    """
    cls, level = meld.cls, meld.level
    fresh_only = True
    adds_hand = False
    for card, count in meld.need:
        h = hand.count(card)
        t0 = t1 = 0
        for copy in table:
            if copy & 31 == card:
                used = _level(copy, cls)
                if used == 0:
                    t0 += 1
                elif used < level:
                    t1 += 1
        if h + t0 + t1 < count:
            return False
        if h + t0 < count:
            fresh_only = False
        if h:
            adds_hand = True
    return fresh_only or adds_hand


def _choose_copies(meld: Meld, hand: Hand, table: Hand) -> tuple[list[int], list[int]] | None:
    """The copies a meld uses (bezique D10): (hand cards, table copies), or None if none do.

    Among the choices that obey bezique D7, the fewest cards from the hand, then the most-served
    table copies.
    """
    cls, level = meld.cls, meld.level
    per_card: list[list[tuple[int, ...]]] = []
    for card, count in meld.need:
        eligible = sorted(
            (c for c in table if c & 31 == card and _level(c, cls) < level),
            key=_served,
            reverse=True,
        )
        candidates = eligible + [-1] * hand.count(card)  # -1: a copy from the hand
        per_card.append(
            [
                tuple(candidates[i] for i in pick)
                for pick in combinations(range(len(candidates)), count)
            ]
        )
    best: tuple[int, int] | None = None
    best_choice: tuple[list[int], list[int]] | None = None
    # Candidates list the most-served table copies first, so the earlier choice of two with
    # as many hand cards is the one using the most-served copies.
    for rank, choice in enumerate(product(*per_card)):
        copies = [c for pick in choice for c in pick if c >= 0]
        hand_cards = [
            card for (card, _), pick in zip(meld.need, choice, strict=True) for c in pick if c < 0
        ]
        if not hand_cards and any(_level(c, cls) for c in copies):
            continue  # reuse within the class needs a card from the hand (bezique D7)
        key = (len(hand_cards), rank)
        if best is None or key < best:
            best = key
            best_choice = (hand_cards, copies)
    return best_choice


def lay_meld(meld: Meld, hand: Hand, table: Hand) -> tuple[Hand, Hand]:
    """The hand and the table once ``meld`` is laid from them (a meld :func:`feasible` for
    them): the copies bezique D10 picks leave the hand or are marked on the table with the
    meld's level, the table kept sorted."""
    choice = _choose_copies(meld, hand, table)
    assert choice is not None, "a legal meld has copies (bezique D10)"
    from_hand, from_table = choice
    for card in from_hand:
        hand = _without(hand, card)
    shift = _SHIFT[meld.cls]
    mask = ~(3 << shift)
    for copy in from_table:
        table = _without(table, copy)
    laid = [(copy & mask) | (meld.level << shift) for copy in from_table]
    laid += [card | (meld.level << shift) for card in from_hand]
    return hand, tuple(sorted((*table, *laid)))


def meld_moves(hand: Hand, table: Hand, trump: int) -> list[str]:
    """Every meld ``hand`` + ``table`` can make now (bezique D7), as canonical moves."""
    moves: list[str] = []
    for meld in MARRIAGES:
        if feasible(meld, hand, table):
            moves.append(meld.move)
    if feasible(BEZIQUE, hand, table):
        moves.append(BEZIQUE.move)
    if hand.count(QS) + hand.count(JD) + len(table) >= 4 and feasible(DOUBLE, hand, table):
        moves.append(DOUBLE.move)
    sequence = SEQUENCES[trump]
    if feasible(sequence, hand, table):
        moves.append(sequence.move)
    # Fours: copies unused in a four, at most two per suit.
    free = [0] * 32
    for card in hand:
        free[card] += 1
    for copy in table:
        if not _level(copy, CLASS_C):
            free[copy & 31] += 1
    for rank in (JACK, QUEEN, KING, ACE):
        s, h, d, c = free[rank], free[8 + rank], free[16 + rank], free[24 + rank]
        if s + h + d + c >= 4:
            moves.extend(FOURS[rank][s * 27 + h * 9 + d * 3 + c])
    return moves


def _codes(cards: Hand) -> list[str]:
    return list(map(CODES.__getitem__, cards))


_DECK_CODES: dict[Hand, tuple[str, ...]] = {}


def _stored_deck(deck: Hand) -> list[str]:
    """The deal's deck as codes: it is stored with every move of the deal, unchanged, so its
    codes are kept once made (for the decks of the deals in play, a thousand at most)."""
    codes = _DECK_CODES.get(deck)
    if codes is None:
        if len(_DECK_CODES) >= 1000:
            _DECK_CODES.clear()
        codes = _DECK_CODES[deck] = tuple(map(CODES.__getitem__, deck))
    return list(codes)


_NEXT_TURN_UPS: dict[tuple[int, int], int] = {}
"""The turn-up of a deal shuffled from the seed, by (seed, deal): see ``next_turn_up``."""


def _indices(value: Any) -> Hand:
    return tuple(map(INDEX.__getitem__, value))


def _stored_hands(hands: tuple[Hand, Hand]) -> list[list[str]]:
    return [_codes(hand) for hand in hands]


def _read_hands(value: Any) -> tuple[Hand, Hand]:
    """Both hands (or both piles of won cards), each kept sorted: the order tells nothing."""
    if len(value) != 2:
        raise ValueError("expected one list per seat")
    return tuple(sorted(_indices(value[0]))), tuple(sorted(_indices(value[1])))


def _read_piles(value: Any) -> tuple[Hand, Hand]:
    if len(value) != 2:
        raise ValueError("expected one list per seat")
    return _indices(value[0]), _indices(value[1])


def _stored_turn_up(turn_up: int) -> str | None:
    return CODES[turn_up] if turn_up >= 0 else None


def _read_turn_up(value: Any) -> int:
    return -1 if value is None else INDEX[value]


def _stored_tables(tables: tuple[Hand, Hand]) -> list[Any]:
    return [
        [[CODES[c & 31], _level(c, 0), _level(c, 1), _level(c, 2)] for c in table]
        for table in tables
    ]


def _read_tables(value: Any) -> tuple[Hand, Hand]:
    tables = [
        tuple(sorted(INDEX[code] | int(a) << 5 | int(b) << 7 | int(c) << 9 for code, a, b, c in t))
        for t in value
    ]
    if len(tables) != 2:
        raise ValueError("expected one table per seat")
    return tables[0], tables[1]


LastTrick = tuple[Hand, Seat, Seat]
"""The last trick's cards, its leader and its winner."""


def _stored_last_trick(trick: LastTrick | None) -> list[Any] | None:
    return None if trick is None else [_codes(trick[0]), trick[1], trick[2]]


def _read_last_trick(value: Any) -> LastTrick | None:
    if value is None:
        return None
    return _indices(value[0]), fields.read_seat(value[1]), fields.read_seat(value[2])


Previous = tuple[Seat, tuple[int, int], tuple[int, int] | None, LastTrick | None]
"""The deal that ended last: (dealer, the deal's scores, brisques won by each or None if
the match ended on a meld before they were counted, the last trick)."""


def _stored_previous(previous: Previous) -> list[Any]:
    dealer, scores, brisques, last = previous
    return [
        dealer,
        list(scores),
        None if brisques is None else list(brisques),
        _stored_last_trick(last),
    ]


def _read_previous(value: Any) -> Previous:
    dealer, scores, brisques, last = value
    return (
        fields.read_seat(dealer),
        fields.read_scores(scores),
        None if brisques is None else fields.read_scores(brisques),
        _read_last_trick(last),
    )


Scored = tuple[Seat, str, tuple[str, ...], int]
"""A score of the deal other than brisques: seat, name, cards, points (bezique X4)."""


def _stored_melds(melds: tuple[Scored, ...]) -> list[Any]:
    return [[s, name, list(cards), points] for s, name, cards, points in melds]


def _read_melds(value: Any) -> tuple[Scored, ...]:
    return cast(
        tuple[Scored, ...],
        fields.read_rows(value, fields.read_seat, str, fields.read_cards, fields.read_int),
    )


class MeldView(TypedDict):
    """A score of the deal other than brisques (bezique X4)."""

    seat: Seat
    name: str
    cards: list[str]
    points: int


class BeziqueDealView(TypedDict):
    """The deal that ended last, as its breakdown needs it (all public once it is over)."""

    deal: int
    dealer: Seat
    deal_scores: list[int]
    brisques: list[int] | None
    """Brisques each player won; None when the match ended on a meld before the count."""
    last_trick: core.TrickView | None


class BeziqueView(core.BaseView):
    """A seat's view of a Bézigue match, field by field in docs/views.md."""

    deal: int
    dealer: Seat
    target: int
    trump: str
    turn_up: str | None
    stock: int
    stage: int
    phase: str
    trick: list[core.CardEntry]
    last_trick: core.TrickView | None
    table: list[list[str]]
    melds: list[MeldView]
    hand_sizes: list[int]
    tricks_won: list[int]
    brisques: list[int]
    deal_scores: list[int]
    deal_history: list[list[int]]
    last_move: core.MoveView | None
    last_deal: BeziqueDealView | None


class Position(NamedTuple):
    """A state's position as its own fields hold it (cards as ints), for the computer's
    playouts, which read a determinized state thousands of times a decision and cannot
    afford a view each time."""

    trump: int
    """The trump suit's index."""
    trick: Hand
    """The cards of the trick in progress, in the order played."""
    last_eight: bool
    """Whether the stock is gone (stage 2: follow suit and win if possible, bezique D8)."""
    turn: Seat | None
    hands: tuple[Hand, Hand]
    tables: tuple[Hand, Hand]
    """Each seat's melded cards on the table, each with the meld levels it has served at in
    its high bits (card & 31 is the card), as :func:`meld_moves` reads them."""
    won: tuple[Hand, Hand]
    """The cards each seat has taken in tricks this deal."""
    phase: int
    """LEAD, FOLLOW or SCORE (the trick winner scoring, bezique D11); LEAD once over."""
    leader: Seat
    stock: Hand
    """The cards still to be drawn, the next first, without the turn-up."""
    turn_up: int
    """The turn-up card, -1 once drawn."""
    scored_sevens: Pair
    """How many sevens of trumps in each hand have scored (bezique D5)."""
    melded: bool
    """Whether the trick winner has melded since the trick (one meld a trick)."""
    sevened: bool
    """Whether the trick winner has exchanged or declared a seven since the trick."""
    dealer: Seat
    goal: int
    """The target: reaching it wins at once (bezique D2)."""


@header.match_state
class BeziqueState(header.MatchState):
    syntax: ClassVar[Mapping[str, Syntax]] = {
        "play": "card",
        "meld": "cards+",
        "exchange": "none",
        "declare": ("7",),
        "draw": "none",
    }

    # The header (seed, target, deal, dealer, totals …) is MatchState's; these are Bézigue's.
    _deck: tuple[int, ...] = fields.stored(write=_stored_deck, read=_indices)
    _trump: int = fields.derived()
    _pos: int = fields.stored(read=fields.read_int)
    """The next stock card in ``_deck``."""
    _turn_up: int = fields.stored(write=_stored_turn_up, read=_read_turn_up)
    """-1 once drawn (stage 2)."""
    _hands: tuple[Hand, Hand] = fields.stored(write=_stored_hands, read=_read_hands)
    """The cards not on the table, sorted."""
    _tables: tuple[Hand, Hand] = fields.stored(write=_stored_tables, read=_read_tables)
    """The melded cards with their meld levels."""
    _scored7: Pair = fields.stored("scored_sevens", write=list, read=fields.read_scores)
    """Sevens of trumps in hand that have scored (bezique D5)."""
    _trick: Hand = fields.stored(write=_codes, read=_indices)
    _leader: Seat = fields.stored(read=fields.read_seat)
    _phase: int = fields.stored(read=fields.read_int)
    _melded: bool = fields.stored(read=bool)
    _sevened: bool = fields.stored(read=bool)
    _won: tuple[Hand, Hand] = fields.stored(write=_stored_hands, read=_read_piles)
    _last_trick: LastTrick | None = fields.stored(write=_stored_last_trick, read=_read_last_trick)
    _deal_scores: Pair = fields.stored(write=list, read=fields.read_scores)
    _melds: tuple[Scored, ...] = fields.stored(write=_stored_melds, read=_read_melds)
    _previous: Previous | None = fields.stored(
        write=_stored_previous, read=_read_previous, optional=True
    )
    """The deal that ended last (None before the first ends), shown until the next ends."""

    # -- the contract ---------------------------------------------------------------------
    def _legal_moves(self) -> list[str]:
        seat = self._turn
        if seat is None:
            return []
        if self._phase == SCORE:
            return self._score_moves(seat)
        hand = self._hands[seat]
        if self._phase == FOLLOW and self._turn_up < 0:
            hand = self._stage2_choices(hand, self._trick[0])
        table = self._tables[seat]
        if table:
            cards: Any = sorted(set(hand).union(copy & 31 for copy in table))
        else:
            cards = dict.fromkeys(hand)
        return [PLAY_MOVE[card] for card in cards]

    def _stage2_choices(self, hand: Hand, led: int) -> Hand:
        """bezique D8: follow suit and beat the led card if able; else trump if able."""
        suit = led >> 3
        same = tuple(c for c in hand if c >> 3 == suit)
        if same:
            power = POWER[led]
            beat = tuple(c for c in same if POWER[c] > power)
            return beat or same
        trumps = tuple(c for c in hand if c >> 3 == self._trump)
        return trumps or hand

    def apply(self, move: str) -> BeziqueState:
        seat = self._turn
        if seat is None:
            raise self.over()
        action = _MOVES.get(move) if type(move) is str else None
        if action is None:
            canonical = self.canonical(move)  # refuses a move that is not text, politely
            action = _MOVES.get(canonical)
            if action is None:
                raise self._unknown(canonical)
        kind, arg = action
        if kind == PLAY:
            return self._play(seat, arg)
        if self._turn_up < 0:
            raise IllegalMove(
                N_(
                    "The stock is empty: in the last eight tricks there are no more melds, "
                    "sevens or draws."
                )
            )
        if self._phase != SCORE:
            raise IllegalMove(
                N_(
                    "Melds, the seven of trumps and the draw come only after winning a trick, "
                    "before drawing."
                )
            )
        if kind == MELD:
            return self._meld(seat, arg)
        if kind == DRAW:
            return self._draw(seat, "draw")
        return self._seven(seat, kind == EXCHANGE)

    def _unknown(self, canonical: str) -> IllegalMove:
        if canonical.startswith("meld"):
            return IllegalMove(
                N_(
                    "{cards} is not a meld: melds are four aces, kings, queens or jacks, a "
                    "marriage (king and queen of a suit), the bezique (queen of spades and jack "
                    "of diamonds), the double bezique, or the sequence (ace, ten, king, queen "
                    "and jack of trumps)."
                ),
                cards=Cards.of(move_cards(canonical), sep=" "),
            )
        return not_in_pack(move_cards(canonical))

    # -- playing to a trick ---------------------------------------------------------------
    def _play(self, seat: Seat, card: int) -> BeziqueState:
        phase = self._phase
        if phase == SCORE:
            raise IllegalMove(
                N_(
                    "You won the trick: now meld, exchange or declare the seven of trumps, or "
                    "draw to end your turn."
                )
            )
        hand = self._hands[seat]
        table = self._tables[seat]
        new = self._copy()
        # bezique D10: a card on the table is played before its copy in the hand, the
        # most-served table copy first.
        copies = [c for c in table if c & 31 == card] if table else None
        if copies:
            played = max(copies, key=_served)
            new._tables = (
                (_without(table, played), self._tables[1])
                if seat == 0
                else (self._tables[0], _without(table, played))
            )
        elif card in hand:
            if phase == FOLLOW and self._turn_up < 0:
                allowed = self._stage2_choices(hand, self._trick[0])
                if card not in allowed:
                    raise self._follow_refusal(card, allowed)
            new._hands = (
                (_without(hand, card), self._hands[1])
                if seat == 0
                else (self._hands[0], _without(hand, card))
            )
            if card == self._trump * 8 + SEVEN and self._scored7[seat]:
                # bezique D5: of a scored and an unscored seven, the scored one is played.
                new._scored7 = _pair(self._scored7, seat, self._scored7[seat] - 1)
        else:
            raise not_held((CODES[card],))
        new._last = (seat, PLAY_MOVE[card])
        if phase == LEAD:
            new._trick = (card,)
            new._phase = FOLLOW
            new._turn = 1 - seat
            new._leader = seat
            return new
        new._trick = ()
        new._end_trick(self._trick[0], card)
        return new

    def _follow_refusal(self, card: int, allowed: Hand) -> IllegalMove:
        led = self._trick[0]
        if allowed[0] >> 3 == led >> 3:
            if any(POWER[c] > POWER[led] for c in allowed):
                return IllegalMove(
                    N_("In the last eight tricks you must follow suit and beat {led} if you can."),
                    led=Cards.of((CODES[led],)),
                )
            return IllegalMove(N_("In the last eight tricks you must follow suit if you can."))
        return IllegalMove(N_("In the last eight tricks you must trump if you cannot follow suit."))

    def _end_trick(self, led: int, followed: int) -> None:
        """Give the trick to its winner; then scoring (stage 1), the next lead or the count."""
        leader = self._leader
        if followed >> 3 == led >> 3:
            # bezique D4: of two identical cards, the leader's wins (so none beats, X6).
            winner = 1 - leader if POWER[followed] > POWER[led] else leader
        elif followed >> 3 == self._trump:
            winner = 1 - leader
        else:
            winner = leader
        won = self._won
        gained = (*won[winner], led, followed)
        self._won = (gained, won[1]) if winner == 0 else (won[0], gained)
        self._last_trick = ((led, followed), leader, winner)
        self._turn = winner
        self._leader = winner
        if self._turn_up >= 0:
            self._melded = False
            self._sevened = False
            self._offer_scoring(winner)
        elif self._hands[0]:
            self._phase = LEAD
        else:
            self._end_deal()

    def _offer_scoring(self, seat: Seat) -> None:
        """Let the trick winner score, or draw at once if nothing is left (bezique D11)."""
        moves = self._score_moves(seat)
        if moves:
            self._phase = SCORE
            self._legal = moves
        else:
            self._legal = None
            self._do_draw(seat)

    def _score_moves(self, seat: Seat) -> list[str]:
        moves = (
            [] if self._melded else meld_moves(self._hands[seat], self._tables[seat], self._trump)
        )
        if not self._sevened:
            seven = self._trump * 8 + SEVEN
            if self._hands[seat].count(seven) > self._scored7[seat]:
                if self._turn_up & 7 != SEVEN:
                    moves.append("exchange")
                moves.append("declare 7")
        if moves:
            moves.append("draw")  # bezique D11: offered only beside something to score
        return moves

    # -- scoring after a trick --------------------------------------------------------------
    def _legal_now(self) -> list[str]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_moves()
        return legal

    def _meld(self, seat: Seat, meld: Meld) -> BeziqueState:
        if meld.kind == "sequence" and meld.suit != self._trump:
            raise IllegalMove(
                N_("The sequence counts only in trumps, which are {suit} this deal."),
                suit=SUIT_SYMBOLS[SUITS4[self._trump]],
            )
        if self._melded:
            raise IllegalMove(N_("Only one meld may be made for each trick won."))
        hand, table = self._hands[seat], self._tables[seat]
        if meld.move not in self._legal_now():
            raise self._meld_refusal(meld, hand, table)
        hand, table = lay_meld(meld, hand, table)
        new = self._copy()
        new._hands = _pair_of(self._hands, seat, hand)
        new._tables = _pair_of(self._tables, seat, table)
        new._melded = True
        new._last = (seat, meld.move)
        new._score(seat, meld.name(self._trump), tuple(meld.cards), meld.points(self._trump))
        if new._turn is not None:
            new._offer_scoring(seat)
        return new

    def _meld_refusal(self, meld: Meld, hand: Hand, table: Hand) -> IllegalMove:
        for card, count in meld.need:
            held = hand.count(card) + sum(1 for c in table if c & 31 == card)
            if held < count:
                named = Cards.of((CODES[card],))
                cards = Cards.of(move_cards(meld.move), sep=" ")
                if count == 2:
                    return IllegalMove(
                        N_("You do not hold {card} twice, in hand or on the table, for {meld}."),
                        card=named,
                        meld=cards,
                    )
                return IllegalMove(
                    N_("You do not hold {card}, in hand or on the table, for {meld}."),
                    card=named,
                    meld=cards,
                )
        for card, count in meld.need:
            fit = hand.count(card) + sum(
                1 for c in table if c & 31 == card and _level(c, meld.cls) < meld.level
            )
            if fit < count:
                return IllegalMove(
                    N_(
                        "{card} has already served in that meld or a higher one of its class: a "
                        "card is used again only in a higher meld of the same class."
                    ),
                    card=Cards.of((CODES[card],)),
                )
        return IllegalMove(
            N_("A meld that uses again cards of its own class must add a card from the hand.")
        )

    def _seven(self, seat: Seat, exchange: bool) -> BeziqueState:
        seven = self._trump * 8 + SEVEN
        if self._sevened:
            raise IllegalMove(
                N_("The seven of trumps is exchanged or declared only once for each trick won.")
            )
        hand = self._hands[seat]
        if hand.count(seven) <= self._scored7[seat]:
            raise IllegalMove(
                N_("You hold no {card} that has not scored yet."), card=Cards.of((CODES[seven],))
            )
        new = self._copy()
        new._sevened = True
        if exchange:
            if self._turn_up & 7 == SEVEN:
                raise IllegalMove(N_("The turn-up is already a seven: declare yours instead."))
            # bezique X5: the card taken joins the hand at once, free for this turn's meld.
            new._hands = _pair_of(self._hands, seat, _with(_without(hand, seven), self._turn_up))
            new._turn_up = seven
            name, move = "seven of trumps (exchange)", "exchange"
        else:
            new._scored7 = _pair(self._scored7, seat, self._scored7[seat] + 1)
            name, move = "seven of trumps (declare)", "declare 7"
        new._last = (seat, move)
        new._score(seat, name, (CODES[seven],), 10)
        if new._turn is not None:
            new._offer_scoring(seat)
        return new

    def _score(self, seat: Seat, name: str, cards: tuple[str, ...], points: int) -> None:
        """Add a meld or a seven; reaching the target wins at once (bezique D2)."""
        self._melds = (*self._melds, (seat, name, cards, points))
        self._deal_scores = _pair(self._deal_scores, seat, self._deal_scores[seat] + points)
        self._totals = _pair(self._totals, seat, self._totals[seat] + points)
        if self._totals[seat] >= self._goal:
            # bezique X7: the deal ends here, its brisques never counted.
            self._previous = (self._dealer, self._deal_scores, None, self._last_trick)
            self._finish(seat)

    def _finish(self, winner: Seat) -> None:
        # bezique X7: a deal ended at once keeps its points as they stand.
        self._history = (*self._history, self._deal_scores)
        self._turn = None
        self._phase = LEAD  # no trick is left in progress once the match is over
        self._legal = None
        self._result = {
            "winner": winner,
            "scores": list(self._totals),
            "deals": [list(scores) for scores in self._history],
        }

    # -- drawing ----------------------------------------------------------------------------
    def _draw(self, seat: Seat, move: str) -> BeziqueState:
        new = self._copy()
        new._last = (seat, move)
        new._do_draw(seat)
        return new

    def _do_draw(self, winner: Seat) -> None:
        """The winner draws the top card, then the loser; bezique D6: with one card and the
        turn-up left, the loser takes the turn-up and stage 2 begins."""
        pos = self._pos
        first = self._deck[pos]
        if pos + 1 < DECK_SIZE:
            second = self._deck[pos + 1]
        else:
            second = self._turn_up
            self._turn_up = -1
        hands = self._hands
        loser = 1 - winner
        new_hands = [hands[0], hands[1]]
        new_hands[winner] = _with(hands[winner], first)
        new_hands[loser] = _with(hands[loser], second)
        self._pos = pos + 2
        self._phase = LEAD
        self._legal = None
        if self._turn_up < 0:
            # Stage 2: melded cards go back to the hands; sevens no longer score.
            for seat in (0, 1):
                if self._tables[seat]:
                    merged = new_hands[seat] + tuple(c & 31 for c in self._tables[seat])
                    new_hands[seat] = tuple(sorted(merged))
            self._tables = ((), ())
            self._scored7 = (0, 0)
        self._hands = (new_hands[0], new_hands[1])

    # -- deals ------------------------------------------------------------------------------
    def _end_deal(self) -> None:
        """bezique D9: 10 per brisque won, 10 for the last trick; then bezique D2."""
        assert self._last_trick is not None
        last_winner = self._last_trick[2]
        add = [sum(BRISQUE[c] for c in self._won[seat]) for seat in (0, 1)]
        add[last_winner] += 10
        self._deal_scores = (self._deal_scores[0] + add[0], self._deal_scores[1] + add[1])
        a, b = self._totals[0] + add[0], self._totals[1] + add[1]
        self._totals = (a, b)
        brisques = [sum(1 for c in self._won[seat] if BRISQUE[c]) for seat in (0, 1)]
        self._previous = (
            self._dealer,
            self._deal_scores,
            (brisques[0], brisques[1]),
            self._last_trick,
        )
        if a >= self._goal or b >= self._goal:
            # bezique D2: the higher score; equal, the winner of the last trick.
            self._finish(0 if a > b else 1 if b > a else last_winner)
            return
        self._history = (*self._history, self._deal_scores)
        self._deal(self._deal_no + 1, 1 - self._dealer)

    def _deal(self, deal_no: int, dealer: Seat) -> None:
        codes = deck_for_deal(self._decks, DOUBLE_PACK, self._seed, NAME, deal_no)
        deck = tuple(INDEX[code] for code in codes)
        elder = tuple(sorted(deck[:HAND_SIZE]))
        younger = tuple(sorted(deck[HAND_SIZE:TURN_UP_AT]))
        self._deal_no = deal_no
        self._dealer = dealer
        self._deck = deck
        self._turn_up = deck[TURN_UP_AT]
        self._trump = self._turn_up >> 3
        self._pos = TURN_UP_AT + 1
        self._hands = (younger, elder) if dealer == 0 else (elder, younger)
        self._tables = ((), ())
        self._scored7 = (0, 0)
        self._trick = ()
        self._leader = 1 - dealer
        self._turn = 1 - dealer  # the non-dealer leads
        self._phase = LEAD
        self._melded = self._sevened = False
        self._won = ((), ())
        self._last_trick = None
        self._deal_scores = (0, 0)
        self._melds = ()
        self._legal = None
        if self._turn_up & 7 == SEVEN:
            # bezique D3: a seven turned up scores 10 for the dealer at once.
            self._score(dealer, "seven turned up", (CODES[self._turn_up],), 10)

    # -- views ----------------------------------------------------------------------------
    def view(self, seat: Seat | None) -> BeziqueView:
        base = core.base_view(
            self,
            seat,
            map(CODES.__getitem__, self._hands[seat]) if seat is not None else (),
            ordered=True,  # a hand is kept sorted, and int order is canonical
        )
        last_trick = self._last_trick
        won = self._won
        trick = self._trick
        view: BeziqueView = {
            **base,
            "deal": self._deal_no + 1,
            "dealer": self._dealer,
            "target": self._goal,
            "trump": SUITS4[self._trump],
            "turn_up": CODES[self._turn_up] if self._turn_up >= 0 else None,
            "stock": self._stock(),
            "stage": 1 if self._turn_up >= 0 else 2,
            "phase": "over" if self._turn is None else PHASE_WORD[self._phase],
            "trick": self._entries(trick, self._leader) if trick else [],
            "last_trick": (
                None
                if last_trick is None
                else {
                    "cards": self._entries(last_trick[0], last_trick[1]),
                    "winner": last_trick[2],
                }
            ),
            "table": [_table_codes(self._tables[0]), _table_codes(self._tables[1])],
            "melds": [
                {"seat": s, "name": name, "cards": list(cards), "points": points}
                for s, name, cards, points in self._melds
            ],
            "hand_sizes": [len(self._hands[0]), len(self._hands[1])],
            "tricks_won": [len(won[0]) // 2, len(won[1]) // 2],
            "brisques": [
                sum(map(IS_BRISQUE.__getitem__, won[0])),
                sum(map(IS_BRISQUE.__getitem__, won[1])),
            ],
            "deal_scores": list(self._deal_scores),
            "deal_history": list(map(list, self._history)),
            "last_move": self._last_move_view(seat),
            "last_deal": self._last_deal(),
        }
        return view

    def _last_deal(self) -> BeziqueDealView | None:
        if self._previous is None:
            return None
        dealer, scores, brisques, last = self._previous
        return {
            "deal": len(self._history),
            "dealer": dealer,
            "deal_scores": list(scores),
            "brisques": None if brisques is None else list(brisques),
            "last_trick": (
                None
                if last is None
                else {"cards": self._entries(last[0], last[1]), "winner": last[2]}
            ),
        }

    @staticmethod
    def _entries(cards: Hand, leader: Seat) -> list[core.CardEntry]:
        if len(cards) == 2:  # a trick's two cards: the leader's, then the other's
            return [
                {"seat": leader, "card": CODES[cards[0]]},
                {"seat": 1 - leader, "card": CODES[cards[1]]},
            ]
        return [{"seat": (leader + i) % 2, "card": CODES[c]} for i, c in enumerate(cards)]

    def _stock(self) -> int:
        return DECK_SIZE - self._pos + 1 if self._turn_up >= 0 else 0

    def position(self) -> Position:
        """The position, straight from the state's fields (only the stock is copied): see
        :class:`Position`."""
        return Position(
            self._trump,
            self._trick,
            self._turn_up < 0,
            self._turn,
            self._hands,
            self._tables,
            self._won,
            self._phase,
            self._leader,
            self._deck[self._pos :] if self._turn_up >= 0 else (),
            self._turn_up,
            self._scored7,
            self._melded,
            self._sevened,
            self._dealer,
            self._goal,
        )

    def next_turn_up(self) -> int:
        """The card the next deal turns up, fixed by the seed (or the stored decks): a seven
        there scores for the next dealer as soon as this deal ends (bezique D3). Hidden from
        both players: the computer asks it only of the deals it invents for its search."""
        deal = self._deal_no + 1
        if deal < len(self._decks):
            return INDEX[self._decks[deal][TURN_UP_AT]]
        # Shuffled from the seed alone: kept, as the computer asks it again and again.
        key = (self._seed, deal)
        card = _NEXT_TURN_UPS.get(key)
        if card is None:
            if len(_NEXT_TURN_UPS) >= 10_000:
                _NEXT_TURN_UPS.clear()
            deck = shuffled(DOUBLE_PACK, self._seed, NAME, deal)
            card = _NEXT_TURN_UPS[key] = INDEX[deck[TURN_UP_AT]]
        return card

    def zones(self) -> dict[str, list[str]]:
        zones = {
            "stock": [CODES[c] for c in self._deck[self._pos :]] if self._turn_up >= 0 else [],
            "turn_up": [CODES[self._turn_up]] if self._turn_up >= 0 else [],
            "trick": [CODES[c] for c in self._trick],
        }
        for seat in (0, 1):
            zones[f"hand{seat}"] = [CODES[c] for c in self._hands[seat]]
            zones[f"table{seat}"] = [CODES[c & 31] for c in self._tables[seat]]
            zones[f"won{seat}"] = [CODES[c] for c in self._won[seat]]
        return zones

    # -- stored states --------------------------------------------------------------------
    def _start(self, first: Seat) -> None:
        self._previous = None
        self._deal(0, first)  # bezique D1

    def _derive(self) -> None:
        self._trump = self._deck[TURN_UP_AT] >> 3

    def _check(self) -> None:
        """Reject a stored state whose cards do not add up to the double pack (a corrupt row)."""
        pack = fields.sorted_pack(DOUBLE_PACK)
        cards = [card for zone in self.zones().values() for card in zone]
        if sorted(cards) != pack or sorted(map(CODES.__getitem__, self._deck)) != pack:
            raise ValueError("cards do not add up to Bézigue's double pack")
        if len(self._deck) != DECK_SIZE or not TURN_UP_AT < self._pos <= DECK_SIZE + 1:
            raise ValueError("impossible stock position")
        if self._phase not in (LEAD, FOLLOW, SCORE):
            raise ValueError("impossible phase")
        if len(self._trick) != (1 if self._phase == FOLLOW else 0):
            raise ValueError("the trick in progress does not match the phase")
        if len(self._won[0]) % 2 or len(self._won[1]) % 2:
            raise ValueError("tricks won hold two cards each")
        for seat in (0, 1):
            if not 0 <= self._scored7[seat] <= self._hands[seat].count(self._trump * 8 + SEVEN):
                raise ValueError("more scored sevens than sevens held")
            for copy in self._tables[seat]:
                if _level(copy, 0) > 2 or _level(copy, 1) > 2 or _level(copy, 2) > 1:
                    raise ValueError("impossible meld level on the table")


def _table_codes(table: Hand) -> list[str]:
    """A table's cards in canonical order, without their meld levels."""
    if not table:
        return []
    return list(map(CODES.__getitem__, sorted([copy & 31 for copy in table])))


def _pair_of(pair: tuple[Hand, Hand], seat: Seat, value: Hand) -> tuple[Hand, Hand]:
    return (value, pair[1]) if seat == 0 else (pair[0], value)


hand_order: Final = hand_order_by(("A", "10", "K", "Q", "J", "9", "8", "7"))
"""A card's place in a hand: suits grouped, then the trick order, ten above king."""


# -- words: Bézigue's moves, melds, deal breakdown and rules help in players' words ----------
_FOURS: Final = {
    "A": N_("four aces"),
    "K": N_("four kings"),
    "Q": N_("four queens"),
    "J": N_("four jacks"),
}
_SCORE_NAMES: Final = {
    "bezique": N_("bezique"),
    "double bezique": N_("double bezique"),
    "seven of trumps (exchange)": N_("seven of trumps exchanged"),
    "seven of trumps (declare)": N_("seven of trumps declared"),
    "seven turned up": N_("seven turned up"),
}


def meld_text(name: str, cards: Sequence[str], words: Words = ENGLISH) -> str:
    """A meld or seven as the table lists it, with its suit: "marriage in ♥", "four kings"."""
    if name in ("trump marriage", "plain marriage", "trump sequence") and cards:
        suit = SUIT_SYMBOLS[cards[0][-1]]
        if name == "trump marriage":
            return words.gettext("trump marriage in {suit}").format(suit=suit)
        if name == "plain marriage":
            return words.gettext("marriage in {suit}").format(suit=suit)
        return words.gettext("sequence in {suit}").format(suit=suit)
    if name.startswith("four ") and cards:
        return words.gettext(_FOURS[cards[0][:-1]])
    return words.gettext(_SCORE_NAMES.get(name, name))


def _meld_kind(cards: list[str]) -> str | None:
    """Which meld a ``meld`` move's cards make, as far as the cards alone tell."""
    ranks = sorted(card[:-1] for card in cards)
    suits = {card[-1] for card in cards}
    if sorted(cards) == ["JD", "QS"]:
        return "bezique"
    if sorted(cards) == ["JD", "JD", "QS", "QS"]:
        return "double bezique"
    if len(cards) == 4 and len(set(ranks)) == 1 and ranks[0] in _FOURS:
        return "four " + ranks[0]
    if len(suits) == 1 and ranks == ["K", "Q"]:
        return "plain marriage"
    if len(suits) == 1 and ranks == sorted(["A", "10", "K", "Q", "J"]):
        return "trump sequence"
    return None


_FIXED_PHRASES: Final = {
    "exchange": N_("exchange the seven of trumps for the turn-up"),
    "declare 7": N_("declare the seven of trumps"),
    "draw": N_("draw and end the turn"),
}
"""Bézigue's moves that are always said the same way, each with its phrase."""


def describe(move: str, words: Words = ENGLISH) -> str:
    """A move in players' words: "Q♠", "meld: marriage in ♥ (K♥ Q♥)", "exchange the seven"."""
    verb, *rest = move.split()
    if verb == "meld" and rest:
        kind = _meld_kind(rest)
        shown = cards_text(rest, words)
        if kind is None:
            return words.gettext("meld {cards}").format(cards=shown)
        if kind == "trump sequence":
            what = words.gettext("sequence in {suit}").format(suit=SUIT_SYMBOLS[rest[0][-1]])
        else:
            what = meld_text(kind, rest, words)
        return words.gettext("{meld}: {cards}").format(meld=what, cards=shown)
    return describe_common(move, words, _FIXED_PHRASES)


def deal_summary(
    view: BeziqueView, words: Words = ENGLISH, names: Sequence[str] | None = None
) -> list[str]:
    """The deal that ended last, as bezique D9 counts it: melds and sevens, brisques, the
    last trick, then the deal's points (a deal cut short by the target says so)."""
    deal = view.get("last_deal")
    if deal is None:
        return []
    who = seat_names(words, names)
    scores, brisques, last = deal["deal_scores"], deal["brisques"], deal["last_trick"]
    lines = []
    for seat in (0, 1):
        counted = 10 * brisques[seat] if brisques is not None else 0
        if last is not None and brisques is not None and last["winner"] == seat:
            counted += 10
        melded = scores[seat] - counted
        if melded:
            lines.append(
                words.gettext("{name}: melds and sevens, {points}.").format(
                    name=who[seat], points=points_text(melded, words)
                )
            )
    if brisques is None:
        lines.append(words.gettext("The target was reached with a meld: the deal ends there."))
    else:
        for seat in (0, 1):
            lines.append(
                words.ngettext(
                    "{name}: {n} brisque, {points}.",
                    "{name}: {n} brisques, {points}.",
                    brisques[seat],
                ).format(
                    name=who[seat],
                    n=words.number(brisques[seat]),
                    points=points_text(10 * brisques[seat], words),
                )
            )
    if last is not None and brisques is not None:
        lines.append(
            words.gettext("{name}: the last trick, 10 points ({cards}).").format(
                name=who[last["winner"]],
                cards=cards_text([entry["card"] for entry in last["cards"]], words),
            )
        )
    label = words.gettext("Deal {n}").format(n=words.number(deal["deal"]))
    return lines + closing_lines(label, who, scores, view["result"], words)


def rules_help(words: Words = ENGLISH) -> tuple[str, ...]:
    """How to play Bézigue, from docs/rules/bezique.md, in plain words, a paragraph a string."""
    return (
        words.gettext(
            "Bézigue is played with two packs of 32 cards shuffled together, so every card "
            "is there twice. In tricks the ace ranks highest, then the ten, the king, the "
            "queen, the jack, the nine, the eight and the seven. Each player gets eight "
            "cards; the next card is turned up for trumps and the rest makes the stock. A "
            "seven turned up gives the dealer 10 points."
        ),
        words.gettext(
            "While the stock lasts you need not follow suit. The winner of a trick may "
            "then lay one meld face up on the table and may exchange or declare the seven "
            "of trumps, for 10 points; then both draw, the winner first. Melded cards "
            "stay yours and may still be played from the table."
        ),
        words.gettext(
            "A trick goes to the higher card of the suit led, or to the higher trump if a "
            "trump was played to another suit; a card of another suit that is not a trump "
            "never wins. When both cards are the same (the two copies of one card), the "
            "card led wins. So it is while the stock lasts and in the last eight tricks "
            "alike; only the duty to follow changes."
        ),
        words.gettext(
            "Melds: a marriage (king and queen of a suit) scores 20, 40 in trumps; a "
            "bezique (queen of spades and jack of diamonds) 40, the double bezique 500; "
            "four jacks 40, four queens 60, four kings 80, four aces 100; the sequence "
            "(ace, ten, king, queen and jack of trumps) 250. A card may serve again only "
            "in a meld of another kind, or in a higher meld of the same kind with a new "
            "card from the hand."
        ),
        words.gettext(
            "When the stock is empty, the melds go back to the hands and the last eight "
            "tricks are played strictly: follow suit and win the trick if you can, else "
            "trump if you can. At the end of the deal each ace and ten won in tricks (a "
            "brisque) scores 10, and the last trick 10. The first to reach the target wins "
            "at once."
        ),
        words.gettext(
            "For example, trumps are hearts and you lead the king of spades. The queen of "
            "spades or a club loses to it, the other king of spades too (the card led "
            "wins), while the ace or ten of spades, or any heart, takes it. If the trick is "
            "yours and you hold the king and queen of clubs, you may meld them as a "
            "marriage for 20 (40 in hearts). After a later trick, the queen of spades and "
            "the jack of diamonds make a bezique for 40."
        ),
        words.gettext(
            "Moves: `play` and a card, like `play QS`. After winning a trick: `meld` and "
            "the cards of the meld, like `meld QS JD`; `exchange` swaps your seven of "
            "trumps for the turn-up; `declare 7` shows your seven of trumps; `draw` ends "
            "your turn when you have scored what you wanted (the draw is made for you "
            "when nothing is left to score)."
        ),
        words.gettext(
            "Options: `target` is the score that wins the match, 100 to 10,000 (1,500 if "
            "not given). `first_seat` chooses who deals first: 0 for the challenger, 1 "
            "for the other player; without it, the lot decides."
        ),
    )


class Bezique(core.Game):
    name = NAME
    title = N_("Bézigue")
    aliases = ("bésigue", "besigue", "bezigue", "bésique", "besique", "bézique")
    pack = DOUBLE_PACK
    goal_option = core.Option(
        "target", 1500, minimum=100, maximum=10_000, help="points that win the match"
    )
    first_seat_role = "dealer"
    first_seat_help = "who deals first (default: lot)"
    summary = (
        "Two-handed Bézigue with a double pack: win brisques in tricks, meld marriages, "
        "sequences, fours and bezique; the first to the target wins."
    )
    example_moves = ("play QS", "meld QS JD", "exchange", "draw")
    example_options = "target=1000"

    def table_extras(
        self, view: Mapping[str, Any], words: Words, names: tuple[str, str]
    ) -> list[str]:
        lines = []
        if view.get("stage") == 2:
            lines.append(
                words.gettext(
                    "The stock is used up: in the last eight tricks you must follow suit and "
                    "win the trick if you can."
                )
            )
        for seat, laid in enumerate(view.get("table") or ()):
            if laid:
                lines.append(
                    words.gettext("Laid out by {name}: {cards}.").format(
                        name=names[seat], cards=cards_text(laid, words)
                    )
                )
        for meld in (view.get("melds") or [])[-3:]:  # the latest: the picture shows the rest
            what = meld_text(meld["name"], meld["cards"], words)
            lines.append(entry_line(names[int(meld["seat"])], what, int(meld["points"]), words))
        brisques = view.get("brisques")
        if isinstance(brisques, list) and any(brisques):
            lines.append(pair_line(words.gettext("Brisques"), names, brisques, words))
        return lines

    def entry_text(self, key: str, entry: Mapping[str, Any], words: Words = ENGLISH) -> str | None:
        if key == "melds":
            return meld_text(entry["name"], entry["cards"], words)
        return None

    def _secrets(self, seat: Seat, dealer: Seat) -> tuple[list[int], list[int]]:
        # The non-dealer gets deck[0:8], the dealer deck[8:16] (docs/engine.md).
        opponent = range(HAND_SIZE) if seat == dealer else range(HAND_SIZE, TURN_UP_AT)
        return list(opponent), list(range(40, DECK_SIZE))


GAME: Final = register(
    Bezique(BeziqueState, describe=describe, deal_summary=deal_summary, rules_help=rules_help)
)
