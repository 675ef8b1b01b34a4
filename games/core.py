"""The engine contract shared by every game (docs/engine.md).

A :class:`Game` is the rules of one game: it deals matches and reads them back from JSON.
A :class:`State` is one moment of a match, a value: :meth:`State.apply` returns the next state.
Here is what every game promises and every reader relies on — the values a view is made of,
the options, the game and its states — so that the bot, the computer and the pictures need
know no game. How a move is typed (games/moves.py), how a refusal is told
(games/refusals.py), how a deal is shuffled (games/deals.py) and how a state's fields are
kept (games/fields.py, games/header.py) are rooms of their own.
"""

from __future__ import annotations

import functools
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self, TypedDict, TypeVar

from games.cards import sort_cards
from games.deals import normalize_decks
from games.kinds import Json as Json
from games.kinds import Seat as Seat
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
        state_type: type[State],
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

    @classmethod
    @abstractmethod
    def begin(
        cls, seed: int, options: Mapping[str, int | None], decks: tuple[tuple[str, ...], ...]
    ) -> Self:
        """A new match from its seed, its checked options and its decks (games/header.py)."""

    @classmethod
    @abstractmethod
    def load(cls, data: Json) -> Self:
        """The state its parsed JSON holds; ValueError (or the like) if it is not one."""

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


def fresh(value: Any) -> Any:
    """A copy of JSON data, every list and dict in it new: a view or stored data handed out
    must not share one with the state (the caller may change it)."""
    if isinstance(value, dict):
        return {key: fresh(item) for key, item in value.items()}
    if isinstance(value, list):
        return [fresh(item) for item in value]
    return value
