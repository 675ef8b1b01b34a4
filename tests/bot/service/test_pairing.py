"""Swiss and round-robin pairings, and the tie-breaks, on plain records."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.service import pairing
from bot.service.pairing import Entrant, Game, Round


def _matchings(players: list[int]) -> list[list[tuple[int, int]]]:
    """Every way to pair ``players`` (even count): the oracle for small fields."""
    if not players:
        return [[]]
    first, rest = players[0], players[1:]
    found = []
    for index, other in enumerate(rest):
        for tail in _matchings(rest[:index] + rest[index + 1 :]):
            found.append([(first, other), *tail])
    return found


def _rematch_free_exists(entrants: list[Entrant]) -> bool:
    ids = [e.user_id for e in entrants]
    met = {e.user_id: e.opponents for e in entrants}
    byes: list[int | None] = [None] if len(ids) % 2 == 0 else list(ids)
    for bye in byes:
        rest = [i for i in ids if i != bye]
        for pairs in _matchings(rest):
            if all(b not in met[a] for a, b in pairs):
                return True
    return False


@st.composite
def histories(draw: st.DrawFn) -> list[Entrant]:
    """A field of 2 to 8 players after some random rounds (random results and meetings)."""
    count = draw(st.integers(2, 8))
    rounds = draw(st.integers(0, 4))
    rng = random.Random(draw(st.integers(0, 2**32)))
    ids = list(range(1, count + 1))
    score = dict.fromkeys(ids, 0.0)
    met: dict[int, set[int]] = {i: set() for i in ids}
    byes: set[int] = set()
    for _ in range(rounds):
        order = ids[:]
        rng.shuffle(order)
        if len(order) % 2:
            byes.add(order.pop())
        for a, b in zip(order[::2], order[1::2], strict=True):
            met[a].add(b)
            met[b].add(a)
            points = rng.choice((1.0, 0.5, 0.0))
            score[a] += points
            score[b] += 1 - points
    return [Entrant(i, score[i], i, frozenset(met[i]), had_bye=i in byes) for i in ids]


@given(histories())
@settings(max_examples=150, deadline=None)
def test_everyone_is_paired_once_or_has_the_one_bye(entrants: list[Entrant]) -> None:
    drawn = pairing.swiss(entrants)
    seated = [user for pair in drawn.pairs for user in pair]
    assert len(seated) == len(set(seated))
    assert drawn.players == {e.user_id for e in entrants}
    assert (drawn.bye is not None) == (len(entrants) % 2 == 1)
    assert all(a != b for a, b in drawn.pairs)


@given(histories())
@settings(max_examples=150, deadline=None)
def test_no_rematch_while_one_can_be_avoided(entrants: list[Entrant]) -> None:
    drawn = pairing.swiss(entrants)
    met = {e.user_id: e.opponents for e in entrants}
    rematches = [(a, b) for a, b in drawn.pairs if b in met[a]]
    if _rematch_free_exists(entrants):
        assert not rematches, (drawn, entrants)


@given(histories())
@settings(max_examples=100, deadline=None)
def test_the_bye_goes_to_the_lowest_placed_without_one_when_that_works(
    entrants: list[Entrant],
) -> None:
    if len(entrants) % 2 == 0 or all(e.had_bye for e in entrants):
        return
    drawn = pairing.swiss(entrants)
    assert drawn.bye is not None
    byed = next(e for e in entrants if e.user_id == drawn.bye)
    if not any(e.opponents for e in entrants):  # a first round: nothing else constrains it
        assert not byed.had_bye
        lowest = pairing.placed([e for e in entrants if not e.had_bye])[-1]
        assert drawn.bye == lowest.user_id


def test_first_round_pairs_top_half_against_bottom_half() -> None:
    entrants = [Entrant(i, 0.0, i) for i in range(1, 7)]
    drawn = pairing.swiss(entrants)
    assert {frozenset(p) for p in drawn.pairs} == {
        frozenset((1, 4)),
        frozenset((2, 5)),
        frozenset((3, 6)),
    }


def test_score_groups_meet_first_and_seats_balance() -> None:
    # After one round 1, 2, 3 won (in seat 0); 4, 5, 6 lost (in seat 1).
    won = {1: 4, 2: 5, 3: 6}
    entrants = [Entrant(w, 1.0, w, frozenset({lost}), first_seats=1) for w, lost in won.items()]
    entrants += [
        Entrant(lost, 0.0, lost, frozenset({w}), second_seats=1) for w, lost in won.items()
    ]
    drawn = pairing.swiss(entrants)
    winners_pairs = [p for p in drawn.pairs if set(p) <= {1, 2, 3}]
    losers_pairs = [p for p in drawn.pairs if set(p) <= {4, 5, 6}]
    assert len(winners_pairs) == 1 and len(losers_pairs) == 1  # one floats each way
    for first, second in drawn.pairs:
        balance = {e.user_id: e.first_seats - e.second_seats for e in entrants}
        assert balance[first] <= balance[second]


def test_rematch_only_when_unavoidable() -> None:
    # Two players who met already: they must meet again (or nobody plays).
    entrants = [Entrant(1, 1.0, 1, frozenset({2})), Entrant(2, 0.0, 2, frozenset({1}))]
    assert pairing.swiss(entrants) == Round(((1, 2),), None)


@given(st.integers(2, 11))
def test_round_robin_meets_everyone_once(count: int) -> None:
    ids = list(range(10, 10 + count))
    rounds = pairing.round_robin_rounds(count)
    seen: set[frozenset[int]] = set()
    byes: list[int] = []
    firsts = dict.fromkeys(ids, 0)
    for number in range(1, rounds + 1):
        drawn = pairing.round_robin(ids, number)
        assert drawn.players == set(ids)
        for a, b in drawn.pairs:
            assert frozenset((a, b)) not in seen
            seen.add(frozenset((a, b)))
            firsts[a] += 1
        if drawn.bye is not None:
            byes.append(drawn.bye)
    assert seen == {frozenset(p) for p in itertools.combinations(ids, 2)}
    assert len(byes) == len(set(byes)) == (count % 2) * count
    assert max(firsts.values()) - min(firsts.values()) <= 2  # seats about even


def test_tie_breaks_buchholz_then_sonneborn_berger() -> None:
    # A beat B, B beat C, C beat A (all 1 point); D lost to A, drew with B, beat nobody.
    games = [
        Game(1, 2, 1.0, 0.0),
        Game(2, 3, 1.0, 0.0),
        Game(3, 1, 1.0, 0.0),
        Game(1, 4, 1.0, 0.0),
        Game(2, 4, 0.5, 0.5),
        Game(3, None, pairing.BYE),
    ]
    table = pairing.standings([(1, 1), (2, 2), (3, 3), (4, 4)], games)
    by_id = {line.user_id: line for line in table}
    assert by_id[1].score == 2 and by_id[2].score == 1.5 and by_id[3].score == 2
    # Buchholz: 1 met 2 (1.5), 3 (2), 4 (0.5) = 4; 3 met 2 and 1 = 3.5 (the bye counts nothing).
    assert by_id[1].buchholz == 4.0 and by_id[3].buchholz == 3.5
    # Sonneborn-Berger: 1 beat 2 and 4: 1.5 + 0.5 = 2; 2 beat 3 (2), drew 4 (0.25) = 2.25.
    assert by_id[1].sonneborn_berger == 2.0 and by_id[2].sonneborn_berger == 2.25
    assert [line.user_id for line in table] == [1, 3, 2, 4]
    assert by_id[3].byes == 1 and by_id[3].played == 2
