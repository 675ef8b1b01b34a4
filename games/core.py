"""The engine contract shared by every game (docs/engine.md).

A :class:`Game` is the rules of one game: it deals matches and reads them back from JSON.
A :class:`State` is one moment of a match, a value: :meth:`State.apply` returns the next state.
Everything a game shares with the others — options, decks, seeded shuffles, move syntax,
errors, the match header of every state (:class:`MatchState`) and the way a state's fields
are copied and stored — lives here, so a game's module holds only what is its own.
"""

from __future__ import annotations

import dataclasses
import functools
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self, TypedDict, TypeVar, cast

from games.cards import sort_cards
from games.deals import normalize_decks, seat_or_lot
from games.moves import Syntax, canonical_move
from games.phrases import (
    describe_common,
    notation_help,
    seat_names,
    table_lines,
    typed_in,
)
from games.refusals import IllegalMove, Refusal
from games.words import ENGLISH, N_, Either, Message, Words, counted

Json = dict[str, Any]
Seat = int
S = TypeVar("S", bound="State")


class CardEntry(TypedDict):
    """A card on the table and the seat that put it there."""

    seat: Seat
    card: str


class TrickView(TypedDict):
    """A finished trick: its cards in the order played, and who took it."""

    cards: list[CardEntry]
    winner: Seat


class MoveView(TypedDict):
    """A move made, as the viewer may know it."""

    seat: Seat
    move: str


class BaseView(TypedDict):
    """The keys of every view (docs/views.md); each game's view adds its own."""

    game: str
    seat: Seat | None
    hand: list[str]
    to_move: Seat | None
    scores: list[int]
    legal_moves: list[str]
    result: Json | None


@dataclass(frozen=True)
class Option:
    """One match option: its default and the values it accepts.

    ``default=None`` means "drawn from the seed" (the first seat). ``aliases`` are older
    names still accepted for it: options are stored with each match, so a name once accepted
    must be accepted forever (docs/engine.md, "Options").
    """

    name: str
    default: int | None
    choices: tuple[int, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    help: str = ""
    aliases: tuple[str, ...] = ()

    def check(self, value: object) -> int | None:
        if value is None and self.default is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise Refusal(
                N_("option `{name}` must be a whole number, not “{value}”"),
                name=self.name,
                value=str(value),
            )
        if self.choices is not None and value not in self.choices:
            raise Refusal(
                N_("option `{name}` must be {allowed}, not {value}"),
                name=self.name,
                allowed=Either([str(choice) for choice in self.choices]),
                value=value,
            )
        if self.minimum is not None and value < self.minimum:
            raise Refusal(
                N_("option `{name}` must be at least {least}, not {value}"),
                name=self.name,
                least=self.minimum,
                value=value,
            )
        if self.maximum is not None and value > self.maximum:
            raise Refusal(
                N_("option `{name}` must be at most {most}, not {value}"),
                name=self.name,
                most=self.maximum,
                value=value,
            )
        return value


SEAT_OPTION_CHOICES = (0, 1)
FIRST_SEAT: str = "first_seat"
"""The one name, in every game, of the option fixing the first seat (docs/engine.md)."""


def first_seat_option(role: str, help: str) -> Option:
    """The first-seat option of a game whose first seat is its first ``role`` ("dealer",
    "player"); ``first_<role>``, its name before every game shared one, stays an alias."""
    return Option(
        FIRST_SEAT, None, choices=SEAT_OPTION_CHOICES, help=help, aliases=(f"first_{role}",)
    )


@functools.lru_cache(maxsize=4096)
def _canonical_in(state_type: type[State], move: str) -> str:
    """:meth:`State.canonical` of ``move`` in a game whose states are ``state_type``."""
    return canonical_move(move, state_type.syntax, state_type.game.card_words)


# Reading stored states: a value of the wrong kind is a corrupt row, refused with ValueError.
def read_int(value: object) -> int:
    if type(value) is int:  # the common case, first: a stored state holds many numbers
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"expected a whole number, not {value!r}")
    return value


def read_seat(value: object) -> Seat:
    if type(value) is int and 0 <= value <= 1:  # the common case, first
        return value
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


