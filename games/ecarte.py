"""Écarté (docs/rules/ecarte.md): five cards each, a trump turned up, proposals and exchanges,
then five tricks; the player who plays without exchanging bears the risk of the hand.

A hand runs through four phases: elder plays or proposes (``propose``), the dealer accepts or
refuses (``respond``), both exchange face down (``discard``), then the tricks (``play``).

Speed matters — the computer opponent searches with random playouts — so, as in Le 5 As, the
state keeps small tuples and precomputed move strings; ``apply`` reads canonical moves through
one dictionary lookup and checks legality against the memoised legal moves, and only a refused
move is examined in detail to say why.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any, ClassVar, Final, TypedDict, cast

from games import core, fields, header
from games.cards import PIQUET_PACK, Cards, hand_order_by, sort_key, sorted_insert
from games.core import Seat
from games.deals import deck_for_deal
from games.moves import Syntax, move_cards
from games.phrases import (
    cards_text,
    closing_lines,
    describe_common,
    entry_line,
    points_text,
    seat_names,
)
from games.refusals import IllegalMove, not_held, not_in_pack
from games.registry import register
from games.words import ENGLISH, N_, Words, counted

NAME: Final = "ecarte"
PACK: Final = PIQUET_PACK
HAND_SIZE: Final = 5
TRICKS: Final = 5
TURN_UP: Final = 2 * HAND_SIZE
"""Index in the deck of the turned-up card; the stock starts just after it."""
MAX_EXCHANGE: Final = 5

# Rank, low to high: the ace ranks between the ten and the jack (ecarte "Cards").
RANKS_LOW_TO_HIGH: Final = ("7", "8", "9", "10", "A", "J", "Q", "K")
_POWER: Final = {card: RANKS_LOW_TO_HIGH.index(card[:-1]) for card in PACK}
_KEY: Final = {card: sort_key(card) for card in PACK}

# Phases of a hand.
PROPOSE, RESPOND, DISCARD, PLAY = 0, 1, 2, 3
PHASES: Final = ("propose", "respond", "discard", "play")

# Moves as (kind, argument).
_PLAY, _PROPOSE, _ACCEPT, _REFUSE, _DISCARD, _KING = range(6)
_PLAY_MOVE: Final = {card: f"play {card}" for card in PACK}
_MOVES: Final[dict[str, tuple[int, Any]]] = {
    **{move: (_PLAY, card) for card, move in _PLAY_MOVE.items()},
    "propose": (_PROPOSE, None),
    "accept": (_ACCEPT, None),
    "refuse": (_REFUSE, None),
    "king": (_KING, None),
    "discard": (_DISCARD, ()),
    **{f"discard {card}": (_DISCARD, (card,)) for card in PACK},
}


def second_takes(lead: str, second: str, trump: str) -> bool:
    """True if ``second`` takes the trick led by ``lead``: higher in the suit led, or a trump."""
    suit = second[-1]
    if suit == lead[-1]:
        return _POWER[second] > _POWER[lead]
    return suit == trump


def must_play(hand: tuple[str, ...], lead: str, trump: str) -> list[str]:
    """The cards of ``hand`` that may answer ``lead`` (ecarte D9): follow suit and beat it if
    able; void in the suit led, trump if able; otherwise any card."""
    suit = lead[-1]
    same = [card for card in hand if card[-1] == suit]
    if same:
        power = _POWER[lead]
        higher = [card for card in same if _POWER[card] > power]
        return higher or same
    if suit != trump:
        trumps = [card for card in hand if card[-1] == trump]
        if trumps:
            return trumps
    return list(hand)


def hand_points(tricks_won: tuple[int, int], committed: Seat | None) -> tuple[Seat, int]:
    """(who scores, how many points) for a finished hand: the scoring table of ecarte D6/D7/D10.

    Nobody committed: the winner scores 1, or 2 for the vole. A committed player who wins scores
    the same; one who loses gives the opponent 2, or 3 if they took no trick (ecarte D10).
    """
    winner = 0 if tricks_won[0] >= 3 else 1
    if committed is None or committed == winner:
        return winner, 2 if tricks_won[winner] == TRICKS else 1
    return winner, 3 if tricks_won[committed] == 0 else 2


_insert: Final = sorted_insert(_KEY)
"""A hand (kept in canonical order, so a view never tells which card was drawn) + a card."""


def _cards(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"


Trick = tuple[tuple[Seat, str], ...]
Tricks = tuple[tuple[Trick, Seat], ...]
Previous = tuple[Seat, Seat | None, Tricks, tuple[int, int]]
"""The hand just finished, for the table to show: (dealer, committed, tricks, points)."""


def _tricks_json(tricks: Tricks) -> list[core.TrickView]:
    try:  # every finished trick has two cards: written out, with no call per trick
        return [
            {"cards": [{"seat": s0, "card": c0}, {"seat": s1, "card": c1}], "winner": winner}
            for ((s0, c0), (s1, c1)), winner in tricks
        ]
    except ValueError:  # a stored trick of another length, read back as it was
        return [{"cards": _entries(cards), "winner": winner} for cards, winner in tricks]


def _entries(cards: Trick) -> list[core.CardEntry]:
    if len(cards) == 2:  # every finished trick: written out, with no loop to start
        (s0, card0), (s1, card1) = cards
        return [{"seat": s0, "card": card0}, {"seat": s1, "card": card1}]
    return [{"seat": s, "card": card} for s, card in cards]


def _stored_tricks(tricks: Tricks) -> list[Any]:
    return [[[list(entry) for entry in cards], winner] for cards, winner in tricks]


def _read_tricks(value: Any) -> Tricks:
    return cast(Tricks, fields.read_rows(value, _read_trick, fields.read_seat))


def _pair(value: Any) -> tuple[tuple[str, ...], tuple[str, ...]]:
    if len(value) != 2:
        raise ValueError("expected one list per seat")
    return tuple(str(c) for c in value[0]), tuple(str(c) for c in value[1])


def _read_trick(value: Any) -> Trick:
    return cast(Trick, fields.read_rows(value, fields.read_seat, str))


def _read_exchanges(value: Any) -> tuple[tuple[Seat, int], ...]:
    return cast(
        tuple[tuple[Seat, int], ...], fields.read_rows(value, fields.read_seat, fields.read_int)
    )


def _stored_previous(previous: Previous | None) -> list[Any] | None:
    if previous is None:
        return None
    dealer, committed, tricks, points = previous
    return [dealer, committed, _stored_tricks(tricks), list(points)]


def _read_previous(value: Any) -> Previous | None:
    if value is None:
        return None
    dealer, committed, tricks, points = value
    return (
        fields.read_seat(dealer),
        fields.read_seat_or_none(committed),
        _read_tricks(tricks),
        fields.read_scores(points),
    )


class ExchangeView(TypedDict):
    """One exchange: who discarded, and how many cards (never which)."""

    seat: Seat
    count: int


class PreviousHandView(TypedDict):
    """The hand just finished, shown until the next one ends."""

    dealer: Seat
    committed: Seat | None
    tricks: list[core.TrickView]
    tricks_won: list[int]
    points: list[int]


class EcarteView(core.BaseView):
    """A seat's view of an Écarté match, field by field in docs/views.md."""

    deal: int
    dealer: Seat
    elder: Seat
    target: int
    trump: str
    turn_up: str
    stock: int
    phase: str
    committed: Seat | None
    proposals: int
    exchanges: list[ExchangeView]
    discarded: list[str]
    king: Seat | None
    trick: list[core.CardEntry]
    tricks: list[core.TrickView]
    tricks_won: list[int]
    hand_sizes: list[int]
    deal_scores: list[int]
    hand_scores: list[list[int]]
    previous_hand: PreviousHandView | None
    last_move: core.MoveView | None


