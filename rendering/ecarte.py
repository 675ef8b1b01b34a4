"""Écarté's table: the turn-up (trump) and the stock, the trick in progress, each player's
tricks this hand, who bears the risk (ecarte D6/D7), the exchanges, and the scores; once a
hand is over, its breakdown until the next one begins."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from PIL import Image

import games
from games.cards import SUIT_SYMBOLS, suit_name
from games.ecarte import EcarteView, hand_order
from games.words import Words
from rendering.canvas import (
    BAND_H,
    CAPTION_H,
    HEADER_H,
    MARGIN,
    TEXT_BOLD,
    WIDTH,
    Draw,
    breakdown,
    breakdown_height,
    canvas,
    caption,
    card,
    check_entries,
    footer,
    footer_height,
    header,
    lines,
    number,
    seat_band,
    stock_and_turn_up,
    text,
    trick,
)
from rendering.faces import Corners, check_code, corners, size_of
from rendering.renderer import ExtraRow, GameRenderer, Names
from rendering.style import CARD_H, CARD_W, SMALL

TRICKS_SCALE: Final = SMALL
TRICKS_H: Final = round(CARD_H * SMALL) + 16
GAME: Final = games.get("ecarte")


def _phase(phase: str, words: Words) -> str:
    if phase == "propose":
        return words.gettext("to play or propose")
    if phase == "respond":
        return words.gettext("to accept or refuse")
    if phase == "discard":
        return words.gettext("to discard")
    return words.gettext("to play")


def _check(view: EcarteView) -> None:
    check_entries(view["trick"])
    for done in view["tricks"]:
        check_entries(done["cards"])
    if view["turn_up"] is not None:
        check_code(view["turn_up"])


def fresh(view: EcarteView) -> bool:
    """Nothing has happened yet in this hand: the last one's breakdown is still the news."""
    return (
        view["phase"] == "propose"
        and not view["proposals"]
        and not view["tricks"]
        and not view["trick"]
        and view["king"] is None
    )


def _summary(view: EcarteView, names: Names, words: Words) -> tuple[list[str], Any]:
    if view["phase"] != "over" and not fresh(view):
        return [], None
    summary = GAME.deal_summary(view, words, names)
    previous = view.get("previous_hand")
    if view["phase"] == "over":
        done = view["tricks"]
    else:
        done = previous["tricks"] if previous is not None else []
    return summary, (done[-1] if done else None)


def draw_table(view: EcarteView, names: Names, four_colour: bool, words: Words) -> Image.Image:
    _check(view)
    summary, last = _summary(view, names, words)
    panel_h = breakdown_height(summary, last is not None)
    middle_h = CAPTION_H + CARD_H + 56
    height = HEADER_H + 12 + 2 * (BAND_H + TRICKS_H + 16) + middle_h + panel_h + footer_height(())
    image, draw = canvas(WIDTH, height)
    detail = words.gettext("hand {n} · to {target} points").format(
        n=words.number(view["deal"]), target=words.number(view["target"])
    )
    header(draw, WIDTH, GAME.title_in(words), detail, view=view, names=names, words=words)
    y = HEADER_H + 12
    _player(image, draw, view, names, 0, y, four_colour, words)
    y += BAND_H + TRICKS_H + 16
    _middle(image, draw, view, names, y, four_colour, words)
    y += middle_h
    _player(image, draw, view, names, 1, y, four_colour, words)
    y += BAND_H + TRICKS_H + 16
    number_shown = view["deal"] if view["phase"] == "over" else view["deal"] - 1
    title = words.gettext("End of hand {n}").format(n=words.number(number_shown))
    breakdown(image, draw, y, title, summary, last, names, four_colour, corners(words))
    footer(draw, view, names, height, words=words, game=GAME)
    return image


