"""What the generic search needs from each game, and how it finds a game's.

Shared code never asks which game it plays: it looks the game's :class:`GameAI` up by name,
in the module beside the game's rules (:func:`lookup`). A game's module here fills one in, as
``GAME_AI``, with only that game's knowledge — how to deal the unseen cards
consistently with a view, a cheap playout policy, and the greedy rules.
"""

from __future__ import annotations

import importlib
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import games
from games import State

Json = dict[str, Any]

Determinizer = Callable[[Json, random.Random], State]
"""A full engine state consistent with a seat's view, its hidden cards drawn at random."""
Policy = Callable[[State, list[str], random.Random], str]
"""A cheap move choice inside a playout: the state is a determinization, so it may be read."""
ViewPolicy = Callable[[Json, random.Random], str]
"""A move choice from a seat's view alone (the greedy player)."""
Evaluator = Callable[[State, int, int, random.Random], float]
"""(state, seat, counted moves left in the deal, rng) -> the state's value for ``seat``, in
the same unit as a playout's: the margin in match points plus the prize of a decided match."""


def view_of(state: State, seat: int | None) -> Json:
    """``state.view(seat)`` as plain data: the rules of thumb read each game's own keys from
    the JSON the bot would send, the same whatever the game's view type."""
    return cast(Json, state.view(seat))


@dataclass(frozen=True)
class GameAI:
    """One game's specifics for the computer opponent."""

    name: str
    determinize: Determinizer
    playout: Policy
    greedy: ViewPolicy
    horizon: Callable[[Json], int]
    """How many counted moves (see ``counts``) remain in the current deal, read from a view:
    a playout stops there, so it never plays into a deal dealt from an invented deck."""
    counts: Callable[[str], bool]
    win_value: float
    """What winning the match is worth against points of margin, in the game's points."""
    strong: int
    """Playouts per decision at the strong level: calibrated so a decision takes well under
    a second on one core (the normal level spends a sixth of it)."""
    normal: int = 0
    """Playouts per decision at the normal level; 0 for a sixth of ``strong``. A game whose
    search is good on few deals (Écarté solves its five tricks exactly) sets fewer, so that
    each level still plays better than the one below it."""
    candidates: Callable[[Json, list[str]], list[str]] = lambda view, moves: moves
    """The moves worth searching (Piquet's elder has 1,586 discards; most are absurd)."""
    depth: int | None = None
    """At most this many counted moves per playout: a long deal is cut short and the position
    judged by ``estimate`` instead (Bézigue's 64-card deal, Le 5 As' 44 draws)."""
    estimate: Callable[[State, int], float] | None = None
    """Points for a seat not yet scored where a playout stops: what the cards won or laid
    promise (brisques, expeditions under way). Zero once the deal is over."""
    unit: str = "points"
    """What a value measures, as a hint or a review tells a player: ``"points"`` (a margin in
    the game's points) or ``"chance"`` (of winning the match, from 0 to 1)."""
    evaluate: Evaluator | None = None
    """The value of a determinized state for a seat, replacing the generic playout where a
    game can do better: Écarté's five tricks are solved exactly instead of played out, and
    Le 5 As and Bézigue play out with loops of their own that read the state directly (the
    very values of the generic playout, faster)."""


_FOUND: dict[str, tuple[games.Game, GameAI]] = {}
"""What :func:`lookup` found for each game, kept while the same game holds the name: every
decision asks, and a game's registry entry is the only thing that may change."""


def lookup(name: str) -> GameAI:
    """The computer player of the game ``name``: ``GAME_AI`` of the module beside the game's
    rules that the game registry names (``ai.piquet`` for ``games.piquet``); KeyError if the
    game is unknown or has no computer player."""
    game = games.get(name)
    found = _FOUND.get(game.name)
    if found is None or found[0] is not game:
        found = _FOUND[game.name] = (game, _module_ai(game))
    return found[1]


def _module_ai(game: games.Game) -> GameAI:
    where = games.part(game.name, "ai")
    try:
        module = importlib.import_module(where)
    except ModuleNotFoundError as error:
        if error.name != where:  # the part exists, and something it imports does not
            raise
        raise KeyError(f"no computer opponent for {game.name!r}") from None
    found: GameAI = module.GAME_AI
    if found.name != game.name:
        raise KeyError(f"{where} plays {found.name!r}, not {game.name!r}")
    return found


def unseen(pack: Iterable[str], *seen: Iterable[str]) -> list[str]:
    """The cards of ``pack`` not accounted for by the ``seen`` zones (copies counted)."""
    left = Counter(pack)
    for zone in seen:
        left.subtract(zone)
    if any(count < 0 for count in left.values()):
        raise ValueError("the view shows more copies of a card than the pack holds")
    return sorted(left.elements())


def take(cards: list[str], count: int) -> list[str]:
    """Remove and return the first ``count`` cards of ``cards`` (already shuffled)."""
    if count < 0 or count > len(cards):
        raise ValueError("the view's counts do not fit the unseen cards")
    taken = cards[:count]
    del cards[:count]
    return taken


def layout(size: int, fixed: dict[int, str], rest: Sequence[str]) -> list[str]:
    """A deck of ``size`` cards with ``fixed`` positions set and ``rest`` filling the others.

    Engines keep the whole deal's deck even after its front has been dealt; only some
    positions still matter (the stock, the turn-up, the talons), so the others take any of
    the remaining cards.
    """
    filler = iter(rest)
    deck = [fixed[i] if i in fixed else next(filler) for i in range(size)]
    if next(filler, None) is not None:
        raise ValueError("more cards than deck positions")
    return deck


def cards_in(entries: Iterable[Json]) -> list[str]:
    """The cards of a view's trick entries (``[{"seat": s, "card": c}, …]``)."""
    return [str(entry["card"]) for entry in entries]
