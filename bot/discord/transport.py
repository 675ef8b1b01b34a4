"""Sending to Discord: the requests themselves, and what Discord's answers teach.

The courier (``bot.discord.courier``) decides what goes, when and in what order; this room
makes each request once it goes: it waits for a place in the rolling second (the gauge,
``pacing.py``), opens a player's DM channel once, and remembers what Discord refused for
good — a user whose DMs are closed (403, code 50007), a thread or channel deleted or closed
to the bot — since every refused request counts toward Discord's ban. It tells the service,
through callbacks, a player whose DMs turned out closed or open again and a DM channel it
opened (opening one is a request Discord counts: once per player, ever).
"""

from __future__ import annotations

import contextvars
import io
import logging
from collections.abc import Awaitable, Callable

import discord

from bot import i18n
from bot.discord.names import NO_PINGS, pings
from bot.discord.pacing import Gauge
from bot.discord.queue import Lane
from bot.service import Delivery, Place, wording

log = logging.getLogger("bot.discord.courier")
DMS_CLOSED = 50007
GONE = {10003, 50001, 50083}  # unknown channel, missing access, thread archived (locked)
UNKNOWN_CHANNEL = 10003
LIMIT = 2000
"""Characters Discord takes in a message's content."""

# Told when a player's DMs turn out closed (True) or open again (False), to store it.
DmsNoted = Callable[[int, bool], Awaitable[None]]
# Told of a DM channel just opened with a player (user id, channel id), to store it.
DmOpened = Callable[[int, int], Awaitable[None]]

# Whether the worker running this task holds a place in the rolling second already.
PREPAID: contextvars.ContextVar[int] = contextvars.ContextVar("prepaid", default=0)


def board_ping(mention: int, lang: str) -> str:
    """The line under a board that calls the player to move."""
    return "\n" + i18n.words(lang).gettext("{mention}, your move.").format(mention=f"<@{mention}>")


