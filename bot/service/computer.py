"""The computer opponent's seat: who it is, and the turns it plays through the service.

The computer is an ordinary player of the match service, with an id of its own per level (ids
far below any Discord id, which are 17 digits or more), so its level is stored with every
match it plays and survives a restart without a column of its own. It moves only through the
service's public calls — view, move — like a person pressing buttons, and decides in a worker
process (``ai.choose`` is pure and CPU-bound), so the event loop never waits on a search.

Matches against the computer are not rated: a rating measures people against people.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
from collections.abc import Awaitable, Callable
from typing import Final

import ai
import ai.coach
from bot.process.workers import Workers
from bot.service.computer_ids import COMPUTER_IDS as COMPUTER_IDS
from bot.service.computer_ids import DEFAULT_LEVEL as DEFAULT_LEVEL
from bot.service.computer_ids import LEGACY_ID as LEGACY_ID
from bot.service.computer_ids import is_computer as is_computer
from bot.service.computer_ids import level_of as level_of
from bot.service.match_service import MatchService
from bot.service.values import (
    TEACHER_ID,
    Conflict,
    Delivery,
    MatchInfo,
    PlayerRef,
    ServiceError,
)
from games.words import N_, Words

log = logging.getLogger(__name__)

LEVELS = ai.LEVELS  # the front ends offer these, from here: they never import the computer
LEVEL_NAMES = {"easy": N_("easy"), "normal": N_("normal"), "strong": N_("strong")}
"""Each level as players read it (a level is typed as its English name, like a move word)."""
NAME = "Tapis"
DECISION_PATIENCE: Final = 60.0
"""Seconds a decision waits for the worker: a strong one takes a second of one core at most,
so one not back in this long never will be, and is decided here instead."""

Send = Callable[[list[Delivery]], Awaitable[None]]


def check_level(level: str | None) -> str:
    """A level's name, or ValueError saying which exist."""
    chosen = DEFAULT_LEVEL if level is None else level.strip().lower()
    if chosen not in COMPUTER_IDS:
        raise ValueError(f"unknown level {level!r}: levels are {', '.join(ai.LEVELS)}")
    return chosen


def computer_player(level: str | None = None) -> PlayerRef:
    """The computer at ``level`` as a player. Its name is "Tapis" at every level: a player's
    name is one for all readers (it is stored once, and the computer plays in every server
    and language), so it holds no word to translate; the level is said where it is chosen."""
    chosen = check_level(level)
    return PlayerRef(COMPUTER_IDS[chosen], NAME)


def level_name(level: str, words: Words) -> str:
    """A level's name in the reader's language ("facile", "lätt")."""
    return words.gettext(LEVEL_NAMES[level])


LEVEL_CHOICES = {
    "easy": N_("easy: rules of thumb, a gentle first opponent"),
    "normal": N_("normal: thinks ahead, beats easy"),
    "strong": N_("strong: thinks furthest, beats normal; hints come from it"),
}
"""Each level as a menu offers it (Discord's choices, at most 100 characters): its name and
what it is like, in a few words; ``level_description`` says it in full."""


def level_description(level: str, words: Words) -> str:
    """What playing ``level`` is like, in a sentence or two of the reader's language."""
    return ai.coach.level_description(level, words)


def level_named(word: str, words: Words) -> str | None:
    """The level ``word`` names, in English (as typed on Discord) or as ``level_name`` says it
    in the reader's language ("fort"); None if it names none."""
    word = word.strip().lower()
    return next((lv for lv in ai.LEVELS if word in (lv, level_name(lv, words).lower())), None)


def for_people(deliveries: list[Delivery]) -> list[Delivery]:
    """The deliveries a person should get: nothing private to the computer (its hand), and
    no mention of it (it has no Discord account to notify)."""
    kept = []
    for delivery in deliveries:
        if is_computer(delivery.to):
            continue
        if is_computer(delivery.mention):
            delivery = dataclasses.replace(delivery, mention=None)
        kept.append(delivery)
    return kept


def computer_turns(deliveries: list[Delivery]) -> list[int]:
    """The matches in which these deliveries put the computer to move: its own hand, sent
    with the change, offers it moves."""
    return list(
        dict.fromkeys(
            d.match_id
            for d in deliveries
            if d.kind == "hand"
            and is_computer(d.to)
            and d.status == "active"
            and d.view is not None
            and d.view.get("legal_moves")
        )
    )


