"""The computer as a teacher: every move worth weighing from a seat's view, with its worth.

A hint and a review ask the same question the strong level asks before it plays — what is
each move worth on average over deals drawn from this view — and keep the answer instead of
only the best move, so a player can be told what the best move gains and what another costs.

>>> import ai.coach, games
>>> state = games.get("ecarte").new_match(seed=1)
>>> found = ai.coach.analyse("ecarte", state.view(state.to_move), seed=7)
>>> found.best.move in state.legal_moves()
True

Like ``ai.choose`` it reads only the seat's view: the same view and seed give the same
analysis whatever the hidden cards are. The values are those the search compares: in Écarté,
the chance of winning the match; in the other games, points of margin (plus the match's prize
when the deal may end it).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import games
from ai.base import lookup
from ai.search import sample
from games.words import ENGLISH, N_, Words

__all__ = ["LEVEL_WORDS", "Analysis", "Valued", "analyse", "level_description"]

Json = dict[str, object]

REVIEW_SHARE = 2
"""A review weighs every decision of a match, so it spends half the strong budget on each;
the best move is the one the strong level would choose on most deals all the same."""


@dataclass(frozen=True)
class Valued:
    """One move and what it is worth, averaged over the sampled deals."""

    move: str
    value: float
    """In the game's unit (:attr:`Analysis.unit`): the mean over the deals."""
    gain: float
    """The points the move scores at once, on average (a meld laid, a declaration)."""


@dataclass(frozen=True)
class Analysis:
    """The moves weighed from one view, best first."""

    game: str
    seat: int
    unit: str
    """``"points"`` (a margin in the game's points) or ``"chance"`` (of winning the match, 0–1:
    Écarté, where a hand is worth what it changes in the match)."""
    deals: int
    """How many deals each move was valued on (0 for a forced move)."""
    moves: tuple[Valued, ...]

    @property
    def best(self) -> Valued:
        return self.moves[0]

    def of(self, move: str) -> Valued | None:
        return next((m for m in self.moves if m.move == move), None)

    def cost(self, move: str) -> float | None:
        """How much less ``move`` is worth than the best, on average; None if not weighed."""
        found = self.of(move)
        return None if found is None else max(0.0, self.best.value - found.value)


def analyse(
    game: str,
    view: Json,
    seed: int = 0,
    *,
    also: Sequence[str] = (),
    share: int = 1,
) -> Analysis:
    """Every move the strong level weighs from ``view`` (the seat to move's own), plus the
    legal moves of ``also`` (a move played, to say what it cost), each valued on the same
    deals with the strong level's budget divided by ``share``; best first.

    ValueError if the view is not a seat's own with a move to make."""
    game_ai = lookup(games.get(game).name)
    if view.get("seat") not in (0, 1) or view.get("to_move") != view["seat"]:
        raise ValueError("a move is weighed from the view of the seat to move")
    moves = [str(m) for m in view.get("legal_moves") or ()]  # type: ignore[attr-defined]
    if not moves:
        raise ValueError("there is no move to weigh")
    seat = int(str(view["seat"]))
    unit = game_ai.unit
    if len(moves) == 1:
        return Analysis(game_ai.name, seat, unit, 0, (Valued(moves[0], 0.0, 0.0),))
    candidates = game_ai.candidates(view, moves)
    candidates += [m for m in also if m in moves and m not in candidates]
    if len(candidates) == 1:
        return Analysis(game_ai.name, seat, unit, 0, (Valued(candidates[0], 0.0, 0.0),))
    rng = random.Random(f"tapis-coach/{seed}")
    budget = max(len(candidates), game_ai.strong // max(1, share))
    sampled = sample(game_ai, view, candidates, budget, rng)
    if sampled is None:
        fallback = game_ai.greedy(view, rng)
        return Analysis(game_ai.name, seat, unit, 0, (Valued(fallback, 0.0, 0.0),))
    n = sampled.deals
    valued = [
        Valued(move, total / n, gain / n)
        for move, total, gain in zip(candidates, sampled.totals, sampled.gains, strict=True)
    ]
    order = sorted(range(len(valued)), key=lambda i: (-valued[i].value, i))
    return Analysis(game_ai.name, seat, unit, n, tuple(valued[i] for i in order))


LEVEL_WORDS = {
    "easy": N_(
        "Easy plays by simple rules of thumb, taking the surest points at once, and about one "
        "move in three at random: a gentle first opponent."
    ),
    "normal": N_(
        "Normal thinks ahead: it imagines a few ways the hidden cards may lie and plays what "
        "works best over them. It beats easy more often than not."
    ),
    "strong": N_(
        "Strong imagines many more deals than normal and weighs every sensible move on each: "
        "the level hints and reviews compare your play with. It beats normal more often than "
        "not."
    ),
}
"""What each level is like, as a learner choosing an opponent reads it."""


def level_description(level: str, words: Words = ENGLISH) -> str:
    """What playing ``level`` is like, in the reader's language; KeyError for no level."""
    return words.gettext(LEVEL_WORDS[level])
