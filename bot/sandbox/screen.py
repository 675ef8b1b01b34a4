"""What the sandbox shows: a view told in sentences as a host tells it at the table, the
deliveries of a move in the order a terminal tells the story, the moves open numbered in the
hand picture's order, and the pictures, when the renderer draws them, written as PNG files."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import games
from bot.sandbox.terminal import Write
from bot.service import Delivery, MatchService, wording
from bot.service.computer import NAME
from games.cards import sort_key
from games.moves import move_cards
from games.phrases import cards_text, last_trick, trick_won_text
from games.words import ENGLISH, Words

MAX_NUMBERED = 40  # moves listed with a number at most: the others are typed out


def pictures() -> tuple[Callable[..., bytes], Callable[..., bytes]] | None:
    """The renderer's hand and table functions, if this version of it has them."""
    try:
        import rendering
    except ImportError:
        return None
    hand, table = getattr(rendering, "hand_png", None), getattr(rendering, "table_png", None)
    return (hand, table) if callable(hand) and callable(table) else None


def hand_order(view: Mapping[str, Any]) -> Callable[[str], Any]:
    """The order the hand picture shows a game's cards in (Piquet's from the ace down), so
    that the text lists them, and numbers the moves, as the picture does."""
    try:
        from rendering.registry import renderer_for
    except ImportError:
        return sort_key
    try:
        return renderer_for(view).hand_order
    except ValueError:
        return sort_key


def picture_cards(view: Mapping[str, Any]) -> list[str]:
    """The cards of the hand picture in its order: the hand, then the rows under it
    (Bézigue's cards laid out on the table), so that moves are numbered as they are seen."""
    try:
        from rendering import hand_scene
    except ImportError:
        return sorted(view.get("hand") or [], key=hand_order(view))
    try:
        scene = hand_scene(view)
    except ValueError:
        return sorted(view.get("hand") or [], key=hand_order(view))
    return [*scene.hand, *(card for _title, cards, _playable in scene.extras for card in cards)]


def describe(
    view: Mapping[str, Any],
    w: Words = ENGLISH,
    names: tuple[str, str] = (NAME, NAME),
    *,
    table: bool = True,
) -> str:
    """A view as a host tells it at the table: what lies on it (trumps, the stock, the trick,
    who took the last one, melds and declarations, in the game's own words), the score, then
    the reader's hand in the picture's order. Players are named, never seats; the reader's
    own cards are shown only in their own view."""
    lines = table_facts(view, w, names) if table else []
    scores = view.get("scores") or [0, 0]
    lines.append(
        w.gettext("Score: {first} {score} {second}.").format(
            first=names[0], score=wording.score(scores[0], scores[1], w), second=names[1]
        )
    )
    if view.get("seat") in (0, 1):
        hand = sorted(view.get("hand") or [], key=hand_order(view))
        lines.append(
            w.gettext("Your hand: {cards}").format(
                cards=cards_text(hand, w) if hand else w.gettext("none")
            )
        )
    return "\n".join(lines)


def table_facts(view: Mapping[str, Any], w: Words, names: tuple[str, str]) -> list[str]:
    """What lies on the table, one sentence a line, in the game's own words (see
    :meth:`games.core.Game.table_text`), and who took the last trick while no other is on."""
    lines = []
    name = view.get("game")
    if isinstance(name, str) and name in games.names():
        lines += games.get(name).table_text(view, w, names)
    trick = last_trick(view)
    if trick is not None and not view.get("trick"):
        lines.append(trick_won_text(trick, names, w))
    return lines


