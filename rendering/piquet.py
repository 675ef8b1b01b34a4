"""Piquet's table: the declarations scored this deal (as said at the table), the talons, the
trick in progress and the last one, tricks won, the deal number and the scores."""

from __future__ import annotations

from typing import Final

from PIL import Image

from games.piquet import PiquetView
from rendering.canvas import (
    BAND_H,
    HEADER_H,
    MARGIN,
    WIDTH,
    Draw,
    canvas,
    caption,
    check_entries,
    footer,
    footer_height,
    header,
    lines,
    number,
    player_band,
    stock,
    text,
    tricks,
)
from rendering.renderer import ExtraRow, GameRenderer, Names
from rendering.style import CARD_H, CARD_W, MUTED, SMALL

LINE_H: Final = 32
SMALL_H: Final = round(CARD_H * SMALL)


def _check(view: PiquetView) -> None:
    check_entries(view["trick"])
    if view["last_trick"]:
        check_entries(view["last_trick"]["cards"])


def draw_table(view: PiquetView, names: Names, four_colour: bool) -> Image.Image:
    _check(view)
    declared = view["declarations"]
    declarations_h = 44 + max(1, len(declared)) * LINE_H + 16
    middle_h = CARD_H + 70
    history = view["deal_history"]
    height = HEADER_H + 12 + 2 * (BAND_H + 14) + declarations_h + middle_h + footer_height(history)
    image, draw = canvas(WIDTH, height)
    detail = f"deal {view['deal']} of {view['deals']}"
    if view["phase"] == "over":
        detail = "match over"
    header(draw, WIDTH, "Piquet", detail, view=view, names=names)
    y = HEADER_H + 12
    _band(draw, view, names, 0, y)
    y += BAND_H + 14
    _declarations(draw, view, names, y, declarations_h - 14)
    y += declarations_h
    _middle(image, draw, view, names, y, four_colour)
    y += middle_h
    _band(draw, view, names, 1, y)
    # piquet D1, D2: the deals so far show how the partie stands.
    footer(draw, view, names, height, history_label="deals so far", history=history)
    return image


def _band(draw: Draw, view: PiquetView, names: Names, seat: int, y: int) -> None:
    notes = []
    if view["to_move"] == seat:
        notes.append("to discard" if view["phase"] == "discard" else "to play")
    notes.append("elder" if view["elder"] == seat else "younger")
    notes.append(f"{view['hand_sizes'][seat]} cards")
    notes.append(f"tricks {view['tricks_won'][seat]}")
    notes.append(f"this deal {number(view['deal_scores'][seat])}")
    player_band(
        draw,
        y,
        WIDTH,
        names[seat],
        number(view["scores"][seat]),
        to_move=view["to_move"] == seat,
        notes=notes,
    )


def _declarations(draw: Draw, view: PiquetView, names: Names, y: int, height: int) -> None:
    """What each player declared and scored, in the order it was said (piquet D5-D8)."""
    caption(draw, (MARGIN, y), "declarations")
    rows = [
        (f"{names[entry['seat']]}: {entry['text']}", number(entry["points"], signed=True))
        for entry in view["declarations"]
    ]
    box = (MARGIN // 2, y + 28, WIDTH - MARGIN // 2, y + height)
    if rows:
        lines(draw, rows, box)
    else:
        lines(draw, [("nothing declared yet", "")], box)


def _middle(
    image: Image.Image, draw: Draw, view: PiquetView, names: Names, y: int, four_colour: bool
) -> None:
    talons = view["talons"]
    exchanged = view["exchanged"]
    x = MARGIN
    for seat, label in ((view["elder"], "elder's talon"), (1 - view["elder"], "younger's")):
        index = 0 if seat == view["elder"] else 1
        caption(draw, (x, y), label)
        stock(image, draw, talons[index], (x, y + 28), "left", scale=SMALL)
        took = exchanged[index]
        if took is not None:
            text(draw, (x, y + 28 + SMALL_H + 36), f"took {took}", 20, fill=MUTED)
        x += round(CARD_W * SMALL) + 50
    tricks(image, draw, view, names, x + 20, y, four_colour, last_gap=40)


def _hand_extras(view: PiquetView) -> list[ExtraRow]:
    """The player's own discards, and the talon cards left that they may look at (piquet D3,
    D4): both count in their reckoning of what the opponent may hold."""
    return [
        ExtraRow("your discards", view.get("discarded", [])),
        ExtraRow("talon cards you may see", view.get("talon_seen", [])),
    ]


def _hand_note(view: PiquetView) -> str:
    role = "elder" if view.get("elder") == view.get("seat") else "younger"
    return f"deal {view.get('deal')} of {view.get('deals')} · {role}"


RENDERER: Final = GameRenderer(
    game="piquet", title="Piquet", table=draw_table, hand_extras=_hand_extras, hand_note=_hand_note
)
