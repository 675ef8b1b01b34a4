"""The match service on a real SQLite file: a match's whole life, refusals, hidden information."""

from __future__ import annotations

import asyncio
import json
import random
import re
from pathlib import Path

import pytest

import games
from bot.service import (
    Conflict,
    Delivery,
    MatchOver,
    MatchService,
    NotAPlayer,
    NotFound,
    NotYourTurn,
    PlayerRef,
    Refused,
    wording,
)
from games.words import ENGLISH
from tests.bot.conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GAME,
    GUILD,
    play_random,
    rows,
    snapshot,
    start_match,
    stored_state,
)

CARD = re.compile(r"\b(?:10|[2-9]|1[9]|2[01]|[JQKA])[SHDCT]\b")


def cards_in(data: object) -> set[str]:
    return set(CARD.findall(json.dumps(data)))


def check_deliveries(path: Path, match_id: int, deliveries: list[Delivery]) -> None:
    """Hidden information: a hand carries only its seat's view, a public message only the
    public view, and every card a text names is one its reader's view shows."""
    state = stored_state(path, match_id)
    [seat_ids] = rows(path, "SELECT seat0_id, seat1_id FROM matches WHERE id = ?", match_id)
    public = cards_in(state.view(None))
    for delivery in deliveries:
        named = set(CARD.findall(delivery.text))
        if delivery.kind in ("board", "notice"):
            assert delivery.to is None
            assert delivery.view is None or delivery.view == state.view(None)
            assert named <= public, delivery.text
        elif delivery.kind == "hand":
            seat = seat_ids.index(delivery.to)
            assert delivery.view == state.view(seat)
            assert named <= cards_in(state.view(seat)), delivery.text
        else:
            seat = seat_ids.index(delivery.to)
            assert delivery.view is None
            assert named <= cards_in(state.view(seat)), delivery.text


@pytest.mark.parametrize("game", games.names())
async def test_a_whole_match_of_every_game_through_the_service(
    service: MatchService, db_path: Path, game: str
) -> None:
    info, deliveries = await service.challenge(ALICE, BOB, game, guild_id=GUILD, channel_id=CHANNEL)
    assert info.status == "challenge" and deliveries[0].mention == BOB.user_id
    info, deliveries = await service.accept(info.id, BOB)
    assert [d.kind for d in deliveries] == ["notice", "board", "hand", "hand"]
    assert info.seats == (ALICE, BOB) and info.version == 0
    check_deliveries(db_path, info.id, deliveries)
    rng = random.Random(7)
    while info.status == "active":
        assert info.to_move is not None
        legal = await service.legal_moves(info.id, info.to_move)
        other = BOB.user_id if info.to_move == ALICE.user_id else ALICE.user_id
        assert await service.legal_moves(info.id, other) == []
        version, mover = info.version, info.to_move
        info, deliveries = await service.move(info.id, info.to_move, rng.choice(legal))
        assert info.version == version + 1
        check_deliveries(db_path, info.id, deliveries)
        if info.status == "active":
            assert [d.kind for d in deliveries] == ["board", "hand", "hand"]
            # The board pings a player only when the turn passes to them.
            assert deliveries[0].mention == (info.to_move if info.to_move != mover else None)
    assert info.status == "finished" and info.result is not None
    assert [d.kind for d in deliveries] == ["notice", "board"]
    assert "is over" in deliveries[0].text
    assert await service.verify(info.id)
    [(moves,)] = rows(db_path, "SELECT COUNT(*) FROM moves WHERE match_id = ?", info.id)
    [(how,)] = rows(db_path, "SELECT how FROM results WHERE match_id = ?", info.id)
    assert moves == info.version and how == "play"
    state = stored_state(db_path, info.id)
    assert state.result is not None and info.result["winner"] == state.result["winner"]


