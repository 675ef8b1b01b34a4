"""The match header every game's state shares, and how a state is copied and stored.

:class:`MatchState` declares the fields every game has (the seed, the goal, the decks, the
deal, the totals, the last move, the result, the seat to move) and starts every match the
same way; :func:`match_state` makes a game's subclass a slotted dataclass. Its copy, its JSON
writer and its reader are written once per class as straight-line code from its fields
(docs/engine.md, "The match header"), since every move copies a state and the bot stores one
with every move.
"""

from __future__ import annotations

import dataclasses
import json
from abc import abstractmethod
from collections.abc import Callable, Mapping
from typing import Any, ClassVar, Self, TypeVar, cast

from games.core import FIRST_SEAT, Json, MoveView, Seat, State, fresh
from games.deals import seat_or_lot
from games.fields import (
    Codec,
    as_is,
    list_or_none,
    lists,
    read_decks,
    read_history,
    read_int,
    read_last,
    read_result,
    read_scores,
    read_seat,
    read_seat_or_none,
    sorted_pack,
    stored,
)


def dumps(data: Json) -> str:
    """Compact, key-sorted JSON, so equal states write equal text."""
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


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
        if read is as_is:
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
        elif write is as_is or (tuples and write in _AS_LISTS):
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

    A game's state subclasses it, declares its own fields with :func:`~games.fields.stored`
    or :func:`~games.fields.derived`, and is decorated with :func:`match_state`; it writes
    ``_start`` (the first deal), and ``_derive`` and ``_check`` if it has derived fields or
    invariants.
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
