"""Sending the service's deliveries to Discord: hands by DM, boards and notices in threads.

Pictures are drawn off the event loop, in worker processes (painter.py), all of a batch's
pictures at once; then the messages go out in the order the service gave. A user whose DMs
are closed (403, code 50007) is remembered — Discord counts every refused request toward a ban — and
gets their hand as a private reply to their next interaction instead; the match thread tells
them how to open DMs, never what they hold.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import time
from typing import TYPE_CHECKING

import discord

import games
from bot.computer import computer_to_move, for_people
from bot.discord.components import moves_view, rematch_view
from bot.discord.painter import Painter
from bot.service import Delivery, MatchInfo, MatchService, PlayerRecord

if TYPE_CHECKING:
    from bot.discord.client import TapisBot

log = logging.getLogger(__name__)
DMS_CLOSED = 50007
RECORD_SECONDS = 60.0
PUBLIC_MENTIONS = discord.AllowedMentions(everyone=False, roles=False, users=True)


class Courier:
    def __init__(self, bot: TapisBot) -> None:
        self.bot = bot
        self._dm_channels: dict[int, int] = {}  # user id -> DM channel id, so DMs open once
        self._closed: set[int] = set()
        self._told: set[tuple[int, int]] = set()  # (match, user) told in the thread about DMs
        self._last_hand: dict[tuple[int, int], str] = {}  # (match, user) -> what they last got
        self._records: dict[int, tuple[float, PlayerRecord | None]] = {}
        self._rematch_offered: set[int] = set()
        self.painter = Painter()

    @property
    def service(self) -> MatchService:
        return self.bot.service

    # -- the batch ---------------------------------------------------------------------------

    async def send(
        self, deliveries: list[Delivery], interaction: discord.Interaction | None = None
    ) -> None:
        """Send every delivery; ``interaction`` lets its user's hand fall back to a private
        reply when their DMs are closed.

        The order is kept for each destination (a thread, a player's DMs) while different
        destinations are served at once. A hand identical to the last one that player got
        (same cards, same moves, same words) is not sent again, except to the player who just
        acted, whose buttons were used up.
        """
        acting = interaction.user.id if interaction is not None else None
        deliveries = [d for d in for_people(deliveries) if not self._repeated(d, acting)]
        if not deliveries:
            return
        infos: dict[int, MatchInfo] = {}
        for match_id in dict.fromkeys(d.match_id for d in deliveries):
            infos[match_id] = await self.service.get(match_id)
        computer = self.bot.computer
        if computer is not None:
            # Whatever put the computer to move (a move, an acceptance, a rematch), its turn
            # is played in the background once this batch is out.
            for info in infos.values():
                if computer_to_move(info) is not None:
                    computer.schedule(info.id, self.send)
        pictures = await asyncio.gather(*(self.picture(d) for d in deliveries))
        lanes: dict[tuple[str, int], list[tuple[Delivery, bytes | None]]] = {}
        for delivery, picture in zip(deliveries, pictures, strict=True):
            private = delivery.kind in ("hand", "dm")
            lane = ("user", delivery.to or 0) if private else ("match", delivery.match_id)
            lanes.setdefault(lane, []).append((delivery, picture))
        await asyncio.gather(
            *(self._send_lane(lane, infos, interaction) for lane in lanes.values())
        )
        for info in infos.values():
            if info.status == "finished" and any(
                d.kind == "notice" and d.match_id == info.id for d in deliveries
            ):
                await self.offer_rematch(info)

    async def offer_rematch(self, info: MatchInfo) -> None:
        """Under a finished match, a button for another one on the same terms."""
        if info.id in self._rematch_offered or info.seats is None:
            return
        self._rematch_offered.add(info.id)
        names = " and ".join(p.name for p in info.seats)
        try:
            await self.public(
                info, f"{names}: another match?", None, None, view=rematch_view(info.id)
            )
        except discord.HTTPException:
            log.exception("could not offer a rematch of match %s", info.id)

    async def _send_lane(
        self,
        lane: list[tuple[Delivery, bytes | None]],
        infos: dict[int, MatchInfo],
        interaction: discord.Interaction | None,
    ) -> None:
        for delivery, picture in lane:
            try:
                await self._send_one(delivery, picture, infos[delivery.match_id], interaction)
            except discord.HTTPException:
                log.exception("could not send %s of match %s", delivery.kind, delivery.match_id)

    def _repeated(self, delivery: Delivery, acting: int | None) -> bool:
        if delivery.kind != "hand" or delivery.to is None or delivery.view is None:
            return False
        view = delivery.view
        key = delivery.text + json.dumps(
            [view.get("hand"), view.get("legal_moves"), view.get("to_move")], sort_keys=True
        )
        slot = (delivery.match_id, delivery.to)
        if self._last_hand.get(slot) == key and delivery.to != acting:
            return True
        self._last_hand[slot] = key
        return False

    def forget(self, user_id: int) -> None:
        """Read the player's preferences afresh next time (they just changed them)."""
        self._records.pop(user_id, None)

    async def record(self, user_id: int) -> PlayerRecord | None:
        """The player's stored preferences, read at most once a minute."""
        now = time.monotonic()
        cached = self._records.get(user_id)
        if cached is None or now - cached[0] > RECORD_SECONDS:
            cached = (now, await self.service.player(user_id))
            self._records[user_id] = cached
        return cached[1]

    async def picture(self, delivery: Delivery) -> bytes | None:
        if delivery.view is None or delivery.kind not in ("hand", "board"):
            return None
        four_colour = False
        if delivery.to is not None:
            record = await self.record(delivery.to)
            four_colour = bool(record and record.four_colour)
        if delivery.kind == "hand":
            return await self.painter.hand(delivery.view, four_colour)
        return await self.painter.table(delivery.view, delivery.names or ("seat 1", "seat 2"))

    async def _send_one(
        self,
        delivery: Delivery,
        picture: bytes | None,
        info: MatchInfo,
        interaction: discord.Interaction | None,
    ) -> None:
        if delivery.kind == "hand":
            await self.hand(delivery, picture, info, interaction)
        elif delivery.kind == "dm":
            if not await self.dm(delivery.to or 0, self.heading(info) + delivery.text):
                await self.public(info, f"<@{delivery.to}> {delivery.text}", None, delivery.to)
        else:
            await self.public(info, delivery.text, picture, delivery.mention, delivery.kind)

    # -- private -----------------------------------------------------------------------------

    def heading(self, info: MatchInfo) -> str:
        """Which match a DM is about: server, channel (a link), match id."""
        guild = self.bot.get_guild(info.guild_id) if info.guild_id else None
        place = info.thread_id or info.channel_id
        parts = [f"**{guild.name}**" if guild else None, f"<#{place}>" if place else None]
        title = games.get(info.game).title
        parts.append(f"{title} match #{info.id}")
        return " · ".join(p for p in parts if p) + "\n"

    async def hand(
        self,
        delivery: Delivery,
        picture: bytes | None,
        info: MatchInfo,
        interaction: discord.Interaction | None,
    ) -> bool:
        """The hand by DM, else privately to the interaction's user; False if neither."""
        assert delivery.to is not None and delivery.view is not None
        text = self.heading(info) + delivery.text
        legal = list(delivery.view.get("legal_moves") or [])
        view = moves_view(delivery.match_id, info.version, legal)
        if await self.dm(delivery.to, text, picture, view):
            return True
        await self.tell_dms_closed(info, delivery.to)
        if interaction is not None and interaction.user.id == delivery.to:
            await interaction.followup.send(
                text[:2000], file=_png(picture, "hand"), view=view or discord.utils.MISSING,
                ephemeral=True,
            )  # fmt: skip
            return True
        return False

    async def tell_dms_closed(self, info: MatchInfo, user_id: int) -> None:
        if (info.id, user_id) in self._told:
            return
        self._told.add((info.id, user_id))
        await self.public(
            info,
            f"<@{user_id}>, I cannot send you your hand: your direct messages are closed to me. "
            "Use `/hand` here to see it privately. To get it by DM after each move, open this "
            "server's menu → Privacy Settings → allow direct messages, then use `/hand` with "
            "`where: DM`.",
            None,
            user_id,
        )

    async def dm(
        self,
        user_id: int,
        text: str,
        picture: bytes | None = None,
        view: discord.ui.View | None = None,
        *,
        retry: bool = False,
    ) -> bool:
        """Send a DM; False (and remembered) when the user's DMs are closed."""
        if not retry and await self.dms_closed(user_id):
            return False
        try:
            channel_id = self._dm_channels.get(user_id)
            if channel_id is None:
                data = await self.bot.http.start_private_message(user_id)
                channel_id = self._dm_channels[user_id] = int(data["id"])
            channel = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
            await channel.send(
                text[:2000], file=_png(picture, "hand"), view=view or discord.utils.MISSING
            )
        except discord.Forbidden as error:
            if error.code != DMS_CLOSED:
                raise
            self._closed.add(user_id)
            self._records.pop(user_id, None)
            await self.service.set_dms_closed(user_id, True)
            return False
        if retry:
            record = await self.record(user_id)
            if user_id in self._closed or (record is not None and record.dms_closed):
                self._closed.discard(user_id)
                self._records.pop(user_id, None)
                await self.service.set_dms_closed(user_id, False)
        return True

    async def dms_closed(self, user_id: int) -> bool:
        if user_id in self._closed:
            return True
        record = await self.record(user_id)
        if record is not None and record.dms_closed:
            self._closed.add(user_id)
            return True
        return False

    # -- public ------------------------------------------------------------------------------

    async def public(
        self,
        info: MatchInfo,
        text: str,
        picture: bytes | None,
        mention: int | None,
        kind: str = "notice",
        *,
        view: discord.ui.View | None = None,
    ) -> None:
        place = info.thread_id or info.channel_id
        if place is None:
            return
        if mention is not None and f"<@{mention}>" not in text:
            text = (
                f"{text}\n<@{mention}>, your move." if kind == "board" else f"<@{mention}> {text}"
            )
        channel = self.bot.get_partial_messageable(place, guild_id=info.guild_id)
        await channel.send(
            text[:2000],
            file=_png(picture, "table"),
            view=view or discord.utils.MISSING,
            allowed_mentions=PUBLIC_MENTIONS,
        )


def _png(data: bytes | None, name: str) -> discord.File:
    if data is None:
        return discord.utils.MISSING  # type: ignore[no-any-return]
    return discord.File(io.BytesIO(data), filename=f"{name}.png")
