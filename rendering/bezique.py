"""Bézigue's table: the turn-up and trump, the stock, the trick in progress and the last one,
both players' melds lying on the table, the melds scored this deal (each with its suit),
brisques and scores; once a deal is over, its breakdown until the next one begins."""

from __future__ import annotations

from typing import Final

from PIL import Image

import games
from games.bezique import BeziqueView, hand_order, meld_text
from games.cards import SUIT_SYMBOLS, suit_name
from games.words import Words
from rendering.canvas import (
    BAND_H,
    CAPTION_H,
    HEADER_H,
    LINE_H,
    MARGIN,
    TEXT,
    TEXT_BOLD,
    WIDTH,
    Draw,
    breakdown_height,
    canvas,
    caption,
    check_entries,
    deal_foot,
    fan,
    footer_height,
    header,
    lines,
    news_breakdown,
    number,
    seat_band,
    stock_and_turn_up,
    text,
    tricks,
)
from rendering.faces import check_code, corners
from rendering.renderer import ExtraRow, GameRenderer, Names
from rendering.style import CARD_H, CARD_W, MUTED, SMALL

SMALL_H: Final = round(CARD_H * SMALL)
MELDED_H: Final = CAPTION_H + SMALL_H + 12
MELD_ROWS: Final = 4
"""The latest melds listed; earlier ones are in the scores already."""
GAME: Final = games.get("bezique")


def _check(view: BeziqueView) -> None:
    check_entries(view["trick"])
    if view["last_trick"]:
        check_entries(view["last_trick"]["cards"])
    for cards in view["table"]:
        for code in cards:
            check_code(code)
    if view["turn_up"] is not None:
        check_code(view["turn_up"])


def fresh(view: BeziqueView) -> bool:
    """Nothing has happened yet in this deal: the last one's breakdown is still the news."""
    return (
        view["tricks_won"] == [0, 0]
        and not view["trick"]
        and view["stage"] == 1
        and not any(m["name"] != "seven turned up" for m in view["melds"])
    )


def draw_table(view: BeziqueView, names: Names, four_colour: bool, words: Words) -> Image.Image:
    _check(view)
    rows = min(MELD_ROWS, max(1, len(view["melds"])))
    middle_h = CAPTION_H + CARD_H + TEXT + 30
    melded_h = [_melded_height(view, seat) for seat in (0, 1)]
    history = view.get("deal_history") or []  # views from older versions may lack it
    ended = view.get("last_deal")
    news = fresh(view) or view["phase"] == "over"
    summary, last = news_breakdown(GAME, view, ended, news, names, words)
    # While a deal's breakdown is the news, it counts the deal's melds: the list of melds
    # gives way to it (each band still tells its player's score this deal), so the picture
    # stays within a phone's proportions.
    melds_h = 0 if summary else CAPTION_H + rows * LINE_H + 30
    panel_h = breakdown_height(summary, last is not None)
    height = HEADER_H + 12 + 2 * (BAND_H + 10) + sum(melded_h) + middle_h + melds_h + panel_h
    height += footer_height(history)
    image, draw = canvas(WIDTH, height)
    if view["stage"] == 2:
        stage = words.gettext("stock exhausted: last tricks")
    else:
        stage = words.gettext("stock {n}").format(n=words.number(view["stock"]))
    detail = words.gettext("deal {n} · to {target} · {stage}").format(
        n=words.number(view["deal"]), target=words.number(view["target"]), stage=stage
    )
    header(draw, WIDTH, GAME.title_in(words), detail, view=view, names=names, words=words)
    y = HEADER_H + 12
    _band(draw, view, names, 0, y, words)
    _melded(image, draw, view, 0, y + BAND_H + 8, four_colour, words)
    y += BAND_H + melded_h[0] + 10
    _middle(image, draw, view, names, y, four_colour, words)
    y += middle_h
    _band(draw, view, names, 1, y, words)
    _melded(image, draw, view, 1, y + BAND_H + 8, four_colour, words)
    y += BAND_H + melded_h[1] + 10
    if melds_h:
        _melds(draw, view, names, y, melds_h - 10, words)
        y += melds_h
    deal_foot(image, draw, y, height, view, names, (summary, last), four_colour, words, GAME)
    return image


def _phase(phase: str, words: Words) -> str:
    if phase == "lead":
        return words.gettext("to lead")
    if phase == "follow":
        return words.gettext("to follow")
    return words.gettext("to meld or draw")