Describe = Callable[[str, Words], str]
"""A move in players' words (``Game.describe``)."""
DealSummary = Callable[[Any, Words, Sequence[str] | None], list[str]]
"""The last deal's breakdown (``Game.deal_summary``); ``Any``: each game reads its own view."""
RulesHelp = Callable[[Words], Sequence[str]]
"""How to play, a paragraph a string (``Game.rules_help`` adds how to type moves)."""


class Game(ABC):
    """The rules of one game, separate from any match of it (as OpenSpiel splits game/state)."""

    name: ClassVar[str]
    title: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]] = ()
    pack: ClassVar[tuple[str, ...]]
    goal_option: ClassVar[Option]
    """The option that says when the match ends (a target score, a number of deals)."""
    first_seat_role: ClassVar[str]
    """Who the first-seat option names: the first "dealer", or the first "player"."""
    first_seat_help: ClassVar[str]
    options: ClassVar[tuple[Option, ...]]
    """Every option: the goal, then the first seat (built from the two above)."""
    goal: ClassVar[str]
    """The goal option's name, which is also its key in stored states."""
    public_facts: ClassVar[tuple[str, ...]] = ()
    """View keys announced at the table that may legitimately depend on hidden cards
    (Piquet's declarations); the leak test stops, as a pass, when one of them differs."""
    seat_keys: ClassVar[tuple[str, ...]] = ()
    """View keys of this game's own whose value is a seat (Écarté's ``king``: who announced
    it), besides those every game shares (``seat``, ``dealer``, ``elder``, …)."""
    by_role: ClassVar[tuple[str, ...]] = ()
    """View keys whose pair of values is elder's then younger's, not seat 0's then seat 1's
    (Piquet's talons); the view's ``elder`` says which seat is elder."""

    # How the game describes itself to players, in help texts and examples (docs/engine.md).
    summary: ClassVar[str]
    """One sentence: what the game is."""
    example_moves: ClassVar[tuple[str, ...]]
    """A few moves as a player types them, the commonest first."""
    example_options: ClassVar[str]
    """Options as a player types them (``name=value``), for examples."""
    card_words: ClassVar[str] = N_(
        "A card is its rank (7 to 10, J, Q, K or A) then its suit (♠ ♥ ♦ ♣, or S, H, D, C), "
        "like `Q♠` or `10H`."
    )
    """How this game's cards are written, for a move that names something else."""

    deal_line: ClassVar[str] = N_("Deal {n}, dealt by {name}.")
    """The table's line for the deal being played, as the game calls a deal."""

    # -- the game in players' words (each game's module writes its own and hands it in) -----
    def title_in(self, words: Words = ENGLISH) -> str:
        """The game's name as players of ``words``'s language call it (Piquet is Pikett in
        Swedish); each module marks its title for translation where it writes it."""
        return words.gettext(self.title)

    def entry_text(self, key: str, entry: Mapping[str, Any], words: Words = ENGLISH) -> str | None:
        """One entry of a list in this game's view (a meld under ``melds``, a declaration
        under ``declarations``) in players' words, without who made it; None where the game
        keeps no words of its own for it (a generic reader then shows the entry as it is)."""
        return None

    def table_text(
        self, view: Mapping[str, Any], words: Words = ENGLISH, names: Sequence[str] | None = None
    ) -> list[str]:
        """What the table of ``view`` shows, one sentence a line, for a reader who has no
        picture of it (the terminal): what every trick game shows (trumps, stock, the trick
        on the table, tricks taken), then what this game shows of its own. ``names`` are seat
        0's and seat 1's."""
        who = seat_names(words, names)
        own = self.table_extras(view, words, who)
        return [*table_lines(view, words, who, self.deal_line), *own]

    def table_extras(
        self, view: Mapping[str, Any], words: Words, names: tuple[str, str]
    ) -> list[str]:
        """This game's own part of :meth:`table_text` (melds laid out, declarations,
        expeditions), each sentence naming the players by ``names``."""
        return []

    def option_text(
        self, name: str, value: int, words: Words = ENGLISH, first: str | None = None
    ) -> str:
        """One option of a match's terms as players say it ('to 1,000 points', 'in 2 deals',
        'Alice deals first'): ``first`` names whoever the first-seat option puts first."""
        if name == FIRST_SEAT:
            who = first if first is not None else words.gettext("the player chosen")
            if self.first_seat_role == "dealer":
                return words.gettext("{name} deals first").format(name=who)
            return words.gettext("{name} plays first").format(name=who)
        if name == self.goal:
            return self.goal_text(value, words)
        return f"{name} {value}"

    def options_text(
        self,
        options: Mapping[str, int | None],
        words: Words = ENGLISH,
        seats: Sequence[str] | None = None,
    ) -> list[str]:
        """A match's options as its terms say them, in the game's order (the goal first):
        ['to 1,000 points', 'Bob deals first']. ``seats``: the names of seat 0 (the
        challenger) and seat 1. An option stored under an older name (an alias) reads the
        same; options left to their default are not said."""
        given: dict[str, int] = {}
        for name, value in options.items():
            option = self.option_of(name)
            if option is not None and value is not None:
                given[option.name] = value
        said = []
        for option in self.options:
            value = given.get(option.name)
            if value is not None:
                first = seats[value] if seats is not None and value in (0, 1) else None
                said.append(self.option_text(option.name, value, words, first))
        return said

    def option_of(self, name: str) -> Option | None:
        """The option called ``name``, by its own name or an older one (an alias)."""
        return next((o for o in self.options if name == o.name or name in o.aliases), None)

    def short_options(self) -> dict[str, int]:
        """The options of the game's shortest match, its goal at the least value accepted:
        a whole match, quick to play, for tests and benchmarks that play every game."""
        goal = self.goal_option
        if goal.minimum is not None:
            return {goal.name: goal.minimum}
        if goal.choices:
            return {goal.name: min(goal.choices)}
        assert goal.default is not None, "a goal option always has a default"
        return {goal.name: goal.default}

    def goal_text(self, value: int, words: Words = ENGLISH) -> str:
        """The goal option's value as the terms of a match say it: a points target ('to 1,000
        points', Bézigue's and Écarté's) unless the game words its own ('in 2 deals')."""
        return words.ngettext("to {n} point", "to {n} points", value).format(n=words.number(value))

    def describe(self, move: str, words: Words = ENGLISH) -> str:
        """``move`` (canonical, or as another seat saw it) in players' words, naming cards as
        the pictures do: ``play QS`` is "Q♠", a bare ``discard`` is "keep all cards"."""
        return self._describe(move, words)

    def deal_summary(
        self, view: Mapping[str, Any], words: Words = ENGLISH, names: Sequence[str] | None = None
    ) -> list[str]:
        """The breakdown of the deal that ended last, one sentence a line, as the rules score
        it; [] while no deal has ended. ``names`` are seat 0's and seat 1's (default:
        "Player 1" and "Player 2")."""
        return self._deal_summary(view, words, names) if self._deal_summary else []

    def rules_help(self, words: Words = ENGLISH) -> str:
        """How to play, each move word and option explained in plain words; every game's help
        ends with how to type its moves in any language."""
        if self._rules_help is None:
            return self.summary
        own = [typed_in(paragraph, words) for paragraph in self._rules_help(words)]
        return "\n\n".join((*own, notation_help(self.state_type.syntax, words, self.pack)))

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "goal_option" in cls.__dict__:
            cls.goal = cls.goal_option.name
            cls.options = (
                cls.goal_option,
                first_seat_option(cls.first_seat_role, cls.first_seat_help),
            )

    def __init__(
        self,
        state_type: type[MatchState],
        *,
        describe: Describe = describe_common,
        deal_summary: DealSummary | None = None,
        rules_help: RulesHelp | None = None,
    ) -> None:
        """The game, dealing states of ``state_type`` (which learns its game here), in the
        words its module writes: each function is the module's own, typed on its own view,
        so the game's class repeats none of them."""
        self.state_type = state_type
        state_type.game = self
        self._describe = describe
        self._deal_summary = deal_summary
        self._rules_help = rules_help

    def check_options(self, options: Mapping[str, object] | None) -> dict[str, int | None]:
        """Every option by its own name, checked, defaults filled in; aliases accepted."""
        known = {option.name: option for option in self.options}
        given: dict[str, object] = {}
        unknown = []
        for key, value in (options or {}).items():
            option = self.option_of(key)
            if option is None:
                unknown.append(key)
            elif option.name in given:
                raise Refusal(
                    N_("option `{name}` is given twice (as `{alias}` too): give it once"),
                    name=option.name,
                    alias=key,
                )
            else:
                given[option.name] = value
        if unknown:
            raise Refusal(
                counted(
                    "{names} is not an option of {game}: its options are {known}",
                    "{names} are not options of {game}: its options are {known}",
                    len(unknown),
                    names=", ".join(f"`{name}`" for name in sorted(unknown)),
                    game=Message(self.title),
                    known=", ".join(f"`{name}`" for name in known),
                )
            )
        return {
            name: option.check(given.get(name, option.default)) for name, option in known.items()
        }

    def first_seat(self, options: Mapping[str, object]) -> Seat:
        """The first seat ``options`` fix (for the leak test); ValueError if left to lot."""
        seat = self.check_options(options)[FIRST_SEAT]
        if seat is None:
            raise ValueError(f"the leak test needs the option {FIRST_SEAT!r} fixed")
        return seat

    def new_match(
        self,
        seed: int,
        options: Mapping[str, object] | None = None,
        deck: Sequence[str] | Sequence[Sequence[str]] | None = None,
    ) -> State:
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise ValueError(f"seed must be a whole number, not {seed!r}")
        return self._new_match(seed, self.check_options(options), normalize_decks(deck, self.pack))

    def _new_match(
        self, seed: int, options: dict[str, int | None], decks: tuple[tuple[str, ...], ...]
    ) -> State:
        return self.state_type.begin(seed, options, decks)

    def from_json(self, text: str) -> State:
        """The state that ``state.to_json()`` wrote; ValueError if the text is not one."""
        try:
            data = json.loads(text)
            if not isinstance(data, dict) or data.get("game") != self.name:
                raise ValueError(f"not a {self.title} state")
            return self._from_json(data)
        except (KeyError, TypeError, IndexError, AttributeError, json.JSONDecodeError) as error:
            raise ValueError(f"unreadable {self.title} state: {error!r}") from None

    def _from_json(self, data: Json) -> State:
        return self.state_type.load(data)

    def deal_secrets(
        self, seat: Seat, options: Mapping[str, object]
    ) -> tuple[list[int], list[int]]:
        """Positions in the first deal's deck, for the leak test (docs/engine.md).

        Returns (cards dealt to ``seat``'s opponent, cards hidden from everyone) when the match
        is dealt with ``options`` (which must fix the first seat).
        """
        return self._secrets(seat, self.first_seat(options))

    @abstractmethod
    def _secrets(self, seat: Seat, first: Seat) -> tuple[list[int], list[int]]:
        """:meth:`deal_secrets` once the first seat (dealer or first player) is known."""

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
    def view(self, seat: Seat | None) -> BaseView:
        """What ``seat`` may know (None: a spectator), JSON-serialisable (docs/views.md)."""

    @abstractmethod
    def to_json(self) -> str: ...

    @abstractmethod
    def zones(self) -> dict[str, list[str]]:
        """Every card of the pack by where it lies (all of them, hidden ones too).

        For tests (cards are conserved) and debugging; never shown to a player.
        """

    def matches_stored(self, text: str) -> bool:
        """Whether ``text``, a state stored earlier, is this state (a replay's check)."""
        return self.to_json() == text

    def canonical(self, move: str) -> str:
        """``move`` in canonical notation (IllegalMove if malformed); legality not checked.

        A text reads the same way in every state of a game, and the bot reads each move it
        stores twice (to play it, then to log it): the readings of the latest texts are
        kept."""
        if not isinstance(move, str):  # unhashable, perhaps: refused as it is
            return canonical_move(move, self.syntax, self.game.card_words)
        return _canonical_in(type(self), move)

    def over(self) -> IllegalMove:
        return IllegalMove(
            N_("This match of {game} is over: no more moves are played."),
            game=Message(self.game.title),
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return type(self) is type(other) and self.to_json() == other.to_json()

    def __hash__(self) -> int:
        return hash(self.to_json())

    def __repr__(self) -> str:
        return f"<{self.game.title} to_move={self.to_move} scores={self.scores}>"


def base_view(
    state: State, seat: Seat | None, hand: Iterable[str], *, ordered: bool = False
) -> BaseView:
    """The keys every view has (docs/views.md); a game adds its own. ``ordered``: the game
    hands in ``hand`` already in canonical order (a fresh list of it is shown, unsorted)."""
    if seat not in (0, 1, None):
        raise ValueError(f"seat must be 0, 1 or None, not {seat!r}")
    to_move = state.to_move
    if seat is None:
        cards: list[str] = []
        legal: list[str] = []
    else:
        cards = list(hand) if ordered else sort_cards(hand)
        legal = state.legal_moves() if to_move == seat else []
    return {
        "game": state.game.name,
        "seat": seat,
        "hand": cards,
        "to_move": to_move,
        "scores": list(state.scores),
        "legal_moves": legal,
        "result": None if (result := state.result) is None else fresh(result),
    }


def dumps(data: Json) -> str:
    """Compact, key-sorted JSON, so equal states write equal text."""
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


# -- the match header -------------------------------------------------------------------------
# Every game's state is a dataclass of fields, each declared once with its type and how it is
# stored; from that one list come the slots, the copy made by every move, and to_json/from_json.
# The fields every game has (the header) are declared once, on MatchState.
Codec = Callable[[Any], Any]


def _same(value: Any) -> Any:
    return value


def stored(
    key: str | None = None, write: Codec = _same, read: Codec = _same, optional: bool = False
) -> Any:
    """A field kept by ``to_json`` under ``key`` (default: its name without the underscore),
    written to JSON by ``write`` and read back by ``read`` (which raises on a corrupt value).

    ``optional``: a field added after matches were stored. None is not written, and a state
    without the key reads it as None, so states stored before it existed still load and a
    state that never needs it writes the same text as before."""
    return dataclasses.field(
        metadata={"key": key, "write": write, "read": read, "optional": optional}
    )


def derived() -> Any:
    """A field ``to_json`` does not keep: ``_derive`` rebuilds it from the stored ones."""
    return dataclasses.field(metadata={"derived": True})


def fresh(value: Any) -> Any:
    """A copy of JSON data, every list and dict in it new: a view or stored data handed out
    must not share one with the state (the caller may change it)."""
    if isinstance(value, dict):
        return {key: fresh(item) for key, item in value.items()}
    if isinstance(value, list):
        return [fresh(item) for item in value]
    return value


_SORTED_PACKS: dict[tuple[str, ...], list[str]] = {}


def sorted_pack(pack: tuple[str, ...]) -> list[str]:
    """``sorted(pack)``, sorted once: a state read back is checked against it (don't change
    the list)."""
    found = _SORTED_PACKS.get(pack)
    if found is None:
        found = _SORTED_PACKS[pack] = sorted(pack)
    return found


def read_result(value: object) -> Json | None:
    if value is not None and not isinstance(value, dict):
        raise ValueError(f"a result is an object or null, not {value!r}")
    return value


def read_history(value: object) -> tuple[tuple[int, int], ...]:
    """One pair of scores per finished deal."""
    if not isinstance(value, list | tuple):
        raise ValueError(f"expected a list of scores, not {value!r}")
    return tuple(read_scores(scores) for scores in value)


def read_last(value: object) -> tuple[Seat, str] | tuple[Seat, str, str] | None:
    """The last move: (seat, move) or, where others see it otherwise, (seat, move, public)."""
    if value is None:
        return None
    if not isinstance(value, list | tuple) or len(value) not in (2, 3):
        raise ValueError(f"a last move is [seat, move] or [seat, move, public], not {value!r}")
    if len(value) == 2:
        return read_seat(value[0]), str(value[1])
    return read_seat(value[0]), str(value[1]), str(value[2])


def read_cards(value: object) -> tuple[str, ...]:
    """Card codes as stored; the game's ``_check`` proves they add up to its pack."""
    if not isinstance(value, list | tuple):
        raise ValueError(f"expected a list of cards, not {value!r}")
    return tuple(map(str, value))


def read_decks(value: object) -> tuple[tuple[str, ...], ...]:
    if not isinstance(value, list | tuple):
        raise ValueError(f"expected a list of decks, not {value!r}")
    return tuple(read_cards(deck) for deck in value)


def read_rows(value: object, *readers: Codec) -> tuple[tuple[Any, ...], ...]:
    """A list of rows of fixed length, each value read by its own reader: melds,
    declarations, exchanges, the cards of a trick."""
    if not isinstance(value, list | tuple):
        raise ValueError(f"expected a list, not {value!r}")
    rows = []
    for row in value:
        if not isinstance(row, list | tuple) or len(row) != len(readers):
            raise ValueError(f"expected rows of {len(readers)} values, not {row!r}")
        rows.append(tuple([read(item) for read, item in zip(readers, row, strict=True)]))
    return tuple(rows)


def lists(value: Iterable[Iterable[Any]]) -> list[list[Any]]:
    """A tuple of tuples as JSON lists (decks, hands, score pairs)."""
    return [list(item) for item in value]


def list_or_none(value: Iterable[Any] | None) -> list[Any] | None:
    return None if value is None else list(value)


# The writers that only make lists of tuples (see ``MatchState.to_data``).
_AS_LISTS: frozenset[Codec] = frozenset({lists, list, list_or_none})

_ABSENT: Any = object()
"""What an optional field writes for None: the key is left out of the JSON."""


class _Optional:
    """An optional field's writer or reader: None passes as ``empty``, the writer's
    ``_ABSENT`` (the key is left out) or the reader's None (a missing key or null)."""

    __slots__ = ("codec", "empty")

    def __init__(self, codec: Codec, empty: Any = None) -> None:
        self.codec = codec
        self.empty = empty

    def __call__(self, value: Any) -> Any:
        return self.empty if value is None else self.codec(value)


_Writer = tuple[str, str, Codec]
_CODECS: dict[type, tuple[tuple[_Writer, ...], tuple[_Writer, ...], tuple[str, ...]]] = {}
_TO_DATA: dict[tuple[type, bool], Callable[[Any], Json]] = {}
_READ_FIELDS: dict[type, Callable[[Any, Json], None]] = {}


def _make_read_fields(cls: type[MatchState]) -> Callable[[Any, Json], None]:
    """What ``cls.load`` does field by field, as straight-line code (as ``_make_to_data``):
    each stored field read by its reader, in the order declared. A missing key is None
    for an optional field, a KeyError (a corrupt row) for the others."""
    namespace: dict[str, Any] = {}
    body = ["def read_fields(state, data):\n"]
    for i, (name, key, read) in enumerate(cls._codecs()[1]):
        value = f"data.get({key!r})" if isinstance(read, _Optional) else f"data[{key!r}]"
        if read is _same:
            body.append(f"    state.{name} = {value}\n")
        else:
            namespace[f"_r{i}"] = read
            body.append(f"    state.{name} = _r{i}({value})\n")
    body.append("    return None\n")
    exec("".join(body), namespace)  # the source is built from field names and keys only
    return cast(Callable[[Any, Json], None], namespace["read_fields"])


def _make_to_data(cls: type[MatchState], tuples: bool) -> Callable[[Any], Json]:
    """``cls.to_data(tuples=tuples)`` as straight-line code, one line a field, each writer
    called by name (none for a field written as it is): every move stores its state, and
    a loop of getattr and tests per field was most of the cost of writing it."""
    namespace: dict[str, Any] = {}
    body = ["def to_data(self):\n    data = {'game': self.game.name}\n"]
    for i, (name, key, write) in enumerate(cls._codecs()[0]):
        if isinstance(write, _Optional):  # None leaves the key out; else always written
            namespace[f"_w{i}"] = write.codec
            body.append(
                f"    value = self.{name}\n"
                f"    if value is not None:\n"
                f"        data[{key!r}] = _w{i}(value)\n"
            )
        elif write is _same or (tuples and write in _AS_LISTS):
            body.append(f"    data[{key!r}] = self.{name}\n")
        else:
            namespace[f"_w{i}"] = write
            body.append(f"    data[{key!r}] = _w{i}(self.{name})\n")
    body.append("    return data\n")
    exec("".join(body), namespace)  # the source is built from field names and keys only
    return cast(Callable[[Any], Json], namespace["to_data"])


def _make_copy(cls: type[MatchState]) -> Callable[[Any], Any]:
    """``cls._copy`` as straight-line code, one assignment a field (as dataclasses writes its
    methods): a move copies its state, and a loop of getattr/setattr would slow every playout."""
    names = [field.name for field in dataclasses.fields(cast(Any, cls))]
    body = "".join(f"    new.{name} = self.{name}\n" for name in names)
    head = "def _copy(self):\n    new = _new(_cls)\n    new._legal = None\n"
    source = f"{head}{body}    return new\n"
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    exec(source, namespace)  # the source is built from the class's field names only
    return cast(Callable[[Any], Any], namespace["_copy"])


_S = TypeVar("_S", bound="MatchState")


def match_state(cls: type[_S]) -> type[_S]:
    """Make ``cls``, a subclass of MatchState declaring its fields, a slotted state class."""
    made = dataclasses.dataclass(slots=True, init=False, repr=False, eq=False)(cls)
    made._copy = _make_copy(made)  # type: ignore[method-assign,assignment]
    return made


@match_state
class MatchState(State):
    """A state with the match header every game shares (docs/engine.md, "The match header").

    A game's state subclasses it, declares its own fields with :func:`stored` or
    :func:`derived`, and is decorated with :func:`match_state`; it writes ``_start`` (the
    first deal), and ``_derive`` and ``_check`` if it has derived fields or invariants.
    """

    _seed: int = stored(read=read_int)
    """Fixes every shuffle and lot of the match."""
    _goal: int = stored(read=read_int)
    """When the match ends: the value of the game's goal option (a target, deals, rounds)."""
    _first_option: Seat | None = stored(read=read_seat_or_none)
    """The first-seat option as given (None: drawn by lot), kept so the match can be replayed."""
    _decks: tuple[tuple[str, ...], ...] = stored(write=lists, read=read_decks)
    """The decks fixed by ``new_match(deck=...)`` for the first deals."""
    _deal_no: int = stored(key="deal", read=read_int)
    """The deal (or round) in progress, from 0."""
    _dealer: Seat = stored(read=read_seat)
    """The deal's first seat: its dealer, or in a game without one its first player."""
    _totals: tuple[int, int] = stored(write=list, read=read_scores)
    """The match scores, seat 0 then seat 1."""
    _history: tuple[tuple[int, int], ...] = stored(write=lists, read=read_history)
    """The score of each finished deal."""
    _last: tuple[Seat, str] | tuple[Seat, str, str] | None = stored(
        write=list_or_none, read=read_last
    )
    """The last move: (seat, move), or (seat, move, what others see) where that differs."""
    _result: Json | None = stored(write=fresh, read=read_result)
    _turn: Seat | None = stored(read=read_seat_or_none)
    """The seat to move (``to_move``); None once the match is over."""

    stored_keys: ClassVar[Mapping[str, str]] = {}
    """JSON keys of header fields that a game stores under its own name (kept as first stored)."""

    @property
    def to_move(self) -> Seat | None:
        return self._turn

    @property
    def scores(self) -> tuple[int, int]:
        return self._totals

    @property
    def result(self) -> Json | None:
        return self._result

    def _last_move_view(self, seat: Seat | None) -> MoveView | None:
        """The last move as ``seat`` may know it: the mover sees it whole, everyone else what
        the game stored for the others to see (the move itself where nothing is hidden)."""
        last = self._last
        if last is None:
            return None
        return {"seat": last[0], "move": last[1] if seat == last[0] else last[-1]}

    @classmethod
    def begin(
        cls, seed: int, options: Mapping[str, int | None], decks: tuple[tuple[str, ...], ...]
    ) -> Self:
        """A new match: the header from the options, then the game's first deal."""
        game = cls.game
        goal = options[game.goal]
        assert goal is not None, "a goal option always has a default"
        state = object.__new__(cls)
        state._legal = None
        state._seed = seed
        state._goal = goal
        state._first_option = options[FIRST_SEAT]
        state._decks = decks
        state._totals = (0, 0)
        state._history = ()
        state._last = None
        state._result = None
        state._turn = None  # the first deal says who moves
        # The lot's words ("first dealer") are part of the seed's meaning: never change them.
        role = game.first_seat_role
        state._start(seat_or_lot(state._first_option, seed, game.name, f"first {role}"))
        return state

    @abstractmethod
    def _start(self, first: Seat) -> None:
        """Set the game's own fields for a new match and deal its first deal."""

    def _copy(self) -> Self:
        raise NotImplementedError("match_state writes _copy")  # pragma: no cover

    @classmethod
    def _codecs(cls) -> tuple[tuple[_Writer, ...], tuple[_Writer, ...], tuple[str, ...]]:
        """(writers, readers, derived fields), each writer/reader as (field, key, codec)."""
        codecs = _CODECS.get(cls)
        if codecs is None:
            game = cls.game
            keys = {
                "_goal": game.goal,
                "_first_option": f"first_{game.first_seat_role}_option",
                **cls.stored_keys,
            }
            writers, readers, derived_names = [], [], []
            for field in dataclasses.fields(cast(Any, cls)):
                meta = field.metadata
                if meta.get("derived"):
                    derived_names.append(field.name)
                    continue
                key = keys.get(field.name) or meta["key"] or field.name.lstrip("_")
                write, read = meta["write"], meta["read"]
                if meta["optional"]:
                    write, read = _Optional(write, _ABSENT), _Optional(read)
                writers.append((field.name, key, write))
                readers.append((field.name, key, read))
            codecs = _CODECS[cls] = (tuple(writers), tuple(readers), tuple(derived_names))
        return codecs

    def to_json(self) -> str:
        return dumps(self.to_data())

    def to_data(self, *, tuples: bool = False) -> Json:
        """What ``to_json`` writes, as JSON data: a caller with a faster encoder (the bot
        stores a state with every move) writes the very same text from it. ``tuples``: the
        fields stored as plain lists are left the tuples they are, for an encoder that
        writes tuples as lists (orjson) and need not have them copied first."""
        cls = type(self)
        write = _TO_DATA.get((cls, tuples))
        if write is None:
            write = _TO_DATA[cls, tuples] = _make_to_data(cls, tuples)
        return write(self)

    def matches_stored(self, text: str) -> bool:
        """Whether ``text``, a state stored earlier, is this state: the same JSON, except that
        an optional field (see :func:`stored`) the stored text lacks is not compared, since a
        state stored before the field existed, or loaded from one, does not hold it."""
        mine = self.to_json()
        if mine == text:
            return True
        try:
            theirs = json.loads(text)
        except json.JSONDecodeError:
            return False
        if not isinstance(theirs, dict):
            return False
        optional = {key for _name, key, read in self._codecs()[1] if isinstance(read, _Optional)}
        ours = {
            key: value
            for key, value in json.loads(mine).items()
            if key in theirs or key not in optional
        }
        return ours == theirs

    @classmethod
    def load(cls, data: Json) -> Self:
        """The state ``to_json`` wrote, from its parsed JSON; ValueError (or KeyError,
        TypeError…, which ``Game.from_json`` turns into ValueError) if it is not one."""
        state = object.__new__(cls)
        state._legal = None
        read_fields = _READ_FIELDS.get(cls)
        if read_fields is None:
            read_fields = _READ_FIELDS[cls] = _make_read_fields(cls)
        read_fields(state, data)
        state._derive()
        state._check_header()
        state._check()
        return state

    def _derive(self) -> None:
        """Rebuild the fields ``to_json`` does not keep (see :func:`derived`)."""

    def _check(self) -> None:
        """Refuse a loaded state that breaks the game's invariants (a corrupt row)."""

    def _check_header(self) -> None:
        pack = sorted_pack(self.game.pack)
        if any(sorted(deck) != pack for deck in self._decks):
            raise ValueError(f"a stored deck's cards are not {self.game.title}'s pack")
        if (self.to_move is None) != (self._result is not None):
            raise ValueError("a match is over exactly when it has a result")
        if self._deal_no < 0:
            raise ValueError(f"impossible deal number {self._deal_no}")
