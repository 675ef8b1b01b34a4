"""Le 5 As — Lost Cities played with a tarot deck (docs/rules/cinq-as.md).

Each player builds up to five *expeditions* (one per suit, trumps included) of rising number
cards, optionally opened by bonus cards that multiply the result; a turn is a play (onto an
expedition or a discard pile) then a draw (stock or the top of a pile).

Speed matters here — the computer opponent will search with random playouts — so the state
keeps small tuples and precomputed move strings, and ``apply`` reads canonical moves through
one dictionary lookup before falling back to the general parser.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Final, NamedTuple, TypedDict

from games import core, fields, header
from games.cards import (
    SUIT_SYMBOLS,
    SUITS,
    TAROT_SET,
    Cards,
    card_name,
    sort_cards,
    sort_key,
    sorted_insert,
)
from games.core import Seat
from games.deals import deck_for_deal
from games.moves import Syntax, move_cards
from games.phrases import (
    cards_text,
    closing_lines,
    points_text,
    seat_names,
)
from games.refusals import IllegalMove, not_held
from games.registry import register
from games.words import ENGLISH, N_, Words

HAND_SIZE: Final = 8
NAME: Final = "cinq-as"

# Per card: the suit's index (0-4) and its value (2-10; 0 for a bonus card: J Q K, 19 20 21).
_SUIT_INDEX: Final = {card: SUITS.index(card[-1]) for card in TAROT_SET}
_VALUE: Final = {
    card: (int(card[:-1]) if card[:-1].isdigit() and int(card[:-1]) <= 10 else 0)
    for card in TAROT_SET
}
_KEY: Final = {card: sort_key(card) for card in TAROT_SET}

EXPEDITION_SUITS: Final = SUITS
"""The five suits, trumps last: one expedition and one discard pile each."""
BONUS_CARDS: Final = frozenset(card for card in TAROT_SET if _VALUE[card] == 0)
"""Cards that multiply an expedition instead of adding to it: J Q K, 19 20 21 (cinq-as D5)."""

# Moves as (kind, argument): play / discard a card, draw from the stock or from pile i.
_PLAY, _DISCARD, _DRAW_STOCK, _DRAW_PILE = 0, 1, 2, 3
_PLAY_MOVE: Final = {card: f"play {card}" for card in TAROT_SET}
_DISCARD_MOVE: Final = {card: f"discard {card}" for card in TAROT_SET}
_DRAW_PILE_MOVE: Final = tuple(f"draw {suit}" for suit in SUITS)
_MOVES: Final[dict[str, tuple[int, Any]]] = {
    **{move: (_PLAY, card) for card, move in _PLAY_MOVE.items()},
    **{move: (_DISCARD, card) for card, move in _DISCARD_MOVE.items()},
    "draw": (_DRAW_STOCK, None),
    **{move: (_DRAW_PILE, i) for i, move in enumerate(_DRAW_PILE_MOVE)},
}
_EMPTY5: Final[tuple[tuple[str, ...], ...]] = ((),) * 5
_PLAY_FACTS: Final = {
    card: (_SUIT_INDEX[card], _VALUE[card], _PLAY_MOVE[card], _DISCARD_MOVE[card])
    for card in TAROT_SET
}
"""Per card, what listing the play phase's moves reads, in one lookup (a playout lists them
at every turn)."""


def expedition_score(cards: tuple[str, ...] | list[str]) -> int:
    """One expedition's score (cinq-as D5, D6): 0 unopened; else (numbers − 20) × (1 + bonuses),
    then +20 with 8 cards or more."""
    if not cards:
        return 0
    numbers = sum(_VALUE[card] for card in cards)
    bonuses = sum(1 for card in cards if _VALUE[card] == 0)
    score = (numbers - 20) * (1 + bonuses)
    return score + 20 if len(cards) >= 8 else score


def _without(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    """``hand`` less ``card``, which it holds (once: the pack has one copy of each card)."""
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


class _Scores(dict[tuple[str, ...], int]):
    """``expedition_score`` of each expedition met, kept: every view shows all ten scores
    (twenty after the first round), and a match lays few expeditions of a suit that differ
    (bonus cards, then rising numbers: a few thousand at most)."""

    def __missing__(self, exp: tuple[str, ...]) -> int:
        if len(self) >= 50_000:  # only corrupt stored states could make so many
            self.clear()
        score = self[exp] = expedition_score(exp)
        return score


_SCORE_OF: Final = _Scores().__getitem__
"""An expedition's score (a tuple of cards), worked out once."""

