"""The engine contract shared by every game (ENGINE.md).

A :class:`Game` is the rules of one game: it deals matches and reads them back from JSON.
A :class:`State` is one moment of a match, a value: :meth:`State.apply` returns the next state.
Everything a game shares with the others — options, decks, seeded shuffles, move syntax,
errors — lives here, so a game's module holds only what is its own.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar, cast

from games.cards import SUITS, check_deck, parse_card, sort_cards

Json = dict[str, Any]
Seat = int
S = TypeVar("S", bound="State")


class IllegalMove(ValueError):
    """A move that is malformed or not allowed now; the message says why and what would do."""


@dataclass(frozen=True)
class Option:
    """One match option: its default and the values it accepts.

    ``default=None`` means "drawn from the seed" (first dealer, first player).
    """

    name: str
    default: int | None
    choices: tuple[int, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    help: str = ""

    def check(self, value: object) -> int | None:
        if value is None and self.default is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"option {self.name!r} must be a whole number, not {value!r}")
        if self.choices is not None and value not in self.choices:
            allowed = " or ".join(str(c) for c in self.choices)
            raise ValueError(f"option {self.name!r} must be {allowed}, not {value}")
        if self.minimum is not None and value < self.minimum:
            raise ValueError(f"option {self.name!r} must be at least {self.minimum}, not {value}")
        if self.maximum is not None and value > self.maximum:
            raise ValueError(f"option {self.name!r} must be at most {self.maximum}, not {value}")
        return value


SEAT_OPTION_CHOICES = (0, 1)

# How a verb takes its words: "none" (no words), "card" (exactly one card), "cards" (any number
# of cards, none allowed), "cards+" (one or more cards), "suit?" (optional suit letter), or a
# tuple of literal words accepted after the verb.
Syntax = str | tuple[str, ...]


def _parse_suit(word: str) -> str:
    try:
        return parse_card("2" + word)[-1]
    except ValueError:
        raise IllegalMove(f"{word!r} is not a suit: use S, H, D, C or T.") from None


def canonical_move(text: str, syntax: Mapping[str, Syntax]) -> str:
    """Rewrite a move as typed into canonical notation, or raise IllegalMove saying why.

    ``"Discard 9h  7s"`` → ``"discard 7S 9H"``: verb in lower case, cards as codes in
    canonical order, one space between words. Whether the move is legal now is not checked.
    """
    if not isinstance(text, str):
        raise IllegalMove(f"a move is text, like 'play QS', not {type(text).__name__}")
    words = text.replace(",", " ").split()
    if not words:
        raise IllegalMove("empty move: " + _known_verbs(syntax))
    verb, rest = words[0].lower(), words[1:]
    kind = syntax.get(verb)
    if kind is None:
        raise IllegalMove(f"unknown move {words[0]!r}: " + _known_verbs(syntax))
    if isinstance(kind, tuple):
        if len(rest) != 1 or rest[0].lower() not in kind:
            raise IllegalMove(f"write '{verb} {' or '.join(kind)}'")
        return f"{verb} {rest[0].lower()}"
    if kind == "none":
        if rest:
            raise IllegalMove(f"'{verb}' takes nothing after it")
        return verb
    if kind == "suit?":
        if not rest:
            return verb
        if len(rest) > 1:
            raise IllegalMove(f"'{verb}' takes at most one suit, like '{verb} H'")
        return f"{verb} {_parse_suit(rest[0])}"
    try:
        cards = [parse_card(word) for word in rest]
    except ValueError as error:
        raise IllegalMove(str(error)) from None
    if kind == "card" and len(cards) != 1:
        raise IllegalMove(f"'{verb}' takes exactly one card, like '{verb} QS'")
    if kind == "cards+" and not cards:
        raise IllegalMove(f"'{verb}' needs at least one card, like '{verb} QS'")
    return " ".join([verb, *sort_cards(cards)])


def _known_verbs(syntax: Mapping[str, Syntax]) -> str:
    return "moves are " + ", ".join(sorted(syntax)) + "."


def move_cards(move: str) -> list[str]:
    """The card codes named by a canonical move (``"discard 7S 9H"`` → ``["7S", "9H"]``)."""
    return [word for word in move.split()[1:] if word[-1] in SUITS and len(word) > 1]


def shuffled(pack: Sequence[str], seed: int, game: str, deal: int) -> tuple[str, ...]:
    """The deck of deal number ``deal`` (0-based) of a match: fixed by the seed alone.

    Each deal has its own generator, derived from the seed by a string (Python hashes string
    seeds with SHA-512, stable across runs and versions), so no state carries an RNG.
    """
    deck = list(pack)
    random.Random(f"tapis/{game}/{seed}/deal/{deal}").shuffle(deck)
    return tuple(deck)


def draw_lots(seed: int, game: str, what: str) -> Seat:
    """Seat 0 or 1, drawn by lot from the seed (who deals first, who plays first)."""
    return random.Random(f"tapis/{game}/{seed}/{what}").randrange(2)


def seat_or_lot(chosen: int | None, seed: int, game: str, what: str) -> Seat:
    """The seat an option names (first dealer, first player), else one drawn by lot."""
    return draw_lots(seed, game, what) if chosen is None else chosen


# Reading stored states: a value of the wrong kind is a corrupt row, refused with ValueError.
def read_int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"expected a whole number, not {value!r}")
    return value


def read_seat(value: object) -> Seat:
    if read_int(value) not in (0, 1):
        raise ValueError(f"a seat is 0 or 1, not {value!r}")
    return read_int(value)


def read_seat_or_none(value: object) -> Seat | None:
    return None if value is None else read_seat(value)


def read_scores(value: object) -> tuple[int, int]:
    """A pair of whole numbers, seat 0's then seat 1's."""
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise ValueError(f"expected two numbers, one per seat, not {value!r}")
    return read_int(value[0]), read_int(value[1])


def normalize_decks(
    deck: Sequence[str] | Sequence[Sequence[str]] | None, pack: Sequence[str]
) -> tuple[tuple[str, ...], ...]:
    """ENGINE.md ``deck``: one deck, or a list of decks for the first deals in turn."""
    if deck is None:
        return ()
    if isinstance(deck, str):
        raise ValueError("deck must be a list of card codes, or a list of such lists")
    items = list(deck)
    if not items:
        raise ValueError("deck is empty")
    if all(isinstance(item, str) for item in items):
        return (check_deck(cast(list[str], items), pack),)
    if any(isinstance(item, str) for item in items):
        raise ValueError("deck must be a list of card codes, or a list of such lists, not a mix")
    return tuple(check_deck(item, pack) for item in items)


def deck_for_deal(
    decks: tuple[tuple[str, ...], ...], pack: Sequence[str], seed: int, game: str, deal: int
) -> tuple[str, ...]:
    if deal < len(decks):
        return decks[deal]
    return shuffled(pack, seed, game, deal)


class Game(ABC):
    """The rules of one game, separate from any match of it (as OpenSpiel splits game/state)."""

    name: ClassVar[str]
    title: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    pack: ClassVar[tuple[str, ...]]
    options: ClassVar[tuple[Option, ...]]
    public_facts: ClassVar[tuple[str, ...]] = ()
    """View keys announced at the table that may legitimately depend on hidden cards
    (Piquet's declarations); the leak test stops, as a pass, when one of them differs."""

    def check_options(self, options: Mapping[str, object] | None) -> dict[str, int | None]:
        given = dict(options or {})
        known = {option.name: option for option in self.options}
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise ValueError(
                f"unknown option {', '.join(map(repr, unknown))} for {self.title}: "
                f"options are {', '.join(known)}"
            )
        return {
            name: option.check(given.get(name, option.default)) for name, option in known.items()
        }

    def new_match(
        self,
        seed: int,
        options: Mapping[str, object] | None = None,
        deck: Sequence[str] | Sequence[Sequence[str]] | None = None,
    ) -> State:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed must be a whole number, not {seed!r}")
        return self._new_match(seed, self.check_options(options), normalize_decks(deck, self.pack))

    @abstractmethod
    def _new_match(
        self, seed: int, options: dict[str, int | None], decks: tuple[tuple[str, ...], ...]
    ) -> State: ...

    def from_json(self, text: str) -> State:
        """The state that ``state.to_json()`` wrote; ValueError if the text is not one."""
        try:
            data = json.loads(text)
            if not isinstance(data, dict) or data.get("game") != self.name:
                raise ValueError(f"not a {self.title} state")
            return self._from_json(data)
        except (KeyError, TypeError, IndexError, AttributeError, json.JSONDecodeError) as error:
            raise ValueError(f"unreadable {self.title} state: {error!r}") from None

    @abstractmethod
    def _from_json(self, data: Json) -> State: ...

    @abstractmethod
    def deal_secrets(
        self, seat: Seat, options: Mapping[str, object]
    ) -> tuple[list[int], list[int]]:
        """Positions in the first deal's deck, for the leak test (ENGINE.md).

        Returns (cards dealt to ``seat``'s opponent, cards hidden from everyone) when the match
        is dealt with ``options`` (which fix the first dealer / first player).
        """

    def __repr__(self) -> str:
        return f"<Game {self.name}>"


class State(ABC):
    """One moment of a match. Immutable: :meth:`apply` returns a new state.

    Subclasses use ``__slots__`` and never assign after construction; the only write is the
    private memo of legal moves, which is invisible from outside.
    """

    __slots__ = ("_legal",)
    game: ClassVar[Game]
    syntax: ClassVar[Mapping[str, Syntax]]
    _legal: list[str] | None

    @property
    @abstractmethod
    def to_move(self) -> Seat | None: ...

    @property
    @abstractmethod
    def scores(self) -> tuple[int, int]: ...

    @property
    @abstractmethod
    def result(self) -> Json | None: ...

    def legal_moves(self) -> list[str]:
        try:
            legal = self._legal
        except AttributeError:
            legal = None
        if legal is None:
            legal = self._legal_moves()
            self._legal = legal
        return list(legal)

    @abstractmethod
    def _legal_moves(self) -> list[str]: ...

    @abstractmethod
    def apply(self: S, move: str) -> S: ...

    @abstractmethod
    def view(self, seat: Seat | None) -> Json: ...

    @abstractmethod
    def to_json(self) -> str: ...

    @abstractmethod
    def zones(self) -> dict[str, list[str]]:
        """Every card of the pack by where it lies (all of them, hidden ones too).

        For tests (cards are conserved) and debugging; never shown to a player.
        """

    def canonical(self, move: str) -> str:
        """``move`` in canonical notation (IllegalMove if malformed); legality not checked."""
        return canonical_move(move, self.syntax)

    def over(self) -> IllegalMove:
        return IllegalMove(f"this {self.game.title} match is over: no more moves")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return type(self) is type(other) and self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash(self.to_json())

    def __repr__(self) -> str:
        return f"<{self.game.title} to_move={self.to_move} scores={self.scores}>"


def base_view(state: State, seat: Seat | None, hand: Iterable[str]) -> Json:
    """The keys every view has (ENGINE.md); a game adds its own."""
    if seat not in (0, 1, None):
        raise ValueError(f"seat must be 0, 1 or None, not {seat!r}")
    mine = seat is not None
    return {
        "game": state.game.name,
        "seat": seat,
        "hand": sort_cards(hand) if mine else [],
        "to_move": state.to_move,
        "scores": list(state.scores),
        "legal_moves": state.legal_moves() if mine and state.to_move == seat else [],
        "result": state.result,
    }


def dumps(data: Json) -> str:
    """Compact, key-sorted JSON, so equal states write equal text."""
    return json.dumps(data, separators=(",", ":"), sort_keys=True)
