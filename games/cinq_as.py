"""Le 5 As — Lost Cities played with a tarot deck (shared/rules/cinq-as.md).

Each player builds up to five *expeditions* (one per suit, trumps included) of rising number
cards, optionally opened by bonus cards that multiply the result; a turn is a play (onto an
expedition or a discard pile) then a draw (stock or the top of a pile).

Speed matters here — the computer opponent will search with random playouts — so the state
keeps small tuples and precomputed move strings, and ``apply`` reads canonical moves through
one dictionary lookup before falling back to the general parser.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Final

from games.cards import SUIT_NAMES, SUITS, TAROT_SET, sort_cards, sort_key
from games.core import (
    Game,
    IllegalMove,
    Json,
    Option,
    Seat,
    State,
    Syntax,
    base_view,
    deck_for_deal,
    dumps,
    seat_or_lot,
)

HAND_SIZE: Final = 8
NAME: Final = "cinq-as"

# Per card: the suit's index (0-4) and its value (2-10; 0 for a bonus card: J Q K, 19 20 21).
_SUIT_INDEX: Final = {card: SUITS.index(card[-1]) for card in TAROT_SET}
_VALUE: Final = {
    card: (int(card[:-1]) if card[:-1].isdigit() and int(card[:-1]) <= 10 else 0)
    for card in TAROT_SET
}
_KEY: Final = {card: sort_key(card) for card in TAROT_SET}

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


def expedition_score(cards: tuple[str, ...] | list[str]) -> int:
    """One expedition's score (cinq-as D5, D6): 0 unopened; else (numbers − 20) × (1 + bonuses),
    then +20 with 8 cards or more."""
    if not cards:
        return 0
    numbers = sum(_VALUE[card] for card in cards)
    bonuses = sum(1 for card in cards if _VALUE[card] == 0)
    score = (numbers - 20) * (1 + bonuses)
    return score + 20 if len(cards) >= 8 else score


def _insert(hand: tuple[str, ...], card: str) -> tuple[str, ...]:
    """``hand`` (kept in canonical order, so a view reveals nothing of when a card came) + card."""
    key = _KEY[card]
    for i, held in enumerate(hand):
        if _KEY[held] > key:
            return (*hand[:i], card, *hand[i:])
    return (*hand, card)


class CinqAsState(State):
    __slots__ = (
        "_deck",
        "_decks",
        "_discarded",
        "_exps",
        "_first",
        "_hands",
        "_history",
        "_last",
        "_opt_first",
        "_phase",
        "_piles",
        "_pos",
        "_result",
        "_round",
        "_rounds",
        "_seed",
        "_tops",
        "_totals",
        "_turn",
    )
    syntax: ClassVar[Mapping[str, Syntax]] = {"play": "card", "discard": "card", "draw": "suit?"}

    _seed: int
    _rounds: int
    _opt_first: int | None
    _decks: tuple[tuple[str, ...], ...]
    _round: int
    _first: Seat
    _deck: tuple[str, ...]
    _pos: int
    _hands: tuple[tuple[str, ...], tuple[str, ...]]
    _exps: tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]]
    _tops: tuple[int, ...]
    _piles: tuple[tuple[str, ...], ...]
    _turn: Seat | None
    _phase: int
    _discarded: str | None
    _totals: tuple[int, int]
    _history: tuple[tuple[int, int], ...]
    _last: tuple[Seat, str] | None
    _result: Json | None

    # -- the contract ---------------------------------------------------------------------
    @property
    def to_move(self) -> Seat | None:
        return self._turn

    @property
    def scores(self) -> tuple[int, int]:
        return self._totals

    @property
    def result(self) -> Json | None:
        return self._result

    def _legal_moves(self) -> list[str]:
        seat = self._turn
        if seat is None:
            return []
        if self._phase == 0:
            tops = self._tops
            base = seat * 5
            moves = []
            for card in self._hands[seat]:
                value = _VALUE[card]
                top = tops[base + _SUIT_INDEX[card]]
                if (value > top) if value else (top == 0):
                    moves.append(_PLAY_MOVE[card])
                moves.append(_DISCARD_MOVE[card])
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
                raise IllegalMove(f"{move!r} is not a card of Le 5 As' deck")
        seat = self._turn
        if seat is None:
            raise self.over()
        kind, arg = action
        if self._phase == 0:
            if kind >= _DRAW_STOCK:
                raise IllegalMove("first play a card onto an expedition or discard one; then draw")
            if arg not in self._hands[seat]:
                raise IllegalMove(f"you do not hold {arg}")
            return self._play(seat, arg) if kind == _PLAY else self._discard(seat, arg)
        if kind < _DRAW_STOCK:
            raise IllegalMove(
                "you have played this turn; now draw: 'draw' from the stock "
                "or 'draw S' (H, D, C, T) from the top of a discard pile"
            )
        if kind == _DRAW_STOCK:
            return self._draw(seat, self._deck[self._pos], self._pos + 1, self._piles, "draw")
        pile = self._piles[arg]
        if not pile:
            raise IllegalMove(f"the {SUIT_NAMES[SUITS[arg]]} discard pile is empty")
        if pile[-1] == self._discarded:
            raise IllegalMove(
                f"you cannot take back {pile[-1]}, the card you just discarded (cinq-as D3): "
                "draw from the stock or from another pile"
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
                f"your {SUIT_NAMES[card[-1]]} expedition already reaches {top}: "
                f"play a higher card there, or discard {card}"
            )
        if not value and top:
            raise IllegalMove(
                f"bonus cards open an expedition, before its first number card; your "
                f"{SUIT_NAMES[card[-1]]} expedition already has one: discard {card} instead"
            )
        new = self._copy()
        new._hands = self._with_hand(seat, tuple(c for c in self._hands[seat] if c != card))
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
        new._hands = self._with_hand(seat, tuple(c for c in self._hands[seat] if c != card))
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
        self._totals = (self._totals[0] + round_scores[0], self._totals[1] + round_scores[1])
        if self._round + 1 >= self._rounds:
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
            first = 1 - self._first
        self._deal(self._round + 1, first)

    def _deal(self, round_no: int, first: Seat) -> None:
        deck = deck_for_deal(self._decks, TAROT_SET, self._seed, NAME, round_no)
        hands = (
            tuple(sort_cards(deck[:HAND_SIZE])),
            tuple(sort_cards(deck[HAND_SIZE : 2 * HAND_SIZE])),
        )
        self._round = round_no
        self._first = first
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
    def _copy(self) -> CinqAsState:
        new = object.__new__(CinqAsState)
        new._legal = None
        new._seed = self._seed
        new._rounds = self._rounds
        new._opt_first = self._opt_first
        new._decks = self._decks
        new._round = self._round
        new._first = self._first
        new._deck = self._deck
        new._pos = self._pos
        new._hands = self._hands
        new._exps = self._exps
        new._tops = self._tops
        new._piles = self._piles
        new._turn = self._turn
        new._phase = self._phase
        new._discarded = self._discarded
        new._totals = self._totals
        new._history = self._history
        new._last = self._last
        new._result = self._result
        return new

    def _with_hand(
        self, seat: Seat, hand: tuple[str, ...]
    ) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return (hand, self._hands[1]) if seat == 0 else (self._hands[0], hand)

    # -- views ----------------------------------------------------------------------------
    def view(self, seat: Seat | None) -> Json:
        view = base_view(self, seat, self._hands[seat] if seat is not None else ())
        view.update(
            {
                "round": self._round + 1,
                "rounds": self._rounds,
                "first_player": self._first,
                "phase": "over" if self._turn is None else ("play", "draw")[self._phase],
                "expeditions": [
                    {suit: list(exp[i]) for i, suit in enumerate(SUITS)} for exp in self._exps
                ],
                "expedition_scores": [
                    {suit: expedition_score(exp[i]) for i, suit in enumerate(SUITS)}
                    for exp in self._exps
                ],
                "discards": {suit: list(self._piles[i]) for i, suit in enumerate(SUITS)},
                "just_discarded": self._discarded,
                "stock": len(self._deck) - self._pos,
                "hand_sizes": [len(self._hands[0]), len(self._hands[1])],
                "round_scores": [list(scores) for scores in self._history],
                "last_move": (
                    None if self._last is None else {"seat": self._last[0], "move": self._last[1]}
                ),
            }
        )
        return view

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

    def to_json(self) -> str:
        return dumps(
            {
                "game": NAME,
                "seed": self._seed,
                "rounds": self._rounds,
                "first_player_option": self._opt_first,
                "decks": [list(deck) for deck in self._decks],
                "round": self._round,
                "first": self._first,
                "deck": list(self._deck),
                "pos": self._pos,
                "hands": [list(hand) for hand in self._hands],
                "expeditions": [[list(e) for e in exp] for exp in self._exps],
                "piles": [list(pile) for pile in self._piles],
                "turn": self._turn,
                "phase": self._phase,
                "discarded": self._discarded,
                "totals": list(self._totals),
                "history": [list(scores) for scores in self._history],
                "last": list(self._last) if self._last else None,
                "result": self._result,
            }
        )


class CinqAs(Game):
    name = NAME
    title = "Le 5 As"
    aliases = ("cinq as", "5 as", "le 5 as", "five-aces", "five aces", "lost-cities")
    pack = TAROT_SET
    options = (
        Option("rounds", 3, minimum=1, maximum=9, help="rounds in the match"),
        Option("first_player", None, choices=(0, 1), help="who starts round 1 (default: lot)"),
    )

    def _new_match(
        self, seed: int, options: dict[str, int | None], decks: tuple[tuple[str, ...], ...]
    ) -> CinqAsState:
        state = object.__new__(CinqAsState)
        state._legal = None
        state._seed = seed
        rounds = options["rounds"]
        assert rounds is not None
        state._rounds = rounds
        state._opt_first = options["first_player"]
        state._decks = decks
        state._totals = (0, 0)
        state._history = ()
        state._last = None
        state._result = None
        first = seat_or_lot(options["first_player"], seed, NAME, "first player")
        state._deal(0, first)
        return state

    def _from_json(self, data: Json) -> CinqAsState:
        state = object.__new__(CinqAsState)
        state._legal = None
        state._seed = int(data["seed"])
        state._rounds = int(data["rounds"])
        first_option = data["first_player_option"]
        state._opt_first = None if first_option is None else int(first_option)
        state._decks = tuple(tuple(deck) for deck in data["decks"])
        state._round = int(data["round"])
        state._first = int(data["first"])
        state._deck = tuple(data["deck"])
        state._pos = int(data["pos"])
        hands = data["hands"]
        state._hands = (tuple(hands[0]), tuple(hands[1]))
        exps = [tuple(tuple(e) for e in exp) for exp in data["expeditions"]]
        if len(exps) != 2 or any(len(exp) != 5 for exp in exps):
            raise ValueError("expeditions must be two lists of five")
        state._exps = (exps[0], exps[1])
        state._tops = tuple(
            max((_VALUE[c] for c in exp[i]), default=0) for exp in exps for i in range(5)
        )
        state._piles = tuple(tuple(pile) for pile in data["piles"])
        turn = data["turn"]
        state._turn = None if turn is None else int(turn)
        state._phase = int(data["phase"])
        state._discarded = data["discarded"]
        totals = data["totals"]
        state._totals = (int(totals[0]), int(totals[1]))
        state._history = tuple((int(a), int(b)) for a, b in data["history"])
        last = data["last"]
        state._last = None if last is None else (int(last[0]), str(last[1]))
        state._result = data["result"]
        _check(state)
        return state

    def deal_secrets(
        self, seat: Seat, options: Mapping[str, object]
    ) -> tuple[list[int], list[int]]:
        first = options.get("first_player")
        if first not in (0, 1):
            raise ValueError("deal_secrets needs first_player fixed")
        opponent = range(HAND_SIZE, 2 * HAND_SIZE) if seat == first else range(HAND_SIZE)
        return list(opponent), list(range(40, len(TAROT_SET)))


def _check(state: CinqAsState) -> None:
    """Reject a stored state whose cards do not add up to the deck (a corrupt row)."""
    cards = [card for zone in state.zones().values() for card in zone]
    if sorted(cards) != sorted(TAROT_SET) or sorted(state._deck) != sorted(TAROT_SET):
        raise ValueError("cards do not add up to Le 5 As' deck")
    if state._turn not in (0, 1, None) or state._phase not in (0, 1):
        raise ValueError("impossible turn or phase")


GAME: Final = CinqAs()
CinqAsState.game = GAME
