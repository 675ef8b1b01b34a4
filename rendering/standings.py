"""A tournament's standings as a picture: a pure function of plain rows, no I/O.

The rows come ready-made (rank, name, points, tie-breaks, wins/draws/losses): the picture
only lays them out, so it knows nothing of pairing or of any game. Its few words (the
columns' headings) come from the reader's :class:`~games.words.Words`, like every picture's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from games.words import ENGLISH, N_, Words
from rendering.canvas import canvas, text
from rendering.encode import png
from rendering.style import FELT_DARK, FELT_LINE, GOLD, INK, MUTED

WIDTH: Final = 760
ROW: Final = 36
TOP: Final = 96
MAX_ROWS: Final = 64
COLUMNS: Final = (  # (heading, x of its right edge): points, Buchholz, Sonneborn-Berger,
    # wins-draws-losses, abbreviated as each language's players abbreviate them
    (N_("Pts"), 470),
    (N_("Buch."), 560),
    (N_("S-B"), 640),
    (N_("W-D-L"), 740),
)
NAME_X: Final = 70
NAME_WIDTH: Final = 330


def half(value: float) -> str:
    """Points as a tournament writes them: 2, 2½, ½."""
    whole, halves = int(value), round((value - int(value)) * 2)
    if halves:
        return "½" if whole == 0 else f"{whole}½"
    return str(whole)


def standings_png(title: str, rows: Sequence[Mapping[str, Any]], words: Words = ENGLISH) -> bytes:
    """The standings table as PNG bytes, its headings in the language of ``words``.

    Each row: ``rank`` (int), ``name`` (str), ``score``, ``buchholz``,
    ``sonneborn_berger`` (numbers), ``wins``, ``draws``, ``losses`` (ints) and ``left``
    (bool: the player has left the tournament, shown dimmed). ValueError for anything else.
    """
    if not isinstance(title, str):
        raise ValueError("the title must be a string")
    if not isinstance(rows, Sequence) or len(rows) > MAX_ROWS:
        raise ValueError(f"rows must be a list of at most {MAX_ROWS} rows")
    checked = [_checked(row) for row in rows]
    height = TOP + ROW * max(1, len(checked)) + 24
    image, draw = canvas(WIDTH, height)
    text(draw, (24, 20), title, 30, bold=True, fill=GOLD, max_width=WIDTH - 48)
    y_head = TOP - 30
    text(draw, (24, y_head), "#", 20, fill=MUTED)
    text(draw, (NAME_X, y_head), words.gettext("Player"), 20, fill=MUTED)
    for heading, right in COLUMNS:
        text(draw, (right, y_head), words.gettext(heading), 20, fill=MUTED, anchor="ra")
    draw.line((20, TOP - 4, WIDTH - 20, TOP - 4), fill=FELT_LINE, width=2)
    for index, row in enumerate(checked):
        y = TOP + index * ROW
        if index % 2:
            draw.rectangle((20, y - 2, WIDTH - 20, y + ROW - 6), fill=FELT_DARK)
        ink = MUTED if row["left"] else (GOLD if row["rank"] == 1 else INK)
        name = (
            words.gettext("{name} (left)").format(name=row["name"]) if row["left"] else row["name"]
        )
        text(draw, (24, y), str(row["rank"]), 24, fill=ink)
        text(draw, (NAME_X, y), name, 24, fill=ink, max_width=NAME_WIDTH, bold=row["rank"] == 1)
        values = (
            half(row["score"]),
            half(row["buchholz"]),
            f"{row['sonneborn_berger']:g}",
            f"{row['wins']}-{row['draws']}-{row['losses']}",
        )
        for value, (_, right) in zip(values, COLUMNS, strict=True):
            text(draw, (right, y), value, 24, fill=ink, anchor="ra")
    if not checked:
        text(draw, (NAME_X, TOP), words.gettext("No player yet."), 24, fill=MUTED)
    return png(image)


def _checked(row: Mapping[str, Any]) -> Mapping[str, Any]:
    try:
        numbers = [float(row[k]) for k in ("score", "buchholz", "sonneborn_berger")]
        counts = [row[k] for k in ("rank", "wins", "draws", "losses")]
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"a standings row is malformed: {error}") from None
    if not all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in counts):
        raise ValueError("rank, wins, draws and losses must be whole numbers")
    if not all(n >= 0 for n in numbers) or not isinstance(row.get("name"), str):
        raise ValueError("a standings row needs a name and points of zero or more")
    return {**row, "left": bool(row.get("left", False))}
