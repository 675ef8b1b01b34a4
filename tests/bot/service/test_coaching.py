"""Hints and reviews through the service: allowed only where nobody is measured, given from
the asking seat's view in a worker, kept with the match; a review made once and read back."""

from __future__ import annotations

import random

import pytest

import ai.review
from bot.process.workers import Workers
from bot.service import MatchOver, MatchService, NotAPlayer, Refused
from bot.service.coach import Coach
from bot.service.computer import computer_player
from games.words import ENGLISH
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, play_random, start_match
from tests.style import problems


def coach_of(service: MatchService) -> Coach:
    return Coach(service, Workers("computer", 0, patience=60.0))  # threads: no processes


async def against_computer(service: MatchService, game: str = "ecarte") -> int:
    info, _ = await service.challenge(
        ALICE, computer_player("strong"), game, guild_id=GUILD, channel_id=CHANNEL, rated=False
    )
    info, _ = await service.accept(info.id, computer_player("strong"))
    return info.id


async def alice_to_move(service: MatchService, match_id: int) -> None:
    """Play the computer's side at random until it is Alice's turn (the test drives it)."""
    rng = random.Random(3)
    info = await service.get(match_id)
    while info.status == "active" and info.to_move != ALICE.user_id:
        assert info.to_move is not None
        moves = await service.legal_moves(match_id, info.to_move)
        info, _ = await service.move(match_id, info.to_move, rng.choice(moves))


async def test_a_hint_against_the_computer_is_given_and_kept(service: MatchService) -> None:
    match_id = await against_computer(service)
    await alice_to_move(service, match_id)
    coach = coach_of(service)
    text = await coach.hint(match_id, ALICE.user_id, ENGLISH)
    assert text.startswith("Tapis would play") or text.startswith("Play ")
    assert problems(text) == []
    (used,) = await service.coaching.hints_used(match_id)
    info = await service.get(match_id)
    assert used.user_id == ALICE.user_id and used.version == info.version
    assert used.move in await service.legal_moves(match_id, ALICE.user_id)
    # Asked again at the same moment: the same hint, kept once.
    assert await coach.hint(match_id, ALICE.user_id, ENGLISH) == text
    assert len(await service.coaching.hints_used(match_id)) == 1


async def test_hints_are_refused_in_a_rated_match(service: MatchService) -> None:
    info = await start_match(service, "ecarte")
    seat_user = info.to_move
    assert seat_user is not None
    with pytest.raises(Refused, match="rated match"):
        await service.coaching.ask_hint(info.id, seat_user)


async def test_hints_are_allowed_where_the_challenge_said_so(service: MatchService) -> None:
    info, _ = await service.challenge(
        ALICE, BOB, "ecarte", guild_id=GUILD, channel_id=CHANNEL, rated=False
    )
    info, _ = await service.accept(info.id, BOB)
    assert info.to_move is not None
    with pytest.raises(Refused, match="did not allow them"):
        await service.coaching.ask_hint(info.id, info.to_move)
    await service.coaching.allow_hints(info.id)
    asked = await service.coaching.ask_hint(info.id, info.to_move)
    assert asked.view["seat"] == info.seat_of(info.to_move)
    other = BOB.user_id if info.to_move == ALICE.user_id else ALICE.user_id
    with pytest.raises(Refused, match="not your turn"):
        await service.coaching.ask_hint(info.id, other)
    with pytest.raises(NotAPlayer):
        await service.coaching.ask_hint(info.id, CAROL.user_id)


async def test_hints_are_refused_in_a_duplicate_leg(service: MatchService) -> None:
    info, _ = await service.challenge(
        ALICE, BOB, "ecarte", guild_id=GUILD, channel_id=CHANNEL, duplicate=True, rated=False
    )
    info, _ = await service.accept(info.id, BOB)
    await service.coaching.allow_hints(info.id)  # even if it were marked, a leg refuses
    assert info.to_move is not None
    with pytest.raises(Refused, match="duplicate match"):
        await service.coaching.ask_hint(info.id, info.to_move)


async def test_hints_are_refused_in_a_tournament_match(service: MatchService) -> None:
    info, _ = await service.challenge(
        ALICE, BOB, "ecarte", guild_id=GUILD, channel_id=CHANNEL, rated=False
    )
    info, _ = await service.accept(info.id, BOB)
    tournament = await service.tournaments.create(
        ALICE, guild_id=GUILD, channel_id=5, name="Cup", game="ecarte", options=None,
        format_="swiss", duplicate=False, rounds=None, days_per_move=None, starts_at=None,
    )  # fmt: skip

    def plan(conn: object) -> None:
        conn.execute(  # type: ignore[attr-defined]
            "INSERT INTO tournament_games (tournament_id, round, board, seat0_id, seat1_id,"
            " match_id) VALUES (?, 1, 1, ?, ?, ?)",
            (tournament.id, ALICE.user_id, BOB.user_id, info.id),
        )

    await service.store.db.transact(plan)
    await service.coaching.allow_hints(info.id)
    assert info.to_move is not None
    with pytest.raises(Refused, match="tournament"):
        await service.coaching.ask_hint(info.id, info.to_move)


async def test_a_review_is_made_once_and_read_back(
    service: MatchService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ai.review, "REVIEW_SHARE", 60)  # a light budget: the suite's time
    match_id = await against_computer(service, "ecarte")
    coach = coach_of(service)
    with pytest.raises(MatchOver):
        await coach.review(match_id, ALICE.user_id, ENGLISH)
    await play_random(service, await service.get(match_id), random.Random(5))
    seen: list[tuple[int, int]] = []

    async def progress(done: int, total: int) -> None:
        seen.append((done, total))

    text = await coach.review(match_id, ALICE.user_id, ENGLISH, progress)
    assert seen and seen[-1][0] == seen[-1][1]
    assert text.startswith("Alice lost about") and problems(text) == []
    stored = await service.coaching.stored_review(match_id)
    assert stored is not None and stored["game"] == "ecarte"
    # Asked again: read back, nothing weighed.
    again: list[tuple[int, int]] = []

    async def progress_again(done: int, total: int) -> None:
        again.append((done, total))

    assert await coach.review(match_id, ALICE.user_id, ENGLISH, progress_again) == text
    assert again == []
    with pytest.raises(Exception, match="no match"):
        await coach.review(match_id, CAROL.user_id, ENGLISH)
