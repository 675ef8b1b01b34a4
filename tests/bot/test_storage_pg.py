"""Several bot processes on one PostgreSQL database: each thing done once, whoever gets it.

Two services opened on one database stand for two processes (each has its own writer
connection, read pool, locks and clock task); a test that needs real processes starts them.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator

import pytest

from bot.service import Conflict, MatchService, NotYourTurn, Refused
from bot.sql import Connection
from bot.storage_pg import PgDatabase, translate
from tests import pg
from tests.bot.conftest import FakeClock, rows, start_match


@pytest.fixture
async def two(pg_url: str, clock: FakeClock) -> AsyncIterator[tuple[MatchService, MatchService]]:
    first = await MatchService.open(pg_url, now=clock)
    second = await MatchService.open(pg_url, now=clock)
    yield first, second
    await first.close()
    await second.close()


async def test_the_same_move_from_two_processes_at_once_is_applied_once(
    two: tuple[MatchService, MatchService], pg_url: str
) -> None:
    first, second = two
    for _ in range(10):  # many races, not one lucky one
        info = await start_match(first)
        assert info.to_move is not None
        move = (await first.legal_moves(info.id, info.to_move))[0]
        await second.get(info.id)  # both have read it
        outcomes = await asyncio.gather(
            first.move(info.id, info.to_move, move, expected_version=0),
            second.move(info.id, info.to_move, move, expected_version=0),
            return_exceptions=True,
        )
        applied = [o for o in outcomes if not isinstance(o, BaseException)]
        refused = [o for o in outcomes if isinstance(o, BaseException)]
        assert len(applied) == 1, outcomes
        assert isinstance(refused[0], Conflict | Refused | NotYourTurn), refused
        assert rows(pg_url, "SELECT COUNT(*) FROM moves WHERE match_id = ?", info.id) == [(1,)]
        assert (await second.get(info.id)).version == 1 == (await first.get(info.id)).version


async def test_moves_on_many_matches_from_two_processes_all_apply(
    two: tuple[MatchService, MatchService], pg_url: str
) -> None:
    first, second = two
    infos = [await start_match(first) for _ in range(40)]

    async def play(service: MatchService, match_id: int) -> int:
        info = await service.get(match_id)
        assert info.to_move is not None
        move = (await service.legal_moves(match_id, info.to_move))[0]
        moved, _ = await service.move(match_id, info.to_move, move)
        return moved.version

    versions = await asyncio.gather(
        *(play(first if n % 2 else second, info.id) for n, info in enumerate(infos))
    )
    assert versions == [1] * 40
    assert rows(pg_url, "SELECT COUNT(*), COUNT(DISTINCT match_id) FROM moves") == [(40, 40)]


async def test_a_deadline_fires_once_across_processes(
    two: tuple[MatchService, MatchService], pg_url: str, clock: FakeClock
) -> None:
    first, second = two
    infos = [await start_match(first, days=1) for _ in range(6)]
    clock.advance(days=2)
    told = await asyncio.gather(first.check_clocks(), second.check_clocks())
    ended = [d.match_id for deliveries in told for d in deliveries if d.kind == "notice"]
    assert sorted(ended) == sorted(info.id for info in infos)  # each told once, by one
    for info in infos:
        assert (await second.get(info.id)).status == "finished"
    assert rows(pg_url, "SELECT COUNT(*) FROM results WHERE how = 'time'") == [(6,)]
    assert await first.check_clocks() == [] and await second.check_clocks() == []


async def test_a_claim_is_held_by_one_process_at_a_time(pg_url: str) -> None:
    first, second = await PgDatabase.open(pg_url), await PgDatabase.open(pg_url)
    try:
        async with first.claim("clock", [1, 2, 3]) as mine:
            assert mine == [1, 2, 3]
            async with second.claim("clock", [2, 3, 4]) as theirs:
                assert theirs == [4]
            async with second.claim("reminder", [1]) as other_kind:
                assert other_kind == [1]
        async with second.claim("clock", [1, 2, 3]) as now_theirs:
            assert now_theirs == [1, 2, 3]  # released at the end of the first block
    finally:
        await first.close()
        await second.close()


async def test_the_outbox_replay_is_shared_out_never_doubled(
    two: tuple[MatchService, MatchService], clock: FakeClock, pg_url: str
) -> None:
    first, second = two
    for _ in range(5):
        await start_match(first)
    unsent = rows(pg_url, "SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL")[0][0]
    assert unsent
    assert await first.unsent() == []  # too fresh: the live process that made them sends them
    clock.advance(minutes=5)
    replays = await asyncio.gather(first.unsent(), second.unsent())
    ids = [d.outbox_id for replay in replays for d in replay]
    assert len(ids) == len(set(ids)) == unsent  # every row once, by one process
    assert await first.unsent() == [] and await second.unsent() == []


async def test_the_writer_commits_plans_together_and_retries_a_deadlock(pg_url: str) -> None:
    """Group commit on PostgreSQL; and two writers updating the same two rows in opposite
    orders deadlock: the server fails one, which is run again and succeeds."""
    first, second = await PgDatabase.open(pg_url), await PgDatabase.open(pg_url)
    try:
        await first.transact(
            lambda conn: conn.executemany(
                "INSERT INTO guild_settings (guild_id, web, updated_at) VALUES (?, 0, 0)",
                [(1,), (2,)],
            )
        )
        gate = threading.Barrier(2, timeout=10)

        def both(order: tuple[int, int]) -> object:
            tries: list[int] = []

            def plan(conn: Connection) -> int:
                sql = "UPDATE guild_settings SET updated_at = updated_at + 1 WHERE guild_id = ?"
                conn.execute(sql, (order[0],))
                if not tries:  # each holds its first row before asking for the second
                    tries.append(1)
                    gate.wait()
                return conn.execute(sql, (order[1],)).rowcount

            return plan

        outcomes = await asyncio.gather(
            first.transact(both((1, 2))), second.transact(both((2, 1))), return_exceptions=True
        )
        assert outcomes == [1, 1]
        assert rows(pg_url, "SELECT updated_at FROM guild_settings ORDER BY 1") == [(2.0,), (2.0,)]

        # Ten plans handed over together: all commit, and each caller has its own result.
        def insert(guild: int) -> object:
            def plan(conn: Connection) -> int:
                conn.execute(
                    "INSERT INTO guild_settings (guild_id, web, updated_at) VALUES (?, 1, 0)",
                    (guild,),
                )
                return guild

            return plan

        def failing(conn: Connection) -> None:
            insert(99)(conn)
            raise ValueError("the plan changed its mind")

        results = await asyncio.gather(
            *(first.transact(insert(10 + n)) for n in range(10)),
            first.transact(failing),
            return_exceptions=True,
        )
        assert results[:10] == list(range(10, 20)) and isinstance(results[10], ValueError)
        assert rows(pg_url, "SELECT COUNT(*) FROM guild_settings WHERE web = 1") == [(10,)]
    finally:
        await first.close()
        await second.close()
    before = threading.active_count()
    db = await PgDatabase.open(pg_url)
    await db.close()
    await db.close()  # twice is harmless
    assert threading.active_count() == before


def test_statements_are_turned_into_postgresql_placeholders() -> None:
    assert translate("SELECT a FROM t WHERE b = ? AND c = '?'").text == (
        "SELECT a FROM t WHERE b = $1 AND c = '?'"
    )
    made = translate("INSERT INTO matches (game) VALUES (?)")
    assert made.text.endswith("RETURNING id") and made.numbered and made.rows
    kept = translate("INSERT INTO players (user_id) VALUES (?)")
    assert not kept.numbered and not kept.rows


async def test_a_server_that_cannot_be_reached_is_said_plainly(pg_url: str) -> None:
    nowhere = pg.with_database(pg_url, "no_such_database")
    before = threading.active_count()
    with pytest.raises(Exception, match="no_such_database"):
        await PgDatabase.open(nowhere)
    assert threading.active_count() == before
