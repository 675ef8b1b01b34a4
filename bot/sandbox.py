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
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import games
from bot.computer import DEFAULT_LEVEL, Computer, check_level, computer_player, level_of
from bot.service import Delivery, MatchInfo, MatchService, PlayerRef, ServiceError

# Discord ids are 17+ digits long, so this can never be a real user (nor can the computer's).
HUMAN_ID = 1
MAX_NUMBERED = 40
_BASE_KEYS = ("game", "seat", "hand", "to_move", "scores", "legal_moves", "result")

ReadLine = Callable[[str], Awaitable[str | None]]
Write = Callable[[str], None]

HELP = """\
Commands:
  <a move>      the same notation as on Discord, e.g.  play QS   discard 7S 9H   draw
  <number>      the move with that number in the list of your moves
  moves         list the moves open to you now
  hand          show your hand again          table   show the table again
  resign        give up this match            quit    leave (the match is kept: resume it later)
  colours       switch the four-colour deck on or off (in the pictures)
  help          this text"""


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


def describe(view: dict[str, Any]) -> str:
    """A view as text, for any game: the hand, the scores, then every other public fact."""
    lines = []
    if view.get("seat") is not None:
        lines.append("Your hand: " + (" ".join(view.get("hand") or []) or "(empty)"))
    scores = view.get("scores") or [0, 0]
    lines.append(f"Scores: {scores[0]} – {scores[1]}")
    for key, value in view.items():
        if key in _BASE_KEYS or value is None:
            continue
        lines.append(f"  {key.replace('_', ' ')}: {_compact(value)}")
    return "\n".join(lines)


