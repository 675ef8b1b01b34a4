"""The local sandbox: play any game against a simple computer opponent from a terminal.

It drives the very same match service and database as the Discord bot — the same
challenge, accept and move calls, the same move notation, the same deliveries — so what works
here works on Discord. The opponent is the computer at a chosen level (bot/computer.py), which
decides off the event loop. Hands and tables are printed as text and, when the renderer
provides it, written as PNG files to a folder named at the start.
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import logging
import os
import re
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import ai
import games
from bot import i18n
from bot.computer import (
    DEFAULT_LEVEL,
    NAME,
    Computer,
    check_level,
    computer_player,
    level_name,
    level_named,
    level_of,
)
from bot.service import Delivery, MatchInfo, MatchService, PlayerRef, ServiceError, wording
from bot.service.standings import game_name
from bot.service.wording import rules_text
from games.cards import SUIT_SYMBOLS, card_name
from games.core import move_cards
from games.phrases import points_text
from games.words import ENGLISH, N_, Words

log = logging.getLogger(__name__)
SORRY = N_("Something went wrong on my side; nothing more was changed. Please try again.")
QUIT = ("quit", "exit", "q")
YES = ("yes", "y")  # and the reader's own word for it
HELP_WORDS = ("help", "?", "aide", "hjälp")
RULES_WORDS = ("rules", "règles", "regles", "regler")

# Discord ids are 17+ digits long, so this can never be a real user (nor can the computer's).
HUMAN_ID = 1
MAX_NUMBERED = 40
_BASE_KEYS = ("game", "seat", "hand", "to_move", "scores", "legal_moves", "result", "last_move")
_SEAT_KEYS = ("seat", "winner", "dealer", "elder", "first_player")  # and a game's own
_CODE = re.compile(r"(10|[2-9]|1[0-9]|2[01]|[JQKA])[SHDCT]")

ReadLine = Callable[[str], Awaitable[str | None]]
Write = Callable[[str], None]

HELP = N_(
    """Commands (at any prompt):
  <a move>      the same notation as on Discord, e.g.  {examples}
  <number>      the move with that number in the list of your moves
  moves         list the moves open to you now
  hand          show your hand again          table   show the table again
  rules         the rules of this game, in short, and how to write its moves
  resign        give up this match            quit    leave (the match is kept: resume it later)
  colours       switch the four-colour deck on or off (in the pictures)
  help          this text"""
)

# What the public facts of the games' views are called, for the text view. A fact not
# listed here is shown under its own name.
VIEW_LABELS = {
    "brisques": N_("brisques"),
    "committed": N_("committed"),
    "deal": N_("deal"),
    "deal_history": N_("earlier deals"),
    "deal_scores": N_("this deal's points"),
    "dealer": N_("dealer"),
    "deals": N_("deals"),
    "declarations": N_("declarations"),
    "discarded": N_("your discards"),
    "discards": N_("discard piles"),
    "elder": N_("elder hand"),
    "exchanged": N_("cards exchanged"),
    "exchanges": N_("exchanges"),
    "expedition_scores": N_("expedition scores"),
    "expeditions": N_("expeditions"),
    "first_player": N_("first to play"),
    "hand_scores": N_("earlier hands"),
    "hand_sizes": N_("cards in hand"),
    "just_discarded": N_("just discarded"),
    "king": N_("king of trumps announced by"),
    "last_deal": N_("last deal"),
    "last_round": N_("last round"),
    "last_trick": N_("last trick"),
    "melds": N_("melds"),
    "points": N_("points"),
    "previous_hand": N_("previous hand"),
    "proposals": N_("proposals"),
    "round": N_("round"),
    "round_scores": N_("earlier rounds"),
    "rounds": N_("rounds"),
    "stage": N_("stage"),
    "stock": N_("cards in the stock"),
    "table": N_("laid out"),
    "talon_seen": N_("talon cards seen"),
    "talons": N_("talon cards left"),
    "target": N_("target"),
    "trick": N_("trick on the table"),
    "tricks": N_("tricks"),
    "tricks_won": N_("tricks won"),
    "trump": N_("trumps"),
    "turn_up": N_("turn-up card"),
}
# Facts the engines keep for their own bookkeeping: no player needs them read out.
_HIDDEN_KEYS = ("phase",)


async def read_stdin(prompt: str) -> str | None:
    """One line from the terminal, read off the event loop; None at end of input.

    The read runs in a daemon thread of its own (not the loop's executor), so Ctrl-C leaves
    at once instead of waiting for a line that will never come.
    """
    loop = asyncio.get_running_loop()
    future: asyncio.Future[str | None] = loop.create_future()

    def settle(line: str | None) -> None:
        if not future.done():
            future.set_result(line)

    def read() -> None:
        try:
            line: str | None = input(prompt)
        except (EOFError, OSError, ValueError):
            line = None
        with contextlib.suppress(RuntimeError):  # the loop may be gone: nobody waits
            loop.call_soon_threadsafe(settle, line)

    threading.Thread(target=read, name="sandbox-input", daemon=True).start()
    return await future


def _pictures() -> tuple[Callable[..., bytes], Callable[..., bytes]] | None:
    """The renderer's hand and table functions, if this version of it has them."""
    try:
        import rendering
    except ImportError:
        return None
    hand, table = getattr(rendering, "hand_png", None), getattr(rendering, "table_png", None)
    return (hand, table) if callable(hand) and callable(table) else None


def environment_lang() -> str:
    """The language of the terminal's locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name, "")
        if value and value not in ("C", "POSIX"):
            return i18n.lang_of(value.split(".", 1)[0])
    return i18n.DEFAULT_LANG


def _by_seat(pair: Any, elder: Any) -> Any:
    """A pair given as (elder's, younger's), as (seat 0's, seat 1's)."""
    if not isinstance(pair, list) or len(pair) != 2 or elder not in (0, 1):
        return pair
    return pair if elder == 0 else [pair[1], pair[0]]


class Describer:
    """A view as text for a player: their hand, the scores, then every other public fact,
    people named (you, the computer) instead of seats, cards named as the reader's pictures
    name them (``D♠`` in French), an entry a game words itself (a meld, a declaration) in
    the game's words."""

    def __init__(
        self, w: Words, names: tuple[str, str], seat: int | None, game: games.Game | None = None
    ) -> None:
        self.w = w
        self.seat = seat
        self.game = game
        you = w.gettext("you")
        self.names = tuple(you if s == seat else names[s] for s in (0, 1))
        # After "by" Swedish says "dig", not "du": the reader named as an object.
        you_after = w.pgettext("after a preposition", "you")
        self.objects = tuple(you_after if s == seat else names[s] for s in (0, 1))

    def __call__(self, view: dict[str, Any]) -> str:
        w = self.w
        lines = []
        if view.get("seat") is not None:
            hand = " ".join(card_name(card, w) for card in view.get("hand") or [])
            lines.append(w.gettext("Your hand: {cards}").format(cards=hand or w.gettext("none")))
        scores = view.get("scores") or [0, 0]
        lines.append(
            w.gettext("Score: {first} {score} {second}.").format(
                first=self.names[0],
                score=wording.score(scores[0], scores[1], w),
                second=self.names[1],
            )
        )
        for key, value in view.items():
            if key in _BASE_KEYS or key in _HIDDEN_KEYS or value is None:
                continue
            if self.game is not None and key in self.game.by_role:
                value = _by_seat(value, view.get("elder"))
            fact = w.gettext("{label}: {value}").format(
                label=self.label(key), value=self.value(key, value)
            )
            lines.append(f"  {fact}")
        return "\n".join(lines)

    def label(self, key: str) -> str:
        """What a fact of the view is called in the reader's language."""
        label = VIEW_LABELS.get(key)
        return self.w.gettext(label) if label else key.replace("_", " ")

    def value(self, key: str, value: Any) -> str:
        """One fact on one line: seats as names, cards as cards, pairs as 'you 3, Computer 1'."""
        w = self.w
        if value is None:  # not yet known (a Piquet exchange still to make)
            return "–"
        if isinstance(value, bool):
            return w.gettext("yes") if value else w.gettext("no")
        seats = _SEAT_KEYS if self.game is None else (*_SEAT_KEYS, *self.game.seat_keys)
        if key in seats and isinstance(value, int):
            return str(self.names[value]) if value in (0, 1) else str(value)
        if isinstance(value, int | float):
            return w.number(value)
        if isinstance(value, str):
            if value in SUIT_SYMBOLS:
                return SUIT_SYMBOLS[value]
            return card_name(value, w) if _CODE.fullmatch(value) else value
        if isinstance(value, dict):
            return self.entry(key, value)
        if isinstance(value, list):
            if not value:
                return "–"
            entries = all(isinstance(v, dict) and "seat" in v for v in value)
            if len(value) == 2 and not entries and not all(isinstance(v, str) for v in value):
                return ", ".join(f"{self.names[s]} {self.value(key, value[s])}" for s in (0, 1))
            return (" " if all(isinstance(v, str) for v in value) else " | ").join(
                self.value(key, v) for v in value
            )
        return str(value)

    def entry(self, key: str, value: dict[str, Any]) -> str:
        """A fact made of parts: a card someone played, a meld or declaration someone made
        (in its game's words), or named parts ('deal 3, dealer you')."""
        w = self.w
        said = self.game.entry_text(key, value, w) if self.game and "seat" in value else None
        if said is not None:
            who = self.value("seat", value["seat"])
            if isinstance(value.get("points"), int):
                # No full stop: entries stand in lists, between bars or commas.
                return w.gettext("{name}: {what}, {points}").format(
                    name=who, what=said, points=points_text(value["points"], w)
                )
            return w.gettext("{label}: {value}").format(label=who, value=said)
        if "seat" in value and ("card" in value or "text" in value):
            who = self.value("seat", value["seat"])
            rest = [self.value(k, v) for k, v in value.items() if k in ("card", "text")]
            return w.gettext("{label}: {value}").format(label=who, value=" ".join(rest))
        parts = []
        for k, v in value.items():
            if k == "winner":
                who = self.objects[v] if v in (0, 1) else self.value(k, v)
                parts.append(w.gettext("won by {name}").format(name=who))
            elif k == "cards":
                parts.append(self.value(k, v))
            elif k in SUIT_SYMBOLS:
                parts.append(f"{SUIT_SYMBOLS[k]} {self.value(k, v)}")
            else:
                parts.append(f"{self.label(k)} {self.value(k, v)}")
        return ", ".join(parts) or "–"


def describe(
    view: dict[str, Any], w: Words = ENGLISH, names: tuple[str, str] = ("Computer", "Computer")
) -> str:
    """A view as text, for any game (see :class:`Describer`)."""
    seat = view.get("seat")
    name = view.get("game")
    game = games.get(name) if isinstance(name, str) and name in games.names() else None
    return Describer(w, names, seat if seat in (0, 1) else None, game)(view)


class Sandbox:
    """One terminal session: choose a game, play it out, choose again or quit."""

    def __init__(
        self,
        service: MatchService,
        *,
        folder: Path,
        read_line: ReadLine = read_stdin,
        write: Write = print,
        level: str = DEFAULT_LEVEL,
        computer: Computer | None = None,
        human_name: str | None = None,
        lang: str | None = None,
    ) -> None:
        self.service = service
        self.folder = folder
        self.read_line = read_line
        self.write = write
        self.level = check_level(level)
        self.computer = computer or Computer(service, processes=0)
        self.lang = lang if lang in i18n.LANGS else environment_lang()
        self.w = i18n.words(self.lang)
        # The player's language is remembered like a Discord member's, so that their hand
        # speaks it; the sandbox's public posts (made outside any server) speak it too.
        self.human = PlayerRef(HUMAN_ID, human_name or _user_name(), self.lang)
        service.languages.outside = self.lang
        self.pictures = _pictures()
        self.four_colour = False
        self.game: str | None = None

    async def run(self) -> int:
        self.write(self._intro())
        profile = await self.service.player(self.human.user_id)
        self.four_colour = bool(profile and profile.four_colour)
        while True:
            match = await self._choose()
            if match is None:
                self.write(
                    self.w.gettext("Goodbye. Your unfinished matches are kept for next time.")
                )
                return 0
            if not await self._play(match):
                self.write(
                    self.w.gettext(
                        "Goodbye. This match is kept: choose it again next time to go on."
                    )
                )
                return 0

    def _intro(self) -> str:
        w = self.w
        pictures = (
            w.gettext(
                "Pictures of your hand and of the table are written to {folder}/ (hand.png and "
                "table.png in each match's folder) after every move."
            ).format(folder=self.folder)
            if self.pictures
            else w.gettext(
                "Pictures are not available in this version: hands and tables are shown as text."
            )
        )
        return "\n".join(
            [
                w.gettext("Tapis: the local sandbox (no Discord needed)."),
                w.gettext(
                    "You play against the computer, at level {level} unless you name another "
                    "after the game's name, like “{example}” (levels: {levels}). Moves are typed "
                    "exactly as on Discord. Matches are stored in the database like any other, "
                    "so you can stop and resume."
                ).format(
                    level=level_name(self.level, w),
                    example=f"piquet {level_name('strong', w)}",
                    levels=", ".join(level_name(level, w) for level in ai.LEVELS),
                ),
                pictures,
                w.gettext(
                    "Type “help” at any prompt for the commands, and “rules” for a game's rules."
                ),
            ]
        )

    # -- choosing a match -----------------------------------------------------------------
    async def _choose(self) -> MatchInfo | None:
        w = self.w
        names = games.names()
        unfinished = [
            info
            for info in await self.service.matches_of(self.human.user_id)
            if info.status == "active"
        ]
        lines = ["", w.gettext("Games:")]
        lines += [
            f"  {i}. {wording.game_title(name, w)} ({name})" for i, name in enumerate(names, 1)
        ]
        if unfinished:
            lines.append(
                w.gettext("Unfinished matches: {ids}.").format(
                    ids=", ".join(f"#{m.id}" for m in unfinished)
                )
            )
        sample = games.example()
        example = f"{sample.name} {sample.example_options}"
        lines.append(
            w.gettext(
                "Type a game's number or name (options as name=value, e.g. “{example}”), “#id” "
                "to resume a match, or “quit”."
            ).format(example=example)
            if unfinished
            else w.gettext(
                "Type a game's number or name (options as name=value, e.g. “{example}”), or “quit”."
            ).format(example=example)
        )
        self.write("\n".join(lines))
        while True:
            answer = await self.read_line("game> ")
            if answer is None or answer.strip().lower() in QUIT:
                return None
            try:
                match = await self._start(answer.strip(), names, unfinished)
            except ServiceError as error:
                self.write(error.say(w))
                continue
            except Exception:
                log.exception("the sandbox could not start %r", answer)
                self.write(w.gettext(SORRY))
                continue
            if match is not None:
                return match

    async def _start(
        self, answer: str, names: list[str], unfinished: list[MatchInfo]
    ) -> MatchInfo | None:
        w = self.w
        if not answer:
            return None
        lowered = answer.lower()
        if lowered in HELP_WORDS:
            self.write(self._help())
            return None
        if lowered.split()[0] in RULES_WORDS:
            self._rules(answer.split()[1:])
            return None
        if answer.startswith("#"):
            wanted = answer[1:].strip()
            for info in unfinished:
                if wanted.isdigit() and info.id == int(wanted):
                    self.write(w.gettext("Resuming match #{id}.").format(id=info.id))
                    await self._show_all(info)
                    return info
            raise ServiceError(
                N_("“{answer}” is not one of your unfinished matches. They are listed above."),
                answer=answer,
            )
        words = answer.split()
        if words[0].isdigit() and not 1 <= int(words[0]) <= len(names):
            raise ServiceError(
                N_("There is no game {number}. Choose a number from 1 to {count}."),
                number=words[0],
                count=len(names),
            )
        # The game first: "new ecarte" is no game, not an unknown option "ecarte".
        game = names[int(words[0]) - 1] if words[0].isdigit() else game_name(words[0])
        options = {}
        level = self.level
        for word in words[1:]:
            key, _, value = word.partition("=")
            named = level_named(key, self.w)
            if not value and named is not None:  # "piquet strong": the level, said plainly
                level = named
                continue
            if key.lower() == "level":
                chosen = level_named(value, self.w)
                if chosen is None:
                    raise ServiceError(
                        N_("There is no level “{level}”. The levels are {levels}."),
                        level=value,
                        levels=", ".join(f"`{level}`" for level in ai.LEVELS),
                    )
                level = chosen
                continue
            if not value.lstrip("-").isdigit():
                raise ServiceError(
                    N_("“{word}” is not an option. Write options as name=number, like rounds=1."),
                    word=word,
                )
            options[key] = int(value)
        computer = computer_player(level)
        info, notices = await self.service.challenge(
            self.human, computer, game, guild_id=None, channel_id=None, options=options, rated=False
        )
        info, deliveries = await self.service.accept(info.id, computer)
        self.write(
            w.gettext("{name} plays at level {level}.").format(
                name=computer.name, level=level_name(level, w)
            )
        )
        await self._deliver(notices + deliveries)
        return info

    def _help(self) -> str:
        """The commands, with moves of the game being played as examples (a Le 5 As player
        has no use for ``play QS``); at the choice of a game, a few of every game's."""
        if self.game is not None:
            examples = games.get(self.game).example_moves[:3]
        else:
            examples = ("play QS", "discard 7S 9H", "draw")
        return self.w.gettext(HELP).format(examples="   ".join(examples))

    def _rules(self, asked: list[str]) -> None:
        """The rules of the game asked for, else of the game being played."""
        w = self.w
        name = asked[0] if asked else self.game
        if name is None:
            self.write(w.gettext("Which game? Type “rules” and its name, e.g. “rules piquet”."))
            return
        try:
            game = games.get(name).name
        except KeyError:
            self.write(
                w.gettext("There is no game called “{game}”. The games are {names}.").format(
                    game=name, names=", ".join(games.names())
                )
            )
            return
        self.write(rules_text(game, w).replace("**", ""))

    # -- playing --------------------------------------------------------------------------
    async def _play(self, info: MatchInfo) -> bool:
        """Play ``info`` out; False if the player quit in the middle."""
        self.game = info.game
        prompt = self.w.gettext("#{id} your move> ").format(id=info.id)
        while info.status == "active":
            if level_of(info.to_move) is not None:
                info = await self._computer_moves(info)
                continue
            answer = await self.read_line(prompt)
            if answer is None:
                return False
            command = answer.strip()
            if command.lower() in QUIT:
                return False
            try:
                info = await self._command(info, command)
            except Exception:
                log.exception("the sandbox could not do %r", command)
                self.write(self.w.gettext(SORRY))
        return True

    async def _computer_moves(self, info: MatchInfo) -> MatchInfo:
        info, deliveries = await self.computer.play_turns(info.id)
        await self._deliver(deliveries)
        return info

    async def _command(self, info: MatchInfo, command: str) -> MatchInfo:
        w = self.w
        lowered = command.lower()
        if not command:
            return info
        if lowered in HELP_WORDS:
            self.write(self._help())
        elif lowered.split()[0] in RULES_WORDS:
            self._rules(command.split()[1:])
        elif lowered in ("colours", "colors"):
            self.four_colour = not self.four_colour
            await self.service.set_preferences(self.human.user_id, four_colour=self.four_colour)
            self.write(
                w.gettext("Four-colour deck on.")
                if self.four_colour
                else w.gettext("Four-colour deck off.")
            )
        elif lowered == "moves":
            self._list_moves(info.game, await self.service.legal_moves(info.id, self.human.user_id))
        elif lowered == "hand":
            delivery = await self.service.hand_delivery(info.id, self.human.user_id)
            await self._deliver([delivery], full=True)
        elif lowered in ("table", "board"):
            board = await self.service.board_delivery(info.id)
            await self._deliver([board])
            self.write(describe(board.view or {}, w, self._names(board)))
        else:
            try:
                if lowered == "resign":
                    if not await self._resign_confirmed(info):
                        self.write(
                            w.gettext("You did not resign: match #{id} goes on.").format(id=info.id)
                        )
                        return info
                    info, deliveries = await self.service.resign(info.id, self.human.user_id)
                else:
                    move = await self._numbered(info, command)
                    info, deliveries = await self.service.move(info.id, self.human.user_id, move)
            except ServiceError as error:
                self.write(w.gettext("Not accepted: {why}").format(why=error.say(w)))
                await self._deliver(error.deliveries)  # too late: the loss on time is told
                return info
            await self._deliver(deliveries)
        return info

    async def _resign_confirmed(self, info: MatchInfo) -> bool:
        """Ask before giving a match up, as on Discord: one word typed by mistake must not
        end it."""
        w = self.w
        others = [p.name for p in info.seats or () if p.user_id != self.human.user_id]
        opponent = others[0] if others else NAME  # the computer's
        self.write(
            w.gettext(
                "Resign {game} #{id} against {name}? The match ends at once and counts as a "
                "loss for you. Type “yes” to resign; anything else goes on with the match."
            ).format(game=wording.game_title(info.game, w), id=info.id, name=opponent)
        )
        answer = await self.read_line(w.gettext("#{id} resign?> ").format(id=info.id))
        return answer is not None and answer.strip().lower() in (*YES, w.gettext("yes").lower())

    async def _numbered(self, info: MatchInfo, command: str) -> str:
        if not command.isdigit():
            return command
        legal = await self.service.legal_moves(info.id, self.human.user_id)
        number = int(command)
        # Only a move shown with its number: a set of cards (any few of twelve to discard) is
        # typed out, and a number never stands for one the player has not seen.
        listed = _listed_moves(legal)[:MAX_NUMBERED]  # as many as "moves" shows numbered
        if not listed:
            raise ServiceError(
                N_("Your moves have no numbers now: type the move itself. {open}"),
                open=wording.Listing(info.game, tuple(legal)),
            )
        if not 1 <= number <= len(listed):
            raise ServiceError(
                N_(
                    "There is no move {number}: your moves are numbered from 1 to {count}. "
                    "Type “moves” to see them."
                ),
                number=command,
                count=len(listed),
            )
        return listed[number - 1]

    def _list_moves(self, game: str, legal: list[str]) -> None:
        self.write(self._moves_text(game, legal))

    def _moves_text(self, game: str, legal: list[str]) -> str:
        """The moves open, numbered; sets of cards (discards of any few of twelve) are said
        as what to type, never listed by the thousand."""
        w = self.w
        if not legal:
            return w.gettext("No move is open to you now.")
        numbered = _listed_moves(legal)
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

    async def _show_all(self, info: MatchInfo) -> None:
        self.game = info.game
        await self._deliver(
            [
                await self.service.board_delivery(info.id),
                await self.service.hand_delivery(info.id, self.human.user_id),
            ],
            full=True,
        )

    def _names(self, delivery: Delivery) -> tuple[str, str]:
        return delivery.names or (self.w.gettext("you"), computer_player(self.level).name)

    # -- showing deliveries ---------------------------------------------------------------
    async def _deliver(self, deliveries: list[Delivery], *, full: bool = False) -> None:
        """Show what Discord would show this player: public messages, and their own DMs.

        The hand (which holds the table's public facts too) is shown in full when it is the
        player's turn, or when ``full`` (asked for)."""
        for delivery in _story_order(deliveries):
            if delivery.to not in (None, self.human.user_id):
                continue  # the computer's hand stays hidden, as on Discord
            text = delivery.text.replace("**", "")
            if delivery.kind in ("notice", "dm"):
                self.write(f"» {text}")
            elif delivery.kind == "board" and delivery.view is not None:
                self.write(f"== {text}")
                await self._picture(delivery, "table.png")
            elif delivery.kind == "hand" and delivery.view is not None:
                await self._picture(delivery, "hand.png")
                legal = delivery.view.get("legal_moves") or []
                if legal or full:
                    view = describe(delivery.view, self.w, self._names(delivery))
                    moves = self._moves_text(delivery.game, legal)
                    # What to type for a set of cards ends the list of moves, by the prompt;
                    # the hand's text says it too, as a DM must: once is enough here.
                    said = moves.split("\n")
                    text = "\n".join(line for line in text.split("\n") if line not in said)
                    self.write(f"\n-- {text}\n{view}\n{moves}")
        # Shown here is sent: the outbox must not keep them for a Discord start-up to send.
        await self.service.delivered(deliveries)

    async def _picture(self, delivery: Delivery, name: str) -> None:
        if self.pictures is None or delivery.view is None:
            return
        hand_png, table_png = self.pictures
        if name == "hand.png":
            data = await asyncio.to_thread(hand_png, delivery.view, four_colour=self.four_colour)
        else:
            data = await asyncio.to_thread(
                table_png, delivery.view, self._names(delivery), four_colour=self.four_colour
            )
        path = self.folder / f"match-{delivery.match_id}" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def _story_order(deliveries: list[Delivery]) -> list[Delivery]:
    """The deliveries in the order a terminal tells the story, read top to bottom: the last
    move's board (its last trick, the deal's breakdown) before the result it leads to. On
    Discord the result heads the thread's last messages; here it is the last word."""
    results = [d for d in deliveries if d.kind == "notice" and d.status == "finished"]
    if not results:
        return deliveries
    return [d for d in deliveries if all(d is not r for r in results)] + results


def _listed_moves(legal: list[str]) -> list[str]:
    """The moves shown one by one, with their numbers: all but those of a verb whose moves
    are sets of cards (said as what to type, not listed)."""
    sets = {m.split()[0] for m in legal if len(move_cards(m)) > 1}
    return [m for m in legal if m.split()[0] not in sets]


def _user_name() -> str:
    try:
        return getpass.getuser().capitalize() or "You"
    except (OSError, KeyError):
        return "You"


async def run_sandbox(
    db_path: Path | str,
    *,
    durable: bool,
    folder: Path,
    level: str = DEFAULT_LEVEL,
    lang: str | None = None,
) -> int:
    service = await MatchService.open(db_path, durable=durable)
    computer = Computer(service, processes=1)
    try:
        box = Sandbox(service, folder=folder, level=level, computer=computer, lang=lang)
        print(box.w.gettext("Database: {path}").format(path=service.database.describe))
        return await box.run()
    finally:
        await computer.close()
        await service.close()
