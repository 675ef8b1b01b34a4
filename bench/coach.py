"""The coach: what a hint and a review cost, per game, in processor seconds of one core.

`python -m bench coach` plays, per game, matches of the normal level against itself with the
games' default options (match ``i`` dealt from seed ``SEED + i``, each move seeded as in
``bench.ai``), then times on them the very calls the bot makes:

- **a hint**: ``ai.coach.analyse`` from the view of the seat to move, with the seed the
  service would give it, then ``ai.hints.hint_lines`` wording it — at ``POSITIONS`` positions
  per game drawn (seeded) from the matches' real choices (more than one legal move; a hint
  at a forced move is answered at once). The aim is a p99 within a second on one core.
- **a review** of each whole match: ``ai.review.choices``, then ``ai.review.weigh`` part by
  part (``REVIEW_PART`` decisions at a time, each part replaying the match from its deal, as
  the service's workers do), ``ai.review.summarise`` and the worded lines
  (``bot.service.coach.review_lines``). The aim is a minute of one core per match.

Everything runs in this one process, one call at a time, and is timed as its processor time:
other work on the machine does not count, and the time is one core's. In the bot a hint is one
task of the computer's worker processes and a review's parts are awaited one after another, so
on an idle core the wall clock is these times plus the passing of the arguments to a worker.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import ai
import ai.coach
import ai.review
import games
from ai.hints import hint_lines
from bench.ai import percentile
from bot.service.coach import REVIEW_PART, review_lines
from games import State
from games.words import ENGLISH

SEED = 30_000
LEVEL = "normal"
"""The level whose matches are reviewed and whose positions get hints: a learner's opponent."""
POSITIONS = 40
"""Hint positions drawn per game (fewer in the short pass)."""
MATCHES = 2
"""Matches per game when the section is named (`--matches` to change)."""
SHORT_MATCHES, SHORT_POSITIONS = 1, 10  # `make bench` (every section): a quick pass
HINT_AIM = 1.0
"""Seconds of one core a hint may take at p99."""
REVIEW_AIM = 60.0
"""Seconds of one core a whole match's review may take."""
NAMES = ("Ann", "Bea")


@dataclass(frozen=True)
class Played:
    """A match as the service keeps it: its seed and moves, and every state along it."""

    game: str
    seed: int
    moves: list[str]
    states: list[State]
    """``[0]`` as dealt, ``[n]`` after ``moves[n - 1]``."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("coach section")
    group.add_argument(
        "--positions", type=int, default=None, metavar="N",
        help=f"coach: hint positions per game (default {POSITIONS})",
    )  # fmt: skip


def play(game: str, index: int, level: str = LEVEL) -> Played:
    """Match ``index`` of ``level`` against itself, default options."""
    seed = SEED + index
    state = games.get(game).new_match(seed=seed)
    states: list[State] = [state]
    moves: list[str] = []
    while state.to_move is not None:
        view = cast(dict[str, Any], state.view(state.to_move))
        move = ai.choose(game, view, level, seed * 1000 + len(moves))
        state = state.apply(move)
        moves.append(move)
        states.append(state)
    return Played(game, seed, moves, states)


def choice_points(matches: Sequence[Played]) -> list[tuple[Played, int]]:
    """Every (match, ply) whose state has a seat to move with more than one legal move."""
    return [
        (match, ply)
        for match in matches
        for ply, state in enumerate(match.states)
        if state.to_move is not None and len(state.legal_moves()) > 1
    ]


def sample(points: Sequence[tuple[Played, int]], count: int, seed: str) -> list[tuple[Played, int]]:
    """``count`` of ``points`` drawn without replacement (all if fewer), seeded, in the
    matches' order: the same matches give the same positions."""
    if count >= len(points):
        return list(points)
    chosen = sorted(random.Random(seed).sample(range(len(points)), count))
    return [points[i] for i in chosen]


