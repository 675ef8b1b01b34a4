"""What the commands, buttons and actions need of the bot, written below them all.

``client.py``'s :class:`TapisBot` makes the cogs, the buttons' handler (:class:`Actions`) and
the courier, and each of those needs a few things of the bot back: the match service, the
courier's sending, Discord's channels. Were they to name ``TapisBot`` for that, every handler
would import the module that imports them all; they name :class:`Host` instead, which
``TapisBot`` satisfies (mypy checks it where ``client.py`` hands itself over).
"""

from __future__ import annotations

from typing import Protocol, cast

import discord

from bot.service import Delivery, MatchService

Channel = discord.abc.GuildChannel | discord.Thread | discord.abc.PrivateChannel


class Sender(Protocol):
    """What the handlers ask of the courier (``bot.discord.courier.Courier``)."""

    async def send(
        self,
        deliveries: list[Delivery],
        interaction: discord.Interaction | None = None,
        *,
        reply: str | None = None,
    ) -> bool: ...

    async def post(
        self,
        channel_id: int,
        text: str,
        *,
        guild_id: int | None = None,
        picture: bytes | None = None,
        filename: str = "table",
        components: discord.ui.View | None = None,
        mentions: discord.AllowedMentions = ...,
        nonce: str | None = None,
        level: int = ...,
    ) -> discord.Message | None: ...


class Presses(Protocol):
    """What a pressed button asks for (``bot.discord.actions.Actions``)."""

    async def play(
        self,
        interaction: discord.Interaction,
        match_id: int | None,
        move: str,
        *,
        expected_version: int | None = None,
    ) -> None: ...

    async def accept(self, interaction: discord.Interaction, match_id: int | None) -> None: ...

    async def decline(self, interaction: discord.Interaction, match_id: int | None) -> None: ...

    async def rematch(self, interaction: discord.Interaction, match_id: int) -> None: ...

    async def after_lesson(
        self, interaction: discord.Interaction, match_id: int, choice: str
    ) -> None: ...

    async def hand(
        self, interaction: discord.Interaction, match_id: int | None, where: str | None
    ) -> None: ...

    async def hint(self, interaction: discord.Interaction, match_id: int | None) -> None: ...

    async def answer_resign(
        self,
        interaction: discord.Interaction,
        match_id: int,
        user_id: int,
        asked: int,
        confirm: bool,
    ) -> None: ...


class Host(Protocol):
    """The bot as its handlers know it."""

    @property
    def service(self) -> MatchService: ...

    @property
    def courier(self) -> Sender: ...

    @property
    def actions(self) -> Presses: ...

    @property
    def user(self) -> discord.ClientUser | None: ...

    def get_channel(self, id: int, /) -> Channel | None: ...

    async def fetch_channel(self, channel_id: int, /) -> Channel: ...


def host_of(interaction: discord.Interaction) -> Host:
    """The bot that received ``interaction`` (always a ``TapisBot``), as a handler knows it."""
    return cast(Host, interaction.client)


async def channel_of(host: Host, channel_id: int | None) -> discord.abc.Messageable | None:
    """A channel or thread to post in, fetched if not cached; None if it is gone."""
    if channel_id is None:
        return None
    channel = host.get_channel(channel_id)
    if channel is None:
        try:
            channel = await host.fetch_channel(channel_id)
        except discord.HTTPException:
            return None
    return channel if isinstance(channel, discord.abc.Messageable) else None
