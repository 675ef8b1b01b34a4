"""Piquet's table: the declarations scored this deal and then the play (the pique with it), the
talons, the trick in progress and the last one, tricks won, the deal number and the scores;
once a deal is over, its breakdown until the next one begins."""

from __future__ import annotations

from typing import Final

from PIL import Image

import games
from games.piquet import PiquetView, declaration_text, hand_order
from games.words import Words
from rendering.canvas import (
    BAND_H,
    CAPTION_H,
    HEADER_H,
    LINE_H,
    MARGIN,
    TEXT,
    WIDTH,
    Draw,
    breakdown_height,
    canvas,
    caption,
    check_entries,
    deal_foot,
    footer_height,
    header,
    lines,
    news_breakdown,
    number,
    seat_band,
    stock,
    text,
    tricks,
)
from rendering.renderer import ExtraRow, GameRenderer, Names
from rendering.style import CARD_H, MUTED, SMALL

SMALL_H: Final = round(CARD_H * SMALL)
GAME: Final = games.get("piquet")
TALON_STEP: Final = 180
"""Room for each talon and the words under it."""
IN_PLAY: Final = ("pique", "cards", "capot")
"""Scores of the play, shown after the play's points, never among the declarations."""


def _check(view: PiquetView) -> None:
    check_entries(view["trick"])
    if view["last_trick"]:
        check_entries(view["last_trick"]["cards"])


def fresh(view: PiquetView) -> bool:
    """Nothing has happened yet in this deal: the last one's breakdown is still the news."""
    return view["phase"] == "discard" and view["exchanged"] == [None, None]


def _rows(view: PiquetView, names: Names, words: Words) -> list[tuple[str, str]]:
    """The declarations in the order said (piquet D5-D8), then each player's play points
    and the pique (piquet D9, D10), which come with the play."""
    declared = [entry for entry in view["declarations"] if entry["kind"] not in IN_PLAY]
    rows = [
        (
            f"{names[entry['seat']]}: {declaration_text(entry['kind'], entry['text'], words)}",
            number(entry["points"], words, signed=True),
        )
        for entry in declared
    ]
    if view["phase"] == "play" or view["phase"] == "over":
        for seat in (0, 1):
            said = sum(e["points"] for e in view["declarations"] if e["seat"] == seat)
            played = view["deal_scores"][seat] - said
            if played:
                what = words.gettext("{name}: in play").format(name=names[seat])
                rows.append((what, number(played, words, signed=True)))
        for entry in view["declarations"]:
            if entry["kind"] in IN_PLAY:
                said_as = declaration_text(entry["kind"], entry["text"], words)
                what = f"{names[entry['seat']]}: {said_as}"
                rows.append((what, number(entry["points"], words, signed=True)))
    return rows


def draw_table(view: PiquetView, names: Names, four_colour: bool, words: Words) -> Image.Image:
    _check(view)
    rows = _rows(view, names, words)
    history = view["deal_history"]
    ended = view.get("last_deal")
    news = fresh(view) or view["phase"] == "over"
    summary, last = news_breakdown(GAME, view, ended, news, names, words)
    # The breakdown of a deal tells its declarations and play again: said once, the picture
    # stays within a phone's proportions.
    declarations_h = 0 if summary else CAPTION_H + max(1, len(rows)) * LINE_H + 28
    middle_h = CAPTION_H + CARD_H + 2 * TEXT + 30
    panel_h = breakdown_height(summary, last is not None)
    height = HEADER_H + 12 + 2 * (BAND_H + 14) + declarations_h + middle_h + panel_h
    height += footer_height(history)
    image, draw = canvas(WIDTH, height)
    detail = words.gettext("deal {n} of {deals}").format(
        n=words.number(view["deal"]), deals=words.number(view["deals"])
    )
    header(draw, WIDTH, GAME.title_in(words), detail, view=view, names=names, words=words)
    y = HEADER_H + 12
    _band(draw, view, names, 0, y, words)
    y += BAND_H + 14
    if declarations_h:
        _declarations(draw, rows, y, declarations_h - 14, words)
        y += declarations_h
    _middle(image, draw, view, names, y, four_colour, words)
    y += middle_h
    _band(draw, view, names, 1, y, words)
    y += BAND_H + 14
    # piquet D1, D2: the deals so far show how the partie stands.
    deal_foot(image, draw, y, height, view, names, (summary, last), four_colour, words, GAME)
    return image


