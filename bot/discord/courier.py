"""Sending the service's deliveries to Discord: hands by DM, boards and notices in threads.

A delivery carries all its sending needs — where its match lives, the version its buttons
are drawn at, its recipient's picture settings and whether their DMs were known closed — so
the courier never asks the service anything; it only reports, through one callback, a
player whose DMs turned out closed or open again.

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
import os
from collections.abc import Awaitable, Callable

import discord

from bot import i18n, logs
from bot.computer import for_people, is_computer
from bot.discord.components import move_buttons, rematch_buttons
from bot.discord.names import NO_PINGS, pings, plain_name
from bot.discord.painter import Painter
from bot.service import Delivery, Place, wording

log = logging.getLogger(__name__)
DMS_CLOSED = 50007

# Told when a player's DMs turn out closed (True) or open again (False), to store it.
DmsNoted = Callable[[int, bool], Awaitable[None]]
# Told of deliveries just sent (or given up on), to mark them sent in the outbox.
Sent = Callable[[list[Delivery]], Awaitable[None]]

# For the crash tests only: the courier stops for good at this point of its work
# ("before-send": a change committed, nothing sent; "before-mark": sent, not yet marked),
# so a test can kill the process exactly there.
HOLD = os.environ.get("TAPIS_COURIER_HOLD", "")


def nonce(delivery: Delivery, suffix: str = "") -> str | None:
    """The message's nonce, from its outbox row: Discord keeps one message per nonce for a
    few minutes (``enforce_nonce``), so a resend after a crash between sending and marking
    is not shown twice. None for what is not from the outbox (a hand asked for)."""
    return None if delivery.outbox_id is None else f"ob{delivery.outbox_id}{suffix}"


class Courier:
    def __init__(
        self,
        bot: discord.Client,
        dms_noted: DmsNoted,
        sent: Sent,
        on_batch: Callable[[list[Delivery]], None] | None = None,
    ) -> None:
        self.bot = bot  # only to reach Discord: what to send comes with each delivery
        self._dms_noted = dms_noted
        self._sent = sent
        # Told of every batch as it comes, before anything is sent (the computer opponent
        # learns from its own hand that it is to move).
        self._on_batch = on_batch
        self._dm_channels: dict[int, int] = {}  # user id -> DM channel id, so DMs open once
        self._closed: set[int] = set()
        self._told: set[tuple[int, int]] = set()  # (match, user) told in the thread about DMs
        self._last_hand: dict[tuple[int, int], str] = {}  # (match, user) -> what they last got
        self._rematch_offered: set[int] = set()
        self.painter = Painter()

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
        if self._on_batch is not None:
            self._on_batch(deliveries)  # before the computer's own hand is left out
        acting = interaction.user.id if interaction is not None else None
        if HOLD == "before-send" and any(d.outbox_id is not None for d in deliveries):
            await _hold()
        # Nobody to send to (the computer's own hand), or not worth sending again: marked
        # sent all the same, so no start-up ever tries them again.
        skipped = [d for d in deliveries if is_computer(d.to)]
        people = for_people(deliveries)
        repeated = [d for d in people if self._repeated(d, acting)]
        if skipped or repeated:
            await self._sent(skipped + repeated)
        deliveries = [d for d in people if d not in repeated]
        if not deliveries:
            return
        pictures = await asyncio.gather(*(self.picture(d) for d in deliveries))
        lanes: dict[tuple[str, int], list[tuple[Delivery, bytes | None]]] = {}
        for delivery, picture in zip(deliveries, pictures, strict=True):
            lane = ("user", delivery.to or 0) if delivery.private else ("match", delivery.match_id)
            lanes.setdefault(lane, []).append((delivery, picture))
        await asyncio.gather(*(self._send_lane(lane, interaction) for lane in lanes.values()))
        endings = {
            d.match_id: d for d in deliveries if d.kind == "notice" and d.status == "finished"
        }
        for ending in endings.values():
            await self.offer_rematch(ending)

    async def offer_rematch(self, ending: Delivery) -> None:
        """Under a finished match, a button for another one on the same terms."""
        if ending.match_id in self._rematch_offered or ending.names is None:
            return
        self._rematch_offered.add(ending.match_id)
        w = i18n.words(ending.lang)
        text = w.gettext("{first} and {second}, another match?").format(
            first=ending.names[0], second=ending.names[1]
        )
        with logs.about_match(ending.match_id):
            try:
                await self.public(
                    ending.place,
                    text,
                    None,
                    None,
                    components=rematch_buttons(ending.match_id, w),
                    nonce=nonce(ending, "r"),
                )
            except discord.HTTPException:
                log.exception("could not offer a rematch of match %s", ending.match_id)

    async def _send_lane(
        self, lane: list[tuple[Delivery, bytes | None]], interaction: discord.Interaction | None
    ) -> None:
        for delivery, picture in lane:
            with logs.about_match(delivery.match_id):
                try:
                    await self._send_one(delivery, picture, interaction)
                except discord.HTTPException:
                    # Refused for good (discord.py already retried what may pass later): marked
                    # all the same, or every start-up would try it again.
                    log.exception("could not send %s of match %s", delivery.kind, delivery.match_id)
                if delivery.outbox_id is not None:
                    if HOLD == "before-mark":
                        await _hold()
                    await self._sent([delivery])

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

    async def picture(self, delivery: Delivery) -> bytes | None:
        """The picture of a hand (in its recipient's colours) or a board; None for text."""
        if delivery.view is None or delivery.kind not in ("hand", "board"):
            return None
        if delivery.kind == "hand":
            return await self.painter.hand(delivery.view, delivery.four_colour)
        names = delivery.names or ("seat 1", "seat 2")
        return await self.painter.table(delivery.view, (plain_name(names[0]), plain_name(names[1])))

    async def _send_one(
        self, delivery: Delivery, picture: bytes | None, interaction: discord.Interaction | None
    ) -> None:
        if delivery.kind == "hand":
            await self.hand(delivery, picture, interaction)
        elif delivery.kind == "dm":
            to = delivery.to or 0
            text = self.heading(delivery) + delivery.text
            if not await self.dm(to, text, closed=delivery.dms_closed, nonce=nonce(delivery)):
                await self.public(
                    delivery.place, f"<@{to}> {delivery.text}", None, to, nonce=nonce(delivery)
                )
        else:
            await self.public(
                delivery.place,
                delivery.text,
                picture,
                delivery.mention,
                delivery.kind,
                nonce=nonce(delivery),
                lang=delivery.lang,
            )

    # -- private -----------------------------------------------------------------------------

    def heading(self, delivery: Delivery) -> str:
        """Which match a DM is about: server, channel (a link), match id."""
        place = delivery.place
        guild = self.bot.get_guild(place.guild_id) if place.guild_id else None
        parts = [f"**{guild.name}**" if guild else None]
        parts.append(f"<#{place.channel}>" if place.channel else None)
        w = i18n.words(delivery.lang)
        parts.append(
            w.gettext("{game} match #{id}").format(
                game=wording.game_title(delivery.game, w), id=delivery.match_id
            )
        )
        return " · ".join(p for p in parts if p) + "\n"

    async def hand(
        self, delivery: Delivery, picture: bytes | None, interaction: discord.Interaction | None
    ) -> bool:
        """The hand by DM, else privately to the interaction's user; False if neither."""
        assert delivery.to is not None and delivery.view is not None
        text = self.heading(delivery) + delivery.text
        legal = list(delivery.view.get("legal_moves") or [])
        w = i18n.words(delivery.lang)
        components = move_buttons(delivery.match_id, delivery.version, legal, w, delivery.game)
        if await self.dm(
            delivery.to,
            text,
            picture,
            components,
            closed=delivery.dms_closed,
            nonce=nonce(delivery),
        ):
            return True
        await self.tell_dms_closed(delivery, delivery.to)
        if interaction is not None and interaction.user.id == delivery.to:
            await interaction.followup.send(
                text[:2000], file=_png(picture, "hand"),
                view=components or discord.utils.MISSING, ephemeral=True,
                allowed_mentions=NO_PINGS,
            )  # fmt: skip
            return True
        return False

    async def tell_dms_closed(self, delivery: Delivery, user_id: int) -> None:
        if (delivery.match_id, user_id) in self._told:
            return
        self._told.add((delivery.match_id, user_id))
        text = i18n.words(delivery.lang).gettext(
            "{mention}, I cannot send you your hand: your direct messages are closed to me. "
            "Use `/hand` here to see it privately. To get it by direct message after each "
            "move, open this server's menu → Privacy Settings → allow direct messages, then "
            "use `/hand` with `where: DM`."
        )
        await self.public(delivery.place, text.format(mention=f"<@{user_id}>"), None, user_id)

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
    ) -> bool:
        """Send a DM; False (and remembered) when the user's DMs are closed.

        ``closed``: the delivery says they were known closed; ``retry`` tries all the same
        (the user asked for a DM) and notes them open again if it goes through.
        """
        if not retry and self.dms_closed(user_id, closed):
            return False
        try:
            channel_id = self._dm_channels.get(user_id)
            if channel_id is None:
                data = await self.bot.http.start_private_message(user_id)
                channel_id = self._dm_channels[user_id] = int(data["id"])
            channel = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
            await channel.send(
                text[:2000],
                file=_png(picture, "hand"),
                view=components or discord.utils.MISSING,
                allowed_mentions=NO_PINGS,
                nonce=nonce or discord.utils.MISSING,
            )
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
        if channel_id is None:
            return
        if mention is not None and f"<@{mention}>" not in text:
            if kind == "board":
                ping = i18n.words(lang).gettext("{mention}, your move.")
                text = f"{text}\n" + ping.format(mention=f"<@{mention}>")
            else:
                text = f"<@{mention}> {text}"
        channel = self.bot.get_partial_messageable(channel_id, guild_id=place.guild_id)
        await channel.send(
            text[:2000],
            file=_png(picture, "table"),
            view=components or discord.utils.MISSING,
            allowed_mentions=pings(mention),  # the one player meant, never a name's mention
            nonce=nonce or discord.utils.MISSING,
        )


async def _hold() -> None:
    log.warning("TAPIS_COURIER_HOLD=%s: the courier stops here", HOLD)
    await asyncio.Event().wait()


def _png(data: bytes | None, name: str) -> discord.File:
    if data is None:
        return discord.utils.MISSING  # type: ignore[no-any-return]
    return discord.File(io.BytesIO(data), filename=f"{name}.png")
