"""Boundaries of the service and the storage: ids at the edge, matches of other servers,
damaged stored rows, and who may read the database file."""

from __future__ import annotations

import random
import stat
from pathlib import Path

import pytest

import games
from bot.service import ChallengeLimits, MatchService, NotFound, PlayerRef, Refused
from bot.storage.sql import Row
from bot.storage.sqlite import Database
from tests.bot.conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GAME,
    GUILD,
    FakeClock,
    play_random,
    rows,
    start_match,
    write,
)

OTHER_GUILD = GUILD + 1


@pytest.mark.parametrize("match_id", [2**63, 2**63 - 1, 2**64 + 5, 10**30, 0, -1])
async def test_an_id_out_of_range_is_an_unknown_match(service: MatchService, match_id: int) -> None:
    # Before the bound, 2**63 reached SQLite and came back as OverflowError.
    for call in (
        service.get(match_id),
        service.board_delivery(match_id),
        service.hand_delivery(match_id, ALICE.user_id),
        service.accept(match_id, BOB),
        service.move(match_id, ALICE.user_id, "pass"),
        service.verify(match_id),
        service.legal_moves(match_id, ALICE.user_id),
    ):
        with pytest.raises(NotFound, match=f"no match #{match_id}"):
            await call


async def test_a_match_is_found_only_from_its_own_server(service: MatchService) -> None:
    info = await start_match(service, guild_id=OTHER_GUILD)
    assert (await service.get_here(info.id, OTHER_GUILD)).id == info.id
    unknown = 10_000 + info.id
    for guild in (GUILD, None):
        with pytest.raises(NotFound) as elsewhere:
            await service.get_here(info.id, guild)
        with pytest.raises(NotFound) as missing:
            await service.get_here(unknown, guild)
        # The same words as for an id that does not exist: nothing tells them apart.
        assert str(elsewhere.value).replace(str(info.id), "N") == str(missing.value).replace(
            str(unknown), "N"
        )


def _damage(path: Path | str, match_id: int, sql: str, *params: object) -> None:
    write(path, sql.format(id=match_id), *params)


async def test_damaged_rows_are_set_aside_and_the_others_still_work(
    db_path: Path, clock: FakeClock
) -> None:
    service = await MatchService.open(db_path, now=clock)
    healthy = await start_match(service)
    deep = await start_match(service, second=CAROL)
    text_deadline = await start_match(service, days=2)
    no_seat = await start_match(service, second=CAROL)
    alarm = await start_match(service, days=1)
    await service.close()
    _damage(db_path, deep.id, "UPDATE matches SET state = ? WHERE id = {id}", "[" * 100_000)
    if isinstance(db_path, str):  # PostgreSQL keeps a column's type: a text cannot get in
        _damage(
            db_path, text_deadline.id, "UPDATE matches SET options = 'nonsense' WHERE id = {id}"
        )
    else:
        _damage(
            db_path, text_deadline.id, "UPDATE matches SET deadline = 'tomorrow' WHERE id = {id}"
        )
        # and another's alarm, in the side table of clocks
        _damage(db_path, alarm.id, "UPDATE clocks SET reminder_at = 'soon' WHERE match_id = {id}")
    _damage(db_path, no_seat.id, "UPDATE matches SET seat1_id = NULL WHERE id = {id}")

    service = await MatchService.open(db_path, now=clock)  # nothing cached: all read afresh
    try:
        mine = {m.id: m for m in await service.matches_of(ALICE.user_id, active_only=False)}
        assert mine[healthy.id].status == "active"
        damaged_ones = (deep, text_deadline, no_seat)
        if isinstance(db_path, str):
            assert mine[alarm.id].status == "active"  # nothing was damaged there
            await service.resign(alarm.id, BOB.user_id)  # its clock stops
        else:
            damaged_ones += (alarm,)
        for damaged in damaged_ones:
            assert mine[damaged.id].status == "corrupt"
            with pytest.raises(Exception, match="set aside"):
                await service.board_delivery(damaged.id)
        playing = [m for m in await service.matches_of(ALICE.user_id) if m.id != alarm.id]
        assert [m.id for m in playing] == [healthy.id]
        mover = playing[0].to_move
        assert mover is not None and await service.legal_moves(healthy.id, mover)
        assert await service.next_clock_event() is None  # the damaged deadline is gone too
    finally:
        await service.close()


