"""Several bot processes on one PostgreSQL database: each thing done once, whoever gets it.

Two services opened on one database stand for two processes (each has its own writer
connection, read pool, locks and clock task); a test that needs real processes starts them.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from functools import partial

import asyncpg
import pytest

import games
from bot.service import Conflict, MatchService, NotYourTurn, Refused
from bot.storage.postgres import PgDatabase
from bot.storage.sql import Closed, Connection
from tests import pg, threads
from tests.bot.conftest import ALICE, BOB, GAME, GUILD, FakeClock, rows, start_match
from tests.waiting import until


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


async def test_a_match_read_again_is_parsed_only_when_another_process_changed_it(
    two: tuple[MatchService, MatchService], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every use reads the match afresh, but its state is made from the stored text only
    when that text is not the one this process last saw (or wrote) for it."""
    first, second = two
    info = await start_match(first)
    game = type(games.get(GAME))
    made: list[str] = []
    parse = game.from_json

    def counted(self: games.Game, text: str) -> games.State:
        made.append(text)
        return parse(self, text)

    monkeypatch.setattr(game, "from_json", counted)
    for service in (first, second, second):
        info = await service.get(info.id)
    assert len(made) == 1  # the second's first read; the first made the state itself
    assert info.to_move is not None
    move = (await first.legal_moves(info.id, info.to_move))[0]
    moved, _ = await first.move(info.id, info.to_move, move)
    assert len(made) == 1  # what it wrote, it knows
    assert (await second.get(info.id)).version == moved.version == 1
    assert len(made) == 2  # changed elsewhere: made again


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
    # Claimed, not marked: held for its claimer while the lease runs; nobody takes it again.
    clock.advance(seconds=first.store.LEASE - 1)
    assert await first.left_unsent() == [] and await second.left_unsent() == []


async def test_what_a_process_claimed_and_never_marked_goes_out_after_its_lease(
    two: tuple[MatchService, MatchService], clock: FakeClock, pg_url: str
) -> None:
    """A process claims rows, then dies before marking them sent (it may or may not have
    sent them): once the lease is over, the other claims them and sends them with the same
    nonces, exactly once between the two; marked, they are never claimed again."""
    first, second = two
    for _ in range(3):
        await start_match(first)
    clock.advance(seconds=first.store.UNSENT_GRACE + 1)
    claimed = await first.unsent()  # ... and then "crashes": nothing is marked
    assert claimed
    assert await second.left_unsent() == []  # the lease holds
    clock.advance(seconds=first.store.LEASE + 1)
    again = await asyncio.gather(second.left_unsent(), second.left_unsent())
    assert sorted(d.outbox_id for batch in again for d in batch) == [d.outbox_id for d in claimed]
    assert [d for batch in again for d in batch if d.outbox_id == claimed[0].outbox_id] == [
        claimed[0]
    ]  # the same message, so the same nonce
    await second.delivered([d for batch in again for d in batch])
    clock.advance(seconds=first.store.LEASE + 1)
    assert await first.left_unsent() == [] and await second.left_unsent() == []
    assert rows(pg_url, "SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL") == [(0,)]


async def test_a_servers_language_chosen_in_one_process_is_spoken_by_every_one(
    two: tuple[MatchService, MatchService], pg_url: str
) -> None:
    """``/tapis language`` answered by one process: the other speaks it at once, without a
    restart; and after losing its connection to the server's notifications, a process
    reads every setting again, so a change made meanwhile is not missed."""
    first, second = two
    await start_match(second)  # both have read the settings and keep them
    assert second.languages.of(GUILD) == "en"

    async def second_speaks(lang: str) -> bool:
        await second.languages.ready()
        return second.languages.of(GUILD) == lang

    await first.languages.choose(GUILD, "fr")
    await until(lambda: second_speaks("fr"), "French chosen in the other process")
    _, told = await second.challenge(ALICE, BOB, "ecarte", guild_id=GUILD, channel_id=1)
    challenge = "lance un défi à Bob\N{NO-BREAK SPACE}: Écarté"  # French, the chosen language
    assert [d.text for d in told if challenge in (d.text or "")], told
    await second.languages.seen(GUILD, "sv")  # Discord's locale: still the chosen one wins
    await first.languages.choose(GUILD, None)  # back to Discord's locale, seen by the second
    await until(lambda: second_speaks("sv"), "the server's own locale again")

    # The second's listening connection is cut; the first changes the language meanwhile.
    listener = second.database._listener  # type: ignore[attr-defined]
    assert listener is not None
    pg.query(pg_url, "SELECT pg_terminate_backend($1)", listener.get_server_pid())
    await first.languages.choose(GUILD, "fr")
    await until(lambda: second_speaks("fr"), "French, after listening again")
    await first.languages.choose(GUILD, "en")
    await until(lambda: second_speaks("en"), "English, heard on the new connection")


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
    before = threads.running()
    db = await PgDatabase.open(pg_url)
    await db.close()
    await db.close()  # twice is harmless
    assert not threads.left_since(before)