def _band(draw: Draw, view: BeziqueView, names: Names, seat: int, y: int, words: Words) -> None:
    notes = []
    if view["to_move"] == seat and view["phase"] != "over":
        notes.append(_phase(view["phase"], words))
    if view["dealer"] == seat:
        notes.append(words.gettext("dealer"))
    held = view["hand_sizes"][seat]
    notes.append(words.gettext("{n} in hand").format(n=words.number(held)))
    won = view["tricks_won"][seat]
    notes.append(words.ngettext("{n} trick", "{n} tricks", won).format(n=words.number(won)))
    brisques = view["brisques"][seat]  # bezique D9: 10 each at the end
    notes.append(
        words.ngettext("{n} brisque", "{n} brisques", brisques).format(n=words.number(brisques))
    )
    notes.append(
        words.gettext("this deal {score}").format(score=number(view["deal_scores"][seat], words))
    )
    seat_band(draw, y, view, names, seat, notes, words)


def _melded_height(view: BeziqueView, seat: int) -> int:
    return MELDED_H if view["table"][seat] else CAPTION_H + TEXT + 16


def _melded(
    image: Image.Image,
    draw: Draw,
    view: BeziqueView,
    seat: int,
    y: int,
    four_colour: bool,
    words: Words,
) -> None:
    """The cards a player has melded and not yet played: they lie face up, playable later."""
    cards = view["table"][seat]
    caption(draw, (MARGIN, y), words.gettext("on the table"))
    if not cards:
        text(draw, (MARGIN, y + CAPTION_H), words.gettext("No melded cards."), TEXT, fill=MUTED)
        return
    fan(
        image,
        sorted(cards, key=hand_order),
        (MARGIN, y + CAPTION_H),
        WIDTH - 2 * MARGIN,
        four_colour=four_colour,
        scale=SMALL,
        letters=corners(words),
    )


def _middle(
    image: Image.Image,
    draw: Draw,
    view: BeziqueView,
    names: Names,
    y: int,
    four_colour: bool,
    words: Words,
) -> None:
    turn_x = stock_and_turn_up(image, draw, view, y, four_colour, words)
    shown = words.gettext("Trumps: {suit}").format(suit=SUIT_SYMBOLS[view["trump"]])
    text(
        draw,
        (turn_x + CARD_W / 2, y + CAPTION_H + CARD_H + 10),
        shown,
        TEXT_BOLD,
        bold=True,
        anchor="ma",
    )
    tricks(image, draw, view, names, turn_x + CARD_W + 50, y, four_colour, last_gap=26, words=words)


def _melds(draw: Draw, view: BeziqueView, names: Names, y: int, height: int, words: Words) -> None:
    melds = view["melds"]
    count = len(melds)
    title = words.ngettext("{n} meld this deal", "{n} melds this deal", count).format(
        n=words.number(count)
    )
    caption(draw, (MARGIN, y), title)
    rows = [
        (
            f"{names[m['seat']]}: {meld_text(m['name'], m['cards'], words)}",
            number(m["points"], words, signed=True),
        )
        for m in melds[-MELD_ROWS:]
    ]
    lines(
        draw,
        rows or [(words.gettext("None yet."), "")],
        (MARGIN // 2, y + CAPTION_H, WIDTH - MARGIN // 2, y + height),
    )


def _hand_extras(view: BeziqueView, words: Words, owner: str | None) -> list[ExtraRow]:
    """A player's melded cards lie on the table but are still theirs to play."""
    seat = view["seat"]
    if seat is None:
        return []
    if owner is None:
        title = words.gettext("Your cards on the table")
    else:
        title = words.gettext("{name}’s cards on the table").format(name=owner)
    return [ExtraRow(title, view["table"][seat], playable=True)]


def _hand_note(view: BeziqueView, words: Words) -> str:
    trump = view.get("trump")
    if trump not in SUIT_SYMBOLS:
        return ""
    suit = f"{SUIT_SYMBOLS[trump]} {suit_name(trump, words)}"
    return words.gettext("trumps: {suit}").format(suit=suit)


RENDERER: Final = GameRenderer(
    game="bezique",
    title="Bézigue",
    table=draw_table,
    hand_extras=_hand_extras,
    hand_note=_hand_note,
    hand_order=hand_order,
)