async def test_the_database_is_private_to_its_owner(tmp_path: Path) -> None:
    path = tmp_path / "new" / "folder" / "tapis.db"
    db = await Database.open(path)
    try:
        await db.transact(
            lambda conn: conn.execute(
                "INSERT INTO players (user_id, name, created_at, updated_at) VALUES (1, 'a', 0, 0)"
            )
        )
        await db.fetchall("SELECT * FROM players")
        files = [path, Path(f"{path}-wal"), Path(f"{path}-shm")]
        assert all(f.exists() for f in files)
        for f in files:
            assert stat.S_IMODE(f.stat().st_mode) == 0o600, f
        for folder in (path.parent, path.parent.parent):
            assert stat.S_IMODE(folder.stat().st_mode) == 0o700
        await db.backup(tmp_path / "copy.db")
        assert stat.S_IMODE((tmp_path / "copy.db").stat().st_mode) == 0o600
    finally:
        await db.close()
    # A file made open to all before is narrowed at the next start.
    path.chmod(0o644)
    await (await Database.open(path)).close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


async def test_challenges_are_capped_rate_limited_and_expire(
    db_path: Path, clock: FakeClock
) -> None:
    limits = ChallengeLimits(per_user=3, per_channel=4, burst=2, every_seconds=60, hours=2)
    service = await MatchService.open(db_path, now=clock, limits=limits)
    try:

        async def challenge(who: PlayerRef, channel: int = CHANNEL) -> int:
            info, _ = await service.challenge(who, None, GAME, guild_id=GUILD, channel_id=channel)
            return info.id

        first = [await challenge(ALICE), await challenge(ALICE)]
        with pytest.raises(Refused, match="too quickly"):  # the burst is spent
            await challenge(ALICE)
        clock.advance(seconds=61)
        first.append(await challenge(ALICE))
        clock.advance(minutes=5)
        with pytest.raises(Refused, match="3 open challenges"):  # the per-user cap
            await challenge(ALICE, CHANNEL + 1)
        await challenge(BOB)
        with pytest.raises(Refused, match="This channel already has 4"):  # the channel's cap
            await challenge(CAROL)
        assert await challenge(CAROL, CHANNEL + 1)  # another channel is free
        # Unanswered, they expire after two hours, said politely where they were made.
        assert await service.next_clock_event() == pytest.approx(
            (clock.now.timestamp() - 5 * 60 - 61) + 2 * 3600
        )
        clock.advance(hours=2)
        notices = await service.check_clocks()
        expired = {d.match_id for d in notices if "expired unanswered" in d.text}
        assert set(first) <= expired
        assert all(d.kind == "notice" and d.mention is None for d in notices)
        for match_id in first:
            assert (await service.get(match_id)).status == "cancelled"
        await challenge(ALICE)  # room again
    finally:
        await service.close()


async def test_verify_beside_play_sets_aside_only_what_stays_wrong(
    db_path: Path, clock: FakeClock
) -> None:
    service = await MatchService.open(db_path, now=clock)
    try:
        info = await start_match(service, days=3)
        info = await play_random(service, info, random.Random(4), moves=2)
        # Another process's move lands between verify's two reads: the row said version 2,
        # the log now holds 3 moves. That is a live match, not a damaged one.
        integrity = service.integrity
        read = integrity._replay_problem

        async def a_move_meanwhile(stored: Row) -> str | None:
            bot = await MatchService.open(db_path, now=clock)  # the live bot, another process
            try:
                mover = (await bot.get(info.id)).to_move
                assert mover is not None
                await bot.move(info.id, mover, (await bot.legal_moves(info.id, mover))[0])
            finally:
                await bot.close()
            return await read(stored)

        integrity._replay_problem = a_move_meanwhile  # type: ignore[method-assign]
        assert await service.verify(info.id)
        integrity._replay_problem = read  # type: ignore[method-assign]
        assert (await service.get(info.id)).status == "active"
        assert await service.set_aside_matches() == []

        # A real damage is set aside, listed, refused restoring until repaired, then restored.
        _damage(db_path, info.id, "UPDATE moves SET move = 'nonsense' WHERE match_id = {id}")
        assert not await service.verify(info.id)
        listed = await service.set_aside_matches()
        assert [m.id for m in listed] == [info.id] and "refused" in listed[0].problem
        with pytest.raises(Refused, match="still does not replay"):
            await service.restore(info.id)
        _damage(db_path, info.id, "DELETE FROM moves WHERE match_id = {id}")
        dealt = games.get(GAME).new_match(seed=await _seed(db_path, info.id)).to_json()
        _damage(
            db_path, info.id, "UPDATE matches SET version = 0, state = ? WHERE id = {id}", dealt
        )
        assert "active again" in await service.restore(info.id)
        back = await service.get(info.id)
        assert back.status == "active" and back.to_move is not None and back.deadline
        assert await service.verify(info.id)
    finally:
        await service.close()


async def _seed(path: Path | str, match_id: int) -> int:
    [(seed,)] = rows(path, "SELECT seed FROM matches WHERE id = ?", match_id)
    return int(str(seed))
