"""A conversation's share of the courier: the boards and notices of matches the bot is no
member of, said as follow-ups of an interaction made there (``talk.py`` decides which and
how many); what finds no interaction waits for the next one."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable

import discord

from bot import i18n
from bot.discord import talk
from bot.discord.components import hand_button, release
from bot.discord.names import pings
from bot.discord.transport import LIMIT, board_ping, png
from bot.discord.triage import board_words
from bot.service import Delivery

log = logging.getLogger(__name__)


class Conversations:
    """Matches in conversations: their interactions, and what waits for one."""

    def __init__(
        self,
        picture: Callable[[Delivery], Awaitable[bytes | None]],
        mark: Callable[[Delivery], None],
    ) -> None:
        self._picture = picture
        self._mark = mark
        self.talks = talk.Talks()
        self.held: dict[int, list[Delivery]] = {}  # a conversation's DMs that could not go
        self._spoken: set[int] = set()  # outbox rows said in a conversation: never twice
        self._speaking = asyncio.Lock()  # one interaction's follow-ups at a time

    def hold(self, delivery: Delivery) -> None:
        """A DM that could not go, said with the next interaction in its match instead; its
        outbox row is marked once said (found again after a restart, it is held again)."""
        if delivery.outbox_id in self._spoken or self.holds(delivery):
            return
        self.held.setdefault(delivery.match_id, []).append(delivery)

    def holds(self, delivery: Delivery) -> bool:
        """Whether ``delivery``'s outbox row waits here to be said."""
        row = delivery.outbox_id
        waiting = self.held.get(delivery.match_id, [])
        return row is not None and any(d.outbox_id == row for d in waiting)

    async def speak(self, spoken: list[Delivery], interaction: discord.Interaction | None) -> None:
        """Boards and notices of matches in conversations, as follow-ups of an interaction
        made there (see talk.py); what finds none stays unsent, for the next one. A DM that
        could not go in such a match (held) goes with it too."""
        async with self._speaking:
            await self._speak_now(spoken, interaction)

    async def _speak_now(
        self, spoken: list[Delivery], interaction: discord.Interaction | None
    ) -> None:
        by_match: dict[int, list[Delivery]] = {}
        for delivery in spoken:
            if delivery.outbox_id not in self._spoken:  # two flows may find the same row
                by_match.setdefault(delivery.match_id, []).append(delivery)
        if interaction is not None:
            for match_id in self.held:
                by_match.setdefault(match_id, [])
        for match_id, fresh in by_match.items():
            items = [*self.held.get(match_id, []), *fresh]
            carrier = self.talks.carrier(match_id, items[0].place.channel, interaction)
            if carrier is None:
                continue
            held = self.held.pop(match_id, [])
            told: list[Delivery] = []
            words = functools.partial(board_words, i18n.words(items[-1].lang))
            for said in talk.compose(items, words, board_ping):
                if self.talks.left(carrier) <= 0 or not await self._say(carrier, said, match_id):
                    break
                told.extend(said.told)
            # A held DM not said yet waits for the next interaction still (the others are in
            # the outbox, where the next one finds them).
            for delivery in held:
                if not any(delivery is t for t in told):
                    self.hold(delivery)

    async def _say(self, carrier: discord.Interaction, said: talk.Said, match_id: int) -> bool:
        """One follow-up in a conversation; its deliveries marked sent once it went (True)."""
        picture = None if said.board is None else await self._picture(said.board)
        active = any(d.status == "active" for d in said.told)
        components = hand_button(match_id, i18n.words(said.told[-1].lang)) if active else None
        self.talks.spend(carrier)
        try:
            await carrier.followup.send(
                said.text[:LIMIT] or "\u200b",
                file=png(picture, "table"),
                view=components or discord.utils.MISSING,
                allowed_mentions=pings(said.mention),
            )
        except discord.HTTPException:
            log.warning("could not answer in the conversation of match %s", match_id)
            return False
        finally:
            release(components)
        for delivery in said.told:
            if delivery.outbox_id is not None:
                self._spoken.add(delivery.outbox_id)
                self._mark(delivery)
        return True
