"""The local sandbox: play any game against a simple computer opponent from a terminal.

It drives the very same match service and database as the Discord bot — the same
challenge, accept and move calls, the same move notation, the same deliveries — so what works
here works on Discord. The opponent is the computer at a chosen level
(bot/service/computer.py), which decides off the event loop. The match is told as a host
tells it at the table, in the service's and the games' own words and the reader's language:
each move, who took the trick, the cards drawn, the table in sentences, the hand and its moves
in the picture's order.
Pictures, when the renderer provides them, are written as PNG files to a folder named at the
start, in the reader's words too. Nothing of Discord shows: no buttons, no markup.
"""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import logging
import os
import re
import threading
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

import games
from bot import i18n
from bot.service import Delivery, MatchInfo, MatchService, PlayerRef, ServiceError, wording
from bot.service.computer import (
    DEFAULT_LEVEL,
    LEVELS,
    NAME,
    Computer,
    check_level,
    computer_player,
    level_name,
    level_named,
    level_of,
)
from bot.service.standings import game_name
from bot.service.wording import rules_text
from games.cards import SUIT_SYMBOLS, card_name, sort_key
from games.moves import move_cards
from games.phrases import cards_text, is_card, last_trick, move_word, trick_won_text
from games.words import ENGLISH, N_, Words

log = logging.getLogger(__name__)
SORRY = N_("Something went wrong on my side; nothing more was changed. Please try again.")
YES = ("yes", "y")  # and the reader's own word for it
# The sandbox's commands, each as English, French and Swedish players type it (the help text
# of each language names its own); every spelling is read whatever the language.
COMMANDS = {
    "moves": ("moves", "coups", "drag"),
    "hand": ("hand", "main", "hand"),
    "table": ("table", "board", "table", "bord"),
    "rules": ("rules", "règles", "regles", "regler"),
    "resign": ("resign", "abandonner", "ge upp"),
    "quit": ("quit", "exit", "q", "quitter", "avsluta"),
    "colours": ("colours", "colors", "couleurs", "färger", "farger"),
    "help": ("help", "?", "aide", "hjälp", "hjalp"),
}
QUIT = COMMANDS["quit"]
HELP_WORDS = COMMANDS["help"]
RULES_WORDS = COMMANDS["rules"]

# Discord ids are 17+ digits long, so this can never be a real user (nor can the computer's).
HUMAN_ID = 1
MAX_NUMBERED = 40
# What a player types, between the quotation marks of the reader's language.
QUOTES = {"en": ("“", "”"), "fr": ("«\u00a0", "\u00a0»"), "sv": ("”", "”")}
_TYPED = re.compile(r"`([^`\n]+)`")

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


def as_typed(move: str, w: Words) -> str:
    """A move as a player of ``w``'s language types it: their move word, their card names
    (``jouer D♠``); the parser reads it back."""
    verb, *rest = move.split()
    cards = [card_name(word, w) if is_card(word) else SUIT_SYMBOLS.get(word, word) for word in rest]
    return " ".join([move_word(verb, w), *cards])


