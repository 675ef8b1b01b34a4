"""Nothing lost, nothing doubled: the outbox and its rows, late moves, one rematch, hands'
versions."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bot.service import Delivery, MatchInfo, MatchOver, MatchService
from bot.service.outbox import outbox_text
from tests.bot.conftest import ALICE, BOB, FakeClock, rows, start_match


def _unsent(db_path: Path | str) -> list[int]:
    return [
        int(str(r[0]))
        for r in rows(db_path, "SELECT id FROM outbox WHERE sent_at IS NULL ORDER BY id")
    ]


async def test_every_change_stores_its_deliveries_with_it(
    service: MatchService, db_path: Path | str, clock: FakeClock
) -> None:
    """Challenge, accept, move: each delivery returned is an outbox row, unsent until marked,
    and the unsent ones read back equal (what a restart would send)."""
    info = await start_match(service)
    assert info.to_move is not None
    move = (await service.legal_moves(info.id, info.to_move))[0]
    _, deliveries = await service.move(info.id, info.to_move, move)
    assert deliveries and all(d.outbox_id is not None for d in deliveries)
    expected = _unsent(db_path)
    if service.database.shared:
        # Several processes: only rows old enough not to be a live process's are replayed.
        assert await service.unsent() == []
        clock.advance(seconds=service.store.UNSENT_GRACE + 1)
    unsent = await service.unsent()
    assert [d.outbox_id for d in unsent] == expected
    assert unsent[-len(deliveries) :] == deliveries  # stored as returned
    await service.delivered(unsent)
    assert await service.unsent() == [] and _unsent(db_path) == []
    assert await service.prune_outbox(keep_days=0) == 0  # sent just now: kept a while


async def test_a_claim_never_marked_is_taken_again_once_its_lease_is_over(
    service: MatchService, clock: FakeClock
) -> None:
    """A process that claimed rows and died before marking them: its claim holds for the
    lease, then the rows are anyone's again. A lone process (SQLite) takes them at its
    next start whatever their claim, since it was the one that died."""
    await start_match(service)
    clock.advance(seconds=service.store.UNSENT_GRACE + 1)
    claimed = await service.left_unsent()
    assert claimed and await service.left_unsent() == []
    if not service.database.shared:
        assert await service.unsent() == claimed
    clock.advance(seconds=service.store.LEASE + 1)
    assert await service.left_unsent() == claimed
    await service.delivered(claimed)
    clock.advance(seconds=service.store.LEASE + 1)
    assert await service.left_unsent() == [] and await service.unsent() == []


async def test_a_refused_move_stores_nothing(service: MatchService, db_path: Path) -> None:
    info = await start_match(service)
    before = _unsent(db_path)
    with pytest.raises(Exception, match="turn"):
        other = BOB if info.to_move == ALICE.user_id else ALICE
        await service.move(info.id, other.user_id, "pass")
    assert _unsent(db_path) == before


async def test_a_move_after_its_deadline_is_refused_and_lost_on_time(
    service: MatchService, clock: FakeClock
) -> None:
    """48 hours late, before the clock task came by: the loss on time stands."""
    info = await start_match(service, days=1)
    mover = info.to_move
    assert mover is not None
    move = (await service.legal_moves(info.id, mover))[0]
    clock.advance(hours=48)
    with pytest.raises(MatchOver, match="Too late") as refused:
        await service.move(info.id, mover, move)
    after = await service.get(info.id)
    assert after.status == "finished" and after.version == info.version
    assert after.result is not None and after.result["how"] == "time"
    loser = 0 if after.seats is not None and after.seats[0].user_id == mover else 1
    assert after.result["timed_out"] == loser and after.result["winner"] == 1 - loser
    # The loss is told (stored in the outbox, handed back with the refusal), once.
    told = refused.value.deliveries
    assert told and all(d.outbox_id is not None for d in told)
    assert any(d.kind == "notice" and d.status == "finished" for d in told)
    assert await service.check_clocks() == []
    stats = await service.stats(mover, "cinq-as")
    assert stats.losses == 1 and stats.losses_on_time == 1


async def test_a_move_just_in_time_is_played(service: MatchService, clock: FakeClock) -> None:
    info = await start_match(service, days=1)
    assert info.to_move is not None
    move = (await service.legal_moves(info.id, info.to_move))[0]
    clock.advance(hours=23, minutes=59)
    after, _ = await service.move(info.id, info.to_move, move)
    assert after.version == 1 and after.status == "active"


async def test_two_rematch_presses_at_once_make_one_challenge(
    service: MatchService, db_path: Path
) -> None:
    info = await start_match(service)
    await service.resign(info.id, ALICE.user_id)
    outcomes = await asyncio.gather(
        service.rematch(info.id, ALICE), service.rematch(info.id, BOB), return_exceptions=True
    )
    assert not [o for o in outcomes if isinstance(o, BaseException)], outcomes
    rematches = rows(db_path, "SELECT status FROM matches WHERE rematch_of = ?", info.id)
    assert rematches == [("active",)]  # one challenge, accepted by the other press


async def test_a_hand_carries_the_version_it_was_drawn_for(service: MatchService) -> None:
    """Every hand handed out (after a move, or asked for) is stamped with the version of the
    position its view shows, so its buttons play into that position or are refused."""
    info = await start_match(service)
    for _ in range(6):
        if info.status != "active" or info.to_move is None:
            break
        move = (await service.legal_moves(info.id, info.to_move))[0]
        info, deliveries = await service.move(info.id, info.to_move, move)
        for delivery in deliveries:
            if delivery.kind == "hand":
                assert delivery.to is not None
                assert delivery.version == info.version
                assert delivery.view == await service.view_for(info.id, delivery.to)
                asked = await service.hand_delivery(info.id, delivery.to)
                assert (asked.version, asked.view) == (delivery.version, delivery.view)


async def _two_moves(service: MatchService) -> tuple[MatchInfo, list[Delivery], list[Delivery]]:
    """A match started and moved twice: the match then, and each move's deliveries."""
    made = []
    info = await start_match(service)
    for _ in range(2):
        assert info.to_move is not None and info.status == "active"
        move = (await service.legal_moves(info.id, info.to_move))[0]
        info, deliveries = await service.move(info.id, info.to_move, move)
        made.append(deliveries)
    return info, made[0], made[1]