async def test_refusals_say_why_and_write_nothing(service: MatchService, db_path: Path) -> None:
    info = await start_match(service)
    assert info.to_move is not None
    mover = info.to_move
    waiting = BOB.user_id if mover == ALICE.user_id else ALICE.user_id
    legal = await service.legal_moves(info.id, mover)
    before = snapshot(db_path)

    with pytest.raises(NotAPlayer, match="do not play"):
        await service.move(info.id, CAROL.user_id, legal[0])
    with pytest.raises(NotYourTurn, match="turn"):
        await service.move(info.id, waiting, legal[0])
    with pytest.raises(Refused, match="Moves open to you: ") as refused:
        await service.move(info.id, mover, "play 3Z")
    assert wording.move_text(info.game, legal[0], ENGLISH) in str(refused.value)
    with pytest.raises(Refused):
        await service.move(info.id, mover, "fly away")
    with pytest.raises(NotFound, match="no match #999"):
        await service.move(999, mover, legal[0])
    assert snapshot(db_path) == before

    await service.resign(info.id, waiting)
    before = snapshot(db_path)
    with pytest.raises(MatchOver, match="is over"):
        await service.move(info.id, mover, legal[0])
    with pytest.raises(MatchOver):
        await service.resign(info.id, mover)
    assert await service.legal_moves(info.id, mover) == []
    assert snapshot(db_path) == before


async def test_two_moves_at_once_apply_exactly_once(service: MatchService, db_path: Path) -> None:
    import asyncio

    info = await start_match(service)
    assert info.to_move is not None
    move = (await service.legal_moves(info.id, info.to_move))[0]
    outcomes = await asyncio.gather(
        service.move(info.id, info.to_move, move),
        service.move(info.id, info.to_move, move),
        return_exceptions=True,
    )
    applied = [o for o in outcomes if not isinstance(o, BaseException)]
    refused = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(applied) == 1 and len(refused) == 1
    assert isinstance(refused[0], Refused | NotYourTurn)
    assert (await service.get(info.id)).version == 1
    assert rows(db_path, "SELECT COUNT(*) FROM moves") == [(1,)]


async def test_two_different_moves_on_the_same_version_one_conflicts(
    service: MatchService,
) -> None:
    import asyncio

    info = await start_match(service)
    assert info.to_move is not None
    first, second = (await service.legal_moves(info.id, info.to_move))[:2]
    outcomes = await asyncio.gather(
        service.move(info.id, info.to_move, first, expected_version=0),
        service.move(info.id, info.to_move, second, expected_version=0),
        return_exceptions=True,
    )
    assert not isinstance(outcomes[0], BaseException)
    assert isinstance(outcomes[1], Conflict)
    assert (await service.get(info.id)).version == 1


async def test_two_hundred_moves_on_two_hundred_matches_all_apply(
    service: MatchService, db_path: Path
) -> None:
    import asyncio

    infos = [await start_match(service) for _ in range(200)]

    async def first_move(match_id: int, user_id: int) -> int:
        move = (await service.legal_moves(match_id, user_id))[0]
        info, _ = await service.move(match_id, user_id, move)
        return info.version

    versions = await asyncio.gather(
        *(first_move(info.id, info.to_move) for info in infos if info.to_move is not None)
    )
    assert versions == [1] * 200
    assert rows(db_path, "SELECT COUNT(DISTINCT match_id) FROM moves") == [(200,)]


async def test_another_process_moving_first_makes_a_stale_move_conflict(
    service: MatchService, db_path: Path, clock: object
) -> None:
    """The optimistic version check: two services on one database (two processes)."""
    info = await start_match(service)
    assert info.to_move is not None
    legal = await service.legal_moves(info.id, info.to_move)
    other = await MatchService.open(db_path)
    try:
        await other.move(info.id, info.to_move, legal[0])
    finally:
        await other.close()
    before = snapshot(db_path)
    if isinstance(db_path, str):
        # PostgreSQL is shared by design: nothing is cached, so the move made on what this
        # player saw (version 0) is judged against the other process's: it moved on.
        with pytest.raises(Conflict, match="moved on"):
            await service.move(info.id, info.to_move, legal[0], expected_version=0)
    else:
        with pytest.raises(Conflict, match="changed meanwhile"):
            # The first service still holds version 0 in its cache: the UPDATE finds no row.
            await service.move(info.id, info.to_move, legal[0])
    assert snapshot(db_path) == before
    # Having looked again, it carries on from the other process's move.
    info = await service.get(info.id)
    assert info.version == 1