class Screen:
    """What the player sees: each delivery told as a host tells it at the table, the moves
    open to them numbered, and the pictures written to the folder.

    It remembers, in each match, what the player last held and the last trick told (the
    cards that came since are the cards drawn, a trick not told yet is news) and the table's
    facts last told, so that a host says a thing again only when it changes.
    """

    def __init__(
        self,
        service: MatchService,
        *,
        human_id: int,
        computer_name: str,
        folder: Path,
        write: Write,
        w: Words,
    ) -> None:
        self.service = service
        self.human_id = human_id
        self.computer_name = computer_name  # the opponent's name where a delivery has none
        self.folder = folder
        self.write = write
        self.w = w
        self.pictures = pictures()
        self.four_colour = False
        self.held: dict[int, tuple[Any, list[str]]] = {}
        self.told: dict[int, Any] = {}
        self.news: set[str] = set()  # the lines just told of the table, not to be repeated
        self.facts: dict[int, set[str]] = {}  # the table's facts last told, by match

    async def deliver(self, deliveries: list[Delivery], *, full: bool = False) -> None:
        """Show what Discord would show this player, as a host tells it at a table: the news
        of each move (who played what, who took the trick, a deal's breakdown), and their own
        hand with the table in words when it is their turn or when ``full`` (asked for).

        The challenge is not told: the computer takes it up at once, and its words are
        Discord's (buttons to press)."""
        self.news = set()
        for delivery in story_order(deliveries):
            if delivery.to not in (None, self.human_id) or delivery.status == "challenge":
                continue  # the computer's hand stays hidden, as on Discord
            if delivery.kind in ("notice", "dm"):
                self.write(f"» {delivery.text}")
            elif delivery.kind == "board" and delivery.view is not None:
                await self.picture(delivery, "table.png")
                self.board(delivery, full=full)
            elif delivery.kind == "hand" and delivery.view is not None:
                await self.picture(delivery, "hand.png")
                self.hand(delivery, full=full)
        # Shown here is sent: the outbox must not keep them for a Discord start-up to send.
        await self.service.delivered(deliveries)

    def board(self, delivery: Delivery, *, full: bool) -> None:
        """The table's news: the move, the trick it took (and by whom), a deal's breakdown.
        Asked for (``full``), the table itself in words."""
        view = delivery.view or {}
        names = self.names(delivery)
        lines = list(delivery.news)
        trick = last_trick(view)
        if trick is not None and trick != self.told.get(delivery.match_id):
            self.told[delivery.match_id] = trick
            if not view.get("trick"):  # taken just now, not a trick of an earlier turn
                # After the card that took it, before the breakdown of the deal it ended.
                lines.insert(min(1, len(lines)), trick_won_text(trick, names, self.w))
        if full:
            lines = [delivery.text.split("\n", 1)[0], *lines, describe(view, self.w, names)]
        self.news.update(lines)
        if lines:
            self.write("\n".join(lines))

    def hand(self, delivery: Delivery, *, full: bool) -> None:
        """The player's hand at their turn (or asked for): the hand's words as on Discord,
        the cards drawn since it was last seen, the table in words, the moves numbered."""
        view = delivery.view or {}
        hand = list(view.get("hand") or [])
        legal = view.get("legal_moves") or []
        if not (legal or full):
            # Not their turn: only a lesson's word for the moment, which cannot wait for it.
            said = lesson_said(delivery.text, self.w)
            if said:
                self.write("\n".join(said))
            return
        # The deal (a Le 5 As round) it was held in: the cards of a new deal are not drawn.
        deal = view.get("deal", view.get("round"))
        held, before = (deal, hand), self.held.get(delivery.match_id)
        self.held[delivery.match_id] = held
        w = self.w
        lines = delivery.text.split("\n")
        drawn: list[str] = []
        if before is not None and before[0] == deal:  # a double pack holds two of a card
            drawn = list((Counter(hand) - Counter(before[1])).elements())
        if drawn:
            order = hand_order(view)
            lines.append(
                w.gettext("You drew {cards}.").format(cards=cards_text(sorted(drawn, key=order), w))
            )
        moves = self.moves_text(delivery.game, legal, view)
        # What to type for a set of cards ends the list of moves, by the prompt; the hand's
        # text says it too, as a DM must: once is enough here.
        said = [*moves.split("\n"), wording.listing(delivery.game, legal, w)]
        last = wording.last_move(view)
        if last is not None and self.news:  # the table told the move just now, by name
            mine = w.gettext("You: {move}.").format(
                move=wording.move_text(delivery.game, last[1], w)
            )
            said.append(mine)
        lines = [line for line in lines if line not in said and line not in self.news]
        # The table's facts a host says again only when they change (a declaration is
        # announced once), unless the hand is asked for or a new deal has begun.
        names = self.names(delivery)
        facts = table_facts(view, w, names)
        same_deal = before is not None and before[0] == deal
        known = self.facts.get(delivery.match_id, set()) if same_deal else set()
        self.facts[delivery.match_id] = set(facts)
        lines += [f for f in facts if f not in self.news and (full or f not in known)]
        lines += describe(view, w, names, table=False).split("\n")
        self.write("\n-- " + "\n".join([*lines, moves]))

    async def picture(self, delivery: Delivery, name: str) -> None:
        if self.pictures is None or delivery.view is None:
            return
        hand_png, table_png = self.pictures
        if name == "hand.png":
            data = await asyncio.to_thread(
                hand_png, delivery.view, four_colour=self.four_colour, words=self.w
            )
        else:
            data = await asyncio.to_thread(
                table_png,
                delivery.view,
                self.names(delivery),
                four_colour=self.four_colour,
                words=self.w,
            )
        path = self.folder / f"match-{delivery.match_id}" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)

    def moves_text(self, game: str, legal: list[str], view: Mapping[str, Any]) -> str:
        """The moves open, numbered; sets of cards (discards of any few of twelve) are said
        as what to type, never listed by the thousand."""
        w = self.w
        if not legal:
            return w.gettext("No move is open to you now.")
        numbered = listed_moves(legal, game, picture_cards(view))
        shown = [
            f"{i}. {wording.move_text(game, move, w)}"
            for i, move in enumerate(numbered[:MAX_NUMBERED], 1)
        ]
        lines = [w.gettext("Your moves:") + "  " + "   ".join(shown)] if shown else []
        more = len(numbered) - MAX_NUMBERED
        if more > 0:
            lines.append(
                w.ngettext(
                    "… and {n} more: type it out.", "… and {n} more: type them out.", more
                ).format(n=w.number(more))
            )
        if len(numbered) < len(legal):
            lines.append(wording.listing(game, [m for m in legal if m not in numbered], w))
        return "\n".join(lines)

    def names(self, delivery: Delivery) -> tuple[str, str]:
        return delivery.names or (self.w.gettext("you"), self.computer_name)


