"""SQLite's SQL as PostgreSQL takes it: the plans and reads are written once, in the dialect
both accept, with ``?`` placeholders, and turned into PostgreSQL's spelling here by rules.

``translate`` gives a statement its ``$1, $2…`` placeholders, ``RETURNING id`` where a plan
reads ``cursor.lastrowid``, and says which INSERTs may wait to be sent with the plan's next
statements; ``combined`` sends several such INSERTs as one statement.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.storage.migrations import MIGRATIONS

# Tables whose ``id`` the database numbers: an INSERT into one returns the new id, which a
# plan reads as ``cursor.lastrowid`` the way SQLite hands it. Found in the migrations
# themselves, so a table added by a later migration needs nothing here.
_NUMBERED = frozenset(
    name.lower()
    for script in MIGRATIONS
    for name in re.findall(
        r"CREATE TABLE\s+(\w+)\s*\(\s*id\s+INTEGER\s+PRIMARY\s+KEY", script, re.IGNORECASE
    )
)
_INSERT_INTO = re.compile(r"^\s*INSERT\s+INTO\s+(\w+)", re.IGNORECASE)
_RETURNS_ROWS = re.compile(r"^\s*(SELECT|WITH|VALUES)\b|\bRETURNING\b", re.IGNORECASE)


# Numbered tables whose ids nobody reads but as unique tags (an outbox row's id is its
# message's nonce): their ids are taken from the table's sequence a block at a time, so that
# an INSERT into one needs no answer from the server (see ``postgres_adapter.Adapter``). Ids
# of the others (a match's number, shown to players) stay in order, without gaps, each given
# by its INSERT.
_TAGGED = frozenset({"outbox"})
# A plain INSERT of one row of placeholders (and plain numbers or NULL): what can wait
# (see ``postgres_adapter.Adapter``). Anything more (ON CONFLICT, a SELECT, RETURNING) runs at once.
_PLAIN_INSERT = re.compile(
    r"^\s*INSERT\s+INTO\s+(\w+)\s*\(([\w\s,]+)\)\s*VALUES\s*"
    r"\(((?:\s*(?:\$\d+|-?\d+(?:\.\d+)?|NULL)\s*,)*\s*(?:\$\d+|-?\d+(?:\.\d+)?|NULL)\s*)\)\s*$",
    re.IGNORECASE,
)
_PLACEHOLDER = re.compile(r"\$(\d+)")


@dataclass(frozen=True, slots=True)
class Statement:
    text: str  # with $n placeholders
    rows: bool  # whether it returns rows (fetched) rather than a status (executed)
    numbered: bool  # an INSERT given ``RETURNING id`` here, for ``lastrowid``
    # An INSERT that may wait to be sent with the plan's next statements (see the adapter);
    # for a tagged table, this is its text with the id as its first placeholder, and
    # ``tagged`` names the table whose sequence gives the id.
    deferred: str | None = None
    tagged: str | None = None


@functools.lru_cache(maxsize=512)
def translate(sql: str) -> Statement:
    """A statement written with ``?`` placeholders, as PostgreSQL takes it."""
    text = _placeholders(sql)
    plain = _PLAIN_INSERT.match(text)
    if plain:
        table = plain.group(1).lower()
        if table in _TAGGED:
            shifted = _PLACEHOLDER.sub(lambda m: f"${int(m.group(1)) + 1}", plain.group(3))
            deferred = f"INSERT INTO {table} (id, {plain.group(2)}) VALUES ($1, {shifted})"
            return Statement(text, False, False, deferred, table)
        if table not in _NUMBERED:
            return Statement(text, False, False, text)
    numbered = False
    found = _INSERT_INTO.match(text)
    if found and found.group(1).lower() in _NUMBERED and not _RETURNS_ROWS.search(text):
        text += " RETURNING id"
        numbered = True
    return Statement(text, bool(_RETURNS_ROWS.search(text)), numbered)


def _placeholders(sql: str) -> str:
    """``?`` → ``$1``, ``$2``…, leaving quoted text alone."""
    out: list[str] = []
    number = 0
    quote: str | None = None
    for char in sql:
        if quote is not None:
            if char == quote:
                quote = None
        elif char in ("'", '"'):
            quote = char
        elif char == "?":
            number += 1
            out.append(f"${number}")
            continue
        out.append(char)
    return "".join(out)


def combined(texts: Sequence[str], counts: Sequence[int]) -> str:
    """Several INSERTs (each with ``counts[n]`` placeholders) as one statement: each a
    data-modifying WITH query, its placeholders numbered after the ones before, and the
    rows each inserted as the one row returned (every row is inserted whatever its place)."""
    parts: list[str] = []
    offset = 0
    for number, (text, count) in enumerate(zip(texts, counts, strict=True)):
        moved = _PLACEHOLDER.sub(functools.partial(_renumber, offset), text)
        parts.append(f"s{number} AS ({moved} RETURNING 1)")
        offset += count
    counted = ", ".join(f"(SELECT count(*) FROM s{n})" for n in range(len(texts)))
    return f"WITH {', '.join(parts)} SELECT {counted}"


def _renumber(offset: int, found: re.Match[str]) -> str:
    return f"${int(found.group(1)) + offset}"
