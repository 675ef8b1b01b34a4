"""Le 5 As' table: each player's five expeditions in columns with their running scores, the
five discard piles between them (top card and size), the stock, the round and the scores."""

from __future__ import annotations

from typing import Final

from PIL import Image

from games.cinq_as import BONUS_CARDS, EXPEDITION_SUITS, CinqAsView
from rendering.canvas import (
    BAND_H,
    HEADER_H,
    MARGIN,
    WIDTH,
    Draw,
    canvas,
    card,
    footer,
    footer_height,
    header,
    number,
    player_band,
    score_chip,
    slot,
    stock,
    text,
)
from rendering.faces import check_code, dimmed_cutout, face_cutout
from rendering.renderer import GameRenderer, Names
from rendering.style import CARD_H, CARD_W, GOLD, MUTED

MARKERS: Final = {"S": "AS", "H": "AH", "D": "AD", "C": "AC", "T": "1T"}
"""The five aces laid out as the discard piles' markers."""

COLUMN: Final = 160
"""Horizontal distance between expedition columns."""
STEP: Final = 44
"""Vertical distance between cards of an expedition: each card's rank stays in view."""
CHIP_H: Final = 36


def _columns_x() -> list[int]:
    return [MARGIN + 8 + i * COLUMN for i in range(5)]


def _column_height(view: CinqAsView, seat: int) -> int:
    longest = max(len(view["expeditions"][seat][suit]) for suit in EXPEDITION_SUITS)
    return CARD_H + max(0, longest - 1) * STEP


def _section_height(view: CinqAsView, seat: int) -> int:
    return BAND_H + 12 + CHIP_H + 10 + _column_height(view, seat) + 16


def _check(view: CinqAsView) -> None:
    for exp in view["expeditions"]:
        for suit in EXPEDITION_SUITS:
            for code in exp[suit]:
                check_code(code)
    for suit in EXPEDITION_SUITS:
        for code in view["discards"][suit]:
            check_code(code)


def draw_table(view: CinqAsView, names: Names, four_colour: bool) -> Image.Image:
    _check(view)
    middle_h = CARD_H + 84
    history = view["round_scores"]
    sections = _section_height(view, 0) + _section_height(view, 1)
    height = HEADER_H + 12 + sections + middle_h + footer_height(history)
    image, draw = canvas(WIDTH, height)
    rounds = f"round {view['round']} of {view['rounds']}"
    if view["phase"] == "over":
        rounds = "match over"
    header(draw, WIDTH, "Le 5 As", rounds, view=view, names=names)
    y = HEADER_H + 12
    for seat in (0, 1):
        if seat == 1:
            _middle(image, draw, view, y, four_colour)
            y += middle_h
        _section(image, draw, view, names, seat, y, four_colour)
        y += _section_height(view, seat)
    footer(draw, view, names, height, history_label="rounds so far", history=history)
    return image


def _section(
    image: Image.Image,
    draw: Draw,
    view: CinqAsView,
    names: Names,
    seat: int,
    y: int,
    four_colour: bool,
) -> None:
    scores = view["expedition_scores"][seat]
    this_round = sum(scores[suit] for suit in EXPEDITION_SUITS)
    notes = [
        f"{view['hand_sizes'][seat]} cards in hand",
        f"this round {number(this_round, signed=True)}",
    ]
    if view["to_move"] == seat:
        notes.insert(0, "to draw" if view["phase"] == "draw" else "to play")
    player_band(
        draw,
        y,
        WIDTH,
        names[seat],
        number(view["scores"][seat]),
        to_move=view["to_move"] == seat,
        notes=notes,
    )
    y += BAND_H + 12
    for x, suit in zip(_columns_x(), EXPEDITION_SUITS, strict=True):
        cards = view["expeditions"][seat][suit]
        score = number(scores[suit], signed=True) if cards else "–"
        score_chip(draw, (x, y, x + CARD_W, y + CHIP_H), suit, score, four_colour)
        top = y + CHIP_H + 10
        if not cards:
            slot(draw, (x, top, x + CARD_W, top + CARD_H))
        for i, code in enumerate(cards):
            card(
                image,
                code,
                (x, top + i * STEP),
                four_colour=four_colour,
                bonus=code in BONUS_CARDS,
            )


def _middle(image: Image.Image, draw: Draw, view: CinqAsView, y: int, four_colour: bool) -> None:
    """The discard piles, aligned under the expeditions of their colour, and the stock."""
    text(draw, (MARGIN, y + 2), "discard piles", 20, fill=MUTED)
    top = y + 30
    for x, suit in zip(_columns_x(), EXPEDITION_SUITS, strict=True):
        pile = view["discards"][suit]
        marker = MARKERS[suit]
        if not pile:
            dimmed_cutout(marker, four_colour).lay(image, (x, top))
            text(draw, (x + CARD_W / 2, top + CARD_H + 6), "empty", 20, fill=MUTED, anchor="ma")
            continue
        top_card = pile[-1]
        picture = face_cutout(top_card, four_colour, top_card in BONUS_CARDS)
        if top_card == view.get("just_discarded"):
            # cinq-as D3: the card just discarded cannot be drawn back this turn.
            draw.rounded_rectangle(
                (x - 4, top - 4, x + CARD_W + 3, top + CARD_H + 3), 12, outline=GOLD, width=4
            )
        picture.lay(image, (x, top))
        count = f"{len(pile)} card" + ("s" if len(pile) > 1 else "")
        text(draw, (x + CARD_W / 2, top + CARD_H + 6), count, 20, bold=True, anchor="ma")
    stock(image, draw, view["stock"], (WIDTH - MARGIN - CARD_W - 6, top), "stock")


def _hand_note(view: CinqAsView) -> str:
    return f"round {view.get('round')} of {view.get('rounds')}"


RENDERER: Final = GameRenderer(
    game="cinq-as",
    title="Le 5 As",
    table=draw_table,
    bonus_cards=BONUS_CARDS,
    # Every card may be discarded, so "legal" tells nothing: light the cards that may go onto
    # an expedition (cinq-as D5) and leave the others plain, not dimmed.
    marking_verbs=frozenset({"play"}),
    dim_unmarked=False,
    hand_note=_hand_note,
)
