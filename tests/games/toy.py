"""High card, a toy fifth game that lives in the tests: twelve cards (9 to A of spades and
hearts), four each, four left unseen; the elder leads, the other answers with any card, the
higher rank takes the trick (the leader's card on equal ranks) and a point, and leads next.
A deal is four tricks; the match is ``deals`` deals, the dealer alternating.

It follows the engine contract of docs/engine.md as a real game does — the shared match
header, stored fields, a typed view, refusals a player can act on — so that registering it
(``games.registering(GAME)``) shows a game added with nothing shared to edit: its computer
player is ``tests/ai/toy.py`` and its pictures ``tests/rendering/toy.py``, found beside it.
Unlike the games of ``games/``, it does not register itself on import: the test that brings
it registers it for its own duration, so no other test ever sees it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar, Final

from games import core, fields, header
from games.cards import sort_key
from games.core import Seat
from games.deals import deck_for_deal
from games.moves import Syntax
from games.phrases import describe_common
from games.refusals import not_held
from games.words import ENGLISH, N_, Words

NAME: Final = "high-card"
RANKS: Final = ("9", "10", "J", "Q", "K", "A")
PACK: Final = tuple(rank + suit for suit in "SH" for rank in RANKS)
HAND: Final = 4


def rank_of(card: str) -> int:
    return RANKS.index(card[:-1])


class ToyView(core.BaseView):
    """What a seat (or a spectator) may know of a match of high card."""

    dealer: Seat
    deal: int
    deals: int
    trick: list[core.CardEntry]
    taken: list[list[str]]
    """The cards of the tricks each seat has taken this deal: played face up, so public."""
    hand_sizes: list[int]
    history: list[list[int]]
    last_move: core.MoveView | None


def read_pair_of_cards(value: object) -> tuple[tuple[str, ...], tuple[str, ...]]:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise ValueError(f"expected two lists of cards, not {value!r}")
    return fields.read_cards(value[0]), fields.read_cards(value[1])


@header.match_state
class ToyState(header.MatchState):
    syntax: ClassVar[Mapping[str, Syntax]] = {"play": "card"}

    _hands: tuple[tuple[str, ...], tuple[str, ...]] = fields.stored(
        write=fields.lists, read=read_pair_of_cards
    )
    _stock: tuple[str, ...] = fields.stored(write=list, read=fields.read_cards)
    """The cards dealt to no one: never seen, by anyone."""
    _trick: tuple[tuple[Seat, str], ...] = fields.stored(
        write=fields.lists, read=lambda value: fields.read_rows(value, fields.read_seat, str)
    )
    _taken: tuple[tuple[str, ...], tuple[str, ...]] = fields.stored(
        write=fields.lists, read=read_pair_of_cards
    )

    def _start(self, first: Seat) -> None:
        self._deal_no = 0
        self._deal(first)

    def _deal(self, dealer: Seat) -> None:
        deck = deck_for_deal(self._decks, PACK, self._seed, NAME, self._deal_no)
        elder = 1 - dealer
        hands: list[tuple[str, ...]] = [(), ()]
        hands[elder], hands[dealer] = deck[:HAND], deck[HAND : 2 * HAND]
        self._hands = (hands[0], hands[1])
        self._stock = deck[2 * HAND :]
        self._dealer = dealer
        self._trick = ()
        self._taken = ((), ())
        self._turn = elder

    def _legal_moves(self) -> list[str]:
        if self._turn is None:
            return []
        return [f"play {card}" for card in sorted(self._hands[self._turn], key=sort_key)]

    def apply(self, move: str) -> ToyState:
        if self._turn is None:
            raise self.over()
        seat = self._turn
        canonical = self.canonical(move)
        card = canonical.split()[1]
        if card not in self._hands[seat]:
            raise not_held([card])
        new = self._copy()
        hands = list(new._hands)
        hands[seat] = tuple(held for held in hands[seat] if held != card)
        new._hands = (hands[0], hands[1])
        new._trick = (*new._trick, (seat, card))
        new._last = (seat, canonical)
        if len(new._trick) < 2:
            new._turn = 1 - seat
            return new
        (leader, led), (_, answer) = new._trick
        winner = 1 - leader if rank_of(answer) > rank_of(led) else leader
        taken = list(new._taken)
        taken[winner] = (*taken[winner], led, answer)
        new._taken = (taken[0], taken[1])
        new._trick = ()
        totals = list(new._totals)
        totals[winner] += 1
        new._totals = (totals[0], totals[1])
        new._turn = winner
        if new._hands[0] or new._hands[1]:
            return new
        new._history = (*new._history, (len(taken[0]) // 2, len(taken[1]) // 2))
        if len(new._history) < new._goal:
            new._deal_no += 1
            new._deal(1 - new._dealer)
            return new
        a, b = new._totals
        new._turn = None
        new._result = {"winner": 0 if a > b else 1 if b > a else None, "scores": [a, b]}
        return new

    def view(self, seat: Seat | None) -> ToyView:
        base = core.base_view(self, seat, () if seat is None else self._hands[seat])
        return {
            **base,
            "dealer": self._dealer,
            "deal": self._deal_no + 1,
            "deals": self._goal,
            "trick": [{"seat": who, "card": card} for who, card in self._trick],
            "taken": [list(self._taken[0]), list(self._taken[1])],
            "hand_sizes": [len(self._hands[0]), len(self._hands[1])],
            "history": [list(pair) for pair in self._history],
            "last_move": self._last_move_view(seat),
        }

    def zones(self) -> dict[str, list[str]]:
        return {
            "hand 0": list(self._hands[0]),
            "hand 1": list(self._hands[1]),
            "stock": list(self._stock),
            "trick": [card for _seat, card in self._trick],
            "taken 0": list(self._taken[0]),
            "taken 1": list(self._taken[1]),
        }

    def _check(self) -> None:
        cards = [card for zone in self.zones().values() for card in zone]
        if sorted(cards) != fields.sorted_pack(PACK):
            raise ValueError("the cards of a high card state do not add up to its pack")


def rules_help(words: Words) -> Sequence[str]:
    return (
        "Four cards each. The elder leads any card, the other answers with any card: the "
        "higher rank takes the trick and a point, and leads next. Type `play` and a card.",
    )


class HighCard(core.Game):
    name = NAME
    title = N_("High card")
    aliases = ("highcard",)
    pack = PACK
    goal_option = core.Option("deals", 2, minimum=1, maximum=5, help="deals in the match")
    first_seat_role = "dealer"
    first_seat_help = "who deals first (default: lot)"
    summary = "Four cards each, four tricks a deal: the higher card takes each trick."
    example_moves = ("play AS", "play 9H")
    example_options = "deals=3"

    def goal_text(self, value: int, words: Words = ENGLISH) -> str:
        return words.ngettext("in {n} deal", "in {n} deals", value).format(n=words.number(value))

    def _secrets(self, seat: Seat, dealer: Seat) -> tuple[list[int], list[int]]:
        # The elder gets deck[0:4], the dealer deck[4:8]; deck[8:] is dealt to no one.
        opponent = range(HAND, 2 * HAND) if seat != dealer else range(HAND)
        return list(opponent), list(range(2 * HAND, len(PACK)))


def describe(move: str, words: Words = ENGLISH) -> str:
    return describe_common(move, words)


GAME: Final = HighCard(ToyState, describe=describe, rules_help=rules_help)