@header.match_state
class EcarteState(header.MatchState):
    syntax: ClassVar[Mapping[str, Syntax]] = {
        "play": "card",
        "propose": "none",
        "accept": "none",
        "refuse": "none",
        "discard": "cards",
        "king": "none",
    }

    # The header (seed, target, deal, dealer, totals …) is MatchState's; these are Écarté's.
    _deck: tuple[str, ...] = fields.stored(write=list, read=fields.read_cards)
    _pos: int = fields.stored(read=fields.read_int)
    _trump: str = fields.derived()
    _hands: tuple[tuple[str, ...], tuple[str, ...]] = fields.stored(write=fields.lists, read=_pair)
    _discards: tuple[tuple[str, ...], tuple[str, ...]] = fields.stored(
        write=fields.lists, read=_pair
    )
    _phase: int = fields.stored(read=fields.read_int)
    _committed: Seat | None = fields.stored(read=fields.read_seat_or_none)
    _proposals: int = fields.stored(read=fields.read_int)
    _exchanges: tuple[tuple[Seat, int], ...] = fields.stored(
        write=fields.lists, read=_read_exchanges
    )
    _king: Seat | None = fields.stored(read=fields.read_seat_or_none)
    _trick: Trick = fields.stored(write=fields.lists, read=_read_trick)
    _tricks: Tricks = fields.stored(write=_stored_tricks, read=_read_tricks)
    _won: tuple[int, int] = fields.derived()
    _points: tuple[int, int] = fields.stored(write=list, read=fields.read_scores)
    _previous: Previous | None = fields.stored(write=_stored_previous, read=_read_previous)

    # -- the contract ---------------------------------------------------------------------
    @property
    def elder(self) -> Seat:
        return 1 - self._dealer

    @property
    def king_of_trumps(self) -> str:
        return "K" + self._trump

    def _legal_moves(self) -> list[str]:
        seat = self._turn
        if seat is None:
            return []
        phase = self._phase
        hand = self._hands[seat]
        if phase == PLAY:
            trick = self._trick
            cards = must_play(hand, trick[0][1], self._trump) if trick else hand
            moves = list(map(_PLAY_MOVE.__getitem__, cards))
            # The length test first: after the first card the king is out of the question.
            if len(hand) == HAND_SIZE and self._may_announce(hand):
                moves.append("king")
            return moves
        if phase == PROPOSE:
            moves = list(map(_PLAY_MOVE.__getitem__, hand))
            if self._pos < len(self._deck):  # ecarte D5
                moves.append("propose")
            if self._may_announce(hand):
                moves.append("king")
            return moves
        if phase == RESPOND:
            return ["accept", "refuse"]
        least, most = self._exchange_limits(seat)
        return [
            " ".join(("discard", *cards))
            for count in range(least, most + 1)
            for cards in combinations(hand, count)
        ]

    def _may_announce(self, hand: tuple[str, ...]) -> bool:
        """ecarte D8: the holder, as they come to play their first card, once."""
        return len(hand) == HAND_SIZE and self._king is None and "K" + self._trump in hand

    def _exchange_limits(self, seat: Seat) -> tuple[int, int]:
        """(fewest, most) cards ``seat`` may discard now (ecarte D4)."""
        stock = len(self._deck) - self._pos
        return (0 if seat == self._dealer else 1), min(MAX_EXCHANGE, stock)

    def apply(self, move: str) -> EcarteState:
        seat = self._turn
        if seat is None:
            raise self.over()
        action = _MOVES.get(move)
        if action is None:
            move, action = self._read(move)
        legal = self._legal
        if legal is None:
            legal = self._legal = self._legal_moves()
        if move not in legal:
            raise self._refusal(seat, action)
        kind, arg = action
        if kind == _PLAY:
            return self._play(seat, arg)
        if kind == _DISCARD:
            return self._discard(seat, arg, move)
        if kind == _KING:
            return self._announce(seat)
        if kind == _PROPOSE:
            new = self._copy()
            new._phase = RESPOND
            new._turn = self._dealer
            new._proposals = self._proposals + 1
            new._last = (seat, "propose")
            return new
        new = self._copy()
        new._turn = self.elder
        new._last = (seat, move)
        if kind == _ACCEPT:
            new._phase = DISCARD
        else:
            new._phase = PLAY
            # ecarte D7: refusing the first proposal reverses the contract; later, nobody.
            new._committed = seat if self._proposals == 1 else None
        return new

    def _read(self, text: str) -> tuple[str, tuple[int, Any]]:
        """A move as typed → (canonical text, action); IllegalMove if malformed."""
        move = self.canonical(text)
        action = _MOVES.get(move)
        if action is not None:
            return move, action
        cards = move_cards(move)
        strangers = [card for card in cards if card not in _POWER]
        if strangers:
            raise not_in_pack(strangers)
        return move, (_DISCARD, tuple(cards))

    # -- refusals: only an illegal move gets here, to be told why -----------------------------
    def _refusal(self, seat: Seat, action: tuple[int, Any]) -> IllegalMove:
        kind, arg = action
        phase = self._phase
        hand = self._hands[seat]
        if kind == _KING:
            return self._why_not_king(hand)
        if phase == RESPOND:
            # Only the dealer, who is to answer, gets here: it is said to them.
            return IllegalMove(
                N_(
                    "Your opponent has proposed an exchange: accept it, and you both exchange "
                    "cards, or refuse it, and play begins."
                )
            )
        if phase == DISCARD:
            return self._why_not_discard(seat, kind, arg, hand)
        if kind in (_ACCEPT, _REFUSE):
            return IllegalMove(
                N_("There is no proposal to answer: the dealer answers only after elder proposes.")
            )
        if kind == _DISCARD:
            return IllegalMove(N_("Cards are exchanged only after the dealer accepts a proposal."))
        if kind == _PROPOSE:
            return self._why_not_propose(seat)
        if arg not in hand:
            return not_held((arg,))
        lead = self._trick[0][1]
        return IllegalMove(
            N_(
                "{card} may not answer {lead}: the second player follows suit and beats the "
                "card led if able, else trumps if able."
            ),
            card=Cards.of((arg,)),
            lead=Cards.of((lead,)),
        )

    def _why_not_king(self, hand: tuple[str, ...]) -> IllegalMove:
        king = Cards.of((self.king_of_trumps,))
        if self._deck[TURN_UP] == self.king_of_trumps:
            return IllegalMove(
                N_("The king of trumps, {king}, is the turn-up: the dealer has scored it."),
                king=king,
            )
        if self._king is not None:
            return IllegalMove(N_("The king of trumps has already been announced this hand."))
        if self.king_of_trumps not in hand:
            return IllegalMove(N_("You do not hold the king of trumps, {king}."), king=king)
        if self._phase in (RESPOND, DISCARD):
            return IllegalMove(
                N_(
                    "The king is announced as you come to play your first card, not during "
                    "the proposals or the exchanges."
                )
            )
        return IllegalMove(
            N_(
                "The king is announced only as you come to play your first card of the hand, "
                "and you have already played."
            )
        )

    def _why_not_propose(self, seat: Seat) -> IllegalMove:
        if self._phase == PROPOSE:
            return IllegalMove(N_("The stock is empty: there are no more proposals."))
        if seat != self.elder:
            return IllegalMove(N_("Only elder proposes, before the first card is played."))
        if self._king == seat and not self._tricks and len(self._hands[seat]) == HAND_SIZE:
            return IllegalMove(N_("Announcing the king meant playing: no proposal can follow it."))
        return IllegalMove(N_("Play has begun: there are no more proposals."))

    def _why_not_discard(
        self, seat: Seat, kind: int, arg: tuple[str, ...] | None, hand: tuple[str, ...]
    ) -> IllegalMove:
        if kind != _DISCARD or arg is None:
            return IllegalMove(
                N_("The proposal was accepted: now discard cards face down, to draw as many.")
            )
        missing = [card for card in arg if card not in hand]
        if missing:
            return not_held(missing)
        if len(set(arg)) != len(arg):
            return IllegalMove(N_("Each card may be discarded only once."))
        if not arg:
            return IllegalMove(N_("You proposed the exchange: discard at least one card."))
        # What is left: more cards than the stock can replace (a hand has at most five).
        return IllegalMove(
            counted(
                "The stock holds only {n} card, so no more may be discarded.",
                "The stock holds only {n} cards, so no more may be discarded.",
                len(self._deck) - self._pos,
            )
        )

    # -- moves ----------------------------------------------------------------------------
    def _play(self, seat: Seat, card: str) -> EcarteState:
        new = self._copy()
        hand = self._hands[seat]
        i = hand.index(card)
        hand = hand[:i] + hand[i + 1 :]
        new._hands = (hand, self._hands[1]) if seat == 0 else (self._hands[0], hand)
        new._last = (seat, _PLAY_MOVE[card])
        if self._phase == PROPOSE:
            new._phase = PLAY
            if self._proposals == 0:  # ecarte D6: playing without proposing commits elder
                new._committed = seat
        trick = self._trick
        if not trick:
            new._trick = ((seat, card),)
            new._turn = 1 - seat
            return new
        leader, lead = trick[0]
        winner = seat if second_takes(lead, card, self._trump) else leader
        new._trick = ()
        new._tricks = (*self._tricks, (((leader, lead), (seat, card)), winner))
        won = self._won
        new._won = won = (won[0] + 1, won[1]) if winner == 0 else (won[0], won[1] + 1)
        if won[0] + won[1] == TRICKS:
            new._end_hand()
        else:
            new._turn = winner
        return new

    def _announce(self, seat: Seat) -> EcarteState:
        new = self._copy()
        new._king = seat
        new._last = (seat, "king")
        if self._phase == PROPOSE:
            # ecarte D8: announcing instead of proposing means playing; with no proposal
            # made before, elder is committed (D6).
            new._phase = PLAY
            if self._proposals == 0:
                new._committed = seat
        new._score(seat, 1)
        return new

    def _discard(self, seat: Seat, cards: tuple[str, ...], move: str) -> EcarteState:
        new = self._copy()
        count = len(cards)
        pos = self._pos
        hand = tuple(held for held in self._hands[seat] if held not in cards)
        for card in self._deck[pos : pos + count]:
            hand = _insert(hand, card)
        new._hands = (hand, self._hands[1]) if seat == 0 else (self._hands[0], hand)
        new._pos = pos = pos + count
        discards = (*self._discards[seat], *cards)
        new._discards = (
            (discards, self._discards[1]) if seat == 0 else (self._discards[0], discards)
        )
        new._exchanges = (*self._exchanges, (seat, count))
        new._last = (seat, move)
        if seat == self._dealer or pos == len(self._deck):
            # ecarte D4: with the stock empty, the dealer's exchange is skipped.
            new._phase = PROPOSE
            new._turn = self.elder
        else:
            new._turn = self._dealer
        return new

    # -- scoring and deals ----------------------------------------------------------------
    def _score(self, seat: Seat, points: int) -> None:
        """Add points at once; reaching the target ends the match there (ecarte D2)."""
        totals = self._totals
        self._totals = totals = (
            (totals[0] + points, totals[1]) if seat == 0 else (totals[0], totals[1] + points)
        )
        here = self._points
        self._points = (here[0] + points, here[1]) if seat == 0 else (here[0], here[1] + points)
        if totals[seat] >= self._goal:
            self._history = (*self._history, self._points)
            self._turn = None
            self._result = {
                "winner": seat,
                "scores": list(totals),
                "target": self._goal,
                "hands": [list(hand) for hand in self._history],
            }

    def _end_hand(self) -> None:
        scorer, points = hand_points(self._won, self._committed)
        self._score(scorer, points)
        if self._turn is None:
            return
        self._history = (*self._history, self._points)
        self._previous = (self._dealer, self._committed, self._tricks, self._points)
        self._deal(self._deal_no + 1, 1 - scorer)  # ecarte D1: the loser deals

    def _deal(self, deal_no: int, dealer: Seat) -> None:
        deck = deck_for_deal(self._decks, PACK, self._seed, NAME, deal_no)
        elder_hand = tuple(sorted(deck[:HAND_SIZE], key=_KEY.__getitem__))
        dealer_hand = tuple(sorted(deck[HAND_SIZE:TURN_UP], key=_KEY.__getitem__))
        self._deal_no = deal_no
        self._dealer = dealer
        self._deck = deck
        self._pos = TURN_UP + 1
        self._trump = deck[TURN_UP][-1]
        self._hands = (elder_hand, dealer_hand) if dealer == 1 else (dealer_hand, elder_hand)
        self._discards = ((), ())
        self._phase = PROPOSE
        self._turn = 1 - dealer
        self._committed = None
        self._proposals = 0
        self._exchanges = ()
        self._king = None
        self._trick = ()
        self._tricks = ()
        self._won = (0, 0)
        self._points = (0, 0)
        if deck[TURN_UP][:-1] == "K":  # ecarte D3
            self._score(dealer, 1)

    # -- views ----------------------------------------------------------------------------
    def view(self, seat: Seat | None) -> EcarteView:
        base = core.base_view(self, seat, self._hands[seat] if seat is not None else ())
        view: EcarteView = {
            **base,
            "deal": self._deal_no + 1,
            "dealer": self._dealer,
            "elder": self.elder,
            "target": self._goal,
            "trump": self._trump,
            "turn_up": self._deck[TURN_UP],
            "stock": len(self._deck) - self._pos,
            "phase": "over" if self._turn is None else PHASES[self._phase],
            "committed": self._committed,
            "proposals": self._proposals,
            "exchanges": (
                [{"seat": s, "count": n} for s, n in self._exchanges] if self._exchanges else []
            ),
            "discarded": list(self._discards[seat]) if seat is not None else [],
            "king": self._king,
            "trick": _entries(self._trick) if self._trick else [],
            "tricks": _tricks_json(self._tricks) if self._tricks else [],
            "tricks_won": list(self._won),
            "hand_sizes": [len(self._hands[0]), len(self._hands[1])],
            "deal_scores": list(self._points),
            "hand_scores": list(map(list, self._history)),
            "previous_hand": self._previous_hand(),
            "last_move": self._public_last(seat),
        }
        return view

    def _previous_hand(self) -> PreviousHandView | None:
        """The hand just finished (all its cards were played face up), until the next ends."""
        if self._previous is None:
            return None
        dealer, committed, tricks, points = self._previous
        winners = [winner for _cards, winner in tricks]
        return {
            "dealer": dealer,
            "committed": committed,
            "tricks": _tricks_json(tricks),
            "tricks_won": [winners.count(0), winners.count(1)],
            "points": list(points),
        }

    def _public_last(self, seat: Seat | None) -> core.MoveView | None:
        """The last move as ``seat`` may know it: others' discards are face down (counts only)."""
        if self._last is None:
            return None
        mover, move = self._last[0], self._last[1]
        if mover != seat and move.startswith("discard "):
            move = "discard " + _cards(len(move.split()) - 1)
        return {"seat": mover, "move": move}

    def zones(self) -> dict[str, list[str]]:
        return {
            "hand0": list(self._hands[0]),
            "hand1": list(self._hands[1]),
            "turn_up": [self._deck[TURN_UP]],
            "stock": list(self._deck[self._pos :]),
            "discards0": list(self._discards[0]),
            "discards1": list(self._discards[1]),
            "trick": [card for _seat, card in self._trick],
            "tricks": [card for cards, _winner in self._tricks for _seat, card in cards],
        }

    # -- stored states --------------------------------------------------------------------
    def _start(self, first: Seat) -> None:
        self._previous = None
        self._deal(0, first)  # ecarte D1

    def _derive(self) -> None:
        self._trump = self._deck[TURN_UP][-1]
        won = [0, 0]
        for _trick, winner in self._tricks:
            won[winner] += 1
        self._won = (won[0], won[1])

    def _check(self) -> None:
        """Reject a stored state whose cards do not add up to the deck (a corrupt row)."""
        pack = fields.sorted_pack(PACK)
        cards = [card for zone in self.zones().values() for card in zone]
        if sorted(cards) != pack or sorted(self._deck) != pack:
            raise ValueError("cards do not add up to Écarté's 32-card pack")
        if self._phase not in (PROPOSE, RESPOND, DISCARD, PLAY):
            raise ValueError(f"impossible phase {self._phase}")
        if not TURN_UP < self._pos <= len(PACK):
            raise ValueError(f"impossible stock position {self._pos}")
        if self._goal not in (11, 17):
            raise ValueError(f"impossible target {self._goal}")


