"""Tournament pairings and tie-breaks: pure functions over plain records, no I/O.

No maintained Python library does Swiss pairing for a bot like this one (the chess ones
implement FIDE's Dutch system with its 20-odd criteria, and expect ratings and colours as
chess knows them), so the rules kept here are the few every Swiss shares:

- players meet others of their own score first (score groups, top half against bottom half);
- nobody meets the same opponent twice while any pairing of the round avoids it;
- with an odd number, the bye goes to the lowest-placed player who has not had one;
- each pair's first seat goes to the one who sat there less often (seat balance).

Round-robin uses the circle method: everyone meets everyone once, seats alternating.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

WIN: Final = 1.0
DRAW: Final = 0.5
BYE: Final = 1.0  # a bye scores as a win: nobody chose to sit out
SEARCH_BUDGET: Final = 50_000  # pairing attempts before settling for a rematch


@dataclass(frozen=True)
class Entrant:
    """One player as the pairing sees them, before a round."""

    user_id: int
    score: float = 0.0
    order: int = 0  # the starting order (join order): lower is placed higher on equal scores
    opponents: frozenset[int] = frozenset()
    first_seats: int = 0  # games played in seat 0
    second_seats: int = 0  # games played in seat 1
    had_bye: bool = False


@dataclass(frozen=True)
class Round:
    """A round's pairings: (seat 0, seat 1) user ids, and who has the bye (None if nobody)."""

    pairs: tuple[tuple[int, int], ...]
    bye: int | None = None

    @property
    def players(self) -> set[int]:
        found = {user for pair in self.pairs for user in pair}
        return found | ({self.bye} if self.bye is not None else set())


def placed(entrants: Sequence[Entrant]) -> list[Entrant]:
    """The entrants from the top of the table down: score, then starting order."""
    return sorted(entrants, key=lambda e: (-e.score, e.order, e.user_id))


def swiss(entrants: Sequence[Entrant]) -> Round:
    """The next Swiss round for ``entrants`` (those still playing)."""
    table = placed(entrants)
    if len(table) < 2:
        return Round((), table[0].user_id if table else None)
    if len(table) % 2 == 0:
        candidates: list[Entrant | None] = [None]
    else:
        # From the bottom up: first those without a bye yet, then (all had one) anyone.
        bottom_up = list(reversed(table))
        candidates = [e for e in bottom_up if not e.had_bye]
        candidates += [e for e in bottom_up if e.had_bye]
    for avoid_rematch in (True, False):
        for bye in candidates:
            rest = [e for e in table if e is not bye]
            budget = [SEARCH_BUDGET]
            pairs = _pair(rest, avoid_rematch, budget)
            if pairs is not None:
                seated = tuple(_seated(a, b) for a, b in pairs)
                return Round(seated, None if bye is None else bye.user_id)
    raise AssertionError("pairing with rematches allowed always succeeds")  # pragma: no cover


def _preference(first: Entrant, rest: list[Entrant]) -> list[Entrant]:
    """Whom ``first`` (the highest placed left) should meet, best first: in their score
    group the one half a group below (1 v 4, 2 v 5, 3 v 6 in a group of six), then the
    rest of the group, then the lower groups in order."""
    group = [e for e in rest if e.score == first.score]
    lower = [e for e in rest if e.score != first.score]
    half = (len(group) + 1) // 2 - 1  # first is the top of its group of len(group) + 1
    middle = group[max(half, 0) :] + list(reversed(group[: max(half, 0)]))
    return middle + lower


def _pair(
    table: list[Entrant], avoid_rematch: bool, budget: list[int]
) -> list[tuple[Entrant, Entrant]] | None:
    """Pair ``table`` (placed order, even length) by depth-first search; None if no pairing
    avoids rematches (when asked to) within the budget."""
    if not table:
        return []
    budget[0] -= 1
    if budget[0] < 0:
        return None
    first, rest = table[0], table[1:]
    for other in _preference(first, rest):
        if avoid_rematch and other.user_id in first.opponents:
            continue
        remaining = [e for e in rest if e is not other]
        found = _pair(remaining, avoid_rematch, budget)
        if found is not None:
            return [(first, other), *found]
        if budget[0] < 0:
            return None
    return None


