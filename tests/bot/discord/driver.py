"""Play whole matches through the fake Discord as two people would, checking secrecy as we go.

Moves are chosen among the engine's legal moves (read from the mover's own view) and made the
ways a player can: a button of the hand DM, a select menu of cards, or ``/play``. After every
move, everything public that the bot sent is checked against the hands still hidden.
"""

from __future__ import annotations

import io
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops

import rendering
from bot.discord.client import TapisBot
from bot.discord.components import card_of
from games.moves import move_cards
from tests.fakediscord import FakeDiscord, FakeInteraction, FakeUser, Sent

CARD = re.compile(r"(?<![0-9A-Z])(10|1[0-9]|2[01]|[2-9]|[JQKA])([SHDCT♠♥♦♣])(?![0-9A-Za-z])")
SYMBOL = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
PNG = b"\x89PNG\r\n\x1a\n"


def cards_named(text: str) -> set[str]:
    """Card codes a text shows, written as codes (``QS``) or with symbols (``Q♠``)."""
    return {rank + SYMBOL.get(suit, suit) for rank, suit in CARD.findall(text.upper())}


def _component(custom_id: str, kind: str, match_id: int) -> str | None:
    """What a component of this match carries (a move, a verb): ``tapis:kind:match:version:…``."""
    parts = custom_id.split(":", 4)
    if len(parts) == 5 and parts[1] == kind and parts[2] == str(match_id):
        return parts[4]
    return None


def verb_hides(move: str) -> bool:
    """Discards are made face down: their cards stay secret after the move."""
    return move.split()[0] == "discard"