def _compact(value: Any) -> str:
    """Nested view data on one line: lists of cards spaced, mappings as key=value."""
    if isinstance(value, dict):
        return "  ".join(f"{key}={_compact(item)}" for key, item in value.items())
    if isinstance(value, list):
        if not value:
            return "-"
        if all(isinstance(item, str | int | float) for item in value):
            return " ".join(str(item) for item in value)
        return " | ".join(_compact(item) for item in value)
    return "-" if value is None else str(value)


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
    ) -> None:
        self.service = service
        self.folder = folder
        self.read_line = read_line
        self.write = write
        self.level = check_level(level)
        self.computer = computer or Computer(service, processes=0)
        self.human = PlayerRef(HUMAN_ID, human_name or _user_name())
        self.pictures = _pictures()
        self.four_colour = False

    async def run(self) -> int:
        self.write(self._intro())
        profile = await self.service.player(self.human.user_id)
        self.four_colour = bool(profile and profile.four_colour)
        while True:
            match = await self._choose()
            if match is None:
                self.write("Goodbye. Your unfinished matches are kept for next time.")
                return 0
            if not await self._play(match):
                self.write("Goodbye. This match is kept: choose it again next time to go on.")
                return 0

    def _intro(self) -> str:
        pictures = (
            f"Pictures of your hand and of the table are written to {self.folder}/ "
            "(hand.png, table.png in each match's folder) after every move."
            if self.pictures
            else "Pictures are not available in this version: hands and tables are shown as text."
        )
        return (
            "Tapis — the local sandbox (no Discord needed).\n"
            f"You play against the computer, at level {self.level} unless you add level=easy,\n"
            "level=normal or level=strong after the game's name. Moves are typed exactly as on\n"
            "Discord. Matches are stored in the database like any other, so you can stop and\n"
            f"resume.\n{pictures}\n"
            "Type 'help' during a match for the commands."
        )

    # -- choosing a match -----------------------------------------------------------------
    async def _choose(self) -> MatchInfo | None:
        names = games.names()
        unfinished = [
            info
            for info in await self.service.matches_of(self.human.user_id)
            if info.status == "active"
        ]
        lines = ["", "Games:"]
        lines += [f"  {i}. {games.get(name).title} ({name})" for i, name in enumerate(names, 1)]
        sample = games.example()
        lines.append("Type a game's number or name (options as name=value, e.g.")
        if unfinished:
            lines.insert(-1, "Unfinished matches: " + ", ".join(f"#{m.id}" for m in unfinished))
            lines.append(f"'{sample.name} {sample.example_options}'), '#id' to resume a match,")
            lines.append("or 'quit'.")
        else:
            lines.append(f"'{sample.name} {sample.example_options}'), or 'quit'.")
        self.write("\n".join(lines))
        while True:
            answer = await self.read_line("game> ")
            if answer is None or answer.strip().lower() in ("quit", "exit", "q"):
                return None
            try:
                match = await self._start(answer.strip(), names, unfinished)
            except (ServiceError, ValueError) as error:
                self.write(f"Sorry: {error}")
                continue
            if match is not None:
                return match

    async def _start(
        self, answer: str, names: list[str], unfinished: list[MatchInfo]
    ) -> MatchInfo | None:
        if not answer:
            return None
        if answer.startswith("#"):
            wanted = int(answer[1:])
            for info in unfinished:
                if info.id == wanted:
                    self.write(f"Resuming match #{wanted}.")
                    await self._show_all(info)
                    return info
            raise ValueError(f"#{wanted} is not one of your unfinished matches")
        words = answer.split()
        if words[0].isdigit() and not 1 <= int(words[0]) <= len(names):
            raise ValueError(f"choose a number from 1 to {len(names)}")
        game = names[int(words[0]) - 1] if words[0].isdigit() else words[0]
        options = {}
        level = self.level
        for word in words[1:]:
            key, _, value = word.partition("=")
            if key.lower() == "level":
                level = check_level(value)
                continue
            if not value.lstrip("-").isdigit():
                raise ValueError(f"write options as name=number, like rounds=1, not {word!r}")
            options[key] = int(value)
        computer = computer_player(level)
        info, notices = await self.service.challenge(
            self.human, computer, game, guild_id=None, channel_id=None, options=options, rated=False
        )
        info, deliveries = await self.service.accept(info.id, computer)
        await self._deliver(notices + deliveries)
        return info

    # -- playing --------------------------------------------------------------------------
    async def _play(self, info: MatchInfo) -> bool:
        """Play ``info`` out; False if the player quit in the middle."""
        while info.status == "active":
            if level_of(info.to_move) is not None:
                info = await self._computer_moves(info)
                continue
            answer = await self.read_line(f"#{info.id} your move> ")
            if answer is None:
                return False
            command = answer.strip()
            if command.lower() in ("quit", "exit", "q"):
                return False
            info = await self._command(info, command)
        return True

    async def _computer_moves(self, info: MatchInfo) -> MatchInfo:
        info, deliveries = await self.computer.play_turns(info.id)
        await self._deliver(deliveries)
        return info

    async def _command(self, info: MatchInfo, command: str) -> MatchInfo:
        lowered = command.lower()
        if not command:
            return info
        if lowered in ("help", "?"):
            self.write(HELP)
        elif lowered in ("colours", "colors"):
            self.four_colour = not self.four_colour
            await self.service.set_preferences(self.human.user_id, four_colour=self.four_colour)
            self.write(f"Four-colour deck {'on' if self.four_colour else 'off'}.")
        elif lowered == "moves":
            self._list_moves(await self.service.legal_moves(info.id, self.human.user_id))
        elif lowered == "hand":
            delivery = await self.service.hand_delivery(info.id, self.human.user_id)
            await self._deliver([delivery], full=True)
        elif lowered in ("table", "board"):
            board = await self.service.board_delivery(info.id)
            await self._deliver([board])
            self.write(describe(board.view or {}))
        else:
            try:
                if lowered == "resign":
                    info, deliveries = await self.service.resign(info.id, self.human.user_id)
                else:
                    move = await self._numbered(info, command)
                    info, deliveries = await self.service.move(info.id, self.human.user_id, move)
            except ServiceError as error:
                self.write(f"Not accepted: {error}")
                await self._deliver(error.deliveries)  # too late: the loss on time is told
                return info
            await self._deliver(deliveries)
        return info

    async def _numbered(self, info: MatchInfo, command: str) -> str:
        if not command.isdigit():
            return command
        legal = await self.service.legal_moves(info.id, self.human.user_id)
        number = int(command)
        if not 1 <= number <= len(legal):
            return command  # the service explains what is accepted
        return legal[number - 1]

    def _list_moves(self, legal: list[str]) -> None:
        if not legal:
            self.write("No move is open to you now.")
            return
        shown = [f"{i}. {move}" for i, move in enumerate(legal[:MAX_NUMBERED], 1)]
        more = len(legal) - MAX_NUMBERED
        tail = f"\n  … and {more} more: type them out." if more > 0 else ""
        self.write("Your moves:  " + "   ".join(shown) + tail)

    async def _show_all(self, info: MatchInfo) -> None:
        await self._deliver(
            [
                await self.service.board_delivery(info.id),
                await self.service.hand_delivery(info.id, self.human.user_id),
            ],
            full=True,
        )

    # -- showing deliveries ---------------------------------------------------------------
    async def _deliver(self, deliveries: list[Delivery], *, full: bool = False) -> None:
        """Show what Discord would show this player: public messages, and their own DMs.

        The hand (which holds the table's public facts too) is shown in full when it is the
        player's turn, or when ``full`` (asked for)."""
        for delivery in deliveries:
            if delivery.to not in (None, self.human.user_id):
                continue  # the computer's hand stays hidden, as on Discord
            if delivery.kind in ("notice", "dm"):
                self.write(f"» {delivery.text}")
            elif delivery.kind == "board" and delivery.view is not None:
                self.write(f"== {delivery.text}")
                await self._picture(delivery, "table.png")
            elif delivery.kind == "hand" and delivery.view is not None:
                await self._picture(delivery, "hand.png")
                legal = delivery.view.get("legal_moves") or []
                if legal or full:
                    self.write(f"\n-- {delivery.text}\n{describe(delivery.view)}")
                    self._list_moves(legal)
        # Shown here is sent: the outbox must not keep them for a Discord start-up to send.
        await self.service.delivered(deliveries)

    async def _picture(self, delivery: Delivery, name: str) -> None:
        if self.pictures is None or delivery.view is None:
            return
        hand_png, table_png = self.pictures
        if name == "hand.png":
            data = await asyncio.to_thread(hand_png, delivery.view, four_colour=self.four_colour)
        else:
            names = delivery.names or ("seat 0", "seat 1")
            data = await asyncio.to_thread(
                table_png, delivery.view, names, four_colour=self.four_colour
            )
        path = self.folder / f"match-{delivery.match_id}" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def _user_name() -> str:
    try:
        return getpass.getuser().capitalize() or "You"
    except (OSError, KeyError):
        return "You"


async def run_sandbox(
    db_path: Path | str, *, durable: bool, folder: Path, level: str = DEFAULT_LEVEL
) -> int:
    service = await MatchService.open(db_path, durable=durable)
    computer = Computer(service, processes=1)
    try:
        print(f"Database: {service.database.describe}")
        return await Sandbox(service, folder=folder, level=level, computer=computer).run()
    finally:
        await computer.close()
        await service.close()