def _seated(a: Entrant, b: Entrant) -> tuple[int, int]:
    """Who takes seat 0: the one who sat there less often than in seat 1; on equal balance
    the higher placed (``a``)."""
    balance_a = a.first_seats - a.second_seats
    balance_b = b.first_seats - b.second_seats
    return (b.user_id, a.user_id) if balance_b < balance_a else (a.user_id, b.user_id)


def round_robin(user_ids: Sequence[int], round_number: int) -> Round:
    """Round ``round_number`` (1-based) of a round-robin over ``user_ids`` in starting order,
    by the circle method: the first stays put, the others turn one place each round."""
    players: list[int | None] = list(user_ids)
    if len(players) % 2:
        players.append(None)  # whoever meets "nobody" has the bye
    count = len(players)
    rounds = count - 1
    if not 1 <= round_number <= rounds:
        raise ValueError(f"a round-robin of {len(user_ids)} has rounds 1 to {rounds}")
    turn = round_number - 1
    circle = [players[0], *(players[1:][-turn:] + players[1:][:-turn] if turn else players[1:])]
    pairs: list[tuple[int, int]] = []
    bye = None
    for index in range(count // 2):
        a, b = circle[index], circle[count - 1 - index]
        if a is None or b is None:
            bye = b if a is None else a
            continue
        # The turning players pass through the top half (seat 0) and the bottom half (seat
        # 1) in turn; the fixed player alternates by round. Each sits first about half the time.
        if index == 0:
            pairs.append((a, b) if turn % 2 == 0 else (b, a))
        else:
            pairs.append((a, b))
    return Round(tuple(pairs), bye)


def round_robin_rounds(players: int) -> int:
    """How many rounds a round-robin of ``players`` has."""
    return players - 1 if players % 2 == 0 else players


@dataclass(frozen=True)
class Game:
    """One finished game of a tournament: points are 1, ½ or 0 each (None for a bye's
    missing opponent)."""

    first: int
    second: int | None
    first_points: float
    second_points: float = 0.0


@dataclass
class Line:
    """One player's line of the standings."""

    user_id: int
    order: int
    score: float = 0.0
    buchholz: float = 0.0
    sonneborn_berger: float = 0.0
    played: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    byes: int = 0
    results: list[tuple[int, float]] = field(default_factory=list)  # (opponent, points)


def standings(players: Sequence[tuple[int, int]], results: Sequence[Game]) -> list[Line]:
    """The table: ``players`` as (user id, starting order), ``results`` the games scored.

    Ordered by score, then Buchholz (the sum of one's opponents' scores: who met the
    stronger field), then Sonneborn-Berger (the scores of the opponents one beat, plus half
    of those one drew with: whom one's points came from), then starting order. A bye counts
    its point to the score but nothing to the tie-breaks: it has no opponent.
    """
    lines = {user_id: Line(user_id, order) for user_id, order in players}
    for game in results:
        one = lines.get(game.first)
        if one is None:
            continue
        if game.second is None:
            one.score += game.first_points
            one.byes += 1
            continue
        two = lines.get(game.second)
        for line, opponent, mine in (
            (one, game.second, game.first_points),
            (two, game.first, game.second_points),
        ):
            if line is None:
                continue
            line.score += mine
            line.played += 1
            line.wins += mine == WIN
            line.draws += mine == DRAW
            line.losses += mine == 0
            line.results.append((opponent, mine))
    for line in lines.values():
        for opponent, mine in line.results:
            other = lines.get(opponent)
            theirs = other.score if other is not None else 0.0
            line.buchholz += theirs
            line.sonneborn_berger += theirs * mine
    return sorted(
        lines.values(),
        key=lambda x: (-x.score, -x.buchholz, -x.sonneborn_berger, x.order, x.user_id),
    )