@dataclass
class Table:
    fake: FakeDiscord
    bot: TapisBot
    players: dict[int, FakeUser]
    match_id: int
    thread_id: int
    moves: int = 0
    multi_card_moves: int = 0
    # Every move made by pressing the mover's latest hand message, which must reach every
    # legal move (no /play, nothing typed).
    presses_only: bool = False
    secrecy: bool = True  # check after each move that nothing public shows a hidden card
    # Chooses the move among the legal ones, where it cares to (None: a random one).
    prefer: Callable[[list[str]], str | None] = lambda legal: None
    ways: dict[str, int] = field(default_factory=lambda: {"button": 0, "select": 0, "slash": 0})

    @classmethod
    async def open(
        cls,
        fake: FakeDiscord,
        bot: TapisBot,
        game: str,
        options: str,
        challenger: FakeUser,
        opponent: FakeUser,
        days: int | None = None,
    ) -> Table:
        """``challenger`` challenges ``opponent`` by slash command; they press Accept."""
        extra = {"days": days} if days else {}
        handle = await fake.slash(
            challenger, "challenge", game=game, opponent=opponent, options=options, **extra
        )
        await handle.finished()
        post = await fake.wait_for(
            lambda s: any(c.startswith("tapis:accept") for c in s.custom_ids()),
            since=handle.since,
        )
        match_id = int(post.custom_ids()[0].split(":")[-1])
        press = await fake.press(opponent, post, f"tapis:accept:{match_id}")
        await press.finished()
        # The challenge loses its buttons, then the accepter's hand comes in the answer.
        await fake.wait_for(lambda s: s.token == press.token and s.kind == "followup")
        await bot.courier.settled()
        info = await bot.service.get(match_id)
        assert info.status == "active" and info.thread_id is not None
        players = {challenger.id: challenger, opponent.id: opponent}
        return cls(fake, bot, players, match_id, info.thread_id)

    def latest_hand(self, user: FakeUser) -> Sent | None:
        """The last hand this user got for this match: by DM when their turn came, or in the
        answer to their own move."""
        return latest_hand(self.fake, user, self.match_id)

    async def step(self, rng: random.Random, *, check_images: bool) -> bool:
        """One move by whoever is to move; False once the match is over."""
        info = await self.bot.service.get(self.match_id)
        if info.status != "active":
            return False
        user = self.players[info.to_move]
        view = await self.bot.service.view_for(self.match_id, user.id)
        legal = list(view["legal_moves"])
        assert legal, "the player to move has no legal move"
        if self.presses_only:
            self.check_reach(user, legal, info.version)
        move = self.prefer(legal) or rng.choice(legal)
        handle, way = await self._make(user, move, rng)
        done = await self.fake.wait_for(
            lambda s: s.token == handle.token and s.kind in ("followup", "edit"),
            since=handle.since,
        )
        # The mover's answer: their new hand, which names their move ("You: …"), or where no
        # hand comes, the confirmation alone.
        said = ("Your move in", "\nYou: ")
        await self.bot.courier.settled()
        after = await self.bot.service.get(self.match_id)
        # In a conversation where the bot is no member, the last move's first answer is the
        # board with the result, for all there (no hand follows it).
        last_here = after.talk and after.status != "active" and self.fake.is_public(done)
        assert done.kind == "edit" or any(p in done.content for p in said) or last_here, done
        assert after.version == info.version + 1, (move, done.content)
        self.moves += 1
        self.ways[way] += 1
        self.multi_card_moves += len(move_cards(move)) > 1
        shown = set() if verb_hides(move) else set(move_cards(move))
        if self.secrecy:
            await self.check_secrecy(handle.since, check_images, shown)
        return True

    async def _make(
        self, user: FakeUser, move: str, rng: random.Random
    ) -> tuple[FakeInteraction, str]:
        hand = self.latest_hand(user)
        ids = hand.custom_ids() if hand is not None else []
        verb = move.split()[0]
        button = next((c for c in ids if _component(c, "move", self.match_id) == move), "")
        pick = next((c for c in ids if _component(c, "pick", self.match_id) == verb), "")
        # A quarter of the one-card moves go through /play; card menus are always used when
        # the move needs one, so every game's menus get exercised.
        use_slash = rng.random() < 0.25 and len(move_cards(move)) < 2 and not self.presses_only
        whole = next((c for c in ids if _component(c, "pick", self.match_id) == ""), "")
        if hand is not None and not use_slash:
            if button in ids:
                return await self.fake.press(user, hand, button), "button"
            if pick in ids and len(move_cards(move)) >= 1:
                values = menu_values(hand, pick, move_cards(move))
                return await self.fake.choose(user, hand, pick, values), "select"
            if whole in ids:
                return await self.fake.choose(user, hand, whole, [move]), "select"
        assert not self.presses_only, f"{move!r} cannot be pressed"
        handle = await self.fake.slash(user, "play", self.thread_id, move=move)
        return handle, "slash"

    def check_reach(self, user: FakeUser, legal: list[str], version: int) -> None:
        """The mover's latest hand message is of this very position, and pressing its
        components can make every legal move."""
        hand = self.latest_hand(user)
        assert hand is not None, "the player to move has no hand message to press"
        ids = hand.custom_ids()
        assert ids and all(c.split(":")[3] == str(version) for c in ids), (version, ids)
        missing = unreachable(hand.data.get("components") or [], legal, self.match_id)
        assert missing == [], f"legal moves no press can make: {missing}"

    async def check_secrecy(self, since: int, check_images: bool, shown: set[str]) -> None:
        """Nothing public shows a card still hidden in a hand; public pictures are the public
        view's table; hand DMs carry the PNG of their reader's own view."""
        hidden: set[str] = set()
        views = {}
        for user_id in self.players:
            views[user_id] = await self.bot.service.view_for(self.match_id, user_id)
            hidden |= set(views[user_id]["hand"]) | set(views[user_id].get("discarded") or [])
        hidden -= shown  # the move just made shows its cards (a card played, a meld laid)
        public = await self.bot.service.view_for(self.match_id, None)
        # A card the public view itself shows (the last trick of the deal just ended, which
        # may be dealt again into a hand of the new deal) is public, whatever a hand holds.
        hidden -= cards_named(json.dumps(public))
        info = await self.bot.service.get(self.match_id)
        assert info.seats is not None
        names = (info.seats[0].name, info.seats[1].name)
        table = rendering.table_png(public, names) if check_images else None
        for sent in self.fake.log[since:]:
            if self.fake.is_public(sent):
                leaked = cards_named(sent.text()) & hidden
                assert not leaked, f"public message shows hidden cards {leaked}: {sent.text()}"
                for name, data in sent.files:
                    assert data.startswith(PNG), name
                    if (
                        table is not None
                        and sent.channel_id == self.thread_id
                        and not same_picture(data, table)
                    ):
                        raise AssertionError(
                            "a public picture is not the public table: "
                            + picture_difference(data, table, public, names, sent.text())
                        )
            elif sent.reader is not None and sent.files and check_images:
                for _, data in sent.files:
                    assert data.startswith(PNG)
        if check_images:
            # While the match is played, the player to move has their current hand in view:
            # the last hand picture they got, sent with this move or earlier (an unchanged hand
            # is not drawn or sent again), is the picture of their hand as it stands. (A hand
            # that cannot be played yet is not sent: `/hand` shows it. Once the match is over,
            # the thread's result says the rest.)
            for user_id, user in self.players.items():
                hand = self.latest_hand(user)
                to_move = user_id == info.to_move
                if (
                    to_move
                    and hand is not None
                    and hand.at > 0
                    and views[user_id]["result"] is None
                ):
                    assert same_picture(hand.files[0][1], rendering.hand_png(views[user_id])), (
                        "a player's latest hand picture is not their hand as it stands"
                    )

    async def play_out(self, seed: int = 1, limit: int = 2000) -> None:
        rng = random.Random(seed)
        for index in range(limit):
            if not await self.step(rng, check_images=index < 4 or index % 15 == 0):
                return
        raise AssertionError(f"match #{self.match_id} not over after {limit} moves")


