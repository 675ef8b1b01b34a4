"""The sandbox's loop: choose a game (or resume a match), play it out against the computer
through the match service, choose again or quit."""

from __future__ import annotations

import logging
from pathlib import Path

import games
from bot import i18n
from bot.sandbox.commands import (
    COMMANDS,
    HELP,
    HELP_WORDS,
    LEARN_WORDS,
    QUIT,
    RULES_WORDS,
    YES,
    as_typed,
)
from bot.sandbox.screen import MAX_NUMBERED, Screen, listed_moves, picture_cards
from bot.sandbox.terminal import ReadLine, Write, as_shown, environment_lang, read_stdin, user_name
from bot.service import Delivery, MatchInfo, MatchService, PlayerRef, ServiceError, wording
from bot.service.coach import Coach
from bot.service.computer import (
    DEFAULT_LEVEL,
    LEVELS,
    NAME,
    Computer,
    check_level,
    computer_player,
    level_description,
    level_name,
    level_named,
    level_of,
)
from bot.service.standings import game_name
from bot.service.wording import rules_text
from games.words import N_

log = logging.getLogger("bot.sandbox")
SORRY = N_("Something went wrong on my side; nothing more was changed. Please try again.")
# Discord ids are 17+ digits long, so this can never be a real user (nor can the computer's).
HUMAN_ID = 1


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
        self.write: Write = lambda text: write(as_shown(text, self.lang))
        self.level = check_level(level)
        self.computer = computer or Computer(service, processes=0)
        # Hints are weighed in the computer's own workers, off the loop as on Discord.
        self.coach = Coach(service, self.computer.workers)
        self.w = i18n.words(self.lang)
        # The player's language is remembered like a Discord member's, so that their hand
        # speaks it; the sandbox's public posts (made outside any server) speak it too.
        self.human = PlayerRef(HUMAN_ID, human_name or user_name(), self.lang)
        service.languages.outside = self.lang
        self.screen = Screen(
            service,
            human_id=HUMAN_ID,
            computer_name=computer_player(self.level).name,
            folder=folder,
            write=self.write,
            w=self.w,
        )
        self.game: str | None = None

    async def run(self) -> int:
        self.write(self._intro())
        # The language chosen now is the one every match speaks, a resumed one too.
        await self.service.seen(self.human)
        profile = await self.service.player(self.human.user_id)
        self.screen.four_colour = bool(profile and profile.four_colour)
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
            if self.screen.pictures
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
        if lowered.split()[0] in LEARN_WORDS:
            return await self._learn(answer.split()[1:], names)
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
            + " "
            + level_description(level, w)
        )
        await self._deliver(notices + deliveries)
        return info

    async def _learn(self, asked: list[str], names: list[str]) -> MatchInfo | None:
        """Start the lesson of the game asked for (by name or number): a prepared deal
        against the computer as a teacher, its notes told with the hand at each step."""
        w = self.w
        if not asked:
            self.write(w.gettext("Which game? Type “learn” and its name, e.g. “learn piquet”."))
            return None
        chosen = asked[0]
        if chosen.isdigit() and 1 <= int(chosen) <= len(names):
            chosen = names[int(chosen) - 1]
        info, deliveries = await self.service.learn(
            self.human, chosen, guild_id=None, channel_id=None
        )
        self.write(
            w.gettext(
                "A lesson of {game}: {name} deals prepared cards and says what each step "
                "teaches. Play the moves it asks for; “hint” and “rules” work here too."
            ).format(game=wording.game_title(info.game, w), name=NAME)
        )
        await self._deliver(deliveries)
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
            self.screen.four_colour = not self.screen.four_colour
            await self.service.set_preferences(
                self.human.user_id, four_colour=self.screen.four_colour
            )
            self.write(
                w.gettext("Four-colour deck on.")
                if self.screen.four_colour
                else w.gettext("Four-colour deck off.")
            )
        elif lowered in COMMANDS["hint"]:
            try:
                said = await self.coach.hint(info.id, self.human.user_id, w)
            except ServiceError as error:
                said = error.say(w)
            self.write(said.replace("**", ""))  # Discord's markup is not a terminal's
        elif lowered in COMMANDS["moves"]:
            view = await self.service.view_for(info.id, self.human.user_id)
            self.write(self.screen.moves_text(info.game, list(view.get("legal_moves") or []), view))
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
        listed = listed_moves(legal, info.game, shown)[
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

    async def _show_all(self, info: MatchInfo) -> None:
        self.game = info.game
        await self._deliver(
            [
                await self.service.board_delivery(info.id),
                await self.service.hand_delivery(info.id, self.human.user_id),
            ],
            full=True,
        )

    async def _deliver(self, deliveries: list[Delivery], *, full: bool = False) -> None:
        """Show what Discord would show this player (see ``Screen.deliver``)."""
        await self.screen.deliver(deliveries, full=full)


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