async def test_challenges_declined_cancelled_and_open(service: MatchService) -> None:
    info, _ = await service.challenge(ALICE, BOB, "cinq-as", guild_id=GUILD, channel_id=CHANNEL)
    with pytest.raises(NotAPlayer, match="for Bob"):
        await service.accept(info.id, CAROL)
    with pytest.raises(Refused, match="own challenge"):
        await service.accept(info.id, ALICE)
    with pytest.raises(NotAPlayer):
        await service.decline(info.id, ALICE.user_id)
    info, deliveries = await service.decline(info.id, BOB.user_id)
    assert info.status == "declined" and "declines" in deliveries[0].text
    with pytest.raises(MatchOver):
        await service.accept(info.id, BOB)

    info, _ = await service.challenge(ALICE, BOB, "cinq-as", guild_id=GUILD, channel_id=CHANNEL)
    with pytest.raises(NotAPlayer):
        await service.cancel(info.id, BOB.user_id)
    info, _ = await service.cancel(info.id, ALICE.user_id)
    assert info.status == "cancelled"

    info, deliveries = await service.challenge(
        ALICE, None, "lost-cities", guild_id=GUILD, channel_id=CHANNEL, options={"rounds": 1}
    )
    assert info.opponent is None and "anyone" in deliveries[0].text
    assert info.game == "cinq-as"
    info, _ = await service.accept(info.id, CAROL)
    assert info.status == "active" and info.seats == (ALICE, CAROL)
    assert info.options == {"rounds": 1}


async def test_bad_challenges_are_refused_politely(service: MatchService, db_path: Path) -> None:
    before = snapshot(db_path)
    with pytest.raises(Refused, match="The games are"):
        await service.challenge(ALICE, BOB, "chess", guild_id=None, channel_id=None)
    with pytest.raises(Refused, match="option"):
        await service.challenge(
            ALICE, BOB, "cinq-as", guild_id=None, channel_id=None, options={"colour": 1}
        )
    with pytest.raises(Refused, match="days per move"):
        await service.challenge(
            ALICE, BOB, "cinq-as", guild_id=None, channel_id=None, days_per_move=400
        )
    with pytest.raises(Refused, match="yourself"):
        await service.challenge(ALICE, ALICE, "cinq-as", guild_id=None, channel_id=None)
    assert snapshot(db_path) == before


async def test_abort_only_before_the_first_move(service: MatchService) -> None:
    info = await start_match(service)
    with pytest.raises(NotAPlayer):
        await service.abort(info.id, CAROL.user_id)
    info, deliveries = await service.abort(info.id, BOB.user_id)
    assert info.status == "aborted"
    assert [d.kind for d in deliveries] == ["notice", "dm"] and deliveries[1].to == ALICE.user_id

    info = await play_random(service, await start_match(service), random.Random(1), moves=1)
    with pytest.raises(Refused, match="resign"):
        await service.abort(info.id, ALICE.user_id)


async def test_resign_rematch_and_the_rematch_of_the_other(service: MatchService) -> None:
    info = await start_match(service)
    info, deliveries = await service.resign(info.id, ALICE.user_id)
    assert info.status == "finished" and info.result is not None
    assert info.result["winner"] == 1 and info.result["how"] == "resignation"
    assert "resigned" in deliveries[0].text and deliveries[-1].to == BOB.user_id

    with pytest.raises(NotAPlayer):
        await service.rematch(info.id, CAROL)
    again, deliveries = await service.rematch(info.id, BOB)
    assert again.status == "challenge" and again.challenger == BOB and again.opponent == ALICE
    with pytest.raises(Refused, match="already asked"):
        await service.rematch(info.id, BOB)
    started, deliveries = await service.rematch(info.id, ALICE)
    assert started.id == again.id and started.status == "active"
    assert started.seats == (BOB, ALICE)


async def test_matches_of_lists_my_turn_first_and_threads_find_matches(
    service: MatchService,
) -> None:
    first = await start_match(service)
    second = await start_match(service, first=CAROL, second=ALICE)
    pending, _ = await service.challenge(BOB, ALICE, "cinq-as", guild_id=None, channel_id=None)
    mine = await service.matches_of(ALICE.user_id)
    assert {m.id for m in mine} == {first.id, second.id, pending.id}
    turns = [m.to_move == ALICE.user_id for m in mine]
    assert turns == sorted(turns, reverse=True)
    await service.resign(first.id, ALICE.user_id)
    assert first.id not in {m.id for m in await service.matches_of(ALICE.user_id)}
    assert first.id in {m.id for m in await service.matches_of(ALICE.user_id, active_only=False)}

    await service.set_thread(second.id, 555)
    found = await service.match_in_thread(555)
    assert found is not None and found.id == second.id and found.thread_id == 555
    assert await service.match_in_thread(556) is None


