"""Matches in conversations the bot is no member of: answers to interactions, nothing else.

Tapis installed to a person's account is offered in their DMs and group DMs with friends and
in servers that never invited it. There Discord lets the app speak only by answering the
interactions made there: the first answer within 3 s, then at most
:data:`FOLLOWUPS` follow-ups per interaction, within the 15 minutes its token lives (and in a
server that turned *Use External Apps* off, only privately). A post of its own is refused
(403, code 50001).

So a match made there (its ``Place.talk``) has no channel to post in: what the outbox owes
its conversation (boards, notices) goes as a follow-up of an interaction made in that
conversation about that match: the move that made it, or the latest one still alive. When
none is, the delivery stays unsent in the outbox and goes with the next interaction in that
match (``MatchService.unsent_of``), whatever the time since: a move made two days later
carries the board of the move before, if that one found no interaction to go with.

The interaction tokens are transport data: kept here, in memory, never in the database; a
restart forgets them and the next interaction brings a fresh one.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import discord

from bot.service import Delivery

FOLLOWUPS = 5
"""Follow-ups Discord allows an interaction of an app that is no member where it is used."""
RESERVED = 1
"""Follow-ups a flow keeps for its own last words (a confirmation, a refusal)."""
TOKEN_LIFE = 14 * 60.0
"""Seconds an interaction is used for follow-ups: within Discord's 15 minutes, with room
for a message drawn and sent."""


def talks(interaction: discord.Interaction) -> bool:
    """Whether ``interaction`` was made where the bot is no member: a DM or group DM between
    people, or a server that has Tapis only through a member's own install. The bot's own DM
    with someone is not one of them: the bot may always write there."""
    context = interaction.context
    if context.private_channel:
        return True
    return interaction.guild_id is not None and not interaction.is_guild_integration()


def in_bot_dm(interaction: discord.Interaction) -> bool:
    """Whether ``interaction`` came from the user's DM with the bot, which only they read."""
    return interaction.guild_id is None and not interaction.context.private_channel


def is_command(interaction: discord.Interaction) -> bool:
    """A slash command (its answer begins as a "thinking" only its invoker sees)."""
    return interaction.type == discord.InteractionType.application_command


def home_guild(interaction: discord.Interaction) -> int | None:
    """The server a match made by ``interaction`` belongs to: the interaction's server when
    Tapis is installed there, else none (a match between friends, rated everywhere alone)."""
    return None if talks(interaction) else interaction.guild_id


@dataclass
class _Live:
    interaction: discord.Interaction
    channel_id: int
    since: float  # by the courier's clock


class Talks:
    """The live interactions of matches in conversations, and the follow-ups each spent."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._live: dict[int, _Live] = {}  # match id -> the latest interaction in its place
        self._spent: dict[int, tuple[float, int]] = {}  # interaction id -> (since, follow-ups)

    def heard(
        self, match_id: int, channel_id: int | None, interaction: discord.Interaction
    ) -> None:
        """An interaction about ``match_id`` made in its conversation (``channel_id``): the
        one its later messages go with, while it lives."""
        if channel_id is None or interaction.channel_id != channel_id:
            return
        since = self._since(interaction)
        current = self._live.get(match_id)
        if current is None or current.since <= since:
            self._live[match_id] = _Live(interaction, channel_id, since)
        self._forget_old()

    def _since(self, interaction: discord.Interaction) -> float:
        known = self._spent.get(interaction.id)
        if known is None:
            known = self._spent[interaction.id] = (self.clock(), 0)
        return known[0]

    def left(self, interaction: discord.Interaction) -> int:
        """Follow-ups ``interaction`` may still carry for a match's messages (0 when its token
        is too old), keeping :data:`RESERVED` for its flow's own words."""
        since, used = self._spent.get(interaction.id, (self.clock(), 0))
        if self.clock() - since > TOKEN_LIFE:
            return 0
        return max(0, FOLLOWUPS - RESERVED - used)

    def spend(self, interaction: discord.Interaction) -> None:
        """One follow-up of ``interaction`` sent."""
        since, used = self._spent.get(interaction.id, (self.clock(), 0))
        self._spent[interaction.id] = (since, used + 1)

    def carrier(
        self, match_id: int, channel_id: int | None, interaction: discord.Interaction | None
    ) -> discord.Interaction | None:
        """The interaction a message of ``match_id`` goes with: ``interaction`` if it was made
        in the match's conversation, else the match's latest one still alive; None if none
        is (the message waits for the next interaction in that match)."""
        if interaction is not None and channel_id is not None:
            self.heard(match_id, channel_id, interaction)
        live = self._live.get(match_id)
        if live is None or self.left(live.interaction) <= 0:
            return None
        return live.interaction

    def _forget_old(self) -> None:
        now = self.clock()
        if len(self._spent) > 256:
            self._spent = {k: v for k, v in self._spent.items() if now - v[0] <= TOKEN_LIFE}
        if len(self._live) > 256:
            self._live = {k: v for k, v in self._live.items() if now - v.since <= TOKEN_LIFE}


@dataclass(frozen=True)
class Said:
    """One follow-up of a conversation: its text, the board whose picture it carries, the
    player it pings, and the deliveries it tells (marked sent once it went)."""

    text: str
    board: Delivery | None
    mention: int | None
    told: tuple[Delivery, ...]


def compose(
    items: list[Delivery],
    board_words: Callable[[Delivery, list[Delivery], int], str],
    ping: Callable[[int, str], str],
    limit: int = 2000,
) -> list[Said]:
    """A match's waiting messages as few follow-ups as Discord's length allows, in order:
    each notice's text; of the boards only the latest, telling the earlier ones' moves too
    (``board_words(board, earlier, room)``), with its picture and ``ping`` of the player to
    move. Follow-ups are few (:data:`FOLLOWUPS`), so they are filled up."""
    boards = [d for d in items if d.kind == "board"]
    last = boards[-1] if boards else None
    said: list[Said] = []
    text, board, told = "", None, []
    for item in items:
        if item.kind == "board" and item is not last:
            told.append(item)  # its moves are told by the last board
            continue
        if item is last:
            mention = last.mention if last.status == "active" else None
            tail = "" if mention is None else ping(mention, last.lang)
            part = board_words(last, boards[:-1], limit - len(tail)) + tail
        else:
            part = item.text[:limit]
        if text and len(text) + 2 + len(part) > limit:
            said.append(Said(text, board, _mention(board), tuple(told)))
            text, board, told = "", None, []
        text = f"{text}\n\n{part}" if text else part
        told.append(item)
        if item is last:
            board = last
    if text or told:
        said.append(Said(text, board, _mention(board), tuple(told)))
    return said


def _mention(board: Delivery | None) -> int | None:
    return board.mention if board is not None and board.status == "active" else None
