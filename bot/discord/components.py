"""Buttons and select menus that outlive the process.

Every component carries what it needs in its ``custom_id`` (the match id, the move or the verb),
and discord.py's ``DynamicItem`` rebuilds it from a pattern after a restart, so a hand sent
yesterday still plays today. The callbacks only hand over to the bot's actions
(``bot.discord.host.Presses``); the rules stay in the service and the engines. A
``discord.ui.View`` is called buttons or components here: in Tapis a "view" is what a game
shows a seat.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from typing import Any, Self, cast

import discord

from bot.discord.host import host_of
from bot.service import wording
from bot.service.computer import DEFAULT_LEVEL, LEVELS, level_name
from games.moves import move_cards
from games.words import ENGLISH, Words

MAX_ROWS = 5
PER_ROW = 5
MAX_OPTIONS = 25
pretty = wording.pretty


class Rebuilt:
    """A component that outlives the process: discord.py rebuilds it from its ``custom_id``,
    whose template names its constructor's arguments. A part of digits alone is a number
    (an id, a version, a time); the words a custom id carries (moves, verbs, answers) never
    are."""

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        parts = match.groupdict()
        make: Callable[..., Self] = cls
        return make(**{name: int(v) if v.isdecimal() else v for name, v in parts.items()})

    async def callback(self, interaction: discord.Interaction) -> None:
        """Handle the press (``pressed``), then empty the components discord.py rebuilt
        around this one from the pressed message: they were made for this one press and
        nothing keeps them, but they and their items point at each other (see
        :func:`release`). They hold plain buttons too, so ``release`` would leave them be."""
        try:
            await self.pressed(interaction)
        finally:
            components = cast("discord.ui.Item[Any]", self).view
            if components is not None:
                components.clear_items()

    async def pressed(self, interaction: discord.Interaction) -> None:
        """What pressing it does."""
        raise NotImplementedError


def button(label: str, style: discord.ButtonStyle, *parts: object) -> discord.ui.Button[Any]:
    """A button whose ``custom_id`` is ``tapis`` then ``parts``, as its template reads them."""
    custom_id = ":".join(["tapis", *map(str, parts)])
    return discord.ui.Button(label=label[:80], style=style, custom_id=custom_id)


def buttons(*items: discord.ui.Item[Any]) -> discord.ui.View:
    """Components that never time out: they stay usable for as long as the message lives."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    return view


class MoveButton(
    Rebuilt,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tapis:move:(?P<match_id>[0-9]+):(?P<version>[0-9]+):(?P<move>.+)",
):
    """One legal move, played when pressed — if the match is still where it was drawn
    (``version``): an old hand's button must not play into a position never seen."""

    def __init__(self, match_id: int, version: int, move: str, label: str | None = None) -> None:
        style = discord.ButtonStyle.primary if move_cards(move) else discord.ButtonStyle.secondary
        super().__init__(button(label or pretty(move), style, "move", match_id, version, move))
        self.match_id = match_id
        self.version = version
        self.move = move

    async def pressed(self, interaction: discord.Interaction) -> None:
        actions = host_of(interaction).actions
        await actions.play(interaction, self.match_id, self.move, expected_version=self.version)


class PickSelect(
    Rebuilt,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"tapis:pick:(?P<match_id>[0-9]+):(?P<version>[0-9]+):(?P<verb>[a-z]*)",
):
    """A select menu: cards for one verb (several at once: discards, melds), or whole moves
    when ``verb`` is empty (too many moves for buttons)."""

    def __init__(
        self,
        match_id: int,
        version: int,
        verb: str,
        options: list[discord.SelectOption] | None = None,
        low: int = 1,
        high: int = 1,
        w: Words = ENGLISH,
    ) -> None:
        if not verb:
            placeholder = w.gettext("Choose your move")
        else:
            placeholder = w.ngettext(
                "{verb}: choose a card", "{verb}: choose up to {n} cards", high
            ).format(verb=verb, n=w.number(high))
        super().__init__(
            discord.ui.Select(
                custom_id=f"tapis:pick:{match_id}:{version}:{verb}",
                placeholder=placeholder,
                options=options or [discord.SelectOption(label="-")],
                min_values=low,
                max_values=high,
            )
        )
        self.match_id = match_id
        self.version = version
        self.verb = verb

    async def pressed(self, interaction: discord.Interaction) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        values = [card_of(str(value)) for value in data.get("values", [])]
        move = " ".join([self.verb, *values]) if self.verb else (values[0] if values else "")
        actions = host_of(interaction).actions
        await actions.play(interaction, self.match_id, move, expected_version=self.version)


class AnswerButton(
    Rebuilt,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tapis:(?P<answer>accept|decline):(?P<match_id>[0-9]+)",
):
    """Accept or decline a challenge, from the challenge message itself."""

    def __init__(self, match_id: int, answer: str, w: Words = ENGLISH) -> None:
        accept = answer == "accept"
        label = w.gettext("Accept") if accept else w.gettext("Decline")
        style = discord.ButtonStyle.success if accept else discord.ButtonStyle.danger
        super().__init__(button(label, style, answer, match_id))
        self.match_id = match_id
        self.answer = answer

    async def pressed(self, interaction: discord.Interaction) -> None:
        actions = host_of(interaction).actions
        if self.answer == "accept":
            await actions.accept(interaction, self.match_id)
        else:
            await actions.decline(interaction, self.match_id)


