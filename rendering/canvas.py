"""The drawing kit every picture shares: felt, header, player bands, cards, piles, PNG.

Tables are built from these pieces so the four games look like one set: the same header, the
same band per player (name, score, who is to move), the same card sizes and labels.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, Final, NamedTuple

from PIL import Image, ImageDraw

from games.cards import SUIT_SYMBOLS
from games.core import Game
from games.phrases import result_lines
from games.words import ENGLISH, Words
from rendering import typeset
from rendering.encode import blank, blend, index_of
from rendering.faces import (
    ENGLISH_CORNERS,
    Corners,
    back_cutout,
    check_code,
    corners,
    face_cutout,
    size_of,
)
from rendering.fonts import chain_font, font
from rendering.style import (
    BLACK,
    CARD_H,
    CARD_PAPER,
    CARD_W,
    FELT,
    FELT_DARK,
    FELT_LINE,
    GOLD,
    INK,
    MUTED,
    RGB,
    SMALL,
    palette,
)

WIDTH: Final = 1000
"""Width of every table picture: Discord shows it whole on a phone, indices still legible."""
MARGIN: Final = 24
HEADER_H: Final = 68
BAND_H: Final = 104

# Text sizes, in pixels of the font's em. A phone shows a 1000-pixel picture 390 pixels wide,
# so the smallest text, 31, is 12.1 pixels there: the least that reads at arm's length.
TEXT: Final = 31
"""Every secondary word: notes, captions, names under cards, the footer."""
TEXT_BOLD: Final = 32
TEXT_LARGE: Final = 33
TITLE: Final = 36
CAPTION_H: Final = 40
"""Room a caption takes above what it names."""
LINE_H: Final = TEXT + 12
"""Distance between lines of a list or a breakdown."""


class Draw(ImageDraw.ImageDraw):
    """Pillow's drawing on a picture made by :func:`canvas`: on the fixed palette (mode "P"),
    so the picture needs no mapping of its pixels before it is encoded. Shapes take the
    palette index of their colour; words and cards are blended where they touch
    (``encode.blend``), exactly as on an RGB picture mapped afterwards."""

    def __init__(self, image: Image.Image) -> None:
        super().__init__(image)
        self.image = image
        if image.mode == "P":
            self.palette = _Inks()  # type: ignore[assignment]


class _Inks:
    """Stands for the picture's palette when Pillow looks up a shape's colour: the index the
    mapping would give that colour, never a new palette entry."""

    def getcolor(self, colour: tuple[int, ...], image: Image.Image | None = None) -> int:
        return index_of((colour[0], colour[1], colour[2]))


MINUS: Final = "\u2212"
"""The minus sign: a hyphen is too short to read as one, and "-20--2" reads as nothing."""


def number(value: int, words: Words = ENGLISH, *, signed: bool = False) -> str:
    """A score as the reader's language writes it (``words.number``: a true minus sign when
    negative, its own thousands separator), ``signed`` ones with + when above 0."""
    shown = words.number(value).replace("-", MINUS)
    return f"+{shown}" if signed and value > 0 else shown


def pair(first: int, second: int, words: Words = ENGLISH) -> str:
    """Two scores side by side, "−20 – −2": the spaced en dash cannot merge with a sign."""
    return f"{number(first, words)} – {number(second, words)}"


def canvas(width: int, height: int) -> tuple[Image.Image, Draw]:
    """A picture of the felt, on the fixed palette, and its :class:`Draw`."""
    image = blank(width, height, FELT)
    return image, Draw(image)


@lru_cache(maxsize=8192)
def _mask(
    face: int, size: int, bold: bool, words: str, anchor: str, start: tuple[float, float]
) -> tuple[Image.Image, tuple[int, int]]:
    """The coverage of ``words`` as drawn by Pillow at a point whose fractions are ``start``,
    and where its top left falls from that point's whole part. Rendering the glyphs is most of
    the cost of a word, and the same words (names, labels, card codes) recur in every picture."""
    mask, offset = chain_font(face, size, bold).getmask2(words, "L", anchor=anchor, start=start)
    return Image.Image()._new(mask), offset


def _words(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    words: str,
    face: int,
    size: int,
    bold: bool,
    fill: RGB,
    anchor: str,
) -> None:
    """Draw one run of one font, as ``draw.text`` would, from the cached glyphs."""
    x, y = xy
    start = (math.modf(x)[0], math.modf(y)[0])
    mask, (dx, dy) = _mask(face, size, bold, words, anchor, start)
    if not mask.width or not mask.height:
        return
    at = (int(x) + dx, int(y) + dy)
    image = getattr(draw, "image", None)
    if isinstance(image, Image.Image) and image.mode == "P":
        blend(image, at, fill, mask, (face, size, bold, words, anchor, start, fill))
    else:
        draw.bitmap(at, mask, fill=fill)


def text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    words: str,
    size: int = 24,
    *,
    bold: bool = False,
    fill: RGB = INK,
    anchor: str = "la",
    max_width: int | None = None,
) -> float:
    """Draw ``words`` on one line (shortened with … to ``max_width``); return the width drawn.

    Any script draws (``rendering.typeset``): each run of characters in the first font of the
    chain that has them, right-to-left runs reversed, a stand-in for what no font has."""
    line = _line(words, size, bold, max_width)
    if line.single is not None:
        # One font: Pillow places the anchor itself, exactly as for the project's own words.
        _words(draw, xy, line.single, 0, size, bold, fill, anchor)
        return line.width
    if not line.parts:
        return 0.0
    x = xy[0] - {"l": 0.0, "m": line.width / 2, "r": line.width}[anchor[0]]
    # Runs of different fonts share the first font's baseline, found from the anchor asked.
    ascent, descent = font(size, bold).getmetrics()
    baseline = (
        xy[1]
        + {
            "a": ascent,
            "t": ascent,
            "m": (ascent - descent) / 2,
            "s": 0,
            "b": -descent,
            "d": -descent,
        }[anchor[1]]
    )
    for face, part, offset in line.parts:
        _words(draw, (x + offset, baseline), part, face, size, bold, fill, "ls")
    return line.width


class _Line(NamedTuple):
    """Words made ready to draw: cleaned, shortened to fit, cut into runs and placed."""

    single: str | None
    """The words when the first font draws them all, placed by Pillow from the anchor."""
    parts: tuple[tuple[int, str, float], ...]
    """Otherwise (face, words, x from the line's left) of each piece, drawn on the baseline."""
    width: float


@lru_cache(maxsize=8192)
def _line(words: str, size: int, bold: bool, max_width: int | None) -> _Line:
    """The layout of ``words``, worked out once: the same names, labels and codes are drawn in
    picture after picture, and cleaning, fitting and measuring them cost more than drawing."""
    words = typeset.clean(words, bold)
    if max_width is not None:
        words = typeset.fit(words, size, max_width, bold)
    pieces = typeset.runs(words, bold)
    if not pieces:
        return _Line(None, (), 0.0)
    if len(pieces) == 1 and pieces[0].face == 0 and not typeset.has_placed_marks(words):
        shown = pieces[0].words  # in display order: right-to-left runs already reversed
        # Measured as on an RGB picture (anti-aliased glyphs), whatever the picture's mode.
        return _Line(shown, (), font(size, bold).getlength(shown, "L"))
    parts = []
    x = 0.0
    for piece in pieces:
        run_font = chain_font(piece.face, size, bold)
        for part, offset in typeset.layout(piece.words, run_font):
            parts.append((piece.face, part, x + offset))
        x += run_font.getlength(piece.words)
    return _Line(None, tuple(parts), typeset.width(pieces, size, bold))


def fit(words: str, size: int, max_width: int, bold: bool = False) -> str:
    """``words``, or the longest start of them that fits with "…" after it, by drawn width."""
    return typeset.fit(typeset.clean(words, bold), size, max_width, bold)


def header(
    draw: Draw,
    width: int,
    title: str,
    detail: str,
    *,
    view: Mapping[str, Any] | None = None,
    names: Sequence[str] = (),
    urgent: bool = False,
    note: str = "",
    words: Words = ENGLISH,
) -> None:
    """The band on top of every table: the game on the left, where the match stands right;
    once the match is over (``view["result"]`` set), who won, in gold. ``urgent`` details
    (the player's turn) are gold too. A ``note`` follows the title in grey."""
    draw.rectangle((0, 0, width, HEADER_H), fill=FELT_DARK)
    draw.line((0, HEADER_H, width, HEADER_H), fill=FELT_LINE, width=2)
    title_w = text(draw, (MARGIN, HEADER_H / 2), title, TITLE, bold=True, anchor="lm")
    if note:
        note = f" · {note}"
        title_w += text(
            draw,
            (MARGIN + title_w, HEADER_H / 2 + 2),
            note,
            TEXT,
            fill=MUTED,
            anchor="lm",
            max_width=int(width - 2 * MARGIN - title_w),
        )
    room = int(width - 2 * MARGIN - title_w - 24)
    result = view.get("result") if view is not None else None
    if result is not None and names:
        ending = " ".join(result_lines(result, names, words)).rstrip(".")
        text(
            draw,
            (width - MARGIN, HEADER_H / 2),
            ending,
            TEXT_BOLD,
            bold=True,
            fill=GOLD,
            anchor="rm",
            max_width=room,
        )
        return
    text(
        draw,
        (width - MARGIN, HEADER_H / 2),
        detail,
        TEXT,
        bold=urgent,
        fill=GOLD if urgent else MUTED,
        anchor="rm",
        max_width=room,
    )


def seat_band(
    draw: Draw,
    y: int,
    view: Mapping[str, Any],
    names: Sequence[str],
    seat: int,
    notes: Sequence[str],
    words: Words,
    score: str | None = None,
) -> None:
    """``seat``'s band on a table, read from its view: the name, the match score (unless the
    game shows its own ``score``), the turn, and the game's ``notes``."""
    shown = number(view["scores"][seat], words) if score is None else score
    player_band(draw, y, WIDTH, names[seat], shown, to_move=view["to_move"] == seat, notes=notes)


def player_band(
    draw: Draw,
    y: int,
    width: int,
    name: str,
    score: str,
    *,
    to_move: bool,
    notes: Sequence[str] = (),
) -> None:
    """One player's band: name (gold with ▶ when it is their turn) and score on top, their
    notes on a line of their own below, where every language's words have the width."""
    draw.rounded_rectangle((MARGIN // 2, y, width - MARGIN // 2, y + BAND_H), 10, fill=FELT_DARK)
    colour = GOLD if to_move else INK
    x: float = MARGIN
    top = y + 10
    if to_move:
        x += text(draw, (x, top), "▶ ", TEXT_LARGE, bold=True, fill=GOLD)
    score_w = text(draw, (width - MARGIN, top - 2), score, TITLE, bold=True, anchor="ra")
    text(
        draw,
        (x, top),
        name,
        TEXT_LARGE,
        bold=True,
        fill=colour,
        max_width=int(width - MARGIN - score_w - 18 - x),
    )
    if not notes:
        return
    # The notes have a line of their own; when a language's words need more, the first ones
    # (the turn, the dealer) join the name on the top line, where there is room beside it.
    room = width - 2 * MARGIN
    below = list(notes)
    beside: list[str] = []
    name_w = typeset.width(typeset.runs(name, True), TEXT_LARGE, True)
    while len(below) > 1 and _width(" · ".join(below)) > room:
        wanted = _width(" · " + " · ".join([*beside, below[0]]))
        if x + name_w + wanted > width - MARGIN - score_w - 18:
            break
        beside.append(below.pop(0))
    if beside:
        after = x + min(name_w, width - MARGIN - score_w - 18 - x)
        text(draw, (after, top + 2), " · " + " · ".join(beside), TEXT, fill=MUTED)
    text(draw, (MARGIN, top + TEXT_LARGE + 12), " · ".join(below), TEXT, fill=MUTED, max_width=room)


def _width(words: str) -> float:
    """The drawn width of secondary words (:data:`TEXT`)."""
    return typeset.width(typeset.runs(words), TEXT)


def card(
    image: Image.Image,
    code: str,
    xy: tuple[int, int],
    *,
    four_colour: bool,
    scale: float = 1.0,
    bonus: bool = False,
    letters: Corners = ENGLISH_CORNERS,
) -> None:
    """The face of ``code`` laid at ``xy``, its corner letter the reader's (``letters``)."""
    face_cutout(check_code(code), four_colour, bonus, scale, letters).lay(image, xy)


def card_back(image: Image.Image, xy: tuple[int, int], scale: float = 1.0) -> None:
    back_cutout(scale).lay(image, xy)


def fan(
    image: Image.Image,
    codes: Sequence[str],
    xy: tuple[int, int],
    max_width: int,
    *,
    four_colour: bool,
    scale: float = 1.0,
    gap: int = 8,
    letters: Corners = ENGLISH_CORNERS,
) -> int:
    """Cards side by side, overlapping just enough to fit ``max_width``; returns width used."""
    if not codes:
        return 0
    w, _ = size_of(scale)
    step = fan_step(len(codes), w, max_width, gap)
    x, y = xy
    for i, code in enumerate(codes):
        card(image, code, (x + i * step, y), four_colour=four_colour, scale=scale, letters=letters)
    return step * (len(codes) - 1) + w


def fan_step(count: int, card_w: int, max_width: int, gap: int) -> int:
    """Distance between cards laid in a row: ``card_w + gap``, less if the row must shrink."""
    if count <= 1:
        return card_w + gap
    return max(1, min(card_w + gap, (max_width - card_w) // (count - 1)))


def stock(
    image: Image.Image,
    draw: Draw,
    count: int,
    xy: tuple[int, int],
    label: str,
    scale: float = 1.0,
    words: Words = ENGLISH,
    *,
    right: bool = False,
    named_above: bool = False,
) -> None:
    """A face-down pile showing its size: up to three backs, offset, and "label: n" under it
    (just n when the pile is ``named_above``, by a caption)."""
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ValueError(f"{label} must be a whole number of cards, not {count!r}")
    x, y = xy
    w, h = size_of(scale)
    if count:
        for i in range(min(count, 3) - 1, -1, -1):
            card_back(image, (x + i * 3, y - i * 3), scale)
    else:
        slot(draw, (x, y, x + w, y + h))
    shown = (
        words.number(count)
        if named_above
        else words.gettext("{label}: {n}").format(label=label, n=words.number(count))
    )
    # Aligned with the pile's outer edge, so a long word never runs off the picture.
    room = max(w + 80, 150)
    if right:
        text(draw, (x + w, y + h + 8), shown, TEXT_BOLD, bold=True, anchor="ra", max_width=room)
    else:
        text(draw, (x, y + h + 8), shown, TEXT_BOLD, bold=True, max_width=room)


def slot(draw: Draw, box: tuple[int, int, int, int]) -> None:
    """The outline of an empty place for a card."""
    draw.rounded_rectangle(box, 9, outline=FELT_LINE, width=3)


def score_chip(
    draw: Draw, box: tuple[int, int, int, int], suit: str, score: str, four_colour: bool
) -> None:
    """A paper label over a column: the suit symbol in its ink, then a score."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, 8, fill=CARD_PAPER)
    middle = (y0 + y1) / 2
    ink = palette(four_colour).ink(suit)
    text(draw, (x0 + 8, middle), SUIT_SYMBOLS[suit], TEXT_BOLD, fill=ink, anchor="lm")
    text(draw, (x1 - 8, middle), score, TEXT_BOLD, bold=True, fill=BLACK, anchor="rm")


FOOTER_LINE: Final = TEXT + 14


def footer_height(history: Sequence[Sequence[int]]) -> int:
    """Room for the foot of a table: the last move, and the history line when there is one."""
    return 20 + FOOTER_LINE * (2 if history else 1)


def footer(
    draw: Draw,
    view: Mapping[str, Any],
    names: Sequence[str],
    height: int,
    *,
    history_label: str = "",
    history: Sequence[Sequence[int]] = (),
    words: Words = ENGLISH,
    game: Game | None = None,
) -> None:
    """The foot of a table: the points of each finished deal or round, then who did what last
    (the move in players' words, as ``game`` describes it). When the deals do not all fit,
    the newest are kept: they tell how the match stands now."""
    y = height - footer_height(history) + 10
    room = WIDTH - 2 * MARGIN
    if history:
        head = words.gettext("{label} ({first} – {second}):").format(
            label=history_label, first=names[0], second=names[1]
        )
        scores = [pair(a, b, words) for a, b in history]
        shown = f"{head} {' · '.join(scores)}"
        while len(scores) > 1 and typeset.width(typeset.runs(shown), TEXT) > room:
            scores.pop(0)
            shown = f"{head} … {' · '.join(scores)}"
        text(draw, (MARGIN, y), shown, TEXT, fill=MUTED, max_width=room)
        y += FOOTER_LINE
    last = view.get("last_move")
    if last:
        shown = words.gettext("Last move, {name}: {move}").format(
            name=names[last["seat"]],
            move=game.describe(last["move"], words) if game else last["move"],
        )
        text(draw, (MARGIN, y), shown, TEXT, fill=MUTED, max_width=room)


def trick(
    image: Image.Image,
    draw: Draw,
    entries: Sequence[Mapping[str, Any]],
    names: Sequence[str],
    xy: tuple[int, int],
    *,
    four_colour: bool,
    scale: float = 1.0,
    winner: int | None = None,
    slots: int = 0,
    letters: Corners = ENGLISH_CORNERS,
) -> int:
    """Cards of a trick in play order, each with its player's name under it; the winner's card
    outlined in gold. ``slots`` empty places are drawn when fewer cards have been played.
    Returns the width used."""
    w, h = size_of(scale)
    step = w + 14
    x, y = xy
    for i in range(max(len(entries), slots)):
        left = x + i * step
        if i >= len(entries):
            slot(draw, (left, y, left + w, y + h))
            continue
        entry = entries[i]
        seat = entry["seat"]
        if winner is not None and seat == winner:
            draw.rounded_rectangle(
                (left - 4, y - 4, left + w + 3, y + h + 3), 12, outline=GOLD, width=4
            )
        card(image, entry["card"], (left, y), four_colour=four_colour, scale=scale, letters=letters)
        text(
            draw,
            (left + w / 2, y + h + 6),
            names[seat],
            TEXT,
            bold=seat == winner,
            fill=GOLD if seat == winner else INK,
            anchor="ma",
            max_width=step - 4,
        )
    return step * max(len(entries), slots, 1) - 14


def stock_and_turn_up(
    image: Image.Image,
    draw: Draw,
    view: Mapping[str, Any],
    y: int,
    four_colour: bool,
    words: Words = ENGLISH,
) -> int:
    """The stock at the left margin and the turn-up beside it (its empty place once taken);
    returns the turn-up's x. Games with a turn-up (Bézigue, Écarté) lay them alike.

    The stock is named above it like the turn-up, its size alone under it: the line under the
    cards stays free for the words under the turn-up (the trumps)."""
    label = words.gettext("stock")
    caption(draw, (MARGIN, y), label, max_width=CARD_W + 60)
    stock(image, draw, view["stock"], (MARGIN, y + CAPTION_H), label, words=words, named_above=True)
    turn_x = MARGIN + CARD_W + 90
    caption(draw, (turn_x, y), words.gettext("turn-up"), max_width=CARD_W + 40)
    if view["turn_up"]:
        card(
            image,
            view["turn_up"],
            (turn_x, y + CAPTION_H),
            four_colour=four_colour,
            letters=corners(words),
        )
    else:
        slot(draw, (turn_x, y + CAPTION_H, turn_x + CARD_W, y + CAPTION_H + CARD_H))
    return turn_x


def tricks(
    image: Image.Image,
    draw: Draw,
    view: Mapping[str, Any],
    names: Sequence[str],
    x: int,
    y: int,
    four_colour: bool,
    last_gap: int,
    words: Words = ENGLISH,
) -> None:
    """The trick in progress at ``x`` and, ``last_gap`` pixels after its two places, the last
    trick won (smaller, its winner marked) when there is one."""
    caption(draw, (x, y), words.gettext("trick"), max_width=2 * CARD_W + 20)
    letters = corners(words)
    trick(
        image,
        draw,
        view["trick"],
        names,
        (x, y + CAPTION_H),
        four_colour=four_colour,
        slots=2,
        letters=letters,
    )
    last = view["last_trick"]
    if last:
        last_x = x + 2 * (CARD_W + 14) + last_gap
        caption(draw, (last_x, y), words.gettext("last trick"))
        trick(
            image,
            draw,
            last["cards"],
            names,
            (last_x, y + CAPTION_H),
            four_colour=four_colour,
            scale=SMALL,
            winner=last["winner"],
            letters=letters,
        )


def caption(
    draw: Draw, xy: tuple[float, float], words: str, max_width: int = WIDTH - 2 * MARGIN
) -> None:
    """A grey title over a part of the table ("trick", "turn-up", "melds")."""
    text(draw, xy, words, TEXT, fill=MUTED, max_width=max_width)


def lines(
    draw: Draw,
    rows: Sequence[tuple[str, str]],
    box: tuple[int, int, int, int],
    *,
    size: int = TEXT,
) -> None:
    """A two-column list (words left, figure right) in a dark panel, the latest rows last."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, 10, fill=FELT_DARK)
    line_h = size + 12
    for i, (words, figure) in enumerate(rows):
        y = y0 + 10 + i * line_h
        if y + line_h > y1:
            break
        figure_w = text(draw, (x1 - 14, y), figure, size, bold=True, anchor="ra")
        text(draw, (x0 + 14, y), words, size, max_width=int(x1 - x0 - 40 - figure_w))


def check_entries(entries: Sequence[Mapping[str, Any]]) -> None:
    for entry in entries:
        check_code(entry["card"])
        if entry["seat"] not in (0, 1):
            raise ValueError(f"a trick entry's seat is 0 or 1, not {entry['seat']!r}")


def wrap(words: str, size: int, max_width: int, bold: bool = False) -> list[str]:
    """``words`` cut into lines no wider than ``max_width``, between words; a single word
    too long for a line is shortened with "…" when drawn."""
    lines_out: list[str] = []
    line = ""
    for word in typeset.clean(words, bold).split(" "):
        candidate = f"{line} {word}" if line else word
        if line and typeset.width(typeset.runs(candidate, bold), size, bold) > max_width:
            lines_out.append(line)
            line = word
        else:
            line = candidate
    if line:
        lines_out.append(line)
    return lines_out


BREAKDOWN_TRICK_W: Final = 2 * (round(CARD_W * SMALL) + 14) + 20
"""Room kept right of a breakdown for the deal's last trick."""


def breakdown_lines(summary: Sequence[str], with_trick: bool) -> list[str]:
    """The lines of a breakdown panel once each sentence is wrapped to the panel's width."""
    room = WIDTH - 2 * MARGIN - 28 - (BREAKDOWN_TRICK_W if with_trick else 0)
    return [line for sentence in summary for line in wrap(sentence, TEXT, room)]


def news_breakdown(
    game: Game,
    view: Mapping[str, Any],
    ended: Mapping[str, Any] | None,
    news: bool,
    names: Sequence[str],
    words: Words,
) -> tuple[list[str], Mapping[str, Any] | None]:
    """The breakdown of the deal that ended last (``ended``, from the view) and its last trick,
    while it is still the ``news`` (nothing played since, or the match over); else nothing.
    The trick is left out while the table shows it already as its last trick: said once, the
    picture stays within a phone's proportions."""
    if ended is None or not news:
        return [], None
    last = None if view.get("last_trick") else ended.get("last_trick")
    return game.deal_summary(view, words, names), last


def deal_foot(
    image: Image.Image,
    draw: Draw,
    y: int,
    height: int,
    view: Mapping[str, Any],
    names: Sequence[str],
    news: tuple[Sequence[str], Mapping[str, Any] | None],
    four_colour: bool,
    words: Words,
    game: Game,
) -> None:
    """The foot of a table of a game played in deals (Bézigue, Piquet): from ``y``, the last
    deal's breakdown and last trick while they are the ``news`` (see :func:`news_breakdown`),
    then the deals so far and the last move."""
    ended = view.get("last_deal")
    summary, last = news
    if ended is not None and summary:
        title = words.gettext("End of deal {n}").format(n=words.number(ended["deal"]))
        breakdown(image, draw, y, title, summary, last, names, four_colour, corners(words))
    history = view.get("deal_history") or []  # views from older versions may lack it
    label = words.gettext("Deals so far")
    footer(draw, view, names, height, history_label=label, history=history, words=words, game=game)


def breakdown_height(summary: Sequence[str], with_trick: bool) -> int:
    """The height :func:`breakdown` takes (0 without a breakdown)."""
    if not summary:
        return 0
    shown = len(breakdown_lines(summary, with_trick)) * LINE_H + 20
    if with_trick:
        shown = max(shown, round(CARD_H * SMALL) + TEXT + 40)
    return CAPTION_H + shown + 12


def breakdown(
    image: Image.Image,
    draw: Draw,
    y: int,
    title: str,
    summary: Sequence[str],
    last_trick: Mapping[str, Any] | None,
    names: Sequence[str],
    four_colour: bool,
    letters: Corners = ENGLISH_CORNERS,
) -> int:
    """The end of a deal as its rules score it (the game's ``deal_summary``), in a panel under
    ``title``, with the deal's last trick on its right; returns the height used."""
    height = breakdown_height(summary, last_trick is not None)
    if not height:
        return 0
    caption(draw, (MARGIN, y), title)
    top = y + CAPTION_H
    draw.rounded_rectangle(
        (MARGIN // 2, top, WIDTH - MARGIN // 2, y + height - 12), 10, fill=FELT_DARK
    )
    for i, line in enumerate(breakdown_lines(summary, last_trick is not None)):
        text(draw, (MARGIN + 4, top + 10 + i * LINE_H), line, TEXT, max_width=WIDTH - 2 * MARGIN)
    if last_trick is not None:
        x = WIDTH - MARGIN - BREAKDOWN_TRICK_W + 20
        trick(
            image,
            draw,
            last_trick["cards"],
            names,
            (x, top + 12),
            four_colour=four_colour,
            scale=SMALL,
            winner=last_trick["winner"],
            letters=letters,
        )
    return height