class Transport:
    """The bot's requests to Discord, paced by ``gauge``, and what refused them for good."""

    def __init__(
        self,
        bot: discord.Client,
        dms_noted: DmsNoted,
        *,
        dm_opened: DmOpened | None = None,
        gauge: Gauge | None = None,
    ) -> None:
        self.bot = bot  # only to reach Discord: what to send comes with each call
        self._dms_noted = dms_noted
        self._dm_opened = dm_opened
        self.gauge = gauge or Gauge()
        self._dm_channels: dict[int, int] = {}  # user id -> DM channel id, so DMs open once
        self._closed: set[int] = set()
        self._gone: set[int] = set()  # channels deleted or closed to the bot

    def knows_dm_channel(self, user_id: int, channel: int | None = None) -> bool:
        """Whether a DM to ``user_id`` goes without opening its channel first; ``channel``:
        theirs as stored (opened by an earlier process), known here from now on."""
        if channel is not None:
            self._dm_channels.setdefault(user_id, channel)
        return user_id in self._dm_channels

    def lane_free_at(self, lane: Lane) -> float:
        """When Discord's bucket for the lane's channel has room again."""
        kind, key = lane
        channel = self._dm_channels.get(key) if kind == "user" else key
        return self.gauge.free_at(channel)

    async def slot(self) -> None:
        """A place in the rolling second for one request: the one the worker took before it
        chose its message, else wait for one."""
        if PREPAID.get() > 0:
            PREPAID.set(PREPAID.get() - 1)
            return
        await self.gauge.slot()

    def heading(self, delivery: Delivery) -> str:
        """Which match a DM is about: server, channel (a link), match id."""
        place = delivery.place
        guild = self.bot.get_guild(place.guild_id) if place.guild_id else None
        parts = [f"**{guild.name}**" if guild else None]
        parts.append(f"<#{place.channel}>" if place.channel and not place.talk else None)
        w = i18n.words(delivery.lang)
        parts.append(
            w.gettext("{game} match #{id}").format(
                game=wording.game_title(delivery.game, w), id=delivery.match_id
            )
        )
        return " · ".join(p for p in parts if p) + "\n"

    async def post_now(
        self,
        channel_id: int,
        guild_id: int | None,
        text: str,
        picture: bytes | None,
        filename: str,
        components: discord.ui.View | None,
        mentions: discord.AllowedMentions,
        nonce: str | None,
    ) -> discord.Message | None:
        if channel_id in self._gone:
            return None
        # The channel as cached, if it is: a message posted there knows its server, and a
        # thread can be opened on it.
        cached = self.bot.get_channel(channel_id)
        channel: discord.abc.Messageable = (
            cached
            if isinstance(cached, discord.abc.Messageable)
            else self.bot.get_partial_messageable(channel_id, guild_id=guild_id)
        )
        await self.slot()
        try:
            return await channel.send(
                text[:LIMIT],
                file=png(picture, filename),
                view=components or discord.utils.MISSING,
                allowed_mentions=mentions,
                nonce=nonce,  # type: ignore[arg-type]  # None: no nonce (discord.py's default)
            )
        except discord.HTTPException as error:
            if error.code not in GONE:
                raise
            self._gone.add(channel_id)
            log.warning("channel %s is gone or closed to me (%s): no more posts there",
                        channel_id, error.code)  # fmt: skip
            return None

    async def dm(
        self,
        user_id: int,
        text: str,
        picture: bytes | None = None,
        components: discord.ui.View | None = None,
        *,
        closed: bool = False,
        retry: bool = False,
        nonce: str | None = None,
        channel: int | None = None,
    ) -> bool:
        """Send a DM; False (and remembered) when the user's DMs are closed.

        ``closed``: the delivery says they were known closed; ``retry`` tries all the same
        (the user asked for a DM) and notes them open again if it goes through. ``channel``:
        their DM channel as stored, if it was ever opened.
        """
        if not retry and self.dms_closed(user_id, closed):
            return False
        if channel is not None:
            self._dm_channels.setdefault(user_id, channel)
        try:
            try:
                await self._dm_send(user_id, text, picture, components, nonce)
            except discord.NotFound as error:
                if error.code != UNKNOWN_CHANNEL or user_id not in self._dm_channels:
                    raise
                # A DM channel remembered but unknown to Discord now: opened afresh, once.
                del self._dm_channels[user_id]
                await self._dm_send(user_id, text, picture, components, nonce)
        except discord.Forbidden as error:
            if error.code != DMS_CLOSED:
                raise
            self._closed.add(user_id)
            await self._dms_noted(user_id, True)
            return False
        if retry and (user_id in self._closed or closed):
            self._closed.discard(user_id)
            await self._dms_noted(user_id, False)
        return True

    async def _dm_send(
        self,
        user_id: int,
        text: str,
        picture: bytes | None,
        components: discord.ui.View | None,
        nonce: str | None,
    ) -> None:
        channel_id = self._dm_channels.get(user_id)
        if channel_id is None:
            await self.slot()
            data = await self.bot.http.start_private_message(user_id)
            channel_id = self._dm_channels[user_id] = int(data["id"])
            if self._dm_opened is not None:
                try:
                    await self._dm_opened(user_id, channel_id)
                except Exception:  # the DM goes all the same; a restart opens it again
                    log.exception("could not store the DM channel of user %s", user_id)
        channel = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
        await self.slot()
        await channel.send(
            text[:2000],
            file=png(picture, "hand"),
            view=components or discord.utils.MISSING,
            allowed_mentions=NO_PINGS,
            nonce=nonce,  # type: ignore[arg-type]  # None: no nonce (discord.py's default)
        )

    def dms_closed(self, user_id: int, known_closed: bool) -> bool:
        """Whether not to try a DM: closed as seen here, or as the delivery says."""
        if known_closed:
            self._closed.add(user_id)
        return user_id in self._closed

    # -- public ------------------------------------------------------------------------------

    async def public(
        self,
        place: Place,
        text: str,
        picture: bytes | None,
        mention: int | None,
        kind: str = "notice",
        *,
        components: discord.ui.View | None = None,
        nonce: str | None = None,
        lang: str = i18n.DEFAULT_LANG,
    ) -> None:
        channel_id = place.channel
        if channel_id is None or channel_id in self._gone:
            return  # nowhere to post, or a thread deleted: not asked again and again
        if mention is not None and f"<@{mention}>" not in text:
            if kind == "board":
                text += board_ping(mention, lang)
            else:
                text = f"<@{mention}> {text}"
        channel = self.bot.get_partial_messageable(channel_id, guild_id=place.guild_id)
        await self.slot()
        try:
            await channel.send(
                text[:2000],
                file=png(picture, "table"),
                view=components or discord.utils.MISSING,
                allowed_mentions=pings(mention),  # the one player meant, never a name's mention
                nonce=nonce,  # type: ignore[arg-type]  # None: no nonce (discord.py's default)
            )
        except discord.HTTPException as error:
            if error.code not in GONE:
                raise
            self._gone.add(channel_id)
            log.warning("channel %s is gone or closed to me (%s): no more posts there",
                        channel_id, error.code)  # fmt: skip


# A message with no nonce is sent with None, discord.py's own default: its MISSING would be
# sent as the nonce "...", the same for every such message, which Discord (enforce_nonce) then
# shows once per channel for a few minutes.


def png(data: bytes | None, name: str) -> discord.File:
    if data is None:
        return discord.utils.MISSING  # type: ignore[no-any-return]
    return discord.File(io.BytesIO(data), filename=f"{name}.png")
