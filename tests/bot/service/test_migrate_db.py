"""`python -m bot migrate-db`: a SQLite database copied into PostgreSQL, then checked."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.service import MatchService
from bot.service.migrate_db import MigrationError, migrate
from tests import pg
from tests.bot.conftest import (
    ALICE,
    BOB,
    CAROL,
    GAME,
    FakeClock,
    play_random,
    rows,
    start_match,
    write,
)


async def _community(path: Path, clock: FakeClock) -> list[int]:
    """A SQLite database with every kind of row: finished, active and open matches,
    ratings and their history, a server setting, sent and unsent outbox rows."""
    service = await MatchService.open(path, now=clock)
    try:
        ids = []
        for n in range(4):  # a few moves each, then a resignation: finished and rated
            info = await play_random(service, await start_match(service), random.Random(n), 4)
            await service.resign(info.id, ALICE.user_id)
            ids.append(info.id)
        active = await start_match(service, days=3)
        ids.append((await play_random(service, active, random.Random(9), 3)).id)
        challenge, _ = await service.challenge(BOB, CAROL, GAME, guild_id=None, channel_id=None)
        ids.append(challenge.id)
        await service.delivered((await service.unsent())[:3])
        write(path, "INSERT INTO guild_settings (guild_id, web, updated_at) VALUES (5, 1, 0)")
        return ids
    finally:
        await service.close()


async def test_everything_is_copied_and_every_match_replays(
    db_file: Path, pg_server: str, clock: FakeClock
) -> None:
    ids = await _community(db_file, clock)
    target = pg.fresh_database(pg_server)
    report = await migrate(db_file, target)
    assert report.bad_matches == [] and report.matches_replayed == 5
    for table in ("players", "matches", "moves", "results", "ratings", "rating_history"):
        assert report.rows[table] == rows(db_file, f"SELECT COUNT(*) FROM {table}")[0][0] > 0
    assert report.rows["guild_settings"] == 1
    assert "Every match replays" in report.lines()[1]
    # Every table the same, row for row (the outbox's sent marks too).
    for table in ("matches", "moves", "ratings", "rating_history", "outbox", "players"):
        sql = f"SELECT * FROM {table} ORDER BY 1, 2"
        assert rows(target, sql) == rows(db_file, sql), table

    before = await MatchService.open(db_file, now=clock)
    after = await MatchService.open(target, now=clock)
    try:
        for match_id in ids:
            assert await after.get(match_id) == await before.get(match_id)
        # Play goes on in the copy: the open match's next move, new matches numbered on.
        active = await after.get(ids[4])
        assert active.to_move is not None
        await play_random(after, active, random.Random(1), 1)
        fresh = await start_match(after)
        assert fresh.id == max(ids) + 1
        assert (await after.stats(BOB.user_id, "cinq-as")) == (
            await before.stats(BOB.user_id, "cinq-as")
        )
    finally:
        await before.close()
        await after.close()

    # Twice into the same database: refused, and nothing in it is touched.
    with pytest.raises(MigrationError, match="already holds"):
        await migrate(db_file, target)


async def test_a_match_that_does_not_replay_is_named_and_set_aside(
    db_file: Path, pg_server: str, clock: FakeClock
) -> None:
    ids = await _community(db_file, clock)
    write(db_file, "DELETE FROM moves WHERE match_id = ? AND ply = 2", ids[0])
    report = await migrate(db_file, pg.fresh_database(pg_server))
    assert report.bad_matches == [ids[0]]
    assert "did not replay" in " ".join(report.lines())


def test_the_command_says_plainly_what_is_wrong(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = str(tmp_path / "none.db")
    assert main(["migrate-db", "--from", missing, "--to", str(tmp_path / "x.db")]) == 2
    assert "PostgreSQL address" in capsys.readouterr().err
    assert main(["migrate-db", "--from", missing, "--to", "postgresql://u:pw@nowhere/x"]) == 1
    said = capsys.readouterr().err
    assert "nothing was copied: there is no database" in said and "pw" not in said