async def test_views_hands_and_boards_on_request(service: MatchService, db_path: Path) -> None:
    info = await start_match(service)
    state = stored_state(db_path, info.id)
    assert await service.view_for(info.id, ALICE.user_id) == state.view(0)
    assert await service.view_for(info.id, BOB.user_id) == state.view(1)
    assert await service.view_for(info.id, CAROL.user_id) == state.view(None)
    assert await service.view_for(info.id, None) == state.view(None)
    hand = await service.hand_delivery(info.id, BOB.user_id)
    board = await service.board_delivery(info.id)
    assert hand.kind == "hand" and hand.to == BOB.user_id and hand.names == ("Alice", "Bob")
    check_deliveries(db_path, info.id, [hand, board])
    with pytest.raises(NotAPlayer):
        await service.hand_delivery(info.id, CAROL.user_id)


async def test_players_preferences_are_remembered(service: MatchService) -> None:
    assert await service.player(ALICE.user_id) is None
    await start_match(service)
    record = await service.player(ALICE.user_id)
    assert record is not None and record.name == "Alice" and not record.four_colour
    await service.set_preferences(ALICE.user_id, four_colour=True)
    await service.set_dms_closed(ALICE.user_id, True)
    record = await service.player(ALICE.user_id)
    assert record is not None and record.four_colour and record.dms_closed
    await service.set_dms_closed(CAROL.user_id, True)  # never seen before: remembered anyway
    carol = await service.player(CAROL.user_id)
    assert carol is not None and carol.dms_closed


async def test_a_players_dm_channel_is_remembered_and_goes_with_their_deliveries(
    service: MatchService,
) -> None:
    info = await start_match(service)
    channel = 1_234_567_890_123_456_789  # a Discord id needs 64 bits
    assert (await service.hand_delivery(info.id, BOB.user_id)).dm_channel is None
    await service.set_dm_channel(BOB.user_id, channel)
    record = await service.player(BOB.user_id)
    assert record is not None and record.dm_channel == channel and record.name == "Bob"
    assert (await service.hand_delivery(info.id, BOB.user_id)).dm_channel == channel
    assert (await service.board_delivery(info.id)).dm_channel is None  # public: nobody's


async def test_close_and_reopen_gives_the_same_matches(db_path: Path, clock: object) -> None:
    service = await MatchService.open(db_path, now=clock)  # type: ignore[arg-type]
    infos = [await start_match(service, days=3) for _ in range(5)]
    infos = [
        await play_random(service, info, random.Random(i), moves=i) for i, info in enumerate(infos)
    ]
    views = [await service.view_for(info.id, ALICE.user_id) for info in infos]
    await service.close()

    service = await MatchService.open(db_path, now=clock)  # type: ignore[arg-type]
    try:
        for info, view in zip(infos, views, strict=True):
            assert await service.get(info.id) == info
            assert await service.view_for(info.id, ALICE.user_id) == view
            assert await service.verify(info.id)
        # and play goes on where it stopped
        await play_random(service, infos[0], random.Random(9), moves=3)
    finally:
        await service.close()


async def test_what_was_just_written_is_read_back_under_concurrent_reads(
    service: MatchService,
) -> None:
    """Reads share one connection: a read must never run inside another read's older
    snapshot, or a challenge just created is reported as missing."""
    stop = asyncio.Event()

    async def keep_reading() -> None:
        while not stop.is_set():
            await service.matches_of(ALICE.user_id)
            await service.leaderboard(GAME, None)

    async def challenge(i: int) -> None:
        challenger = PlayerRef(200_000 + i, f"P{i}")
        info, _ = await service.challenge(
            challenger, ALICE, GAME, guild_id=GUILD, channel_id=CHANNEL
        )
        assert (await service.get(info.id)).challenger == challenger

    readers = [asyncio.create_task(keep_reading()) for _ in range(5)]
    try:
        for batch in range(8):
            await asyncio.gather(*(challenge(batch * 20 + i) for i in range(20)))
    finally:
        stop.set()
        await asyncio.gather(*readers)
