"""The service's rooms import each other without a circle (type-only imports included), so
each can be read, and loaded, alone."""

from __future__ import annotations

import ast
from pathlib import Path

import bot.service

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
