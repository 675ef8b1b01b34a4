"""Duplicate matches in the service, without Discord: the second leg on the same deals with
the seats swapped, one result for the pair, a rematch of the pair, and a player who leaves
a tournament between the legs losing the pair."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service import Delivery, MatchService, PlayerRef, Refused

GUILD = 77
PLAYERS = [PlayerRef(1000 + i, name) for i, name in enumerate(["Ana", "Ben"])]


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[MatchService]:
    opened = await MatchService.open(tmp_path / "t.db")
    yield opened
    await opened.close()


async def _play_out(service: MatchService, match_id: int, seed: int) -> list[Delivery]:
    """Random legal moves until the match is over; the last move's deliveries."""
    rng = random.Random(seed)
    told: list[Delivery] = []
    while (info := await service.get(match_id)).status == "active":
        assert info.to_move is not None
        moves = await service.legal_moves(match_id, info.to_move)
        _, told = await service.move(match_id, info.to_move, rng.choice(moves))
    return told


async def test_a_match_that_is_no_leg_has_no_duplicate(service: MatchService) -> None:
    info, _ = await service.challenge(
        PLAYERS[0], PLAYERS[1], "piquet", guild_id=GUILD, channel_id=5, options={"deals": 1}
    )
    assert await service.duplicates.legs(info.id) is None
    assert await service.duplicates.terms(info.id) == (False, False)


async def test_the_second_leg_swaps_the_seats_on_the_same_deals(service: MatchService) -> None:
    ana, ben = PLAYERS
    info, told = await service.challenge(
        ana, ben, "piquet", guild_id=GUILD, channel_id=5, options={"deals": 1}, duplicate=True
    )
    assert any("same deals" in d.text for d in told if d.kind == "notice"), told
    assert await service.duplicates.terms(info.id) == (True, False)
    await service.accept(info.id, ben)
    await _play_out(service, info.id, 1)
    (started,) = [d for d in await service.tournaments.step() if d.kind == "notice"]
    assert "Second leg" in started.text
    legs = await service.duplicates.legs(info.id)
    assert legs is not None and legs[1] is not None
    assert await service.duplicates.legs(legs[1]) == legs
    first, second = await service.get(info.id), await service.get(legs[1])
    assert first.seats is not None and second.seats is not None
    assert [p.user_id for p in second.seats] == [p.user_id for p in reversed(first.seats)]
    seeds = await service.database.fetchall(
        "SELECT seed, rated FROM matches WHERE id IN (?, ?) ORDER BY id", legs
    )
    assert seeds[0]["seed"] == seeds[1]["seed"] and not any(s["rated"] for s in seeds)
    await service.tournaments.step()  # nothing more is due until the second leg ends
    assert await service.duplicates.legs(info.id) == legs


async def test_who_leaves_between_the_legs_of_a_duplicate_loses_it(
    service: MatchService,
) -> None:
    info = await service.tournaments.create(
        PLAYERS[0], guild_id=GUILD, channel_id=5, name="Cup", game="piquet",
        options={"deals": 1}, format_="round-robin", duplicate=True, rounds=None,
        days_per_move=None, starts_at=None,
    )  # fmt: skip
    tournament = info.id
    for player in PLAYERS:
        await service.tournaments.join(tournament, player, GUILD)
    await service.tournaments.start(tournament, PLAYERS[0].user_id, GUILD, manager=False)
    await service.tournaments.step()
    (posting,) = await service.tournaments.posts.postings()
    await service.tournaments.posts.opening(posting, None)
    await _play_out(service, posting.match_id, 5)
    # The first leg is over; before the task starts the second, Ben leaves.
    _, news, resigned = await service.tournaments.leave(tournament, PLAYERS[1].user_id, GUILD)
    assert resigned == [] and "Ben leaves" in news.text
    (told,) = await service.tournaments.step()
    assert "Ana wins by resignation" in told.text
    assert await service.duplicates.legs(posting.match_id) == (posting.match_id, None)
    await service.tournaments.step()
    info_t = await service.tournaments.get(tournament, GUILD)
    assert info_t.status == "finished"
    lines = await service.tournaments.standings(tournament, GUILD)
    assert [(line.name, line.score) for line in lines] == [("Ana", 1.0), ("Ben", 0.0)]


async def test_a_duplicate_offers_a_rematch_for_the_pair_not_under_a_leg(
    service: MatchService,
) -> None:
    ana, ben = PLAYERS[0], PLAYERS[1]
    info, _ = await service.challenge(
        ana, ben, "piquet", guild_id=GUILD, channel_id=5, options={"deals": 1}, duplicate=True
    )
    await service.accept(info.id, ben)
    ended = [d for d in await _play_out(service, info.id, 3) if d.kind == "notice"]
    assert ended and all(d.status == "finished" and d.leg for d in ended)
    with pytest.raises(Refused, match="one leg of a duplicate match"):
        await service.rematch(info.id, ana)
    await service.tournaments.step()  # the second leg starts
    pair = await service.duplicates.legs(info.id)
    assert pair is not None and pair[1] is not None
    second = pair[1]
    ended = [d for d in await _play_out(service, second, 4) if d.kind == "notice"]
    assert ended and all(d.leg for d in ended)
    (result,) = [d for d in await service.tournaments.step() if d.kind == "notice"]
    # The pair's result is where its rematch is offered, for the pair.
    assert result.match_id == second and result.status == "finished" and not result.leg
    again, told = await service.rematch(second, ben)
    assert again.status == "challenge" and again.challenger.user_id == ben.user_id
    assert await service.duplicates.legs(again.id) == (again.id, None)
    assert any("same deals" in d.text for d in told if d.kind == "notice"), told
    accepted, _ = await service.rematch(second, ana)  # Ana asks too: that accepts Ben's
    assert accepted.id == again.id and accepted.status == "active"
