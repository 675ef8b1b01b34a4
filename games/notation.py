"""The Tapis match notation: a finished match as a small text file, tags then moves.

Like PGN for chess, a file holds what is needed to play the match again through the engine
(the game, the seed that fixed every shuffle, the options) and the moves in order; the other
tags (players, date, result) are for people. The format is described in ``docs/notation.md``:

    [Game "piquet"]
    [Seed "7"]
    [Options "{\\"deals\\": 6}"]
    [Seat0 "Ada"]
    [Seat1 "Blaise"]
    [Result "1-0"]

    1. 0: discard 7S 8S 9H
    2. 1: discard
    3. 0: play AS

``write`` and ``read`` are exact inverses; ``replay`` plays a record through its engine and
says where the log first stops being legal. Standard library only, no I/O.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import games

__all__ = ["NotationError", "Record", "Replay", "read", "replay", "result_tag", "write"]

# Tags written first, in this order; any other tag follows, sorted, so output is stable.
ORDER = ("Game", "Seed", "Options", "Match", "Seat0", "Seat1", "Date", "Result", "Scores", "How")
_TAG = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]$')
_MOVE = re.compile(r"^(?:(\d+)\.\s*)?(?:([01]):\s*)?(\S.*?)$")
_ESCAPE = re.compile(r"\\(.)")


class NotationError(ValueError):
    """A file that is not in the notation; the message names the line and what is wrong."""


@dataclass(frozen=True)
class Record:
    """One match: its tags, and its moves with the seat that made each (None: not given)."""

    tags: dict[str, str]
    moves: list[tuple[int | None, str]] = field(default_factory=list)

    @property
    def game(self) -> str:
        return self.tags.get("Game", "")


@dataclass(frozen=True)
class Replay:
    """What replaying a record found: the moves that were legal, and the first that was not."""

    plies: int  # moves applied
    error: str | None  # why the log stops there (an illegal move, a wrong seat, a bad tag)
    ply: int | None  # the ply at fault (1-based), or None for a problem with the tags/end
    state: Any  # the last state reached, or None if the match could not even be dealt

    @property
    def ok(self) -> bool:
        return self.error is None


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def write(record: Record) -> str:
    """The record as text: tags (known ones first), a blank line, one move per line."""
    lines = []
    known = [key for key in ORDER if key in record.tags]
    others = sorted(key for key in record.tags if key not in ORDER)
    for key in (*known, *others):
        lines.append(f'[{key} "{_quote(record.tags[key])}"]')
    lines.append("")
    for ply, (seat, move) in enumerate(record.moves, 1):
        lines.append(f"{ply}. {move}" if seat is None else f"{ply}. {seat}: {move}")
    return "\n".join(lines) + "\n"


def read(text: str) -> Record:
    """Parse a file; ``NotationError`` names the first line that is not tag, move or comment.

    Lines starting with ``;`` or ``#`` are comments. Move numbers and seats are optional, but a
    number that is given must be the next ply."""
    tags: dict[str, str] = {}
    moves: list[tuple[int | None, str]] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith((";", "#")):
            continue
        if line.startswith("["):
            if moves:
                raise NotationError(f"line {number}: a tag after the moves began")
            tag = _TAG.match(line)
            if tag is None:
                raise NotationError(f'line {number}: a tag is written [Name "value"]: {line!r}')
            if tag[1] in tags:
                raise NotationError(f"line {number}: the tag {tag[1]} is given twice")
            tags[tag[1]] = _ESCAPE.sub(r"\1", tag[2])
            continue
        found = _MOVE.match(line)
        if found is None:  # pragma: no cover - the pattern accepts any non-blank line
            raise NotationError(f"line {number}: not a move: {line!r}")
        if found[1] is not None and int(found[1]) != len(moves) + 1:
            raise NotationError(
                f"line {number}: move number {found[1]} where {len(moves) + 1} was expected"
            )
        seat = int(found[2]) if found[2] is not None else None
        moves.append((seat, " ".join(found[3].split())))
    if "Game" not in tags or "Seed" not in tags:
        raise NotationError('a match file needs at least [Game "..."] and [Seed "..."] tags')
    return Record(tags, moves)


def options_of(record: Record) -> dict[str, Any]:
    """The Options tag as a dict (JSON); ``NotationError`` if it is not a JSON object."""
    text = record.tags.get("Options", "{}") or "{}"
    try:
        options = json.loads(text)
    except json.JSONDecodeError as error:
        raise NotationError(f"the Options tag is not JSON: {error}") from None
    if not isinstance(options, dict):
        raise NotationError('the Options tag must be a JSON object, e.g. {"deals": 6}')
    return options


def result_tag(result: dict[str, Any] | None) -> str:
    """``1-0``, ``0-1``, ``1/2-1/2`` (a draw) or ``*`` (not over), as in PGN."""
    if not result:
        return "*"
    return {0: "1-0", 1: "0-1"}.get(result.get("winner"), "1/2-1/2")  # type: ignore[arg-type]


def replay(record: Record) -> Replay:
    """Deal the record's match and apply its moves; stop at the first that is refused.

    Checked too: each given seat is the one to move, and the Result and Scores tags (if any)
    agree with the end reached when the match was played out (``How`` is ``play`` or absent).
    A match that ended by resignation or on time simply stops before its end."""
    try:
        game = games.get(record.game)
    except KeyError as error:
        return Replay(0, str(error.args[0] if error.args else error), None, None)
    try:
        seed = int(record.tags["Seed"])
        state = game.new_match(seed=seed, options=options_of(record))
    except (ValueError, TypeError) as error:
        return Replay(0, f"the match cannot be dealt: {error}", None, None)
    for ply, (seat, move) in enumerate(record.moves, 1):
        if state.to_move is None:
            return Replay(ply - 1, f"ply {ply} ({move}): the match is already over", ply, state)
        if seat is not None and seat != state.to_move:
            return Replay(
                ply - 1,
                f"ply {ply} ({move}): seat {seat} moves, but it is seat {state.to_move}'s turn",
                ply,
                state,
            )
        try:
            state = state.apply(move)
        except ValueError as error:  # IllegalMove, or a move the engine cannot even read
            return Replay(ply - 1, f"ply {ply} ({move}) is illegal: {error}", ply, state)
    problem = _end_problem(record, state)
    return Replay(len(record.moves), problem, None, state)


def _end_problem(record: Record, state: Any) -> str | None:
    """Whether the tags' account of the end agrees with the state the moves reached."""
    how = record.tags.get("How", "play")
    if how != "play":
        return None
    claimed = record.tags.get("Result")
    if claimed is not None and claimed != "*" and state.result is None:
        return f"the moves stop before the end, but the Result tag says {claimed}"
    if claimed is not None and state.result is not None and claimed != result_tag(state.result):
        return f"the Result tag says {claimed}, the moves give {result_tag(state.result)}"
    scores = record.tags.get("Scores")
    final = state.result.get("scores", state.scores) if state.result else state.scores
    reached = " ".join(str(score) for score in final)
    if scores is not None and state.result is not None and scores.split() != reached.split():
        return f"the Scores tag says {scores}, the moves give {reached}"
    return None