def story_order(deliveries: list[Delivery]) -> list[Delivery]:
    """The deliveries in the order a terminal tells the story, read top to bottom: the last
    move's board (its last trick, the deal's breakdown) before the result it leads to. On
    Discord the result heads the thread's last messages; here it is the last word."""
    results = [d for d in deliveries if d.kind == "notice" and d.status == "finished"]
    if not results:
        return deliveries
    return [d for d in deliveries if all(d is not r for r in results)] + results


def listed_moves(legal: list[str], game: str, shown: list[str] | None = None) -> list[str]:
    """The moves shown one by one, with their numbers: all but those of a verb whose moves
    are sets of cards (said as what to type, not listed); a card's moves in the order the
    hand picture ``shown`` them (else the game's order of a hand), then the others
    (propose, draw …) as the game lists them."""
    sets = {m.split()[0] for m in legal if len(move_cards(m)) > 1}
    order = hand_order({"game": game})
    at = {card: i for i, card in reversed(list(enumerate(shown or [])))}

    def place(move: str) -> tuple[int, Any]:
        cards = move_cards(move)
        if not cards:
            return (2, ())
        return (0, at[cards[0]]) if cards[0] in at else (1, order(cards[0]))

    return sorted((m for m in legal if m.split()[0] not in sets), key=place)


def lesson_said(text: str, w: Words) -> list[str]:
    """The lines of a hand's text that are a lesson's note (``Lesson: …``)."""
    prefix = w.gettext("Lesson: {note}").split("{note}", 1)[0]
    return [line for line in text.split("\n") if line.startswith(prefix)]