async def test_a_hand_read_back_after_its_match_moved_on_shows_the_match_as_it_is(
    service: MatchService, clock: FakeClock
) -> None:
    """Hands are stored before they are worded; one read back from the outbox is worded
    then. If its match moved on meanwhile, it shows the match as it is now, at its version
    (its buttons play), not a position whose moves would be refused."""
    info, first, _ = await _two_moves(service)
    if service.database.shared:
        clock.advance(seconds=service.store.UNSENT_GRACE + 1)
    read_back = {d.outbox_id: d for d in await service.unsent()}
    for old in (d for d in first if d.kind == "hand"):
        assert old.owed is not None and old.to is not None
        again = read_back[old.outbox_id]
        assert again.owed is None and again.text
        assert again.version == info.version
        assert again.view == await service.view_for(info.id, old.to)


async def test_a_board_read_back_after_its_match_moved_on_still_tells_its_move(
    service: MatchService, clock: FakeClock
) -> None:
    """Boards are stored before they are worded, with their news. One read back after its
    match moved on shows the table as it is now but still tells the move it owed, keeps
    its version and calls nobody; the newer board that replaces it in the courier's queue
    tells both moves, in order."""
    from bot.discord.triage import board_text
    from bot.i18n import words

    _, first, second = await _two_moves(service)
    old, new = (next(d for d in made if d.kind == "board") for made in (first, second))
    assert old.news and new.news and old.news != new.news
    if service.database.shared:
        clock.advance(seconds=service.store.UNSENT_GRACE + 1)
    read_back = {d.outbox_id: d for d in await service.unsent()}
    again, newer = read_back[old.outbox_id], read_back[new.outbox_id]
    assert again.owed is None and newer.owed is None  # worded
    assert newer == new
    assert (again.version, again.news, again.mention) == (old.version, old.news, None)
    assert again.view == newer.view  # the table as it is now
    assert again.text.split("\n")[1 : 1 + len(old.news)] == list(old.news)
    told = board_text(newer, [again], words("en")).split("\n")
    assert told[1 : 1 + len(old.news) + len(new.news)] == [*old.news, *new.news]


async def test_an_outbox_row_reads_back_as_its_delivery(
    service: MatchService, clock: FakeClock
) -> None:
    """The outbox's text is written straight from the dataclass: it is ``to_json``'s data
    and reads back as the very delivery. A hand not worded yet is kept without its words
    and view, and the service words it as it reads it back, equal to the hand handed out."""
    info = await start_match(service)
    assert info.to_move is not None
    move = (await service.legal_moves(info.id, info.to_move))[0]
    _, deliveries = await service.move(info.id, info.to_move, move)
    assert {d.kind for d in deliveries} == {"board", "hand"}
    for delivery in deliveries:
        data = json.loads(outbox_text(delivery))
        if delivery.owed is not None:  # what it is and what to word it from, no more
            assert {"view", "place"}.isdisjoint(data) and data["owed"] and not data["text"]
            assert data["news"] == list(delivery.news) if delivery.news else "news" not in data
            assert Delivery.from_json(data).owed == delivery.owed  # its row gives its id
            continue
        assert data == json.loads(json.dumps(delivery.to_json()))
        assert Delivery.from_json(data) == delivery
    assert [d for d in deliveries if d.kind == "hand"] and all(
        d.owed is not None for d in deliveries if d.kind == "hand"
    )
    if service.database.shared:
        clock.advance(seconds=service.store.UNSENT_GRACE + 1)  # only rows no process holds
    read_back = {d.outbox_id: d for d in await service.unsent()}
    for delivery in deliveries:
        assert read_back[delivery.outbox_id] == delivery
        assert read_back[delivery.outbox_id].owed is None  # worded