def computer_to_move(info: MatchInfo) -> int | None:
    """The computer's id if the match is going on and it is the computer's turn."""
    if info.status == "active" and is_computer(info.to_move):
        return info.to_move
    return None


class Computer:
    """Plays the computer's turns of any match: at once for the sandbox, or in the background
    after a short pause (as a person would think) for Discord."""

    def __init__(self, service: MatchService, *, pause: float = 0.0, processes: int = 1) -> None:
        self.service = service
        self.pause = pause
        # One worker process by default: a strong decision takes up to a second of one core,
        # and the drawing workers need the others. Without processes (tests) a thread does.
        self.workers = Workers("computer", processes, patience=DECISION_PATIENCE)
        self._tasks: dict[int, asyncio.Task[None]] = {}

    async def decide(self, game: str, view: dict[str, object], level: str, seed: int) -> str:
        return await self.workers.run(ai.choose, game, view, level, seed)

    async def turn(self, match_id: int) -> tuple[MatchInfo, list[Delivery]] | None:
        """Play one move if it is the computer's turn; None if it is not (or no longer)."""
        info = await self.service.get(match_id)
        computer_id = computer_to_move(info)
        if computer_id is None:
            return None
        level = level_of(computer_id)
        assert level is not None
        view = await self.service.view_for(match_id, computer_id)
        # The seed is fixed by the match and the moment: replaying a position gives the same
        # move, and no two positions share their random numbers.
        seed = match_id * 1_000_003 + info.version
        move = await self.service.lesson_move(match_id)  # a lesson's reply, if it is one
        if move is None:
            move = await self.decide(info.game, view, level, seed)
        try:
            return await self.service.move(
                match_id, computer_id, move, expected_version=info.version
            )
        except Conflict:
            return None  # the match moved on meanwhile (a resignation, a timeout)

    async def play_turns(self, match_id: int) -> tuple[MatchInfo, list[Delivery]]:
        """Every computer move due now, with all they deliver (the sandbox's way)."""
        deliveries: list[Delivery] = []
        info = await self.service.get(match_id)
        while computer_to_move(info) is not None:
            if self.pause:
                await asyncio.sleep(self.pause)
            played = await self.turn(match_id)
            if played is None:
                break
            info, delivered = played
            deliveries.extend(delivered)
        return info, deliveries

    def schedule(self, match_id: int, send: Send) -> None:
        """Play the computer's turns of ``match_id`` in the background, each after the pause,
        sending what each move delivers; nothing if a task for it already runs."""
        running = self._tasks.get(match_id)
        if running is not None and not running.done():
            return
        task = asyncio.create_task(self._drive(match_id, send), name=f"computer-{match_id}")
        self._tasks[match_id] = task
        task.add_done_callback(lambda done: self._forget(match_id, done))

    def _forget(self, match_id: int, task: asyncio.Task[None]) -> None:
        if self._tasks.get(match_id) is task:
            del self._tasks[match_id]

    async def _drive(self, match_id: int, send: Send) -> None:
        try:
            while True:
                info = await self.service.get(match_id)
                if computer_to_move(info) is None:
                    return
                await asyncio.sleep(self.pause)
                played = await self.turn(match_id)
                if played is None:
                    return
                await send(played[1])
        except ServiceError as error:
            log.info("the computer stops in match %s: %s", match_id, error)
        except Exception:
            log.exception("the computer failed in match %s", match_id)

    async def resume(self, send: Send) -> int:
        """After a restart: take up every match where it is the computer's turn."""
        resumed = 0
        for computer_id in (*COMPUTER_IDS.values(), LEGACY_ID, TEACHER_ID):
            for info in await self.service.matches_of(computer_id):
                if computer_to_move(info) is not None:
                    self.schedule(info.id, send)
                    resumed += 1
        return resumed

    async def idle(self) -> None:
        """Wait until no computer turn is being played (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)

    async def close(self) -> None:
        for task in list(self._tasks.values()):
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(*list(self._tasks.values()), return_exceptions=True)
        self.workers.close()
