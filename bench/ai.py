"""The computer opponent: win rates against a random and a greedy player, and decision times.

`python -m bench ai` plays, per game, 200 matches of the strong level against each opponent
with the games' default options, seats alternated (the computer sits at seat ``i % 2`` of
match ``i``), match ``i`` dealt from seed ``SEED + i``. Matches run in a process pool; each
decision is timed inside its worker, one at a time, as processor time of that worker (one
core; load from other processes does not count). Win rates carry a Wilson 95 % interval; a
drawn match counts as not won.

Each match's whole processor time (both players and the engine) is measured too, and from its
mean the time 200 matches of a pair would take on one core: a default Bézigue match (to 1,000
points) is long, and the projection says what a full measure costs before anyone starts it.
The load average is sampled as matches finish, since a loaded machine slows the wall clock
(never the processor times).

The level ladder, each level against the one below (so a learner who beats one level knows
the next plays better): `--level normal --opponent easy` and `--level strong --opponent normal`.

`--level hinted` is a player who follows the hint (`ai.coach.analyse`, the weighing `/hint`
shows) at every move: `--level hinted --opponent greedy` checks that a learner who takes every
hint plays as well as the strong level does against the same opponent and seeds.
"""

from __future__ import annotations

import argparse
import math
import os
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, cast

import ai
import ai.coach
import games

SEED = 20_000
OPPONENTS = ("random", "greedy")
HINTED = "hinted"  # follows the hint at every move
SHORT_MATCHES = 4  # `make bench` (every section): a quick pass; the full run is `bench ai`
FULL = 200  # matches per pair in the full measure


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("ai section")
    group.add_argument(
        "--matches", type=int, default=None,
        help=(
            "ai: matches per game and opponent; discord: matches in play at once; "
            "coach: matches per game"
        ),
    )  # fmt: skip
    group.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    group.add_argument("--game", action="append", help="only this game (repeatable)")
    group.add_argument("--opponent", action="append", choices=(*OPPONENTS, *ai.LEVELS))
    group.add_argument("--level", default="strong", choices=(*ai.LEVELS, HINTED))
    group.add_argument(
        "--first", type=int, default=0, metavar="I", help="index of the first match (its seed)"
    )
    group.add_argument(
        "--progress", type=int, default=0, metavar="N", help="print the tally every N matches"
    )


Player = Callable[[dict[str, Any], int], str]


def _player(game: str, who: str) -> Player:
    if who == "random":
        return lambda view, seed: ai.random_move(view, seed)
    if who == "greedy":
        return lambda view, seed: ai.greedy(view, seed)
    if who == HINTED:
        return lambda view, seed: ai.coach.analyse(game, view, seed).best.move
    return lambda view, seed: ai.choose(game, view, who, seed)


def play(game: str, level: str, opponent: str, index: int) -> tuple[float, list[float], float]:
    """One match: (1 won / 0.5 drawn / 0 lost for the computer, its decision times, the
    processor time of the whole match)."""
    began = time.process_time()
    seat = index % 2
    players = [_player(game, opponent), _player(game, opponent)]
    players[seat] = _player(game, level)
    seed = SEED + index
    state = games.get(game).new_match(seed=seed)
    times: list[float] = []
    ply = 0
    while state.to_move is not None:
        mover = state.to_move
        view = cast(dict[str, Any], state.view(mover))
        start = time.process_time()
        move = players[mover](view, seed * 1000 + ply)
        if mover == seat and len(view["legal_moves"]) > 1:
            times.append(time.process_time() - start)
        state = state.apply(move)
        ply += 1
    assert state.result is not None
    winner = state.result["winner"]
    outcome = 0.5 if winner is None else float(winner == seat)
    return outcome, times, time.process_time() - began


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a proportion (95 % with z = 1.96)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