def _band(draw: Draw, view: PiquetView, names: Names, seat: int, y: int, words: Words) -> None:
    notes = []
    if view["to_move"] == seat:
        phase = view["phase"]
        notes.append(
            words.gettext("to discard") if phase == "discard" else words.gettext("to play")
        )
    notes.append(words.gettext("elder") if view["elder"] == seat else words.gettext("younger"))
    won = view["tricks_won"][seat]
    notes.append(words.ngettext("{n} trick", "{n} tricks", won).format(n=words.number(won)))
    notes.append(
        words.gettext("this deal {score}").format(score=number(view["deal_scores"][seat], words))
    )
    seat_band(draw, y, view, names, seat, notes, words)


def _declarations(
    draw: Draw, rows: list[tuple[str, str]], y: int, height: int, words: Words
) -> None:
    """What each player declared and scored, in the order it was said, then the play."""
    caption(draw, (MARGIN, y), words.gettext("declarations and play"))
    box = (MARGIN // 2, y + CAPTION_H, WIDTH - MARGIN // 2, y + height)
    lines(draw, rows or [(words.gettext("Nothing declared yet."), "")], box)


def _middle(
    image: Image.Image,
    draw: Draw,
    view: PiquetView,
    names: Names,
    y: int,
    four_colour: bool,
    words: Words,
) -> None:
    talons = view["talons"]
    exchanged = view["exchanged"]
    x = MARGIN
    labels = (words.pgettext("talon", "elder"), words.pgettext("talon", "younger"))
    for index, label in enumerate(labels):
        caption(draw, (x, y), label, max_width=TALON_STEP - 14)
        left = words.gettext("left")
        stock(image, draw, talons[index], (x, y + CAPTION_H), left, scale=SMALL, words=words)
        took = exchanged[index]
        if took is not None:
            shown = words.gettext("took {n}").format(n=words.number(took))
            top = y + CAPTION_H + SMALL_H + 8 + TEXT + 10
            text(draw, (x, top), shown, TEXT, fill=MUTED, max_width=TALON_STEP - 10)
        x += TALON_STEP
    tricks(image, draw, view, names, x + 10, y, four_colour, last_gap=30, words=words)


def _hand_extras(view: PiquetView, words: Words, owner: str | None) -> list[ExtraRow]:
    """The player's own discards, and the talon cards left that they may look at (piquet D3,
    D4): both count in their reckoning of what the opponent may hold."""
    if owner is None:
        discards = words.gettext("Your discards")
        seen = words.gettext("Talon cards you may see")
    else:
        discards = words.gettext("{name}’s discards").format(name=owner)
        seen = words.gettext("Talon cards {name} may see").format(name=owner)
    return [
        ExtraRow(discards, view.get("discarded", [])),
        ExtraRow(seen, view.get("talon_seen", [])),
    ]


def _hand_note(view: PiquetView, words: Words) -> str:
    role = (
        words.gettext("elder")
        if view.get("elder") == view.get("seat")
        else words.gettext("younger")
    )
    deal = words.gettext("deal {n} of {deals}").format(
        n=words.number(view.get("deal", 0)), deals=words.number(view.get("deals", 0))
    )
    return f"{deal} · {role}"


RENDERER: Final = GameRenderer(
    game="piquet",
    title="Piquet",
    table=draw_table,
    hand_extras=_hand_extras,
    hand_note=_hand_note,
    hand_order=hand_order,
)