def terminal(text: str, lang: str) -> str:
    """Discord's markup read as a terminal shows it: no bold stars, and what to type between
    the reader's quotation marks instead of backticks."""
    opening, closing = QUOTES.get(lang, QUOTES["en"])
    return _TYPED.sub(lambda m: f"{opening}{m.group(1)}{closing}", text.replace("**", ""))


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
        self.lang = lang if lang in i18n.LANGS else environment_lang()
        self.write: Write = lambda text: write(terminal(text, self.lang))
        self.level = check_level(level)
        self.computer = computer or Computer(service, processes=0)
        self.w = i18n.words(self.lang)
        # The player's language is remembered like a Discord member's, so that their hand
        # speaks it; the sandbox's public posts (made outside any server) speak it too.
        self.human = PlayerRef(HUMAN_ID, human_name or _user_name(), self.lang)
        service.languages.outside = self.lang
        self.pictures = _pictures()
        self.four_colour = False
        self.game: str | None = None
        # What the player last held, and the last trick told, in each match: the cards that
        # came since are the cards drawn, a trick not told yet is news.
        self.held: dict[int, tuple[Any, list[str]]] = {}
        self.told: dict[int, Any] = {}
        self.news: set[str] = set()  # the lines just told of the table, not to be repeated
        self.facts: dict[int, set[str]] = {}  # the table's facts last told, by match

    async def run(self) -> int:
        self.write(self._intro())
        # The language chosen now is the one every match speaks, a resumed one too.
        await self.service.seen(self.human)
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
                    levels=", ".join(level_name(level, w) for level in LEVELS),
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
            lines.append(w.gettext("Unfinished matches:"))
            lines += [f"  {self._match_line(info)}" for info in unfinished]
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
            answer = await self.read_line(w.gettext("game> "))
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

    def _match_line(self, info: MatchInfo) -> str:
        """ "#7 Piquet against Tapis (easy)": which game, and against whom."""
        w = self.w
        others = [p for p in info.seats or () if p.user_id != self.human.user_id]
        opponent = others[0] if others else None
        level = level_of(opponent.user_id) if opponent is not None else None
        name = opponent.name if opponent is not None else NAME
        if level is not None:
            name = w.gettext("{name} ({level})").format(name=name, level=level_name(level, w))
        return w.gettext("#{id} {game} against {name}").format(
            id=info.id, game=wording.game_title(info.game, w), name=name
        )

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
                        levels=", ".join(f"`{level}`" for level in LEVELS),
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
        typed = [as_typed(move, self.w) for move in examples]
        return self.w.gettext(HELP).format(examples="   ".join(typed))

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
        elif lowered in COMMANDS["colours"]:
            self.four_colour = not self.four_colour
            await self.service.set_preferences(self.human.user_id, four_colour=self.four_colour)
            self.write(
                w.gettext("Four-colour deck on.")
                if self.four_colour
                else w.gettext("Four-colour deck off.")
            )
        elif lowered in COMMANDS["moves"]:
            view = await self.service.view_for(info.id, self.human.user_id)
            self.write(self._moves_text(info.game, list(view.get("legal_moves") or []), view))
        elif lowered in COMMANDS["hand"]:
            delivery = await self.service.hand_delivery(info.id, self.human.user_id)
            await self._deliver([delivery], full=True)
        elif lowered in COMMANDS["table"]:
            board = await self.service.board_delivery(info.id)
            await self._deliver([board], full=True)
        else:
            try:
                if lowered in COMMANDS["resign"]:
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
        shown = picture_cards(await self.service.view_for(info.id, self.human.user_id))
        listed = _listed_moves(legal, info.game, shown)[
            :MAX_NUMBERED
        ]  # as many as "moves" shows numbered
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

    def _moves_text(self, game: str, legal: list[str], view: Mapping[str, Any]) -> str:
        """The moves open, numbered; sets of cards (discards of any few of twelve) are said
        as what to type, never listed by the thousand."""
        w = self.w
        if not legal:
            return w.gettext("No move is open to you now.")
        numbered = _listed_moves(legal, game, picture_cards(view))
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
        """Show what Discord would show this player, as a host tells it at a table: the news
        of each move (who played what, who took the trick, a deal's breakdown), and their own
        hand with the table in words when it is their turn or when ``full`` (asked for).

        The challenge is not told: the computer takes it up at once, and its words are
        Discord's (buttons to press)."""
        self.news = set()
        for delivery in _story_order(deliveries):
            if delivery.to not in (None, self.human.user_id) or delivery.status == "challenge":
                continue  # the computer's hand stays hidden, as on Discord
            if delivery.kind in ("notice", "dm"):
                self.write(f"» {delivery.text}")
            elif delivery.kind == "board" and delivery.view is not None:
                await self._picture(delivery, "table.png")
                self._board(delivery, full=full)
            elif delivery.kind == "hand" and delivery.view is not None:
                await self._picture(delivery, "hand.png")
                self._hand(delivery, full=full)
        # Shown here is sent: the outbox must not keep them for a Discord start-up to send.
        await self.service.delivered(deliveries)

    def _board(self, delivery: Delivery, *, full: bool) -> None:
        """The table's news: the move, the trick it took (and by whom), a deal's breakdown.
        Asked for (``full``), the table itself in words."""
        view = delivery.view or {}
        names = self._names(delivery)
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

    def _hand(self, delivery: Delivery, *, full: bool) -> None:
        """The player's hand at their turn (or asked for): the hand's words as on Discord,
        the cards drawn since it was last seen, the table in words, the moves numbered."""
        view = delivery.view or {}
        hand = list(view.get("hand") or [])
        legal = view.get("legal_moves") or []
        if not (legal or full):
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
        moves = self._moves_text(delivery.game, legal, view)
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
        names = self._names(delivery)
        facts = table_facts(view, w, names)
        same_deal = before is not None and before[0] == deal
        known = self.facts.get(delivery.match_id, set()) if same_deal else set()
        self.facts[delivery.match_id] = set(facts)
        lines += [f for f in facts if f not in self.news and (full or f not in known)]
        lines += describe(view, w, names, table=False).split("\n")
        self.write("\n-- " + "\n".join([*lines, moves]))

    async def _picture(self, delivery: Delivery, name: str) -> None:
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
                self._names(delivery),
                four_colour=self.four_colour,
                words=self.w,
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


def _listed_moves(legal: list[str], game: str, shown: list[str] | None = None) -> list[str]:
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
        print(box.w.gettext("Database: {path}").format(path=service.where))
        return await box.run()
    finally:
        await computer.close()
        await service.close()