hand_order: Final = hand_order_by(("K", "Q", "J", "A", "10", "9", "8", "7"))
"""A card's place in a hand: suits grouped, then Écarté's order, the ace below the jack."""


# -- words: Écarté's moves, hand breakdown and rules help in players' words -------------------
_FIXED_PHRASES: Final = {
    "propose": N_("propose an exchange"),
    "accept": N_("accept the proposal"),
    "refuse": N_("refuse the proposal"),
    "king": N_("announce the king of trumps"),
}
"""Écarté's moves of one word, each with its phrase."""


def describe(move: str, words: Words = ENGLISH) -> str:
    """A move in players' words: "K♥", "propose an exchange", "keep all cards"."""
    return describe_common(move, words, _FIXED_PHRASES)


def deal_summary(
    view: EcarteView, words: Words = ENGLISH, names: Sequence[str] | None = None
) -> list[str]:
    """The hand that ended last, as ecarte D6–D10 score it: tricks, the vole, the contract,
    the king, the last trick, then the hand's points. A match over shows its last hand."""
    who = seat_names(words, names)
    previous = view.get("previous_hand")
    if view["phase"] == "over":
        tricks, committed = view["tricks"], view["committed"]
        hand_scores, number = view.get("deal_scores", [0, 0]), view["deal"]
    elif previous is not None:
        tricks, committed = previous["tricks"], previous["committed"]
        hand_scores, number = previous["points"], view["deal"] - 1
    else:
        return []
    won = [sum(1 for done in tricks if done["winner"] == seat) for seat in (0, 1)]
    lines = []
    trick_points = [0, 0]
    if len(tricks) == TRICKS:
        scorer, gained = hand_points((won[0], won[1]), committed)
        trick_points[scorer] = gained
        for seat in (0, 1):
            lines.append(
                words.ngettext(
                    "{name} took {n} trick.", "{name} took {n} tricks.", won[seat]
                ).format(name=who[seat], n=words.number(won[seat]))
            )
        if won[scorer] == TRICKS:
            lines.append(
                words.gettext("{name} took all five tricks: the vole.").format(name=who[scorer])
            )
        if committed is not None:
            # Said of the winner, not of "the opponent": read in the loser's own hand, "the
            # opponent" would be the reader.
            if committed == scorer:
                line = words.gettext("{name} played without exchanging and made the tricks.")
            elif won[committed] == 0:
                line = words.gettext(
                    "{name} played without exchanging and took no trick: the winner scores 3."
                )
            else:
                line = words.gettext(
                    "{name} played without exchanging and lost the hand: "
                    "the winner's points are doubled."
                )
            lines.append(line.format(name=who[committed]))
        lines.append(
            words.gettext("{name} scores {points} for the tricks.").format(
                name=who[scorer], points=points_text(gained, words)
            )
        )
    else:
        lines.append(words.gettext("The match ended before the hand was played out."))
    for seat in (0, 1):
        if hand_scores[seat] - trick_points[seat] > 0:
            lines.append(
                words.gettext("{name} scores the king of trumps: 1 point.").format(name=who[seat])
            )
    if tricks:
        last = tricks[-1]
        lines.append(
            words.gettext("Last trick ({name}): {cards}.").format(
                cards=cards_text([entry["card"] for entry in last["cards"]], words),
                name=who[last["winner"]],
            )
        )
    label = words.gettext("Hand {n}").format(n=words.number(number))
    return lines + closing_lines(label, who, hand_scores, view["result"], words)


