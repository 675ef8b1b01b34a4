"""Bézigue's table: the turn-up and trump, the stock, the trick in progress and the last one,
both players' melds lying on the table, the melds scored this deal, brisques and scores."""

from __future__ import annotations

from typing import Final

from PIL import Image

from games.bezique import BeziqueView
from games.cards import SUIT_NAMES
from rendering.canvas import (
    BAND_H,
    HEADER_H,
    MARGIN,
    WIDTH,
    Draw,
    canvas,
    caption,
    check_entries,
    fan,
    footer,
    footer_height,
    header,
    lines,
    number,
    player_band,
    stock_and_turn_up,
    text,
    tricks,
)
from rendering.faces import check_code
from rendering.renderer import ExtraRow, GameRenderer, Names
from rendering.style import CARD_H, CARD_W, MUTED, SMALL

SMALL_H: Final = round(CARD_H * SMALL)
MELDED_H: Final = 28 + SMALL_H + 12
MELD_ROWS: Final = 4
"""The latest melds listed; earlier ones are in the scores already."""
LINE_H: Final = 32


def _check(view: BeziqueView) -> None:
    check_entries(view["trick"])
    if view["last_trick"]:
        check_entries(view["last_trick"]["cards"])
    for cards in view["table"]:
        for code in cards:
            check_code(code)
    if view["turn_up"] is not None:
        check_code(view["turn_up"])


def draw_table(view: BeziqueView, names: Names, four_colour: bool) -> Image.Image:
    _check(view)
    rows = min(MELD_ROWS, max(1, len(view["melds"])))
    melds_h = 44 + rows * LINE_H + 20
    middle_h = CARD_H + 70
    melded_h = [_melded_height(view, seat) for seat in (0, 1)]
    history = view.get("deal_history") or []  # views from older versions may lack it
    height = HEADER_H + 12 + 2 * (BAND_H + 10) + sum(melded_h) + middle_h + melds_h
    height += footer_height(history)
    image, draw = canvas(WIDTH, height)
    stage = "stock exhausted: last tricks" if view["stage"] == 2 else f"stock {view['stock']}"
    detail = f"deal {view['deal']} · to {view['target']} · {stage}"
    if view["phase"] == "over":
        detail = f"match over · to {view['target']}"
    header(draw, WIDTH, "Bézigue", detail, view=view, names=names)
    y = HEADER_H + 12
    _band(draw, view, names, 0, y)
    _melded(image, draw, view, 0, y + BAND_H + 8, four_colour)
    y += BAND_H + melded_h[0] + 10
    _middle(image, draw, view, names, y, four_colour)
    y += middle_h
    _band(draw, view, names, 1, y)
    _melded(image, draw, view, 1, y + BAND_H + 8, four_colour)
    y += BAND_H + melded_h[1] + 10
    _melds(draw, view, names, y, melds_h - 10)
    footer(draw, view, names, height, history_label="deals so far", history=history)
    return image


PHASE_WORDS: Final = {"lead": "to lead", "follow": "to follow", "score": "to meld or draw"}


def _band(draw: Draw, view: BeziqueView, names: Names, seat: int, y: int) -> None:
    notes = []
    if view["to_move"] == seat and view["phase"] in PHASE_WORDS:
        notes.append(PHASE_WORDS[view["phase"]])
    if view["dealer"] == seat:
        notes.append("dealer")
    notes.append(f"{view['hand_sizes'][seat]} in hand")
    notes.append(f"tricks {view['tricks_won'][seat]}")
    notes.append(f"brisques {view['brisques'][seat]}")  # bezique D9: 10 each at the end
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


def _melded_height(view: BeziqueView, seat: int) -> int:
    return MELDED_H if view["table"][seat] else 72


def _melded(
    image: Image.Image, draw: Draw, view: BeziqueView, seat: int, y: int, four_colour: bool
) -> None:
    """The cards a player has melded and not yet played: they lie face up, playable later."""
    cards = view["table"][seat]
    caption(draw, (MARGIN, y), "on the table")
    if not cards:
        text(draw, (MARGIN, y + 30), "no melded cards", 22, fill=MUTED)
        return
    fan(
        image,
        cards,
        (MARGIN, y + 28),
        WIDTH - 2 * MARGIN,
        four_colour=four_colour,
        scale=SMALL,
    )


def _middle(
    image: Image.Image, draw: Draw, view: BeziqueView, names: Names, y: int, four_colour: bool
) -> None:
    turn_x = stock_and_turn_up(image, draw, view, y, four_colour)
    words = f"trumps: {SUIT_NAMES[view['trump']]}"
    text(draw, (turn_x + CARD_W / 2, y + 36 + CARD_H), words, 22, bold=True, anchor="ma")
    tricks(image, draw, view, names, turn_x + CARD_W + 70, y, four_colour, last_gap=36)


def _melds(draw: Draw, view: BeziqueView, names: Names, y: int, height: int) -> None:
    melds = view["melds"]
    caption(draw, (MARGIN, y), f"melds this deal ({len(melds)})" if melds else "melds this deal")
    rows = [
        (f"{names[m['seat']]}: {m['name']}", number(m["points"], signed=True))
        for m in melds[-MELD_ROWS:]
    ]
    lines(
        draw,
        rows or [("none yet", "")],
        (MARGIN // 2, y + 28, WIDTH - MARGIN // 2, y + height),
    )


def _hand_extras(view: BeziqueView) -> list[ExtraRow]:
    """A player's melded cards lie on the table but are still theirs to play."""
    seat = view["seat"]
    if seat is None:
        return []
    return [ExtraRow("your cards on the table", view["table"][seat], playable=True)]


def _hand_note(view: BeziqueView) -> str:
    trump = view.get("trump")
    return f"trumps: {SUIT_NAMES[trump]}" if trump in SUIT_NAMES else ""


RENDERER: Final = GameRenderer(
    game="bezique",
    title="Bézigue",
    table=draw_table,
    hand_extras=_hand_extras,
    hand_note=_hand_note,
)
