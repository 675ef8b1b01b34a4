"""Écarté's table: the turn-up (trump) and the stock, the trick in progress, each player's
tricks this hand, who is committed (ecarte D6/D7), the exchanges, and the scores."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from PIL import Image

from games.cards import SUIT_NAMES
from games.ecarte import EcarteView
from rendering.canvas import (
    BAND_H,
    HEADER_H,
    MARGIN,
    WIDTH,
    Draw,
    canvas,
    caption,
    card,
    check_entries,
    footer,
    footer_height,
    header,
    lines,
    number,
    player_band,
    stock_and_turn_up,
    text,
    trick,
)
from rendering.faces import check_code, size_of
from rendering.renderer import ExtraRow, GameRenderer, Names
from rendering.style import CARD_H, CARD_W

TRICKS_SCALE: Final = 0.6
TRICKS_H: Final = 122
PHASE_WORDS: Final = {
    "propose": "to play or propose",
    "respond": "to accept or refuse",
    "discard": "to discard",
    "play": "to play",
}


def _check(view: EcarteView) -> None:
    check_entries(view["trick"])
    for done in view["tricks"]:
        check_entries(done["cards"])
    if view["turn_up"] is not None:
        check_code(view["turn_up"])


def draw_table(view: EcarteView, names: Names, four_colour: bool) -> Image.Image:
    _check(view)
    middle_h = CARD_H + 70
    height = HEADER_H + 12 + 2 * (BAND_H + TRICKS_H + 12) + middle_h + footer_height(())
    image, draw = canvas(WIDTH, height)
    detail = f"hand {view['deal']} · to {view['target']} points"
    if view["phase"] == "over":
        detail = f"match over · to {view['target']} points"
    header(draw, WIDTH, "Écarté", detail, view=view, names=names)
    y = HEADER_H + 12
    _player(image, draw, view, names, 0, y, four_colour)
    y += BAND_H + TRICKS_H + 12
    _middle(image, draw, view, names, y, four_colour)
    y += middle_h
    _player(image, draw, view, names, 1, y, four_colour)
    footer(draw, view, names, height)
    return image


def _notes(view: EcarteView, seat: int) -> list[str]:
    notes = []
    if view["to_move"] == seat and view["phase"] in PHASE_WORDS:
        notes.append(PHASE_WORDS[view["phase"]])
    notes.append("dealer" if view["dealer"] == seat else "elder")
    notes.append(f"{view['hand_sizes'][seat]} cards")
    if view["committed"] == seat:
        notes.append("committed")  # ecarte D6/D7: bears the risk of the hand
    if view["king"] == seat:
        notes.append("king announced")
    return notes


def _player(
    image: Image.Image,
    draw: Draw,
    view: EcarteView,
    names: Names,
    seat: int,
    y: int,
    four_colour: bool,
) -> None:
    player_band(
        draw,
        y,
        WIDTH,
        names[seat],
        f"{number(view['scores'][seat])} / {view['target']}",
        to_move=view["to_move"] == seat,
        notes=_notes(view, seat),
    )
    won = [done for done in view["tricks"] if done["winner"] == seat]
    top = y + BAND_H + 10
    count = view["tricks_won"][seat]
    text(draw, (MARGIN, top + 4), f"tricks: {count}", 22, bold=True)
    if not won:
        return
    _won_tricks(image, won, MARGIN + 130, top, four_colour)


def _won_tricks(
    image: Image.Image,
    won: Sequence[Mapping[str, Any]],
    x: int,
    y: int,
    four_colour: bool,
) -> None:
    """Each trick taken, as its two cards slightly overlapping: played cards are public."""
    w, _ = size_of(TRICKS_SCALE)
    for done in won:
        for j, entry in enumerate(done["cards"]):
            card(
                image,
                entry["card"],
                (x + j * (w // 2 + 4), y),
                four_colour=four_colour,
                scale=TRICKS_SCALE,
            )
        x += w + w // 2 + 4 + 18


def _middle(
    image: Image.Image, draw: Draw, view: EcarteView, names: Names, y: int, four_colour: bool
) -> None:
    turn_x = stock_and_turn_up(image, draw, view, y, four_colour)
    trump = view["trump"]
    if trump:
        words = f"trumps: {SUIT_NAMES[trump]}"
        text(draw, (turn_x + CARD_W / 2, y + 36 + CARD_H), words, 22, bold=True, anchor="ma")
    trick_x = turn_x + CARD_W + 70
    caption(draw, (trick_x, y), "trick")
    trick(image, draw, view["trick"], names, (trick_x, y + 28), four_colour=four_colour, slots=2)
    rows = _exchange_rows(view, names)
    info_x = trick_x + 2 * (CARD_W + 14) + 20
    if rows:
        lines(draw, rows, (info_x, y + 28, WIDTH - MARGIN, y + 28 + CARD_H), size=20)


def _exchange_rows(view: EcarteView, names: Names) -> list[tuple[str, str]]:
    """Proposals and exchanges this hand: counts only, the discarded cards stay hidden."""
    rows = []
    if view["proposals"]:
        rows.append(("proposals", str(view["proposals"])))
    for exchange in view["exchanges"]:
        rows.append((f"{names[exchange['seat']]} exchanged", str(exchange["count"])))
    return rows[-5:]


def _hand_extras(view: EcarteView) -> list[ExtraRow]:
    """What this player discarded this hand: their own knowledge, never the opponent's."""
    return [ExtraRow("your discards this hand", view.get("discarded", []))]


def _hand_note(view: EcarteView) -> str:
    trump = view.get("trump")
    return f"trumps: {SUIT_NAMES[trump]}" if trump in SUIT_NAMES else ""


RENDERER: Final = GameRenderer(
    game="ecarte", title="Écarté", table=draw_table, hand_extras=_hand_extras, hand_note=_hand_note
)