def _notes(view: EcarteView, seat: int, words: Words) -> list[str]:
    notes = []
    if view["to_move"] == seat and view["phase"] != "over":
        notes.append(_phase(view["phase"], words))
    notes.append(words.gettext("dealer") if view["dealer"] == seat else words.gettext("elder"))
    count = view["hand_sizes"][seat]
    notes.append(words.ngettext("{n} card", "{n} cards", count).format(n=words.number(count)))
    if view["committed"] == seat:
        notes.append(words.gettext("bears the risk"))  # ecarte D6/D7
    if view["king"] == seat:
        notes.append(words.gettext("king announced"))
    return notes


def _player(
    image: Image.Image,
    draw: Draw,
    view: EcarteView,
    names: Names,
    seat: int,
    y: int,
    four_colour: bool,
    words: Words,
) -> None:
    score = f"{number(view['scores'][seat], words)} / {number(view['target'], words)}"
    seat_band(draw, y, view, names, seat, _notes(view, seat, words), words, score)
    won = [done for done in view["tricks"] if done["winner"] == seat]
    top = y + BAND_H + 10
    count = view["tricks_won"][seat]
    shown = words.gettext("Tricks: {n}").format(n=words.number(count))
    text(draw, (MARGIN, top + 4), shown, TEXT_BOLD, bold=True, max_width=190)
    if not won:
        return
    _won_tricks(image, won, MARGIN + 196, top, four_colour, corners(words))


def _won_tricks(
    image: Image.Image,
    won: Sequence[Mapping[str, Any]],
    x: int,
    y: int,
    four_colour: bool,
    letters: Corners,
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
                letters=letters,
            )
        x += w + w // 2 + 4 + 6


def _middle(
    image: Image.Image,
    draw: Draw,
    view: EcarteView,
    names: Names,
    y: int,
    four_colour: bool,
    words: Words,
) -> None:
    turn_x = stock_and_turn_up(image, draw, view, y, four_colour, words)
    trump = view["trump"]
    if trump:
        shown = words.gettext("Trumps: {suit}").format(suit=SUIT_SYMBOLS[trump])
        text(
            draw,
            (turn_x + CARD_W / 2, y + CAPTION_H + CARD_H + 10),
            shown,
            TEXT_BOLD,
            bold=True,
            anchor="ma",
        )
    trick_x = turn_x + CARD_W + 40
    caption(draw, (trick_x, y), words.gettext("trick"))
    trick(
        image,
        draw,
        view["trick"],
        names,
        (trick_x, y + CAPTION_H),
        four_colour=four_colour,
        slots=2,
        letters=corners(words),
    )
    rows = _exchange_rows(view, names, words)
    info_x = trick_x + 2 * (CARD_W + 14) + 6
    if rows:
        lines(draw, rows, (info_x, y + CAPTION_H, WIDTH - MARGIN // 2, y + CAPTION_H + CARD_H))


def _exchange_rows(view: EcarteView, names: Names, words: Words) -> list[tuple[str, str]]:
    """Proposals and exchanges this hand: counts only, the discarded cards stay hidden."""
    rows = []
    if view["proposals"]:
        rows.append((words.gettext("Proposals"), words.number(view["proposals"])))
    for exchange in view["exchanges"]:
        who = words.gettext("{name} exchanged").format(name=names[exchange["seat"]])
        rows.append((who, words.number(exchange["count"])))
    return rows[-4:]


def _hand_extras(view: EcarteView, words: Words, owner: str | None) -> list[ExtraRow]:
    """What this player discarded this hand: their own knowledge, never the opponent's."""
    if owner is None:
        title = words.gettext("Your discards this hand")
    else:
        title = words.gettext("{name}’s discards this hand").format(name=owner)
    return [ExtraRow(title, view.get("discarded", []))]


def _hand_note(view: EcarteView, words: Words) -> str:
    trump = view.get("trump")
    if trump not in SUIT_SYMBOLS:
        return ""
    return words.gettext("trumps: {suit}").format(
        suit=f"{SUIT_SYMBOLS[trump]} {suit_name(trump, words)}"
    )


RENDERER: Final = GameRenderer(
    game="ecarte",
    title="Écarté",
    table=draw_table,
    hand_extras=_hand_extras,
    hand_note=_hand_note,
    hand_order=hand_order,
)