def hint_seconds(match: Played, ply: int) -> float:
    """Processor seconds of one hint at ``match.states[ply]``, as the bot gives it: the
    strong level's weighing from the mover's view, seeded by the match and the moment, then
    worded."""
    state = match.states[ply]
    seat = state.to_move
    assert seat is not None
    view = cast(dict[str, Any], state.view(seat))
    start = time.process_time()
    analysis = ai.coach.analyse(match.game, view, match.seed * 1_000_033 + ply)
    hint_lines(analysis, ENGLISH)
    return time.process_time() - start


def review_seconds(match: Played) -> tuple[float, int]:
    """Processor seconds of the review of ``match`` as the bot makes it, and the decisions
    it weighed."""
    start = time.process_time()
    plies = ai.review.choices(match.game, match.seed, None, match.moves)
    decisions: list[ai.review.Decision] = []
    for first in range(0, len(plies), REVIEW_PART):
        part = plies[first : first + REVIEW_PART]
        decisions += ai.review.weigh(match.game, match.seed, None, match.moves, part)
    review = ai.review.summarise(match.game, decisions)
    review_lines(ai.review.Review.from_json(review.to_json()), NAMES, ENGLISH)
    return time.process_time() - start, len(plies)


def hint_line(game: str, times: Sequence[float]) -> str:
    p99 = percentile(list(times), 0.99)
    verdict = "met" if p99 <= HINT_AIM else "NOT met"
    return (
        f"{game:<8} {len(times):>9} {percentile(list(times), 0.5):>7.3f} {p99:>7.3f} "
        f"{max(times, default=0.0):>7.3f}  p99 ≤ {HINT_AIM:g} s: {verdict}"
    )


def review_line(game: str, reviews: Sequence[tuple[float, int]]) -> str:
    seconds = [s for s, _ in reviews]
    decisions = [d for _, d in reviews]
    worst = max(seconds, default=0.0)
    verdict = "met" if worst <= REVIEW_AIM else "NOT met"
    return (
        f"{game:<8} {len(reviews):>7} {sum(decisions) / max(1, len(decisions)):>9.0f} "
        f"{sum(seconds) / max(1, len(seconds)):>7.1f} {worst:>7.1f}  "
        f"≤ {REVIEW_AIM:g} s a match: {verdict}"
    )


def run(seconds: float, args: argparse.Namespace | None = None) -> None:
    del seconds  # the budget is a number of matches and positions, not a time
    named = args is not None and "coach" in (args.sections or [])
    explicit = args.matches if args is not None else None
    matches = explicit or (MATCHES if named else SHORT_MATCHES)
    count = (args.positions if args is not None else None) or (
        POSITIONS if named else SHORT_POSITIONS
    )
    chosen = args.game if args is not None and args.game else None
    names = [games.get(g).name for g in chosen] if chosen else games.names()
    print(
        f"{LEVEL} level against itself: {matches} match(es) per game, default options, seeds "
        f"{SEED}…{SEED + matches - 1}; a hint timed at {count} positions per game drawn from "
        "their choices, each match reviewed whole; processor seconds, one call at a time in "
        "one process"
    )
    if not named:
        print("(a short pass: the full measure is `python -m bench coach`)")
    started = time.perf_counter()
    played: dict[str, list[Played]] = {}
    hints: dict[str, list[float]] = {}
    reviews: dict[str, list[tuple[float, int]]] = {}
    for game in names:
        played[game] = [play(game, i, LEVEL) for i in range(matches)]
        positions = sample(choice_points(played[game]), count, f"tapis-bench-coach/{game}")
        hints[game] = [hint_seconds(match, ply) for match, ply in positions]
        reviews[game] = [review_seconds(match) for match in played[game]]
        print(f"-- {game}: {time.perf_counter() - started:,.0f} s so far", flush=True)
    print(f"{'hint':<8} {'positions':>9} {'p50 s':>7} {'p99 s':>7} {'max s':>7}")
    for game in names:
        print(hint_line(game, hints[game]))
    print(f"{'review':<8} {'matches':>7} {'decisions':>9} {'mean s':>7} {'max s':>7}")
    for game in names:
        print(review_line(game, reviews[game]))
    print(
        f"({time.perf_counter() - started:,.0f} s in all; 'decisions': the choices a review "
        "weighs in a match, on average)"
    )