def rules_help(words: Words = ENGLISH) -> tuple[str, ...]:
    """How to play Écarté, from docs/rules/ecarte.md, in plain words, a paragraph a string."""
    return (
        words.gettext(
            "Écarté is played with 32 cards, from the seven to the ace. The king ranks "
            "highest, then the queen, the jack, the ace, the ten, the nine, the eight and "
            "the seven. Each player gets five cards and the next card is turned up: its "
            "suit is trumps. A king turned up gives the dealer 1 point."
        ),
        words.gettext(
            "The player who does not deal (elder) either plays at once or asks for new "
            "cards. Asking is called proposing. The dealer may accept: then both discard "
            "unwanted cards face down and draw as many from the stock, and elder chooses "
            "again. If the dealer refuses, play begins."
        ),
        words.gettext(
            "Whoever plays without exchanging bears the risk of the hand: elder who plays "
            "without proposing, or the dealer who refuses the first proposal. They score "
            "as usual if they take three tricks or more, but if they fail their opponent "
            "scores 2 points, or 3 if they took no trick at all."
        ),
        words.gettext(
            "Then five tricks are played. The second player must follow suit and beat the "
            "card led if they can; without that suit they must trump if they can. Three or "
            "four tricks score 1 point, all five tricks (the vole) score 2. The first to "
            "reach the target (11 points, or 17) wins, even in the middle of a hand."
        ),
        words.gettext(
            "A trick goes to the higher card of the suit led, or to the trump played to it. "
            "For example, trumps are diamonds and elder, holding the king of diamonds, "
            "plays at once without proposing: elder is committed. Taking three or four "
            "tricks scores 1, all five 2; taking only one or two gives the dealer 2, none "
            "3. Announcing the king of diamonds adds 1 whatever happens."
        ),
        words.gettext(
            "Moves: `play` and a card plays it, like `play KH`. `propose` asks for new "
            "cards; the dealer answers `accept` or `refuse`. `discard` and the cards you "
            "exchange, like `discard 7S 8D`; the dealer may type `discard` alone to keep all "
            "cards. `king` announces the king of trumps for 1 point, as you come to play "
            "your first card; it does not use up your turn."
        ),
        words.gettext(
            "Options: `target` is the score that wins the match, 11 or 17 (11 if not "
            "given). `first_seat` chooses who deals first: 0 for the challenger, 1 for the "
            "other player; without it, the lot decides."
        ),
    )


