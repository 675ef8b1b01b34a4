"""The hand picture, the same for every game: a player's cards in canonical order, each with
the code a player types under it; on their turn the cards named by a legal move are raised and
outlined in gold, the others washed into the felt."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from PIL import Image

from games.cards import sort_key
from games.core import move_cards
from rendering.canvas import HEADER_H, MARGIN, WIDTH, canvas, fan_step, header, text
from rendering.faces import check_code, dimmed, face
from rendering.renderer import GameRenderer, View
from rendering.style import CARD_H, CARD_W, FELT_DARK, GOLD, INK, MUTED

MIN_WIDTH: Final = 640
GAP: Final = 10
RAISE: Final = 16
"""How far a playable card stands out of the row."""
LABEL_H: Final = 44


def checked_hand(view: View) -> tuple[list[str], list[str]]:
    """The hand (canonical order) and the legal moves, validated before any drawing."""
    hand = view.get("hand")
    moves = view.get("legal_moves", [])
    if not isinstance(hand, list):
        raise ValueError("the view has no hand: draw a hand from state.view(seat)")
    if not isinstance(moves, list) or not all(isinstance(move, str) for move in moves):
        raise ValueError("legal_moves must be a list of move strings")
    for code in hand:
        check_code(code)
    return sorted(hand, key=sort_key), moves


def playable(hand: Sequence[str], moves: Sequence[str]) -> set[str] | None:
    """The cards of ``hand`` named by a legal move, or None when there is nothing to tell apart
    (not this player's turn, no move names a card, or every card may be played)."""
    named = {code for move in moves for code in move_cards(move)}
    marked = named & set(hand)
    if not marked or marked == set(hand):
        return None
    return marked


def status(view: View, moves: Sequence[str]) -> tuple[str, bool]:
    """The words top right, and whether they call for the player's attention."""
    if view.get("result") is not None:
        return "match over", False
    if moves:
        verbs = list(dict.fromkeys(move.split()[0] for move in moves if move.split()))
        return "your turn: " + " / ".join(verbs), True
    if view.get("to_move") is None:
        return "", False
    return "your opponent's turn", False


def draw_hand(view: View, renderer: GameRenderer, four_colour: bool) -> Image.Image:
    hand, moves = checked_hand(view)
    marked = playable(hand, moves)
    count = len(hand)
    natural = 2 * MARGIN + count * CARD_W + max(0, count - 1) * GAP
    width = max(MIN_WIDTH, min(WIDTH, natural))
    step = fan_step(count, CARD_W, width - 2 * MARGIN, GAP)
    height = HEADER_H + RAISE + 20 + CARD_H + LABEL_H + 8
    image, draw = canvas(width, height)
    noun = "card" if count == 1 else "cards"
    header(draw, width, f"{renderer.title} · your hand", "")
    words, urgent = status(view, moves)
    text(
        draw,
        (width - MARGIN, HEADER_H / 2),
        words or f"{count} {noun}",
        24,
        bold=urgent,
        fill=GOLD if urgent else MUTED,
        anchor="rm",
        max_width=width // 2,
    )
    row_w = step * (count - 1) + CARD_W if count else 0
    left = (width - row_w) // 2
    top = HEADER_H + RAISE + 14
    if not count:
        text(draw, (width / 2, top + CARD_H / 2), "no cards in hand", 28, fill=MUTED, anchor="mm")
    for i, code in enumerate(hand):
        x = left + i * step
        bonus = code in renderer.bonus_cards
        lit = marked is not None and code in marked
        if marked is None or lit:
            picture = face(code, four_colour, bonus)
        else:
            picture = dimmed(code, four_colour, bonus)
        y = top - RAISE if lit else top
        if lit:
            draw.rounded_rectangle(
                (x - 4, y - 4, x + CARD_W + 3, y + CARD_H + 3), 12, outline=GOLD, width=4
            )
        image.paste(picture, (x, y), picture)
    label_y = top + CARD_H + 10
    for i, code in enumerate(hand):
        x = left + i * step
        visible = CARD_W if i == count - 1 else min(step, CARD_W)
        lit = marked is not None and code in marked
        colour = GOLD if lit else (MUTED if marked is not None else INK)
        centre = x + visible / 2
        if lit:
            draw.rounded_rectangle(
                (centre - visible / 2 + 3, label_y - 2, centre + visible / 2 - 3, label_y + 32),
                8,
                fill=FELT_DARK,
            )
        text(draw, (centre, label_y), code, 26, bold=True, fill=colour, anchor="ma")
    return image