def report(
    game: str, opponent: str, outcomes: list[float], times: list[float], cpu: list[float]
) -> str:
    n = len(outcomes)
    per_match = sum(cpu) / len(cpu) if cpu else 0.0
    won = sum(1 for o in outcomes if o == 1.0)
    drawn = sum(1 for o in outcomes if o == 0.5)
    low, high = wilson(won, n)
    return (
        f"{game:<8} vs {opponent:<7} {n:>5} {won:>5} {drawn:>4} {won / max(n, 1):>7.1%} "
        f"[{low:.1%}, {high:.1%}] {len(times):>9} {percentile(times, 0.5):>7.3f} "
        f"{percentile(times, 0.99):>7.3f} {max(times, default=0.0):>7.3f} "
        f"{per_match:>8.1f} {per_match * FULL / 3600:>7.1f}"
    )


def run(seconds: float, args: argparse.Namespace | None = None) -> None:
    del seconds  # the budget is a number of matches, not a time
    explicit = args is not None and args.matches is not None
    matches = args.matches if explicit and args is not None else None
    if matches is None:
        named = args is not None and "ai" in (args.sections or [])
        matches = FULL if named else SHORT_MATCHES
    level = args.level if args is not None else "strong"
    jobs = args.jobs if args is not None else 2
    progress = args.progress if args is not None else 0
    first = args.first if args is not None else 0
    names = [games.get(g).name for g in (args.game or [])] if args and args.game else games.names()
    opponents = list(args.opponent or OPPONENTS) if args is not None else list(OPPONENTS)
    print(
        f"{level} level vs each opponent: {matches} matches per game, default options, seats "
        f"alternated, seeds {SEED + first}…{SEED + first + matches - 1}, {jobs} worker process(es)"
    )
    if matches < FULL:
        print(f"(a short pass: the full measure is `python -m bench ai`, {FULL} matches each)")
    header = (
        f"{'game':<8}    {'opponent':<7} {'games':>5} {'won':>5} {'drew':>4} {'rate':>7} "
        f"{'95% CI':<16} {'decisions':>9} {'p50 s':>7} {'p99 s':>7} {'max s':>7} "
        f"{'s/match':>8} {f'{FULL} h':>7}"
    )
    print(header)
    loads = [os.getloadavg()[0]]
    started = time.perf_counter()
    pairs = [(game, opponent) for game in names for opponent in opponents]
    outcomes: dict[tuple[str, str], list[float]] = {pair: [] for pair in pairs}
    times: dict[tuple[str, str], list[float]] = {pair: [] for pair in pairs}
    cpu: dict[tuple[str, str], list[float]] = {pair: [] for pair in pairs}
    with ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
        # Match by match across every game and opponent, so a run stopped early (or its
        # running tally) covers them all alike.
        futures = {
            pool.submit(play, game, level, opponent, i): (game, opponent)
            for i in range(first, first + matches)
            for game, opponent in pairs
        }
        try:
            for done, future in enumerate(as_completed(futures), 1):
                outcome, spent, whole = future.result()
                outcomes[futures[future]].append(outcome)
                times[futures[future]].extend(spent)
                cpu[futures[future]].append(whole)
                loads.append(os.getloadavg()[0])
                if progress and done % progress == 0 and done < len(futures):
                    print(f"-- so far, {time.perf_counter() - started:,.0f} s:", flush=True)
                    for pair in pairs:
                        print(report(*pair, outcomes[pair], times[pair], cpu[pair]), flush=True)
        except KeyboardInterrupt:
            # Stopped early (Ctrl-C): the matches finished so far still make a tally.
            for future in futures:
                future.cancel()
            print("-- interrupted: matches finished so far")
    if progress:
        print("-- final:")
    for pair in pairs:
        print(report(*pair, outcomes[pair], times[pair], cpu[pair]), flush=True)
    print(
        f"({time.perf_counter() - started:,.0f} s; decision and match times are processor "
        f"seconds; '{FULL} h': hours of one core for {FULL} matches of the pair; load average "
        f"{min(loads):.1f}–{max(loads):.1f}, mean {sum(loads) / len(loads):.1f})"
    )
