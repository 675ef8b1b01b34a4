"""Le 5 As' table: each player's five expeditions in columns with their running scores, the
five discard piles between them (top card and size), the stock, the round and the scores."""

from __future__ import annotations

from typing import Final

from PIL import Image

import games
from games.cinq_as import BONUS_CARDS, EXPEDITION_SUITS, CinqAsView, hand_order
from games.words import Words
from rendering.canvas import (
    BAND_H,
    HEADER_H,
    MARGIN,
    TEXT,
    WIDTH,
    Draw,
    breakdown,
    breakdown_height,
    canvas,
    card,
    footer,
    footer_height,
    header,
    news_breakdown,
    number,
    score_chip,
    seat_band,
    slot,
    stock,
    text,
)
from rendering.faces import check_code, corners, dimmed_cutout, face_cutout
from rendering.renderer import GameRenderer, Names
from rendering.style import CARD_H, CARD_W, GOLD, MUTED

MARKERS: Final = {"S": "AS", "H": "AH", "D": "AD", "C": "AC", "T": "1T"}
"""The five aces laid out as the discard piles' markers."""

COLUMN: Final = 156
"""Horizontal distance between expedition columns."""
STEP: Final = 44
"""Vertical distance between cards of an expedition: each card's rank stays in view."""
CHIP_H: Final = 44
GAME: Final = games.get("cinq-as")


def _columns_x() -> list[int]:
    return [MARGIN + 8 + i * COLUMN for i in range(5)]


def _column_height(view: CinqAsView, seat: int) -> int:
    longest = max(len(view["expeditions"][seat][suit]) for suit in EXPEDITION_SUITS)
    return CARD_H + max(0, longest - 1) * STEP


def _section_height(view: CinqAsView, seat: int, columns: bool = True) -> int:
    if not columns:
        return BAND_H + 12
    return BAND_H + 12 + CHIP_H + 10 + _column_height(view, seat) + 16


def _check(view: CinqAsView) -> None:
    for exp in view["expeditions"]:
        for suit in EXPEDITION_SUITS:
            for code in exp[suit]:
                check_code(code)
    for suit in EXPEDITION_SUITS:
        for code in view["discards"][suit]:
            check_code(code)


def fresh(view: CinqAsView) -> bool:
    """Nothing has happened yet in this round: the last one's breakdown is still the news."""
    return (
        view["phase"] == "play"
        and view["hand_sizes"] == [8, 8]
        and not any(view["expeditions"][seat][suit] for seat in (0, 1) for suit in EXPEDITION_SUITS)
        and not any(view["discards"][suit] for suit in EXPEDITION_SUITS)
    )


def draw_table(view: CinqAsView, names: Names, four_colour: bool, words: Words) -> Image.Image:
    _check(view)
    middle_h = CARD_H + 2 * TEXT + 50
    history = view["round_scores"]
    ended = view.get("last_round")
    news = fresh(view) or view["phase"] == "over"
    summary, _ = news_breakdown(GAME, view, ended, news, names, words)
    panel_h = breakdown_height(summary, False)
    # While a round's breakdown is the news, it tells every expedition, its cards and its
    # arithmetic: the columns (those very cards once the match is over, empty places in a
    # round not yet begun) and the piles of a finished match would only make the picture
    # too tall for a phone, so each player keeps just their band.
    columns = not summary
    if view["phase"] == "over" and summary:
        middle_h = 0
    sections = _section_height(view, 0, columns) + _section_height(view, 1, columns)
    height = HEADER_H + 12 + sections + middle_h + panel_h + footer_height(history)
    image, draw = canvas(WIDTH, height)
    rounds = words.gettext("round {n} of {rounds}").format(
        n=words.number(view["round"]), rounds=words.number(view["rounds"])
    )
    header(draw, WIDTH, GAME.title_in(words), rounds, view=view, names=names, words=words)
    y = HEADER_H + 12
    for seat in (0, 1):
        if seat == 1 and middle_h:
            _middle(image, draw, view, y, four_colour, words)
            y += middle_h
        _section(image, draw, view, names, seat, y, four_colour, words, columns)
        y += _section_height(view, seat, columns)
    if ended is not None and summary:
        title = words.gettext("End of round {n}").format(n=words.number(ended["round"]))
        breakdown(image, draw, y, title, summary, None, names, four_colour, corners(words))
    footer(
        draw,
        view,
        names,
        height,
        history_label=words.gettext("Rounds so far"),
        history=history,
        words=words,
        game=GAME,
    )
    return image