def menu_values(sent: Sent, custom_id: str, cards: list[str]) -> list[str]:
    """The options of the card menu ``custom_id`` that pick ``cards``, as a player picks them
    by their labels: a card named twice takes both of its copies (which read alike)."""
    item = next(c for c in sent.components() if c.get("custom_id") == custom_id)
    left = [str(option["value"]) for option in item["options"]]
    chosen = []
    for card in cards:
        value = next(v for v in left if card_of(v) == card)
        left.remove(value)
        chosen.append(value)
    return chosen


def latest_hand(fake: FakeDiscord, user: FakeUser, match_id: int) -> Sent | None:
    """The last hand ``user`` got for match ``match_id``, by DM or in a private answer."""
    for sent in reversed(fake.log):
        if sent.reader == user.id and sent.files and f"match #{match_id}" in sent.content:
            return sent
    return None


async def resign(fake: FakeDiscord, user: FakeUser, thread_id: int) -> Sent:
    """``user`` resigns the match of ``thread_id`` as a person does: ``/resign``, then the
    private question's Resign button; returns the question's message as changed by the press."""
    question = await (await fake.slash(user, "resign", thread_id)).finished()
    confirm = next(c for c in question.custom_ids() if c.startswith("tapis:resign:confirm:"))
    return await (await fake.press(user, question, confirm)).finished()


def unreachable(rows: list[dict[str, Any]], legal: list[str], match_id: int) -> list[str]:
    """The legal moves that no press of these components (a hand message's rows) can make:
    a move's button, a whole-moves menu, or a card menu from which its cards can be picked
    (as many of each as it names, within the menu's bounds)."""
    items = [item for row in rows for item in row["components"]]
    pressable: set[str] = set()
    menus: dict[str, dict[str, Any]] = {}
    for item in items:
        move = _component(str(item.get("custom_id")), "move", match_id)
        if move is not None:
            pressable.add(move)
        verb = _component(str(item.get("custom_id")), "pick", match_id)
        if verb == "":
            pressable.update(str(o["value"]) for o in item["options"])
        elif verb is not None:
            menus[verb] = item
    missing = []
    for move in legal:
        if move in pressable:
            continue
        menu = menus.get(move.split()[0])
        cards = move_cards(move)
        if menu is not None and cards:
            offered = [card_of(str(o["value"])) for o in menu["options"]]
            low, high = int(menu.get("min_values", 1)), int(menu.get("max_values", 1))
            if low <= len(cards) <= high and all(
                offered.count(card) >= cards.count(card) for card in set(cards)
            ):
                continue
        missing.append(move)
    return missing


def same_picture(first: bytes, second: bytes) -> bool:
    """Whether two PNGs hold the same picture: size, palette and every pixel. Not their
    bytes: a deflater may write the same rows as two different, equally valid streams (ISA-L's
    did, one drawing to the next), and what players see is the pixels."""
    if first == second:
        return True
    a, b = Image.open(io.BytesIO(first)), Image.open(io.BytesIO(second))
    return (
        a.size == b.size
        and a.mode == b.mode
        and a.getpalette() == b.getpalette()
        and a.tobytes() == b.tobytes()
    )


def picture_difference(
    sent: bytes, table: bytes, view: dict[str, Any], names: tuple[str, str], text: str
) -> str:
    """What differs between a public picture and the table drawn here: both PNGs and the view
    kept on disk, the pixels compared, and the table drawn again here and in a fresh process
    (which of the two pictures a drawing from nothing agrees with)."""
    keep = Path(os.environ.get("TAPIS_TEST_KEEP", tempfile.mkdtemp(prefix="tapis-picture-")))
    keep.mkdir(parents=True, exist_ok=True)
    (keep / "sent.png").write_bytes(sent)
    (keep / "table.png").write_bytes(table)
    (keep / "view.json").write_text(json.dumps({"view": view, "names": names, "text": text}))
    a, b = Image.open(io.BytesIO(sent)).convert("RGB"), Image.open(io.BytesIO(table)).convert("RGB")
    if a.size != b.size:
        pixels = f"sizes differ: {a.size} sent, {b.size} here"
    else:
        diff = ImageChops.difference(a, b)
        changed = sum(1 for value in diff.convert("L").tobytes() if value)
        pixels = f"{changed} pixels differ, within {diff.getbbox()}"
    again = rendering.table_png(view, names)
    fresh = subprocess.run(
        [sys.executable, "-c",
         "import json, sys, rendering; d = json.load(open(sys.argv[1]));"
         "sys.stdout.buffer.write(rendering.table_png(d['view'], tuple(d['names'])))",
         str(keep / "view.json")],
        capture_output=True, check=False, timeout=120,
    ).stdout  # fmt: skip
    (keep / "fresh.png").write_bytes(fresh)
    agrees = "sent" if fresh == sent else "here" if fresh == table else "neither"
    return (
        f"{pixels}; drawn again here: {'same' if again == table else 'different'}; "
        f"drawn in a fresh process: same as {agrees}; kept in {keep}"
    )
