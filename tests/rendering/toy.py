"""The pictures of high card, the toy game of tests/games/toy.py: found beside the game's
rules, as rendering/<game>.py is beside games/<game>.py, once the game is registered. Its
table is the shared pieces of every table: the header, a band per player, the trick, the foot."""

from __future__ import annotations

from typing import Final

from PIL import Image

from games.words import Words
from rendering.canvas import (
    BAND_H,
    CAPTION_H,
    HEADER_H,
    MARGIN,
    WIDTH,
    canvas,
    caption,
    check_entries,
    footer,
    footer_height,
    header,
    seat_band,
    trick,
)
from rendering.faces import corners
from rendering.renderer import GameRenderer, Names
from rendering.style import CARD_H
from tests.games.toy import GAME, ToyView


def draw_table(view: ToyView, names: Names, four_colour: bool, words: Words) -> Image.Image:
    check_entries(view["trick"])
    history = view["history"]
    middle_h = CAPTION_H + CARD_H + 24
    height = HEADER_H + 12 + 2 * (BAND_H + 12) + middle_h + footer_height(history)
    image, draw = canvas(WIDTH, height)
    detail = GAME.goal_text(view["deals"], words)
    header(draw, WIDTH, GAME.title_in(words), detail, view=view, names=names, words=words)
    y = HEADER_H + 12
    for seat in (0, 1):
        count = len(view["taken"][seat]) // 2
        notes = [words.ngettext("{n} trick", "{n} tricks", count).format(n=words.number(count))]
        seat_band(draw, y, view, names, seat, notes, words)
        y += BAND_H + 12
        if seat == 0:
            caption(draw, (MARGIN, y), words.gettext("trick"))
            trick(
                image,
                draw,
                view["trick"],
                names,
                (MARGIN, y + CAPTION_H),
                four_colour=four_colour,
                slots=2,
                letters=corners(words),
            )
            y += middle_h
    label = words.gettext("Deals")
    footer(draw, view, names, height, history_label=label, history=history, words=words, game=GAME)
    return image


RENDERER: Final = GameRenderer(game=GAME.name, title=GAME.title, table=draw_table)