_insert: Final = sorted_insert(_KEY)
"""A hand (kept in canonical order, so a view reveals nothing of when a card came) + a card."""


def _read_pair(value: Any) -> tuple[tuple[str, ...], tuple[str, ...]]:
    if len(value) != 2:
        raise ValueError("expected one list per seat")
    return fields.read_cards(value[0]), fields.read_cards(value[1])


Expeditions = tuple[tuple[str, ...], ...]


def _stored_expeditions(exps: tuple[Expeditions, Expeditions]) -> list[Any]:
    return [fields.lists(exp) for exp in exps]


def _read_expeditions(value: Any) -> tuple[Expeditions, Expeditions]:
    exps = [tuple(map(fields.read_cards, exp)) for exp in value]
    if len(exps) != 2 or any(len(exp) != 5 for exp in exps):
        raise ValueError("expeditions must be two lists of five")
    return exps[0], exps[1]


def _read_piles(value: Any) -> tuple[tuple[str, ...], ...]:
    if len(value) != 5:
        raise ValueError("there are five discard piles")
    return tuple(map(fields.read_cards, value))


def _read_card_or_none(value: Any) -> str | None:
    return None if value is None else str(value)


class Table(NamedTuple):
    """A state's position as its own fields hold it, for the computer's playouts, which read
    a determinized state thousands of times a decision and cannot afford a view each time.
    Every hand is in canonical order, as a view shows it."""

    hands: tuple[tuple[str, ...], tuple[str, ...]]
    expeditions: tuple[Expeditions, Expeditions]
    """Per seat, the five expeditions in the order of ``SUITS``."""
    tops: tuple[int, ...]
    """Per seat and suit (seat × 5 + suit), the highest number on that expedition (0: none)."""
    piles: tuple[tuple[str, ...], ...]
    """The five discard piles in the order of ``SUITS``, each from bottom to top."""
    stock: int
    """Cards left in the stock."""


class CinqAsRoundView(TypedDict):
    """The round that ended last: both players' expeditions (public) and what each scored."""

    round: int
    expeditions: list[dict[str, list[str]]]
    expedition_scores: list[dict[str, int]]
    round_scores: list[int]


class CinqAsView(core.BaseView):
    """A seat's view of a Le 5 As match, field by field in docs/views.md."""

    round: int
    rounds: int
    first_player: Seat
    phase: str
    expeditions: list[dict[str, list[str]]]
    expedition_scores: list[dict[str, int]]
    discards: dict[str, list[str]]
    just_discarded: str | None
    stock: int
    hand_sizes: list[int]
    round_scores: list[list[int]]
    last_move: core.MoveView | None
    last_round: CinqAsRoundView | None