class Ecarte(core.Game):
    name = NAME
    title = N_("Écarté")
    # No aliases needed: the registry folds case and accents, so 'Écarté' finds 'ecarte'.
    pack = PACK
    goal_option = core.Option("target", 11, choices=(11, 17), help="points to win the match")
    first_seat_role = "dealer"
    first_seat_help = "who deals first (default: lot)"
    summary = (
        "Five cards each and a trump turned up: propose an exchange or play at once, then "
        "five tricks; the first to 11 points (or 17) wins."
    )
    example_moves = ("play KH", "propose", "accept", "discard 7S 8D")
    example_options = "target=17"
    seat_keys = ("committed", "king")
    deal_line = N_("Hand {n}, dealt by {name}.")

    def table_extras(
        self, view: Mapping[str, Any], words: Words, names: tuple[str, str]
    ) -> list[str]:
        lines = []
        for exchange in view.get("exchanges") or ():
            said = self.entry_text("exchanges", exchange, words)
            if said is not None:
                lines.append(entry_line(names[int(exchange["seat"])], said, None, words))
        discarded = view.get("discarded")
        if discarded:
            lines.append(
                words.gettext("Your discards: {cards}.").format(cards=cards_text(discarded, words))
            )
        king = view.get("king")
        if king in (0, 1):
            lines.append(
                words.gettext("{name} announced the king of trumps.").format(name=names[king])
            )
        return lines

    def entry_text(self, key: str, entry: Mapping[str, Any], words: Words = ENGLISH) -> str | None:
        if key == "exchanges":  # how many cards one side changed: which ones stay hidden
            count = int(entry["count"])
            if count == 0:
                return words.gettext("no card changed")
            return words.ngettext("{n} card changed", "{n} cards changed", count).format(
                n=words.number(count)
            )
        return None

    def _secrets(self, seat: Seat, dealer: Seat) -> tuple[list[int], list[int]]:
        # The non-dealer gets deck[0:5], the dealer deck[5:10]; the stock starts at 11.
        opponent = range(HAND_SIZE, TURN_UP) if seat != dealer else range(HAND_SIZE)
        return list(opponent), list(range(TURN_UP + 1, len(PACK)))


GAME: Final = register(
    Ecarte(EcarteState, describe=describe, deal_summary=deal_summary, rules_help=rules_help)
)