class RematchButton(
    Rebuilt,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tapis:rematch:(?P<match_id>[0-9]+)",
):
    """Another match against the same opponent, on the same terms."""

    def __init__(self, match_id: int, w: Words = ENGLISH) -> None:
        super().__init__(
            button(w.gettext("Rematch"), discord.ButtonStyle.primary, "rematch", match_id)
        )
        self.match_id = match_id

    async def pressed(self, interaction: discord.Interaction) -> None:
        await host_of(interaction).actions.rematch(interaction, self.match_id)


class LessonEndButton(
    Rebuilt,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tapis:learnt:(?P<choice>computer|easy|normal|strong|challenge):(?P<match_id>[0-9]+)",
):
    """Under a finished lesson: a real match against the computer in the same game, at the
    level pressed, or how to challenge someone to it. (``computer``, the normal level, is the
    button of lessons ended before there was a choice of level.)"""

    def __init__(self, match_id: int, choice: str, w: Words = ENGLISH) -> None:
        if choice == "challenge":
            label = w.gettext("Challenge someone")
            style = discord.ButtonStyle.secondary
        else:
            level = DEFAULT_LEVEL if choice == "computer" else choice
            label = w.gettext("Play the computer ({level})").format(level=level_name(level, w))
            style = discord.ButtonStyle.primary
        super().__init__(button(label, style, "learnt", choice, match_id))
        self.match_id = match_id
        self.choice = choice

    async def pressed(self, interaction: discord.Interaction) -> None:
        await host_of(interaction).actions.after_lesson(interaction, self.match_id, self.choice)


class HandButton(
    Rebuilt,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tapis:myhand:(?P<match_id>[0-9]+)",
):
    """Under a board in a conversation the bot is no member of: whoever presses it sees
    their own hand of that match, privately (a player's hand, never anyone else's)."""

    def __init__(self, match_id: int, w: Words = ENGLISH) -> None:
        super().__init__(
            button(w.gettext("My hand"), discord.ButtonStyle.secondary, "myhand", match_id)
        )
        self.match_id = match_id

    async def pressed(self, interaction: discord.Interaction) -> None:
        await host_of(interaction).actions.hand(interaction, self.match_id, "here")


class ResignButton(
    Rebuilt,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tapis:resign:(?P<answer>confirm|cancel):(?P<match_id>[0-9]+):(?P<user_id>[0-9]+)"
    r":(?P<asked>[0-9]+)",
):
    """Confirm or cancel a resignation asked with ``/resign``: for that player only, and only
    while the question is fresh (``asked``, unix seconds); it still works after a restart."""

    def __init__(
        self, match_id: int, user_id: int, asked: int, answer: str, w: Words = ENGLISH
    ) -> None:
        confirm = answer == "confirm"
        label = w.gettext("Resign") if confirm else w.gettext("Cancel")
        style = discord.ButtonStyle.danger if confirm else discord.ButtonStyle.secondary
        super().__init__(button(label, style, "resign", answer, match_id, user_id, asked))
        self.match_id = match_id
        self.user_id = user_id
        self.asked = asked
        self.answer = answer

    async def pressed(self, interaction: discord.Interaction) -> None:
        await host_of(interaction).actions.answer_resign(
            interaction, self.match_id, self.user_id, self.asked, self.answer == "confirm"
        )


class HintButton(
    Rebuilt,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tapis:hint:(?P<match_id>[0-9]+):(?P<version>[0-9]+)",
):
    """Under a hand where hints may be asked: the strong level's move and why, answered to
    the presser alone, as ``/hint`` answers (the service says who may have one, and when)."""

    def __init__(self, match_id: int, version: int, w: Words = ENGLISH) -> None:
        label = w.gettext("Hint")
        super().__init__(button(label, discord.ButtonStyle.secondary, "hint", match_id, version))
        self.match_id = match_id
        self.version = version

    async def pressed(self, interaction: discord.Interaction) -> None:
        await host_of(interaction).actions.hint(interaction, self.match_id)


DYNAMIC_ITEMS = (
    MoveButton,
    PickSelect,
    AnswerButton,
    RematchButton,
    ResignButton,
    HandButton,
    HintButton,
    LessonEndButton,
)


def hand_button(match_id: int, w: Words = ENGLISH) -> discord.ui.View:
    return buttons(HandButton(match_id, w))


def resign_buttons(match_id: int, user_id: int, asked: int, w: Words = ENGLISH) -> discord.ui.View:
    return buttons(
        ResignButton(match_id, user_id, asked, "confirm", w),
        ResignButton(match_id, user_id, asked, "cancel", w),
    )


