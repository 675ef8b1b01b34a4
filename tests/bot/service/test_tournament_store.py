"""The tournament store: its writes read back as written, and the writes that guard a step
(a round begun, a duplicate's result, its second leg) take effect once however many passes
try them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import bot.service.tournament_store as stored
from bot.service import MatchService, PlayerRef
from bot.service.tournament_store import TournamentStore
from bot.storage.sql import Connection

GUILD = 77
NOW = 1_700_000_000.0


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[MatchService]:
    opened = await MatchService.open(tmp_path / "t.db")
    yield opened
    await opened.close()


async def _tournament(service: MatchService, *names: str) -> int:
    """A Swiss tournament on GUILD with ``names`` entered in order; its id."""
    players = [PlayerRef(100 + i, name) for i, name in enumerate(names)]

    def plan(conn: Connection) -> int:
        service.store.remember(conn, players, NOW)
        made = stored.insert_tournament(
            conn, GUILD, 5, "Cup", "ecarte", {"target": 5}, "swiss", False, 3, None,
            players[0].user_id, None, NOW,
        )  # fmt: skip
        for player in players:
            stored.add_player(conn, made, player.user_id, NOW)
        return made

    return await service.database.transact(plan)


async def test_a_tournament_reads_back_with_its_players_in_order(service: MatchService) -> None:
    kept = TournamentStore(service.database)
    made = await _tournament(service, "Ana", "Ben", "Cy")
    row = await kept.row(made)
    assert row is not None and await kept.row(made + 1) is None
    info = await kept.info(row)
    assert (info.name, info.game, info.options, info.format) == (
        "Cup", "ecarte", {"target": 5}, "swiss",
    )  # fmt: skip
    assert [(e.name, e.place, e.left_round) for e in info.players] == [
        ("Ana", 1, None), ("Ben", 2, None), ("Cy", 3, None),
    ]  # fmt: skip
    assert await kept.of_server(GUILD, current=True) == [made]
    assert await kept.current_count(GUILD) == 1 and await kept.current_count(GUILD + 1) == 0

    def leave(conn: Connection) -> int:
        stored.drop_player(conn, made, 100)
        stored.mark_left(conn, made, 101, 2)
        return stored.count_players(conn, made)

    assert await service.database.transact(leave) == 2
    row = await kept.row(made)
    assert row is not None
    info = await kept.info(row)
    assert [(e.name, e.left_round) for e in info.players] == [("Ben", 2), ("Cy", None)]


async def test_a_round_begins_once(service: MatchService) -> None:
    kept = TournamentStore(service.database)
    made = await _tournament(service, "Ana", "Ben", "Cy")

    def begin(conn: Connection) -> bool:
        return stored.begin_round(conn, made, 1, 2, NOW)

    assert await service.database.transact(begin) is True
    assert await service.database.transact(begin) is False  # another pass did it

    def pair(conn: Connection) -> None:
        stored.add_forfeit(conn, made, 1, 1, (100, 101), (1.0, 0.0))
        stored.add_bye(conn, made, 1, 2, 102, 1.0)

    await service.database.transact(pair)
    assert await kept.open_games(made, 1) == 0
    played = await kept.played(made, 1)
    assert [(g["seat0_id"], g["seat1_id"], g["points0"]) for g in played] == [
        (100, 101, 1.0), (102, None, 1.0),
    ]  # fmt: skip
    assert await kept.unposted() == []  # neither has a match to post
    await kept.mark(made, "announced", 1)
    marks = await kept.marks(made)
    assert marks is not None and (marks["announced"], marks["reported"]) == (1, 0)


async def test_a_duplicates_result_and_second_leg_are_written_once(
    service: MatchService,
) -> None:
    kept = TournamentStore(service.database)

    def first(conn: Connection) -> int:
        service.store.remember(conn, (PlayerRef(1, "Ana"), PlayerRef(2, "Ben")), NOW)
        row = stored.start_match(
            conn, "piquet", {"deals": 1}, GUILD, 5, None, (1, 2), None, 42, False, NOW
        )
        stored.add_duplicate(conn, row.id)
        return row.id

    leg = await service.database.transact(first)
    assert (await service.get(leg)).status == "active"
    assert await kept.rated(leg)  # a tournament's pair is rated as one result

    def second(conn: Connection) -> int | None:
        if stored.second_leg_taken(conn, leg):
            return None
        row = stored.start_match(
            conn, "piquet", {"deals": 1}, GUILD, 5, None, (2, 1), None, 42, False, NOW
        )
        stored.set_second_leg(conn, leg, row.id)
        return row.id

    swapped = await service.database.transact(second)
    assert swapped is not None
    assert await service.database.transact(second) is None  # made once
    legs = await kept.legs(swapped)
    assert legs is not None and (legs["first_leg"], legs["second_leg"]) == (leg, swapped)

    def result(conn: Connection) -> bool:
        return stored.write_duplicate(conn, leg, 3.0, 0, "play", NOW)

    assert await service.database.transact(result) is True
    assert await service.database.transact(result) is False
    found = await kept.duplicate(leg)
    assert found is not None and found["finished_at"] == NOW


def test_stored_json_that_is_no_object_reads_as_none() -> None:
    assert stored.as_object('{"deals": 2}') == {"deals": 2}
    assert stored.as_object(None) == {} and stored.as_object("[1]") == {}
    assert stored.as_object("not json") == {}
