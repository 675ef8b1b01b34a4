"""The service's rooms import each other without a circle (type-only imports included), so
each can be read, and loaded, alone."""

from __future__ import annotations

import ast
import sys
from collections.abc import Callable
from pathlib import Path
from types import FrameType

import bot.service
from bot.service import MatchService
from tests.bot.conftest import start_match

ROOMS = Path(bot.service.__file__).parent


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
    assert graph["values"] == set() and graph["wording"] == {"values"}
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


def _entries(calls: list[tuple[str, str]]) -> Callable[[FrameType, str, object], None]:
    """A profiler noting each first call from one service room into another (values, the
    plain data every room handles, left out); a coroutine resumed is not called again."""
    seen: set[FrameType] = set()

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event != "call" or frame in seen or frame.f_back is None:
            return
        seen.add(frame)
        callee = frame.f_globals.get("__name__", "")
        caller = frame.f_back.f_globals.get("__name__", "")
        inside = caller.startswith("bot.service.") and callee.startswith("bot.service.")
        if caller == callee or not inside:
            return
        rooms = (caller.removeprefix("bot.service."), callee.removeprefix("bot.service."))
        if "values" not in rooms:
            calls.append(rooms)

    return profile


async def test_a_move_walks_through_each_room_once(service: MatchService) -> None:
    """load → decide → save → word: the life asks the store once (which asks the life's
    decision once), the clock once, the wording once."""
    info = await start_match(service)
    assert info.to_move is not None
    move = (await service.legal_moves(info.id, info.to_move))[0]
    calls: list[tuple[str, str]] = []
    sys.setprofile(_entries(calls))
    try:
        await service.move(info.id, info.to_move, move)
    finally:
        sys.setprofile(None)
    assert calls == [
        ("match_service", "life"),
        ("life", "store"),
        ("store", "life"),
        ("life", "clock"),
        ("life", "wording"),
    ]
