"""The hand picture, the same for every game: a player's cards in canonical order, each with
the code a player types under it; on their turn the cards named by a legal move are raised and
outlined in gold, the others washed into the felt.

A game may add smaller rows under the hand with other cards only this player sees or may
play (Bézigue's melded cards on the table, Écarté's and Piquet's own discards): see
:attr:`GameRenderer.hand_extras`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, NamedTuple

from PIL import Image

from games.cards import sort_key
from games.core import move_cards
from rendering.canvas import (
    HEADER_H,
    MARGIN,
    WIDTH,
    Draw,
    canvas,
    caption,
    fan_step,
    header,
    text,
)
from rendering.faces import check_code, dimmed_cutout, face_cutout, size_of
from rendering.renderer import GameRenderer, View
from rendering.style import CARD_H, CARD_W, FELT_DARK, GOLD, INK, MUTED, SMALL

MIN_WIDTH: Final = 760
"""Room in the header for the title, a note and the turn."""
GAP: Final = 10
RAISE: Final = 16
"""How far a playable card stands out of the row."""
LABEL_H: Final = 44
EXTRA_H: Final = 28 + round(CARD_H * SMALL) + RAISE + LABEL_H + 4


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


def playable(candidates: Sequence[str], moves: Sequence[str]) -> set[str] | None:
    """The cards among ``candidates`` (the hand, and cards playable from elsewhere) named by a
    legal move; None when there is nothing to tell apart: not this player's turn, no move names
    a card, or every candidate may be played.

    Reading stops as soon as every candidate is named: Piquet's elder may hold 1,586 legal
    discards, and the first few name every card."""
    wanted = set(candidates)
    marked: set[str] = set()
    for move in moves:
        marked.update(code for code in move_cards(move) if code in wanted)
        if marked == wanted:
            return None
    return marked or None


def status(view: View, moves: Sequence[str]) -> tuple[str, bool]:
    """The words top right, and whether they call for the player's attention."""
    if view.get("result") is not None:
        return "match over", False
    if moves:
        verbs = list(dict.fromkeys(words[0] for move in moves if (words := move.split(None, 1))))
        return "your turn: " + " / ".join(verbs), True
    if view.get("to_move") is None:
        return "", False
    return "your opponent's turn", False


class HandScene(NamedTuple):
    """Everything a hand picture shows, read from the view: two views that give equal scenes
    give the same picture, so a scene is what a cache of hand pictures is keyed by. It is
    small (a few dozen strings) where a view may be large (Piquet's elder has 1,586 legal
    discards), so it is also what travels to a worker process that draws it."""

    game: str
    hand: tuple[str, ...]
    """In canonical order, checked."""
    extras: tuple[tuple[str, tuple[str, ...], bool], ...]
    """(title, cards in canonical order, playable) of each non-empty row under the hand."""
    marked: frozenset[str] | None
    """The cards lit as playable; None when nothing is told apart."""
    words: str
    """Top right: the turn, or how many cards are held."""
    urgent: bool
    note: str
    four_colour: bool


def read_scene(view: View, renderer: GameRenderer[Any], four_colour: bool) -> HandScene:
    """Read and check what the hand picture of ``view`` shows; ValueError before any drawing."""
    hand, moves = checked_hand(view)
    extras = renderer.extras(view)
    for row in extras:
        for code in row.cards:
            check_code(code)
    candidates = hand + [code for row in extras if row.playable for code in row.cards]
    marking = moves
    if renderer.marking_verbs is not None:
        marking = [move for move in moves if move.split()[0] in renderer.marking_verbs]
    marked = playable(candidates, marking)
    words, urgent = status(view, moves)
    count = len(hand)
    noun = "card" if count == 1 else "cards"
    return HandScene(
        game=renderer.game,
        hand=tuple(hand),
        extras=tuple(
            (row.title, tuple(sorted(row.cards, key=sort_key)), row.playable) for row in extras
        ),
        marked=None if marked is None else frozenset(marked),
        words=words or f"{count} {noun} in hand",
        urgent=urgent,
        note=renderer.hand_note(view),
        four_colour=four_colour,
    )


def draw_hand(view: View, renderer: GameRenderer[Any], four_colour: bool) -> Image.Image:
    return draw_scene(read_scene(view, renderer, four_colour), renderer)


def draw_scene(scene: HandScene, renderer: GameRenderer[Any]) -> Image.Image:
    """The picture of ``scene``, by the renderer of its game."""
    hand, extras, marked, four_colour = scene.hand, scene.extras, scene.marked, scene.four_colour
    count = len(hand)
    natural = 2 * MARGIN + count * CARD_W + max(0, count - 1) * GAP
    width = max(MIN_WIDTH, min(WIDTH, natural))
    height = HEADER_H + RAISE + 14 + CARD_H + LABEL_H + 8 + len(extras) * EXTRA_H
    image, draw = canvas(width, height)
    header(draw, width, renderer.title, scene.words, urgent=scene.urgent, note=scene.note)
    top = HEADER_H + RAISE + 14
    if not count:
        text(draw, (width / 2, top + CARD_H / 2), "no cards in hand", 28, fill=MUTED, anchor="mm")
    _row(image, draw, hand, top, width, marked, renderer, four_colour, 1.0)
    y = top + CARD_H + LABEL_H + 12
    for title, cards, row_playable in extras:
        caption(draw, (MARGIN, y), title)
        row_marked = marked if row_playable else None
        _row(image, draw, cards, y + 28 + RAISE, width, row_marked, renderer, four_colour, SMALL)
        y += EXTRA_H
    return image


def _row(
    image: Image.Image,
    draw: Draw,
    cards: Sequence[str],
    top: int,
    width: int,
    marked: frozenset[str] | set[str] | None,
    renderer: GameRenderer[Any],
    four_colour: bool,
    scale: float,
) -> None:
    """Cards centred in a row (overlapping if they must), raised and outlined when playable,
    washed out when another card is; each with its code under the part in view."""
    count = len(cards)
    card_w, card_h = size_of(scale)
    step = fan_step(count, card_w, width - 2 * MARGIN, GAP)
    row_w = step * (count - 1) + card_w if count else 0
    left = (width - row_w) // 2
    for i, code in enumerate(cards):
        x = left + i * step
        bonus = code in renderer.bonus_cards
        lit = marked is not None and code in marked
        if marked is None or lit or not renderer.dim_unmarked:
            picture = face_cutout(code, four_colour, bonus, scale)
        else:
            picture = dimmed_cutout(code, four_colour, bonus, scale)
        y = top - RAISE if lit else top
        if lit:
            draw.rounded_rectangle(
                (x - 4, y - 4, x + card_w + 3, y + card_h + 3), 12, outline=GOLD, width=4
            )
        picture.lay(image, (x, y))
    label_y = top + card_h + 10
    size = 26 if scale >= 1 else 22
    for i, code in enumerate(cards):
        x = left + i * step
        visible = card_w if i == count - 1 else min(step, card_w)
        lit = marked is not None and code in marked
        colour = GOLD if lit else (MUTED if marked is not None else INK)
        centre = x + visible / 2
        if lit:
            draw.rounded_rectangle(
                (x + 3, label_y - 2, x + visible - 3, label_y + size + 6), 8, fill=FELT_DARK
            )
        text(draw, (centre, label_y), code, size, bold=True, fill=colour, anchor="ma")