@header.match_state
class CinqAsState(header.MatchState):
    """A moment of a match. Le 5 As has no dealer: the header's ``_dealer`` is the seat that
    plays first in the round (cinq-as D2), and its ``_deal_no`` the round, from 0."""

    syntax: ClassVar[Mapping[str, Syntax]] = {
        "play": "card",
        "discard": "card",
        "draw": "suit?",
    }
    stored_keys: ClassVar[Mapping[str, str]] = {"_deal_no": "round", "_dealer": "first"}

    _deck: tuple[str, ...] = fields.stored(write=list, read=fields.read_cards)
    _pos: int = fields.stored(read=fields.read_int)
    _hands: tuple[tuple[str, ...], tuple[str, ...]] = fields.stored(
        write=fields.lists, read=_read_pair
    )
    _exps: tuple[Expeditions, Expeditions] = fields.stored(
        "expeditions", write=_stored_expeditions, read=_read_expeditions
    )
    _tops: tuple[int, ...] = fields.derived()
    """Per seat and suit (seat × 5 + suit), the highest number on that expedition (0: none)."""
    _piles: tuple[tuple[str, ...], ...] = fields.stored(write=fields.lists, read=_read_piles)
    _phase: int = fields.stored(read=fields.read_int)
    _discarded: str | None = fields.stored(read=_read_card_or_none)
    _previous: tuple[Expeditions, Expeditions] | None = fields.stored(
        "last_round", write=_stored_expeditions, read=_read_expeditions, optional=True
    )
    """Both players' expeditions when the last round ended, for its breakdown."""

    # -- the contract ---------------------------------------------------------------------
    def _legal_moves(self) -> list[str]:
        seat = self._turn
        if seat is None:
            return []
        if self._phase == 0:
            tops = self._tops
            base = seat * 5
            moves: list[str] = []
            append = moves.append
            for card in self._hands[seat]:
                suit, value, play, discard = _PLAY_FACTS[card]
                top = tops[base + suit]
                if (value > top) if value else (top == 0):
                    append(play)
                append(discard)
            return moves
        moves = ["draw"]
        discarded = self._discarded
        for i, pile in enumerate(self._piles):
            if pile and pile[-1] != discarded:
                moves.append(_DRAW_PILE_MOVE[i])
        return moves

    def apply(self, move: str) -> CinqAsState:
        action = _MOVES.get(move)
        if action is None:
            action = _MOVES.get(self.canonical(move))
            if action is None:  # a card outside the pack, e.g. "play 7T"
                raise IllegalMove(
                    N_("{cards} is not played in Le 5 As: the aces only mark the discard piles."),
                    cards=Cards.of(move_cards(self.canonical(move))),
                )
        seat = self._turn
        if seat is None:
            raise self.over()
        kind, arg = action
        if self._phase == 0:
            if kind >= _DRAW_STOCK:
                raise IllegalMove(
                    N_("First play a card onto an expedition or discard one, then draw.")
                )
            if arg not in self._hands[seat]:
                raise not_held((arg,))
            return self._play(seat, arg) if kind == _PLAY else self._discard(seat, arg)
        if kind < _DRAW_STOCK:
            raise IllegalMove(
                N_(
                    "You have played this turn: now draw, from the stock or from the top of a "
                    "discard pile."
                )
            )
        if kind == _DRAW_STOCK:
            return self._draw(seat, self._deck[self._pos], self._pos + 1, self._piles, "draw")
        pile = self._piles[arg]
        if not pile:
            raise IllegalMove(
                N_("The {suit} discard pile is empty."), suit=SUIT_SYMBOLS[SUITS[arg]]
            )
        if pile[-1] == self._discarded:
            raise IllegalMove(
                N_("You cannot take back {card}, the card you just discarded."),
                card=Cards.of(pile[-1:]),
            )
        piles = (*self._piles[:arg], pile[:-1], *self._piles[arg + 1 :])
        return self._draw(seat, pile[-1], self._pos, piles, _DRAW_PILE_MOVE[arg])

    # -- moves ----------------------------------------------------------------------------
    def _play(self, seat: Seat, card: str) -> CinqAsState:
        suit = _SUIT_INDEX[card]
        value = _VALUE[card]
        index = seat * 5 + suit
        top = self._tops[index]
        if value and value <= top:
            raise IllegalMove(
                N_("Your {suit} expedition already reaches {card}: only a higher card may follow."),
                suit=SUIT_SYMBOLS[card[-1]],
                card=Cards.of(self._exps[seat][suit][-1:]),
            )
        if not value and top:
            raise IllegalMove(
                N_(
                    "Bonus cards open an expedition, before its number cards, and your {suit} "
                    "expedition already has one."
                ),
                suit=SUIT_SYMBOLS[card[-1]],
            )
        new = self._copy()
        new._hands = self._with_hand(seat, _without(self._hands[seat], card))
        exp = self._exps[seat]
        exp = (*exp[:suit], (*exp[suit], card), *exp[suit + 1 :])
        new._exps = (exp, self._exps[1]) if seat == 0 else (self._exps[0], exp)
        if value:
            tops = self._tops
            new._tops = (*tops[:index], value, *tops[index + 1 :])
        new._phase = 1
        new._discarded = None
        new._last = (seat, _PLAY_MOVE[card])
        return new

    def _discard(self, seat: Seat, card: str) -> CinqAsState:
        suit = _SUIT_INDEX[card]
        new = self._copy()
        new._hands = self._with_hand(seat, _without(self._hands[seat], card))
        piles = self._piles
        new._piles = (*piles[:suit], (*piles[suit], card), *piles[suit + 1 :])
        new._phase = 1
        new._discarded = card
        new._last = (seat, _DISCARD_MOVE[card])
        return new

    def _draw(
        self, seat: Seat, card: str, pos: int, piles: tuple[tuple[str, ...], ...], move: str
    ) -> CinqAsState:
        new = self._copy()
        new._hands = self._with_hand(seat, _insert(self._hands[seat], card))
        new._piles = piles
        new._pos = pos
        new._last = (seat, move)
        if pos == len(self._deck):  # cinq-as D4: the last stock card ends the round at once
            new._end_round()
        else:
            new._turn = 1 - seat
            new._phase = 0
            new._discarded = None
        return new

    def _end_round(self) -> None:
        """Score the round just finished; deal the next one, or end the match."""
        round_scores = (
            sum(expedition_score(exp) for exp in self._exps[0]),
            sum(expedition_score(exp) for exp in self._exps[1]),
        )
        self._history = (*self._history, round_scores)
        self._previous = self._exps
        self._totals = (self._totals[0] + round_scores[0], self._totals[1] + round_scores[1])
        if self._deal_no + 1 >= self._goal:
            a, b = self._totals
            winner = 0 if a > b else 1 if b > a else None  # cinq-as D1: equal totals, a draw
            self._turn = None
            self._phase = 0
            self._discarded = None
            self._result = {
                "winner": winner,
                "scores": [a, b],
                "rounds": [list(scores) for scores in self._history],
            }
            return
        # cinq-as D2: the round's higher scorer starts; equal, the one who did not start.
        if round_scores[0] != round_scores[1]:
            first = 0 if round_scores[0] > round_scores[1] else 1
        else:
            first = 1 - self._dealer
        self._deal(self._deal_no + 1, first)

    def _deal(self, round_no: int, first: Seat) -> None:
        deck = deck_for_deal(self._decks, TAROT_SET, self._seed, NAME, round_no)
        hands = (
            tuple(sort_cards(deck[:HAND_SIZE])),
            tuple(sort_cards(deck[HAND_SIZE : 2 * HAND_SIZE])),
        )
        self._deal_no = round_no
        self._dealer = first
        self._deck = deck
        self._pos = 2 * HAND_SIZE
        self._hands = hands if first == 0 else (hands[1], hands[0])
        self._exps = (_EMPTY5, _EMPTY5)
        self._tops = (0,) * 10
        self._piles = _EMPTY5
        self._turn = first
        self._phase = 0
        self._discarded = None

    # -- helpers --------------------------------------------------------------------------
    def _with_hand(
        self, seat: Seat, hand: tuple[str, ...]
    ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return (hand, self._hands[1]) if seat == 0 else (self._hands[0], hand)

    # -- views ----------------------------------------------------------------------------
    def view(self, seat: Seat | None) -> CinqAsView:
        base = core.base_view(self, seat, self._hands[seat] if seat is not None else ())
        exps = self._exps
        view: CinqAsView = {
            **base,
            "round": self._deal_no + 1,
            "rounds": self._goal,
            "first_player": self._dealer,
            "phase": "over" if self._turn is None else ("play", "draw")[self._phase],
            "expeditions": [
                dict(zip(SUITS, map(list, exps[0]), strict=True)),
                dict(zip(SUITS, map(list, exps[1]), strict=True)),
            ],
            "expedition_scores": [
                dict(zip(SUITS, map(_SCORE_OF, exps[0]), strict=True)),
                dict(zip(SUITS, map(_SCORE_OF, exps[1]), strict=True)),
            ],
            "discards": dict(zip(SUITS, map(list, self._piles), strict=True)),
            "just_discarded": self._discarded,
            "stock": len(self._deck) - self._pos,
            "hand_sizes": [len(self._hands[0]), len(self._hands[1])],
            "round_scores": list(map(list, self._history)),
            "last_move": self._last_move_view(seat),
            "last_round": self._last_round(),
        }
        return view

    @property
    def drawing(self) -> bool:
        """Whether the seat to move has laid its card and now draws (the draw phase)."""
        return self._phase == 1

    def table(self) -> Table:
        """The position, straight from the state's fields (no copy): see :class:`Table`."""
        return Table(self._hands, self._exps, self._tops, self._piles, len(self._deck) - self._pos)

    def _last_round(self) -> CinqAsRoundView | None:
        previous = self._previous
        if previous is None:
            return None
        return {
            "round": len(self._history),
            "expeditions": [
                dict(zip(SUITS, map(list, previous[0]), strict=True)),
                dict(zip(SUITS, map(list, previous[1]), strict=True)),
            ],
            "expedition_scores": [
                dict(zip(SUITS, map(_SCORE_OF, previous[0]), strict=True)),
                dict(zip(SUITS, map(_SCORE_OF, previous[1]), strict=True)),
            ],
            "round_scores": list(self._history[-1]),
        }

    def zones(self) -> dict[str, list[str]]:
        zones = {
            "hand0": list(self._hands[0]),
            "hand1": list(self._hands[1]),
            "stock": list(self._deck[self._pos :]),
        }
        for seat in (0, 1):
            for i, suit in enumerate(SUITS):
                zones[f"expedition{seat}{suit}"] = list(self._exps[seat][i])
        for i, suit in enumerate(SUITS):
            zones[f"discards{suit}"] = list(self._piles[i])
        return zones

    # -- stored states --------------------------------------------------------------------
    def _start(self, first: Seat) -> None:
        self._previous = None
        self._deal(0, first)

    def _derive(self) -> None:
        value = _VALUE.__getitem__
        self._tops = tuple(
            max(map(value, exp[i]), default=0) for exp in self._exps for i in range(5)
        )

    def _check(self) -> None:
        """Reject a stored state whose cards do not add up to the deck (a corrupt row)."""
        cards = [card for zone in self.zones().values() for card in zone]
        pack = fields.sorted_pack(TAROT_SET)
        if sorted(cards) != pack or sorted(self._deck) != pack:
            raise ValueError("cards do not add up to Le 5 As' deck")
        if self._phase not in (0, 1):
            raise ValueError("impossible phase")


def hand_order(card: str) -> tuple[int, int, int]:
    """A card's place in a hand: suits grouped, bonus cards first, then the numbers rising,
    the order in which an expedition is laid."""
    return SUITS.index(card[-1]), 0 if card in BONUS_CARDS else 1, _KEY[card][1]


# -- words: Le 5 As' moves, round breakdown and rules help in players' words ------------------
def describe(move: str, words: Words = ENGLISH) -> str:
    """A move in players' words: "3♠ on the expedition", "draw from the ♦ pile"."""
    verb, *rest = move.split()
    if verb == "play" and rest:
        return words.gettext("{card} on the expedition").format(card=card_name(rest[0], words))
    if verb == "discard" and len(rest) == 1:
        return words.gettext("{card} on the discard pile").format(card=card_name(rest[0], words))
    if verb == "draw":
        if not rest:
            return words.gettext("draw from the stock")
        return words.gettext("draw from the {suit} pile").format(suit=SUIT_SYMBOLS[rest[0]])
    return move


def deal_summary(
    view: CinqAsView, words: Words = ENGLISH, names: Sequence[str] | None = None
) -> list[str]:
    """The round that ended last, expedition by expedition as cinq-as D5 and D6 score them."""
    last = view.get("last_round")
    if last is None:
        return []
    who = seat_names(words, names)
    lines = []
    for seat in (0, 1):
        opened = [suit for suit in SUITS if last["expeditions"][seat][suit]]
        if not opened:
            lines.append(words.gettext("{name} opened no expedition.").format(name=who[seat]))
        for suit in opened:
            cards = last["expeditions"][seat][suit]
            bonuses = sum(1 for card in cards if card in BONUS_CARDS)
            numbers = sum(_VALUE[card] for card in cards)
            if bonuses:
                how = words.gettext("({sum} − 20) × {times}").format(
                    sum=words.number(numbers), times=words.number(1 + bonuses)
                )
            else:
                how = words.gettext("{sum} − 20").format(sum=words.number(numbers))
            if len(cards) >= 8:
                how = words.gettext("{score} + 20 for eight cards or more").format(score=how)
            lines.append(
                words.gettext("{name}, {suit} expedition ({cards}): {how} = {points}.").format(
                    name=who[seat],
                    suit=SUIT_SYMBOLS[suit],
                    cards=cards_text(cards, words),
                    how=how,
                    points=points_text(last["expedition_scores"][seat][suit], words),
                )
            )
    label = words.gettext("Round {n}").format(n=words.number(last["round"]))
    return lines + closing_lines(label, who, last["round_scores"], view["result"], words)


def rules_help(words: Words = ENGLISH) -> tuple[str, ...]:
    """How to play Le 5 As, from docs/rules/cinq-as.md, in plain words, a paragraph a string."""
    return (
        words.gettext(
            "Le 5 As is Lost Cities played with a tarot deck: five suits (spades, hearts, "
            "diamonds, clubs and the trumps), each with the numbers 2 to 10 and three bonus "
            "cards (jack, queen and king; in trumps 19, 20 and 21). The four aces and the 1 "
            "of trumps mark the five discard piles. Each player holds eight cards."
        ),
        words.gettext(
            "On your turn, first lay a card: either on your own expedition of its suit, "
            "where each number must be higher than the last one there and bonus cards "
            "only come before any number, or face up on that suit's discard pile. Then "
            "draw a card: from the stock, or the top card of any discard pile except the "
            "one you just discarded. The round ends as soon as the stock is empty."
        ),
        words.gettext(
            "Each expedition you open costs 20: it scores the sum of its numbers minus 20, "
            "multiplied by one more than its bonus cards, and 20 more if it holds eight "
            "cards or more. An expedition you never open scores nothing. After the last "
            "round the higher total wins."
        ),
        words.gettext(
            "For example, an expedition of hearts holding one bonus card and the 4, 6, 9 "
            "and 10 scores (29 − 20) × 2 = 18; a lone bonus card scores (0 − 20) × 2 = −40; "
            "the 2 to 9 of one suit, eight cards, score 44 − 20 + 20 = 44."
        ),
        words.gettext(
            "Moves: `play` and a card puts it on your expedition, like `play 3S`; "
            "`discard` and a card puts it on the discard pile, like `discard 10H`. Then "
            "`draw` takes the top card of the stock, and `draw` with a suit letter takes "
            "the top of that discard pile, like `draw H` (`T` for the trumps)."
        ),
        words.gettext(
            "Options: `rounds` is the number of rounds in the match, 1 to 9 (3 if not "
            "given). `first_seat` chooses who starts the first round: 0 for the challenger, "
            "1 for the other player; without it, the lot decides."
        ),
    )


class CinqAs(core.Game):
    name = NAME
    title = N_("Le 5 As")
    aliases = ("cinq as", "5 as", "le 5 as", "five-aces", "five aces", "lost-cities", "fem ess")
    pack = TAROT_SET
    goal_option = core.Option("rounds", 3, minimum=1, maximum=9, help="rounds in the match")
    first_seat_role = "player"
    first_seat_help = "who starts round 1 (default: lot)"
    summary = (
        "Lost Cities on a tarot deck: build up to five expeditions of rising cards, "
        "bonus cards first, and score what each brings beyond its cost."
    )
    example_moves = ("play 3S", "discard 10H", "draw", "draw T")
    example_options = "rounds=1"

    def table_extras(
        self, view: Mapping[str, Any], words: Words, names: tuple[str, str]
    ) -> list[str]:
        lines = []
        if isinstance(view.get("round"), int) and isinstance(view.get("rounds"), int):
            lines.append(
                words.gettext("Round {n} of {count}.").format(
                    n=words.number(view["round"]), count=words.number(view["rounds"])
                )
            )
        scores = view.get("expedition_scores") or [{}, {}]
        for seat, expeditions in enumerate(view.get("expeditions") or ()):
            laid = [
                words.gettext("{cards} ({points})").format(
                    cards=cards_text(cards, words),
                    points=words.number(int(scores[seat].get(suit, 0))),
                )
                for suit, cards in expeditions.items()
                if cards
            ]
            if laid:
                lines.append(
                    words.gettext("Expeditions of {name}: {expeditions}.").format(
                        name=names[seat], expeditions="; ".join(laid)
                    )
                )
        tops = [
            card_name(pile[-1], words) for pile in (view.get("discards") or {}).values() if pile
        ]
        if tops:
            lines.append(
                words.gettext("On top of the discard piles: {cards}.").format(cards=" ".join(tops))
            )
        if isinstance(view.get("just_discarded"), str):
            lines.append(
                words.gettext("{card} was just discarded: it cannot be drawn back at once.").format(
                    card=card_name(view["just_discarded"], words)
                )
            )
        return lines

    def goal_text(self, value: int, words: Words = ENGLISH) -> str:
        return words.ngettext("in {n} round", "in {n} rounds", value).format(n=words.number(value))

    card_words = N_(
        "A card is its rank (2 to 10, J, Q or K; trumps 2 to 10, 19, 20 or 21) then its suit "
        "(♠ ♥ ♦ ♣ ★, or S, H, D, C, T), like `3♠` or `20T`."
    )

    def _secrets(self, seat: Seat, first: Seat) -> tuple[list[int], list[int]]:
        opponent = range(HAND_SIZE, 2 * HAND_SIZE) if seat == first else range(HAND_SIZE)
        return list(opponent), list(range(40, len(TAROT_SET)))


GAME: Final = register(
    CinqAs(CinqAsState, describe=describe, deal_summary=deal_summary, rules_help=rules_help)
)