async def test_closing_while_busy_commits_what_was_handed_over_and_leaves_nothing_open(
    pg_url: str,
) -> None:
    """Closed in the middle of plans, reads and notifications: every plan handed over is
    committed, each connection is closed (the server sees none left), each writer thread
    is gone, and what comes after the close is refused politely."""
    others = "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database()"
    alone = rows(pg_url, others)  # the connection that asks, and nothing else
    before = threads.running()
    for turn in range(3):
        db = await PgDatabase.open(pg_url)
        heard: list[str | None] = []
        await db.listen("tapis_test", heard.append)

        def plan(conn: Connection, guild: int = 0, db: PgDatabase = db) -> int:
            conn.execute(
                "INSERT INTO guild_settings (guild_id, web, updated_at) VALUES (?, 1, 0)",
                (guild,),
            )
            db.notify(conn, "tapis_test", str(guild))
            return guild

        guilds = range(turn * 100, turn * 100 + 40)
        writes = [asyncio.ensure_future(db.transact(partial(plan, guild=g))) for g in guilds]
        reads = [asyncio.ensure_future(db.fetchall("SELECT pg_sleep(0.05)")) for _ in range(2)]
        await asyncio.sleep(0.01 * turn)  # the close comes at a different moment each turn
        await db.close()
        assert await asyncio.gather(*writes) == list(guilds)
        await asyncio.gather(*reads, return_exceptions=True)  # finished, or cut off
        with pytest.raises(Closed):
            await db.transact(plan)
    assert rows(pg_url, "SELECT COUNT(*) FROM guild_settings") == [(120,)]
    assert not threads.left_since(before)
    # The server notices a closed connection a moment later.
    await until(lambda: rows(pg_url, others) == alone, "the server to let the connections go")


async def test_opening_cancelled_at_any_moment_leaves_nothing_behind(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stop while the bot starts cancels the opening wherever it is (connecting a writer,
    migrating, making the pool): no thread is left, and none fails."""
    failures: list[threading.ExceptHookArgs] = []
    monkeypatch.setattr(threading, "excepthook", failures.append)
    before = threads.running()
    for wait in (0.0, 0.002, 0.005, 0.01, 0.02, 0.04, 0.08):
        opening = asyncio.ensure_future(PgDatabase.open(pg_url))
        await asyncio.sleep(wait)
        opening.cancel()
        try:
            await opening
        except asyncio.CancelledError:
            pass
        else:  # opened before the cancel came
            await opening.result().close()
    assert not threads.left_since(before)
    assert not failures, failures[0].exc_value


async def test_inserts_wait_to_go_together_and_still_fail_their_own_plan(pg_url: str) -> None:
    """A plan's plain INSERTs are sent together with its next statement or at its end: ids
    known at once, counts and reads as if each had run there and then, and one that fails
    fails its plan alone (rolled back), even within a batch of plans committed together."""
    db = await PgDatabase.open(pg_url, writers=1)  # one writer: plans meet in its batches
    outbox = "INSERT INTO outbox (match_id, delivery, created_at) VALUES (?, ?, 0)"
    setting = "INSERT INTO guild_settings (guild_id, web, updated_at) VALUES (?, 0, 0)"
    try:

        def plan(conn: Connection) -> tuple[int, int, list[int]]:
            made = conn.execute(setting, (5,))
            tags = [conn.execute(outbox, (1, text)).lastrowid for text in "ab"]
            read = conn.execute("SELECT COUNT(*) FROM outbox").fetchone()[0]
            return made.rowcount, read, [tag or 0 for tag in tags]

        count, read, tags = await db.transact(plan)
        assert (count, read) == (1, 2) and 0 < tags[0] < tags[1]

        def failing(conn: Connection) -> None:
            conn.execute(outbox, (2, "c"))
            conn.execute(setting, (5,))  # the same server again: refused once sent

        def fine(conn: Connection) -> int | None:
            return conn.execute(outbox, (3, "d")).lastrowid

        with pytest.raises(asyncpg.UniqueViolationError):
            await db.transact(failing)
        outcomes = await asyncio.gather(
            db.transact(failing), db.transact(fine), return_exceptions=True
        )
        assert isinstance(outcomes[0], asyncpg.UniqueViolationError)
        assert isinstance(outcomes[1], int) and outcomes[1] > tags[1]
        assert rows(pg_url, "SELECT match_id FROM outbox ORDER BY id") == [(1,), (1,), (3,)]
    finally:
        await db.close()


async def test_a_server_that_cannot_be_reached_is_said_plainly(pg_url: str) -> None:
    nowhere = pg.with_database(pg_url, "no_such_database")
    before = threads.running()
    with pytest.raises(Exception, match="no_such_database"):
        await PgDatabase.open(nowhere)
    assert not threads.left_since(before)
