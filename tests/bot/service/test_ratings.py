"""Ratings and leaderboards: openskill per game, per server and everywhere."""

from __future__ import annotations

import asyncio
import random
import re

import pytest

from bot.service import MatchService, NotFound, PlayerRef, ratings
from tests.bot.conftest import ALICE, BOB, CAROL, GAME, GUILD, play_random, start_match

OTHER_GUILD = GUILD + 1


async def beat(
    service: MatchService, winner: PlayerRef, loser: PlayerRef, guild: int | None = GUILD
) -> None:
    """A match that ``loser`` resigns."""
    info = await start_match(service, first=winner, second=loser, guild_id=guild)
    await service.resign(info.id, loser.user_id)


async def test_leaderboard_ranks_and_records(service: MatchService) -> None:
    for _ in range(3):
        await beat(service, ALICE, BOB)
    await beat(service, CAROL, BOB)
    await beat(service, BOB, CAROL)

    board = await service.leaderboard("cinq-as", GUILD)
    assert [s.user_id for s in board] == [ALICE.user_id, CAROL.user_id, BOB.user_id]
    assert [s.rank for s in board] == [1, 2, 3]
    assert board[0].wins == 3 and board[0].losses == 0 and board[0].games == 3
    assert board[0].rating > board[1].rating > board[2].rating
    assert [s.user_id for s in await service.leaderboard("lost-cities", GUILD, limit=1)] == [
        ALICE.user_id
    ]

    bob = await service.stats(BOB.user_id, "cinq-as", GUILD)
    assert (bob.wins, bob.losses, bob.draws, bob.games) == (1, 4, 0, 5)
    assert bob.rank == 3 and bob.streak == 1 and bob.resignations == 4
    assert bob.losses_on_time == 0
    alice = await service.stats(ALICE.user_id, "cinq-as", GUILD)
    assert alice.streak == 3 and alice.rank == 1 and alice.wins_by_resignation == 3
    carol = await service.stats(CAROL.user_id, "cinq-as", GUILD)
    assert carol.streak == -1


async def test_server_and_global_ratings_are_kept_apart(service: MatchService) -> None:
    await beat(service, ALICE, BOB, GUILD)
    await beat(service, BOB, ALICE, OTHER_GUILD)
    await beat(service, BOB, ALICE, OTHER_GUILD)
    here = await service.leaderboard("cinq-as", GUILD)
    there = await service.leaderboard("cinq-as", OTHER_GUILD)
    everywhere = await service.leaderboard("cinq-as", None)
    assert here[0].user_id == ALICE.user_id and there[0].user_id == BOB.user_id
    assert everywhere[0].user_id == BOB.user_id
    assert [s.games for s in everywhere] == [3, 3]
    overall = await service.stats(BOB.user_id)
    assert overall.game is None and overall.rating is None
    assert (overall.wins, overall.losses, overall.streak) == (2, 1, 2)
    assert (await service.stats(BOB.user_id, guild_id=GUILD)).streak == -1


async def test_unrated_matches_stay_out_of_ratings(service: MatchService) -> None:
    info, _ = await service.challenge(
        ALICE, BOB, "cinq-as", guild_id=None, channel_id=None, rated=False
    )
    await service.accept(info.id, BOB)
    await service.resign(info.id, BOB.user_id)
    assert await service.leaderboard("cinq-as", None) == []
    assert (await service.stats(ALICE.user_id)).games == 0


async def test_a_played_out_match_is_rated(service: MatchService) -> None:
    info = await play_random(service, await start_match(service), random.Random(3))
    assert info.result is not None
    board = await service.leaderboard("cinq-as", GUILD)
    assert len(board) == 2 and all(s.games == 1 for s in board)
    if info.result["winner"] is None:
        assert all(s.draws == 1 for s in board)
    else:
        assert info.seats is not None
        assert board[0].user_id == info.seats[info.result["winner"]].user_id


async def test_unknown_game_on_the_board(service: MatchService) -> None:
    with pytest.raises(NotFound, match="The games are"):
        await service.leaderboard("chess", None)


def test_openskill_updates() -> None:
    start = ratings.Skill()
    winner, loser = ratings.rate(start, start, 0)
    assert winner.mu > start.mu > loser.mu and winner.sigma < start.sigma
    assert ratings.rate(start, start, 1) == (loser, winner)
    drawn = ratings.rate(start, start, None)
    assert drawn[0].mu == pytest.approx(start.mu) and drawn[0].sigma < start.sigma
    assert start.shown == 0.0
    assert ratings.scopes(None) == (0,) and ratings.scopes(5) == (0, 5)
    assert [ratings.next_streak(s, o) for s, o in [(2, 1), (-2, 1), (2, -1), (-2, -1), (3, 0)]] == [
        3,
        1,
        -1,
        -3,
        0,
    ]


async def test_endings_at_once_name_each_its_own_rating_change(service: MatchService) -> None:
    """Two of a player's matches ending in the same moment: each ending's words name the
    change its own transaction made, the second starting where the first ended."""
    first, second = await start_match(service), await start_match(service)
    outcomes = await asyncio.gather(
        service.resign(first.id, BOB.user_id), service.resign(second.id, BOB.user_id)
    )
    shown = []
    for _, deliveries in outcomes:
        (notice,) = [d for d in deliveries if d.kind == "notice"]
        # Displayed ratings: whole numbers on the familiar scale, a true minus sign.
        found = re.search(r"Alice ([\d,]+) \(([+\N{MINUS SIGN}]\d+)\)", notice.text)
        assert found is not None, notice.text
        after = int(found[1].replace(",", ""))
        moved = int(found[2].replace("\N{MINUS SIGN}", "-"))
        shown.append((after - moved, after))
    shown.sort()
    assert abs(shown[0][1] - shown[1][0]) <= 1  # each rounded on its own
    stats = await service.stats(ALICE.user_id, GAME, GUILD)
    assert stats.rating is not None and ratings.displayed(stats.rating) == shown[1][1]