def _section(
    image: Image.Image,
    draw: Draw,
    view: CinqAsView,
    names: Names,
    seat: int,
    y: int,
    four_colour: bool,
    words: Words,
    columns: bool = True,
) -> None:
    scores = view["expedition_scores"][seat]
    this_round = sum(scores[suit] for suit in EXPEDITION_SUITS)
    held = view["hand_sizes"][seat]
    notes = [
        words.ngettext("{n} card in hand", "{n} cards in hand", held).format(n=words.number(held)),
        words.gettext("this round {score}").format(score=number(this_round, words, signed=True)),
    ]
    if view["to_move"] == seat and view["phase"] != "over":
        phase = view["phase"]
        notes.insert(0, words.gettext("to draw") if phase == "draw" else words.gettext("to play"))
    seat_band(draw, y, view, names, seat, notes, words)
    if not columns:
        return
    y += BAND_H + 12
    letters = corners(words)
    for x, suit in zip(_columns_x(), EXPEDITION_SUITS, strict=True):
        cards = view["expeditions"][seat][suit]
        score = number(scores[suit], words, signed=True) if cards else "–"
        # Wider than the card, so the suit and a score of three figures keep apart.
        score_chip(draw, (x - 8, y, x + CARD_W + 8, y + CHIP_H), suit, score, four_colour)
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
                letters=letters,
            )


def _middle(
    image: Image.Image, draw: Draw, view: CinqAsView, y: int, four_colour: bool, words: Words
) -> None:
    """The discard piles, aligned under the expeditions of their colour, and the stock."""
    text(draw, (MARGIN, y + 2), words.gettext("discard piles"), TEXT, fill=MUTED)
    top = y + TEXT + 12
    letters = corners(words)
    for x, suit in zip(_columns_x(), EXPEDITION_SUITS, strict=True):
        pile = view["discards"][suit]
        marker = MARKERS[suit]
        if not pile:
            dimmed_cutout(marker, four_colour, letters=letters).lay(image, (x, top))
            empty = words.gettext("empty")
            text(
                draw,
                (x + CARD_W / 2, top + CARD_H + 6),
                empty,
                TEXT,
                fill=MUTED,
                anchor="ma",
                max_width=COLUMN - 8,
            )
            continue
        top_card = pile[-1]
        picture = face_cutout(top_card, four_colour, top_card in BONUS_CARDS, letters=letters)
        if top_card == view.get("just_discarded"):
            # cinq-as D3: the card just discarded cannot be drawn back this turn.
            draw.rounded_rectangle(
                (x - 4, top - 4, x + CARD_W + 3, top + CARD_H + 3), 12, outline=GOLD, width=4
            )
        picture.lay(image, (x, top))
        size = len(pile)
        count = words.ngettext("{n} card", "{n} cards", size).format(n=words.number(size))
        text(
            draw,
            (x + CARD_W / 2, top + CARD_H + 6),
            count,
            TEXT,
            bold=True,
            anchor="ma",
            max_width=COLUMN - 8,
        )
    stock(
        image,
        draw,
        view["stock"],
        (WIDTH - MARGIN - CARD_W, top),
        words.gettext("stock"),
        words=words,
        right=True,
    )


def _hand_note(view: CinqAsView, words: Words) -> str:
    return words.gettext("round {n} of {rounds}").format(
        n=words.number(view.get("round", 0)), rounds=words.number(view.get("rounds", 0))
    )


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
    hand_order=hand_order,
)
