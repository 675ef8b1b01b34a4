"""The service's rooms import each other without a circle (type-only imports included), so
each can be read, and loaded, alone."""

from __future__ import annotations

import ast
import sqlite3
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from types import FrameType

import pytest

import bot.service
from bot.service import Conflict, MatchService
from bot.service.values import Change
from tests.bot.conftest import BOB, FakeClock, start_match

ROOMS = Path(bot.service.__file__).parent
# The rooms every other one uses as plain rules and data, left out of the walks below: the
# values, and the leaves that say how time and ratings count, who the computer is, and what
# the games themselves say.
LEAVES = frozenset({"clocks", "ratings", "computer_ids", "game_words"})
PLAIN = LEAVES | {"values"}
# The store's own parts (how rows read and write, its cache, locks, alarms and outbox rows):
# a walk through them is a walk through the store.
PART_OF = dict.fromkeys(("rows", "cache", "locks", "alarms", "outbox"), "store")
# The words of a challenge's life and of a match's end are the wording's too.
PART_OF |= dict.fromkeys(("notices", "endings"), "wording")


def _imports(path: Path) -> set[str]:
    """The service modules ``path`` imports, wherever the import stands."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        found |= {name.split(".")[2] for name in names if name.startswith("bot.service.")}
    return found


def test_the_rooms_import_no_circle() -> None:
    graph = {path.stem: _imports(path) for path in ROOMS.glob("*.py") if path.stem != "__init__"}
    assert all(graph[leaf] == set() for leaf in LEAVES)
    assert graph["values"] <= LEAVES and graph["wording"] - LEAVES == {"values"}
    assert graph["notices"] - LEAVES == graph["endings"] - LEAVES == {"values", "wording"}
    done: set[str] = set()

    def visit(room: str, path: tuple[str, ...]) -> None:
        assert room not in path, f"import circle: {' → '.join((*path, room))}"
        if room in done:
            return
        for other in graph[room]:
            visit(other, (*path, room))
        done.add(room)

    for room in graph:
        visit(room, ())


def _entries(
    calls: list[tuple[str, str]], costly: list[str]
) -> Callable[[FrameType, str, object], None]:
    """A profiler noting each first call from one service room into another (``PLAIN``, the
    rules and data every room handles, left out), and in ``costly`` each game view and clock
    text the words ask for; a coroutine resumed is not called again."""
    seen: set[FrameType] = set()

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event != "call" or frame in seen or frame.f_back is None:
            return
        seen.add(frame)
        callee = frame.f_globals.get("__name__", "")
        caller = frame.f_back.f_globals.get("__name__", "")
        # A row works out its own deal breakdown (from its public view) if not worded yet.
        words = caller in ("bot.service.wording", "bot.service.values")
        words = words or PART_OF.get(caller.removeprefix("bot.service.")) == "wording"
        if words and frame.f_code.co_name in ("game_view", "clock_text"):
            costly.append(frame.f_code.co_name)
        inside = caller.startswith("bot.service.") and callee.startswith("bot.service.")
        if caller == callee or not inside:
            return
        rooms = tuple(
            PART_OF.get(room, room)
            for room in (caller.removeprefix("bot.service."), callee.removeprefix("bot.service."))
        )
        if rooms[0] != rooms[1] and not PLAIN & set(rooms):
            calls.append(rooms)

    return profile


async def test_a_move_walks_through_each_room_once(service: MatchService) -> None:
    """load → decide → word → save: the life asks the store once (which asks the life's
    decision, then its words, made before the transaction, then in the transaction its
    move log), the wording once,
    the clock once; the words ask for the board's view once, which tells what happened. The
    rest is worded only when read (``Owed``): reading a hand makes its view then, once, and
    reading the board its clock text, once per language (the server's and both players' are
    English here), which the hands share."""
    info = await start_match(service)
    assert info.to_move is not None
    move = (await service.legal_moves(info.id, info.to_move))[0]
    calls: list[tuple[str, str]] = []
    costly: list[str] = []
    profile = _entries(calls, costly)
    transact = service.store.db.transact

    async def profiled(plan: Callable[[sqlite3.Connection], object]) -> object:
        # The move log is written in the save's transaction, on the writer's thread: watch
        # it too (and that the words are not made there).
        def watched(conn: sqlite3.Connection) -> object:
            sys.setprofile(profile)
            try:
                return plan(conn)
            finally:
                sys.setprofile(None)

        return await transact(watched)

    service.store.db.transact = profiled  # type: ignore[method-assign,assignment]
    sys.setprofile(profile)
    try:
        await service.move(info.id, info.to_move, move)
    finally:
        sys.setprofile(None)
        del service.store.db.transact
    assert calls == [
        ("match_service", "life"),
        ("life", "languages"),
        ("life", "store"),
        ("store", "life"),
        ("store", "life"),
        ("life", "languages"),
        ("life", "wording"),
        ("store", "life"),
        ("life", "clock"),
    ]
    assert sorted(costly) == ["game_view"]
    _, deliveries = await service.move(info.id, *await _any_move(service, info.id))
    board = next(d for d in deliveries if d.kind == "board")
    hands = [d for d in deliveries if d.kind == "hand"]
    costly.clear()
    sys.setprofile(profile)
    try:
        for one in [board, *hands] * 2:  # read twice, made once
            assert one.text and one.view is not None
    finally:
        sys.setprofile(None)
    assert costly.count("game_view") == len(hands) == 2  # the board's was made with the move
    assert costly.count("clock_text") == 1


async def _any_move(service: MatchService, match_id: int) -> tuple[int, str]:
    info = await service.get(match_id)
    assert info.to_move is not None
    return info.to_move, (await service.legal_moves(match_id, info.to_move))[0]


async def test_a_save_writes_only_what_changed(service: MatchService) -> None:
    """One save path: the columns written are those that differ, under the version check."""
    info = await start_match(service, days=1)
    row = await service.store.peek(info.id)
    reminded = replace(row, reminder_at=None)
    assert row.state is not None
    move = row.state.legal_moves()[0]
    moved = replace(row, state=row.state.apply(move), version=row.version + 1)
    # A save from a row older than the stored one writes nothing and says so.
    await service.store.save(row, Change(moved), 0.0, {})
    with pytest.raises(Conflict):
        await service.store.save(row, Change(reminded), 0.0, {})
    stored = await service.store.read(info.id)
    assert stored.version == moved.version and stored.reminder_at == row.reminder_at
    assert stored.state is not None and stored.state.to_json() == moved.state.to_json()


async def test_a_due_time_is_claimed_once(service: MatchService) -> None:
    """Two claims of one reminder read at the same time (two processes): the clock row is
    written only if it still holds what was read, so the second claim conflicts."""
    info = await start_match(service, days=1)
    row = await service.store.peek(info.id)
    reminded = replace(row, reminder_at=None)
    await service.store.save(row, Change(reminded, touch=False), 0.0, {})
    with pytest.raises(Conflict):
        await service.store.save(row, Change(reminded, touch=False), 0.0, {})
    assert (await service.store.read(info.id)).reminder_at is None


async def test_warming_reads_the_live_matches_ahead(db_file: Path, clock: FakeClock) -> None:
    """After a start, ``warm`` reads the live matches (not the finished ones, nor one a
    change holds, nor a damaged one) into the cache; moves then go on from it. SQLite only:
    on a database several processes share nothing is cached."""
    service = await MatchService.open(db_file, now=clock)
    live = [await start_match(service) for _ in range(3)]
    over = await start_match(service)
    await service.resign(over.id, BOB.user_id)
    await service.close()
    with sqlite3.connect(db_file) as conn:
        conn.execute("UPDATE matches SET state = '[' WHERE id = ?", (live[2].id,))
    conn.close()

    service = await MatchService.open(db_file, now=clock)
    try:
        async with service.store.locks.hold(live[1].id):
            assert await service.warm() == 1
        assert set(service.store.cache) == {live[0].id}
        assert live[0].to_move is not None
        move = (await service.legal_moves(live[0].id, live[0].to_move))[0]
        info, _ = await service.move(live[0].id, live[0].to_move, move)
        assert info.version == 1
        assert (await service.get(live[2].id)).status == "corrupt"
    finally:
        await service.close()


async def test_a_hand_worded_when_read_reads_as_the_hand_it_stands_for(
    service: MatchService,
) -> None:
    """Whatever reads a move's hand (its JSON, a copy with a field changed, equality) sees
    the hand ``wording.hand`` makes of the match as the move left it."""
    import dataclasses

    from bot.service import wording
    from bot.service.values import DELIVERY_FIELDS

    info = await start_match(service)
    assert info.to_move is not None
    move = (await service.legal_moves(info.id, info.to_move))[0]
    _, deliveries = await service.move(info.id, info.to_move, move)
    row, people = await service.store.peek_with_people(info.id)
    for owed in (d for d in deliveries if d.kind == "hand"):
        assert isinstance(owed, wording.OwedHand) and owed.to is not None
        assert set(DELIVERY_FIELDS) - set(owed.__dict__) == {"text", "view"}  # all else set
        seat = row.seat_of(owed.to)
        assert seat is not None
        made = wording.hand(row, people, seat, float(owed.owed["now"]))  # type: ignore[index]
        assert owed == made.posted(owed.outbox_id or 0)
        assert owed.to_json() == made.posted(owed.outbox_id or 0).to_json()
        copy = dataclasses.replace(owed, mention=None)
        assert (copy.text, copy.view) == (made.text, made.view)


async def test_a_board_worded_when_read_reads_as_the_board_it_stands_for(
    service: MatchService,
) -> None:
    """A move's board tells its news and holds its view at once (what the courier reads of
    a board that a newer one replaced); whatever reads the rest sees the board
    ``wording.board`` makes of the match as the move left it."""
    from bot.service import wording
    from bot.service.values import DELIVERY_FIELDS

    info = await start_match(service)
    assert info.to_move is not None
    move = (await service.legal_moves(info.id, info.to_move))[0]
    _, deliveries = await service.move(info.id, info.to_move, move)
    row, people = await service.store.peek_with_people(info.id)
    owed = next(d for d in deliveries if d.kind == "board")
    assert isinstance(owed, wording.OwedBoard) and owed.owed is not None
    assert "_made" not in owed.__dict__  # nothing worded yet
    assert set(DELIVERY_FIELDS) - set(owed.__dict__) == {"text", "view"}  # all else set
    made = wording.board(row, people, float(owed.owed["now"]), owed.lang)
    assert owed.news == made.news and owed.news[0].startswith(("Alice: ", "Bob: "))
    assert (owed.view, owed.mention) == (made.view, made.mention)
    assert "_made" not in owed.__dict__  # still nothing: the news was told at once
    assert owed == made.posted(owed.outbox_id or 0)
    assert owed.text == made.text and "to play" in owed.text