def rematch_buttons(match_id: int, w: Words = ENGLISH) -> discord.ui.View:
    return buttons(RematchButton(match_id, w))


def lesson_end_buttons(match_id: int, w: Words = ENGLISH) -> discord.ui.View:
    """A button per level, easiest first, then the challenge's."""
    return buttons(
        *(LessonEndButton(match_id, level, w) for level in LEVELS),
        LessonEndButton(match_id, "challenge", w),
    )


def challenge_buttons(match_id: int, w: Words = ENGLISH) -> discord.ui.View:
    return buttons(AnswerButton(match_id, "accept", w), AnswerButton(match_id, "decline", w))


def move_buttons(
    match_id: int,
    version: int,
    legal: list[str],
    w: Words = ENGLISH,
    game: str = "",
    *,
    hint: bool = False,
) -> discord.ui.View | None:
    """Components for a player's legal moves, laid out within Discord's 5×5 limit.

    A verb whose moves name several cards (discards, melds) becomes one multi-select of the
    cards those moves use; the other moves become buttons, or one select menu when there are
    more than the remaining rows hold. Labels name the moves in the reader's words (``w``);
    the service validates whatever comes back.

    Every legal move can be picked: a card that a move names twice (Bézigue's two packs: the
    double bézigue, four jacks with both jacks of spades) is offered twice, the copies read
    alike and their values tell them apart (:func:`copy_values`). A verb whose cards would
    not fit one menu falls back to its whole moves.

    ``hint``: a Hint button too (hints may be asked in this match), room kept for it.
    """
    if not legal:
        return None
    components = discord.ui.View(timeout=None)
    multi_verbs = sorted({m.split()[0] for m in legal if len(move_cards(m)) > 1})
    rows_left = MAX_ROWS
    handled: set[str] = set()
    for verb in multi_verbs[: MAX_ROWS - 1]:
        moves = [m for m in legal if m.split()[0] == verb and move_cards(m)]
        values = copy_values(moves)
        if len(values) > MAX_OPTIONS:
            continue
        sizes = [len(move_cards(m)) for m in moves]
        options = [discord.SelectOption(label=pretty(card_of(v)), value=v) for v in values]
        components.add_item(PickSelect(match_id, version, verb, options, min(sizes), max(sizes), w))
        rows_left -= 1
        handled.update(moves)
    simple = [m for m in legal if m not in handled]
    room = rows_left * PER_ROW - hint  # the Hint button's place among the buttons
    if len(simple) <= room and all(len(m) <= 80 for m in simple):
        for move in simple:
            label = wording.move_text(game, move, w)
            components.add_item(MoveButton(match_id, version, move, label))
    elif simple and rows_left:
        options = [
            discord.SelectOption(label=wording.move_text(game, m, w)[:100], value=m) for m in simple
        ]
        components.add_item(PickSelect(match_id, version, "", options[:MAX_OPTIONS], w=w))
    if hint and len(components.children) < MAX_ROWS * PER_ROW:
        # Where every row is taken by menus there is no room: /hint still answers.
        with contextlib.suppress(ValueError):
            components.add_item(HintButton(match_id, version, w))
    return components if components.children else None


def release(components: discord.ui.View | None) -> None:
    """Let go of components once sent: their items are emptied out.

    Components and their items point at each other, so components dropped as they are wait
    for the cycle collector, and those that outlive its young passes wait for its pass over
    the oldest objects, which comes rarely in a long-running bot: with a hand sent after every
    move and components rebuilt for every press, they were a good share of what it freed.
    Once sent, components made only of ``DynamicItem``s are nothing to discord.py (it keeps
    their classes, to rebuild them from a press), nor to us. Any others are left alone:
    discord.py keeps them to dispatch their presses to.

    Whoever made the components releases them, after their last send: a DM that fails may be
    followed by the same components in a private answer.
    """
    if components is None:
        return
    if all(isinstance(item, discord.ui.DynamicItem) for item in components.children):
        components.clear_items()


COPY = "."  # between a card and the number of its copy, in a card menu's values


def copy_values(moves: list[str]) -> list[str]:
    """The values of a card menu from which each of ``moves`` can be picked: each card as
    many times as one move names it (``QS``, then ``QS.2`` for the other pack's), in the
    engine's order. Values must differ within a menu; the labels of the copies are alike."""
    copies: dict[str, int] = {}
    for move in moves:
        cards = move_cards(move)
        for card in cards:
            copies[card] = max(copies.get(card, 0), cards.count(card))
    order = legal_order(moves)
    return [
        card if n == 1 else f"{card}{COPY}{n}"
        for card in sorted(copies, key=order)
        for n in range(1, copies[card] + 1)
    ]


def card_of(value: str) -> str:
    """The card a card menu's value stands for, whichever copy it is."""
    return value.split(COPY, 1)[0]


def legal_order(moves: list[str]) -> Any:
    """Sort key keeping cards in the order the engine lists them (its canonical order)."""
    seen: dict[str, int] = {}
    for move in moves:
        for card in move_cards(move):
            seen.setdefault(card, len(seen))
    return lambda card: seen[card]
