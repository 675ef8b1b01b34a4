"""A player's right to be forgotten, in the service: on SQLite and PostgreSQL."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.service import MatchService, PlayerRef, Refused
from bot.service.privacy import FORGOTTEN_NAME, HIDDEN
from tests.bot.conftest import ALICE, BOB, GUILD, play_random, rows, start_match

CAROL = PlayerRef(3_000_000_000_000_003, "Carolyn")


def dump(path: Path | str) -> str:
    """Every row of every table, as text: what a database dump would show."""
    if isinstance(path, str):
        tables = [
            str(row[0])
            for row in rows(
                path,
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'",
            )
        ]
    else:
        tables = [
            str(row[0]) for row in rows(path, "SELECT name FROM sqlite_master WHERE type = 'table'")
        ]
    return "\n".join(f"{table}: {rows(path, f'SELECT * FROM {table}')}" for table in tables)


async def test_forget_me_erases_the_player_and_keeps_every_match(
    service: MatchService, db_path: Path | str
) -> None:
    rng = random.Random(41)
    finished = await play_random(service, await start_match(service), rng)
    assert finished.status == "finished"
    running = await start_match(service)
    challenge, _ = await service.challenge(ALICE, CAROL, "ecarte", guild_id=GUILD, channel_id=5)
    await service.set_dm_channel(ALICE.user_id, 777_000_000_000_000_777)
    await service.privacy.choose(ALICE.user_id, HIDDEN, ALICE.name)
    assert str(ALICE.user_id) in dump(db_path)

    done = await service.privacy.forget(ALICE.user_id)

    assert done.resigned == [running.id] and done.withdrawn == [challenge.id]
    assert done.matches == 3
    text = dump(db_path)
    assert str(ALICE.user_id) not in text
    assert ALICE.name not in text
    assert "777000000000000777" not in text
    assert await service.player(ALICE.user_id) is None
    # Every rating of hers is gone; her opponent's stay.
    assert rows(db_path, "SELECT COUNT(*) FROM ratings WHERE user_id < 0") == [(0,)]
    assert rows(db_path, "SELECT COUNT(*) FROM ratings WHERE user_id = ?", BOB.user_id) != [(0,)]
    # Her opponent's history keeps both matches, naming her neutrally; each still replays.
    bobs = await service.matches_of(BOB.user_id, active_only=False)
    assert {m.id for m in bobs} >= {finished.id, running.id}
    for match in bobs:
        assert match.seats is not None
        names = [seat.name for seat in match.seats]
        assert FORGOTTEN_NAME in names and ALICE.name not in names
    assert await service.verify_all() == []
    # Nobody can be challenged again under the pseudonym.
    with pytest.raises(Refused, match="has left Tapis"):
        await service.rematch(finished.id, BOB)
    # Forgetting again finds nothing more to do.
    again = await service.privacy.forget(ALICE.user_id)
    assert again.matches == 0 and not again.resigned
