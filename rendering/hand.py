"""The hand picture, the same for every game: a player's cards in canonical order, each with
the code a player types under it; on their turn the cards named by a legal move are raised and
outlined in gold, the others washed into the felt.

A game may add smaller rows under the hand with other cards only this player sees or may
play (Bézigue's melded cards on the table, Écarté's and Piquet's own discards): see
:attr:`GameRenderer.hand_extras`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, NamedTuple

from PIL import Image

from games.cards import card_name, sort_key
from games.moves import move_cards
from games.phrases import MOVE_WORDS
from games.words import ENGLISH, Words
from rendering.canvas import (
    CAPTION_H,
    HEADER_H,
    MARGIN,
    TEXT,
    TEXT_BOLD,
    TEXT_LARGE,
    WIDTH,
    Draw,
    canvas,
    caption,
    fan_step,
    header,
    text,
)
from rendering.faces import (
    ENGLISH_CORNERS,
    Corners,
    check_code,
    corners,
    dimmed_cutout,
    face_cutout,
    size_of,
)
from rendering.renderer import GameRenderer, View
from rendering.style import CARD_H, CARD_W, FELT_DARK, GOLD, INK, MUTED, SMALL

MIN_WIDTH: Final = 760
"""Room in the header for the title, a note and the turn."""
GAP: Final = 10
RAISE: Final = 16
"""How far a playable card stands out of the row."""
LABEL_H: Final = 48
STATUS_H: Final = TEXT_BOLD + 20
CROWDED: Final = 0.7
"""A row whose cards show less than this share of their width is crowded (Piquet's twelve):
it reaches nearer the picture's edges and names its cards in smaller words."""
EMPTY_H: Final = TEXT_LARGE + 24
"""The line that says a hand is empty."""
EXTRA_H: Final = CAPTION_H + round(CARD_H * SMALL) + RAISE + LABEL_H + 4


def checked_hand(view: View, order: Callable[[str], Any] = sort_key) -> tuple[list[str], list[str]]:
    """The hand (canonical order) and the legal moves, validated before any drawing."""
    hand = view.get("hand")
    moves = view.get("legal_moves", [])
    if not isinstance(hand, list):
        raise ValueError("the view has no hand: draw a hand from state.view(seat)")
    if not isinstance(moves, list) or not all(isinstance(move, str) for move in moves):
        raise ValueError("legal_moves must be a list of move strings")
    for code in hand:
        check_code(code)
    return sorted(hand, key=order), moves


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


def status(
    view: View, moves: Sequence[str], words: Words = ENGLISH, owner: str | None = None
) -> tuple[str, bool]:
    """The words top right, and whether they call for the player's attention: on the
    player's turn, the move words they may type, in their language. A spectator's picture
    (``owner`` named) tells in the third person whose turn it is, and no words to type."""
    if view.get("result") is not None:
        return words.gettext("Match over"), False
    if owner is not None:
        if moves:
            return words.gettext("{name} to play").format(name=owner), True
        return "", False
    if moves:
        verbs = list(dict.fromkeys(part[0] for move in moves if (part := move.split(None, 1))))
        return words.gettext("Your turn: {moves}").format(
            moves=" / ".join(_verb(verb, words) for verb in verbs)
        ), True
    if view.get("to_move") is None:
        return "", False
    return words.gettext("Your opponent's turn"), False


def _verb(verb: str, words: Words) -> str:
    """A move word as the reader types it (docs/notation.md): ``écarter`` for a French reader."""
    spelt = MOVE_WORDS.get(verb)
    if spelt is None or words.lang not in ("fr", "sv"):
        return verb
    return spelt[0] if words.lang == "fr" else spelt[1]


class HandScene(NamedTuple):
    """Everything a hand picture shows, read from the view, every word already in the
    reader's language: two views that give equal scenes give the same picture, so a scene is
    what a cache of hand pictures is keyed by. It is small (a few dozen strings) where a view
    may be large (Piquet's elder has 1,586 legal discards), so it is also what travels to a
    worker process that draws it."""

    game: str
    title: str
    """The game's name in the reader's language."""
    hand: tuple[str, ...]
    """In the game's own order, checked."""
    extras: tuple[tuple[str, tuple[str, ...], bool], ...]
    """(title, cards in the game's order, playable) of each non-empty row under the hand."""
    marked: frozenset[str] | None
    """The cards lit as playable; None when nothing is told apart."""
    status: str
    """Under the header: the turn and the move words to type, or how many cards are held."""
    urgent: bool
    note: str
    empty: str
    """What an empty hand says."""
    labels: tuple[tuple[str, str], ...]
    """Each card's name under it (``Q♠``; in French ``D♠``), by code."""
    four_colour: bool
    corners: Corners = ENGLISH_CORNERS
    """The corner letters of the jack, queen, king and ace, in the reader's language."""


def read_scene(
    view: View,
    renderer: GameRenderer[Any],
    four_colour: bool,
    words: Words = ENGLISH,
    owner: str | None = None,
) -> HandScene:
    """Read and check what the hand picture of ``view`` shows; ValueError before any drawing.

    ``owner`` names the hand's player when the picture is for spectators (a replay): every
    word is then in the third person, "Alice to play", "Bob's discards"."""
    hand, moves = checked_hand(view, renderer.hand_order)
    extras = renderer.extras(view, words, owner)
    for row in extras:
        for code in row.cards:
            check_code(code)
    candidates = hand + [code for row in extras if row.playable for code in row.cards]
    marking = moves
    if renderer.marking_verbs is not None:
        marking = [move for move in moves if move.split()[0] in renderer.marking_verbs]
    marked = playable(candidates, marking)
    shown, urgent = status(view, moves, words, owner)
    count = len(hand)
    if owner is None:
        in_hand = words.ngettext("{n} card in hand", "{n} cards in hand", count)
        empty = words.gettext("No cards in hand.")
    else:
        in_hand = words.ngettext("{name} holds {n} card", "{name} holds {n} cards", count)
        empty = words.gettext("{name} holds no cards.").format(name=owner)
    rows = tuple(
        (row.title, tuple(sorted(row.cards, key=renderer.hand_order)), row.playable)
        for row in extras
    )
    every_card = dict.fromkeys([*hand, *(code for _, cards, _ in rows for code in cards)])
    return HandScene(
        game=renderer.game,
        title=renderer.title_in(words),
        hand=tuple(hand),
        extras=rows,
        marked=None if marked is None else frozenset(marked),
        status=shown or in_hand.format(n=words.number(count), name=owner),
        urgent=urgent,
        note=renderer.hand_note(view, words),
        empty=empty,
        labels=tuple((code, card_name(code, words)) for code in every_card),
        four_colour=four_colour,
        corners=corners(words),
    )


def draw_hand(
    view: View,
    renderer: GameRenderer[Any],
    four_colour: bool,
    words: Words = ENGLISH,
    owner: str | None = None,
) -> Image.Image:
    return draw_scene(read_scene(view, renderer, four_colour, words, owner), renderer)


def draw_scene(scene: HandScene, renderer: GameRenderer[Any]) -> Image.Image:
    """The picture of ``scene``, by the renderer of its game."""
    hand, extras, marked, four_colour = scene.hand, scene.extras, scene.marked, scene.four_colour
    labels = dict(scene.labels)
    count = len(hand)
    natural = 2 * MARGIN + count * CARD_W + max(0, count - 1) * GAP
    width = max(MIN_WIDTH, min(WIDTH, natural))
    # An empty hand (a match over) takes a line, not a card's height of empty felt.
    row_h = RAISE + 14 + CARD_H + LABEL_H + 8 if count else EMPTY_H
    height = HEADER_H + STATUS_H + row_h + len(extras) * EXTRA_H
    image, draw = canvas(width, height)
    header(draw, width, scene.title, "", note=scene.note)
    # Whose turn, and the move words to type, on a line of their own: in every language
    # they need more room than the header leaves beside the game's name.
    text(
        draw,
        (MARGIN, HEADER_H + 12),
        scene.status,
        TEXT_BOLD,
        bold=scene.urgent,
        fill=GOLD if scene.urgent else MUTED,
        max_width=width - 2 * MARGIN,
    )
    top = HEADER_H + STATUS_H + RAISE + 14
    if count:
        _row(
            image, draw, hand, top, width, marked, renderer, four_colour, 1.0, labels, scene.corners
        )
        y = top + CARD_H + LABEL_H + 12
    else:
        text(draw, (MARGIN, HEADER_H + STATUS_H), scene.empty, TEXT_LARGE, fill=MUTED)
        y = HEADER_H + STATUS_H + EMPTY_H
    for title, cards, row_playable in extras:
        caption(draw, (MARGIN, y), title)
        row_marked = marked if row_playable else None
        _row(
            image,
            draw,
            cards,
            y + CAPTION_H + RAISE,
            width,
            row_marked,
            renderer,
            four_colour,
            SMALL,
            labels,
            scene.corners,
        )
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
    labels: Mapping[str, str],
    letters: Corners,
) -> None:
    """Cards centred in a row (overlapping if they must), raised and outlined when playable,
    washed out when another card is; each with its name under the part in view, as the
    reader types it (``Q♠``, in French ``D♠``)."""
    count = len(cards)
    card_w, card_h = size_of(scale)
    # A crowded row (Piquet's twelve cards) reaches nearer the edges, so each card's name
    # keeps the room it needs.
    step = fan_step(count, card_w, width - 2 * MARGIN, GAP)
    crowded = step < CROWDED * card_w
    if crowded:
        step = fan_step(count, card_w, width - MARGIN, GAP)
    row_w = step * (count - 1) + card_w if count else 0
    left = (width - row_w) // 2
    for i, code in enumerate(cards):
        x = left + i * step
        bonus = code in renderer.bonus_cards
        lit = marked is not None and code in marked
        if marked is None or lit or not renderer.dim_unmarked:
            picture = face_cutout(code, four_colour, bonus, scale, letters)
        else:
            picture = dimmed_cutout(code, four_colour, bonus, scale, letters)
        y = top - RAISE if lit else top
        if lit:
            draw.rounded_rectangle(
                (x - 4, y - 4, x + card_w + 3, y + card_h + 3), 12, outline=GOLD, width=4
            )
        picture.lay(image, (x, y))
    label_y = top + card_h + 10
    # A crowded row leaves each name less room: the smaller size, not bold.
    size = TEXT_LARGE if scale >= 1 and not crowded else TEXT
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
        label = labels[code]
        text(draw, (centre, label_y), label, size, bold=not crowded, fill=colour, anchor="ma")
