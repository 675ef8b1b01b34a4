"""Sending the service's deliveries to Discord within its rate limits.

A delivery carries all its sending needs — where its match lives, the version its buttons
are drawn at, its recipient's picture settings, whether their DMs were known closed and their
DM channel if it was ever opened — so the courier never asks the service anything; it only
reports, through callbacks, a player whose DMs turned out closed or open again, and a DM
channel it opened (opening one is a request Discord counts: once per player, ever).

What a move costs in requests Discord limits (about 50 a second for the whole bot, 5 per
5 s per channel), and how the courier keeps that low:

- The player who acted gets their new hand in the answer to their interaction (a follow-up,
  which Discord does not count): never a DM. It is marked sent before it goes, so that a
  crash can lose that one reply (the player still sees their move confirmed by the board and
  can ask ``/hand``) but never show it twice.
- The other player gets a DM only when the turn becomes theirs: a hand they cannot play yet
  would be a request spent for nothing (it is marked sent; ``/hand`` shows it any time).
- The thread gets one board per turn: a board made while the same player is still to move
  (Le 5 As's draw after a play, a trick won and led again) waits a little for the turn's
  last move, whose board replaces it. A board that replaces a waiting one names the moves
  the waiting one named too, so the thread's posts together tell every move, once, in
  order (see :func:`board_text`).

Everything else goes through a queue (queue.py) served by a few workers, most urgent first:
a player's turn before public notices, notices before boards, reminders last; a waiting board
or hand is replaced by a newer one of the same match. Workers send only while the rolling
second has room and the channel's bucket has room, as Discord's headers say (pacing.py).
A hand's picture is drawn from the moment it is queued (and dropped if a newer hand replaces
it before a worker was free for it); a board's only as it goes, after the hands' (it may yet
be replaced). The outbox is the queue's durable half: each message is
marked sent once it went out (or was replaced, or refused for good); what a crash left
unmarked is sent again at the next start with the same nonce, and Discord shows it once.

A user whose DMs are closed (403, code 50007), and a thread or channel that was deleted or
closed to the bot, are remembered: every refused request counts toward Discord's ban.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace

import discord

from bot import i18n
from bot.discord import talk
from bot.discord.components import move_buttons, release
from bot.discord.conversations import Conversations
from bot.discord.names import NO_PINGS, plain_name
from bot.discord.offers import Job, Offers
from bot.discord.pacing import BUDGET_PER_SECOND, Gauge
from bot.discord.painter import Painter
from bot.discord.queue import NOTICE, TURN, Item, Lane, Outgoing
from bot.discord.transport import (
    LIMIT,
    PREPAID,
    DmOpened,
    DmsNoted,
    Transport,
    board_ping,
    png,
)
from bot.discord.triage import board_text, mid_turn, nonce, priority, waits_for_turn
from bot.process import logs, metrics
from bot.service import Delivery
from bot.service.computer import for_people, is_computer

log = logging.getLogger(__name__)
WORKERS = 8
"""Requests in flight at once: enough to fill 45 a second at Discord's usual round trip."""
MAX_WORKERS = 64
"""The most workers a raised global budget gets (see :func:`workers_for`)."""
MID_TURN_WAIT = 15.0
"""Seconds a board made in the middle of a player's turn waits for the turn's end."""

# Told of deliveries just sent (or given up on), to mark them sent in the outbox.
Sent = Callable[[list[Delivery]], Awaitable[None]]


def workers_for(per_second: int) -> int:
    """Workers enough to fill a global budget of ``per_second`` requests at Discord's usual
    round trip: :data:`WORKERS` for the usual 47, more for a bot granted a higher limit (at
    most :data:`MAX_WORKERS`), never fewer."""
    wanted = math.ceil(per_second * WORKERS / BUDGET_PER_SECOND)
    return max(WORKERS, min(MAX_WORKERS, wanted))


class Courier:
    def __init__(
        self,
        bot: discord.Client,
        dms_noted: DmsNoted,
        sent: Sent,
        on_batch: Callable[[list[Delivery]], None] | None = None,
        *,
        dm_opened: DmOpened | None = None,
        gauge: Gauge | None = None,
        workers: int = WORKERS,
    ) -> None:
        self.transport = Transport(bot, dms_noted, dm_opened=dm_opened, gauge=gauge)
        self._sent = sent
        # Told of every batch as it comes, before anything is sent (the computer opponent
        # learns from its own hand that it is to move).
        self._on_batch = on_batch
        self._last_hand: dict[tuple[int, int], str] = {}  # (match, user) -> what they last got
        self.painter = Painter()
        self.queue = Outgoing(self.transport.lane_free_at)
        metrics.watch_waiting(lambda: self.queue.by_priority)
        self.workers = workers
        self._workers: list[asyncio.Task[None]] = []
        self._wake = asyncio.Event()
        self._in_flight = 0
        self._settled = asyncio.Event()
        self._settled.set()
        self._marks: list[Delivery] = []
        self._marker: asyncio.Task[None] | None = None
        # Matches in conversations the bot is no member of: said with their interactions.
        self.conversations = Conversations(self.picture, self._mark)
        self.offers = Offers(self.transport, self._queue_job)
        self.talks = self.conversations.talks

    @property
    def gauge(self) -> Gauge:
        """Discord's rate limits as its answers tell them (``pacing.py``)."""
        return self.transport.gauge

    # -- the batch ---------------------------------------------------------------------------

    async def send(
        self,
        deliveries: list[Delivery],
        interaction: discord.Interaction | None = None,
        *,
        reply: str | None = None,
        in_place: bool = False,
        unless: str | None = None,
    ) -> bool:
        """Send every delivery: the interaction's user's own hand at once in the answer to
        ``interaction`` (after ``reply``, a confirmation, in the same message), the rest
        through the queue. True if ``reply`` was sent that way; else the caller says it.
        ``in_place``: the answer replaces the message whose button was pressed (the hand the
        move was made from) instead of following it. ``unless``: a line of the hand's own
        text that says what ``reply`` says (the mover's move); the reply is then left out.

        A hand identical to the last one that player got (same cards, same moves, same
        words) is not sent again.
        """
        if self._on_batch is not None:
            self._on_batch(deliveries)  # before the computer's own hand is left out
        acting = interaction.user.id if interaction is not None else None
        self._start()
        # Nobody to send to (the computer's own hand), not worth sending again, or a hand
        # its player cannot use yet: marked sent all the same, so no start-up tries them.
        people = for_people(deliveries)
        # What a conversation the bot is no member of must see goes with an interaction.
        spoken = [d for d in people if d.place.talk and not d.private]
        people = [d for d in people if not (d.place.talk and not d.private)]
        mine = next((d for d in people if d.kind == "hand" and d.to == acting), None)
        skipped = [d for d in deliveries if is_computer(d.to)]
        if mine is not None:
            self._repeated(mine)  # remembered, never skipped: their buttons were used up
        for delivery in people:  # in order: a later hand may make an earlier one stale
            if delivery is mine:
                continue
            if waits_for_turn(delivery, acting):
                # A hand still queued for them is out of date too: the turn has moved on.
                key = ("hand", delivery.match_id, delivery.to)
                for old in self.queue.cancel(("user", delivery.to or 0), key):
                    if old.payload[0] is not None and old.payload[0].outbox_id is not None:
                        self._mark(old.payload[0])
                skipped.append(delivery)
            elif self._repeated(delivery):
                skipped.append(delivery)
            else:
                self._enqueue(delivery)
        endings = {
            d.match_id: d
            for d in people
            if d.kind == "notice" and d.status == "finished" and not d.leg
        }
        for ending in endings.values():
            self.offers.after_match(ending)
        if skipped:
            await self._sent([d for d in skipped if d.outbox_id is not None])
        told = False
        if mine is not None and interaction is not None:
            told = await self._answer(mine, interaction, reply, in_place=in_place, unless=unless)
        elif spoken and reply and interaction is not None and talk.is_command(interaction):
            # A command's first follow-up is as private as its "thinking": the invoker's
            # word first, so that the conversation's board after it is public.
            await interaction.followup.send(reply[:LIMIT], ephemeral=True)
            self.talks.spend(interaction)
            told = True
        if spoken or (interaction is not None and self.conversations.held):
            await self.conversations.speak(spoken, interaction)
        return told

    async def deliver(self, deliveries: list[Delivery]) -> None:
        """Send deliveries that answer no interaction (the computer's moves, the clocks, a
        restart's leftovers)."""
        await self.send(deliveries)

    def _enqueue(self, delivery: Delivery) -> None:
        coalesce: tuple[object, ...] | None
        if delivery.private:
            lane: Lane = ("user", delivery.to or 0)
            if delivery.dm_channel is not None and delivery.to is not None:
                # Opened before (by an earlier process): known here now, and not opened again.
                self.transport.knows_dm_channel(delivery.to, delivery.dm_channel)
            coalesce = ("hand", delivery.match_id, delivery.to) if delivery.kind == "hand" else None
        else:
            lane = ("channel", delivery.place.channel or 0)
            coalesce = ("board", delivery.match_id) if delivery.kind == "board" else None
        now = time.monotonic()
        item = Item(
            lane,
            priority(delivery),
            None,
            coalesce,
            not_before=now + MID_TURN_WAIT if mid_turn(delivery) else 0.0,
            enqueued=now,
        )
        # A hand's picture is drawn from now on, while it waits for a worker and a place in
        # the second: its player is waiting on it, and a worker then holds the place only
        # for the request. A board waits to be drawn until it goes (it may be replaced).
        drawn = self._draw_now(delivery) if delivery.kind == "hand" else None
        item.ahead = drawn
        # The boards it takes over are added to this very list (see below). The job names
        # the list, not the item, which holds the job: a cycle would outlive the send, for
        # the collector's full pass to free.
        carried = item.carried
        item.payload = (delivery, lambda: self._send_one(delivery, carried, drawn))
        replaced = self.queue.put(item)
        for old in replaced:
            if old.ahead is not None:
                # Its picture will never go: not drawn if no worker has begun it yet.
                old.ahead.cancel()
            old_delivery = old.payload[0]
            if delivery.kind == "board":
                # The newer board tells the older one's moves too, and they are marked sent
                # together once it is posted: a stop before that replays both, and they are
                # put together again.
                item.carried += [*old.carried, old_delivery]
            elif old_delivery is not None and old_delivery.outbox_id is not None:
                self._mark(old_delivery)
        self._wake.set()
        self._settled.clear()

    def _draw_now(self, delivery: Delivery) -> asyncio.Future[bytes | None]:
        drawing = asyncio.ensure_future(self.picture(delivery))
        # Seen here if it fails: a hand replaced before it went never awaits its picture.
        drawing.add_done_callback(lambda done: done.cancelled() or done.exception())
        return drawing

    def _queue_job(self, lane: Lane, level: int, match_id: int, job: Job) -> None:
        """Queue a message that is no delivery of its own (a rematch offer, a word in the
        thread about closed DMs)."""
        now = time.monotonic()
        self.queue.put(Item(lane, level, (None, job), None, enqueued=now))
        self._wake.set()
        self._settled.clear()

    async def _answer(
        self,
        delivery: Delivery,
        interaction: discord.Interaction,
        reply: str | None,
        *,
        in_place: bool = False,
        unless: str | None = None,
    ) -> bool:
        """The acting player's hand, in the answer to their interaction: private (their DMs,
        or a reply only they see in a server), and free of the global rate limit.

        ``in_place``: the hand replaces the message of the pressed button. That hand is spent
        (its buttons belong to the position before the move), and one message that becomes
        the next hand is one request where a new message and the old one's buttons removed
        are two, and one hand in the conversation where there were two."""
        if delivery.outbox_id is not None:
            await self._sent([delivery])  # at most once: see the module's docstring
        picture = await self.picture(delivery)
        assert delivery.view is not None
        hand_text = delivery.text
        if reply and unless is not None and unless in hand_text.split("\n"):
            reply = ""  # the hand says it already: "You: 4♠ on the expedition."
        text = (reply + "\n" if reply else "") + self.transport.heading(delivery) + hand_text
        legal = list(delivery.view.get("legal_moves") or [])
        w = i18n.words(delivery.lang)
        components = move_buttons(
            delivery.match_id, delivery.version, legal, w, delivery.game, hint=delivery.hints
        )
        try:
            if in_place:
                await interaction.edit_original_response(
                    content=text[:2000],
                    attachments=[] if picture is None else [png(picture, "hand")],
                    view=components,
                    allowed_mentions=NO_PINGS,
                )
            else:
                # In a DM it stays, as a hand should; in a server only its player sees it.
                await interaction.followup.send(
                    text[:2000], file=png(picture, "hand"),
                    view=components or discord.utils.MISSING,
                    ephemeral=not talk.in_bot_dm(interaction),
                    allowed_mentions=NO_PINGS,
                )  # fmt: skip
                self.talks.spend(interaction)
        except discord.HTTPException:
            # The interaction's token expired or was refused: their hand goes by DM instead.
            log.warning("could not answer with the hand of match %s: by DM", delivery.match_id)
            self._enqueue(replace(delivery, outbox_id=None))
            return False
        finally:
            release(components)
        return reply is not None

    async def post(
        self,
        channel_id: int,
        text: str,
        *,
        guild_id: int | None = None,
        picture: bytes | None = None,
        filename: str = "table",
        components: discord.ui.View | None = None,
        mentions: discord.AllowedMentions = NO_PINGS,
        nonce: str | None = None,
        level: int = NOTICE,
    ) -> discord.Message | None:
        """Post a message that is no match's delivery (a tournament's news, a round's
        standings, a challenge) through the queue, within the rate limits like every other,
        and hand back the message once it went; None if the channel is gone.

        ``nonce``: what the caller stored says this message is owed until it marks it posted;
        a post again after a crash between the two carries the same nonce, and Discord shows
        it once (and gives back the message it made the first time)."""
        self._start()
        done: asyncio.Future[discord.Message | None] = asyncio.get_running_loop().create_future()

        async def job() -> None:
            try:
                message = await self.transport.post_now(
                    channel_id, guild_id, text, picture, filename, components, mentions, nonce
                )
            except BaseException as error:
                if not done.done():
                    done.set_exception(error)
                raise
            if not done.done():
                done.set_result(message)

        self._queue_job(("channel", channel_id), level, 0, job)
        return await done

    # -- the workers -------------------------------------------------------------------------

    def _start(self) -> None:
        if self._workers:
            return
        self._workers = [
            asyncio.create_task(self._work(), name=f"tapis-courier-{n}")
            for n in range(self.workers)
        ]

    async def _work(self) -> None:
        while True:
            item = None
            first = self.queue.take(time.monotonic(), peek=True)
            if first is not None:
                # The places in the second first, then the message: the most urgent one at
                # the moment a request may go, not the one that was first when the wait
                # began. A first DM to someone takes two (its channel is opened first).
                needed = (
                    2
                    if first.lane[0] == "user"
                    and not self.transport.knows_dm_channel(first.lane[1])
                    else 1
                )
                await self.gauge.slot(needed)
                item = self.queue.take(time.monotonic())
                if item is None:
                    for _ in range(needed):
                        self.gauge.release()
                    continue
            if item is None:
                if self._in_flight == 0 and self._ready_count() == 0:
                    self._settled.set()
                self._wake.clear()
                wake_at = self.queue.next_time()
                timeout = None if wake_at is None else max(0.0, wake_at - time.monotonic())
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), timeout)
                continue
            self._in_flight += 1
            PREPAID.set(needed)
            try:
                await self._deliver(item)
            finally:
                for _ in range(PREPAID.get()):
                    self.gauge.release()  # places not used after all
                PREPAID.set(0)
                self._in_flight -= 1
                self.queue.done(item)
                self._wake.set()

    def _ready_count(self) -> int:
        """Waiting messages not held back on purpose (a board in mid-turn)."""
        now = time.monotonic()
        return sum(1 for item in self.queue.waiting() if item.not_before <= now)

    async def _deliver(self, item: Item) -> None:
        delivery, job = item.payload
        match_id = delivery.match_id if delivery is not None else None
        with logs.about_match(match_id):
            try:
                await job()
            except discord.HTTPException:
                # Refused for good (discord.py already retried what may pass later): marked
                # all the same, or every start-up would try it again.
                log.exception("could not send a message of match %s", match_id)
            except Exception:
                log.exception("sending a message of match %s failed", match_id)
        metrics.sent(item.priority)
        # A conversation's DM held for its next interaction is marked once said there.
        held = delivery is not None and self.conversations.holds(delivery)
        if delivery is not None and delivery.outbox_id is not None and not held:
            self._mark(delivery)
        for earlier in item.carried:  # boards it told the moves of
            if earlier.outbox_id is not None:
                self._mark(earlier)

    def _mark(self, delivery: Delivery) -> None:
        """Mark sent in the outbox, a few at a time: one write for many messages."""
        self._marks.append(delivery)
        if self._marker is None or self._marker.done():
            self._marker = asyncio.create_task(self._flush_marks(), name="tapis-courier-marks")

    async def _flush_marks(self) -> None:
        while self._marks:
            batch, self._marks = self._marks, []
            try:
                await self._sent(batch)
            except Exception:
                log.exception("could not mark %d message(s) sent", len(batch))

    async def settled(self, timeout: float = 10.0) -> None:
        """Wait until nothing is being sent and nothing waits but boards held in mid-turn."""
        deadline = time.monotonic() + timeout
        while True:
            if self._in_flight == 0 and self._ready_count() == 0:
                if self._marker is not None:
                    await asyncio.gather(self._marker, return_exceptions=True)
                if self._in_flight == 0 and self._ready_count() == 0 and not self._marks:
                    return
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the courier did not settle")
            self._settled.clear()
            self._wake.set()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._settled.wait(), min(left, 0.05))

    async def close(self, drain: float = 2.0) -> None:
        """Send what is ready for up to ``drain`` seconds, then stop; what is left stays
        unsent in the outbox and goes at the next start."""
        if self._workers:
            try:
                await self.settled(drain)
            except TimeoutError:
                log.warning("%d message(s) left for the next start", self.queue.depth)
            for task in self._workers:
                task.cancel()
            await asyncio.gather(*self._workers, return_exceptions=True)
            self._workers = []
        if self._marker is not None:
            await asyncio.gather(self._marker, return_exceptions=True)
        self.painter.close()

    # -- one message -------------------------------------------------------------------------

    def _repeated(self, delivery: Delivery) -> bool:
        if delivery.kind != "hand" or delivery.to is None or delivery.view is None:
            return False
        view = delivery.view
        key = delivery.text + json.dumps(
            [view.get("hand"), view.get("legal_moves"), view.get("to_move")], sort_keys=True
        )
        slot = (delivery.match_id, delivery.to)
        if self._last_hand.get(slot) == key:
            return True
        self._last_hand[slot] = key
        return False

    async def picture(self, delivery: Delivery, *, urgent: bool = True) -> bytes | None:
        """The picture of a hand (in its recipient's colours) or a board; None for text.
        ``urgent``: someone waits on it, so it is drawn before those nobody waits on."""
        if delivery.view is None or delivery.kind not in ("hand", "board"):
            return None
        if delivery.kind == "hand":
            return await self.painter.hand(
                delivery.view, delivery.four_colour, delivery.lang, urgent=urgent
            )
        names = delivery.names or ("seat 1", "seat 2")
        pair = (plain_name(names[0]), plain_name(names[1]))
        return await self.painter.table(delivery.view, pair, lang=delivery.lang, urgent=urgent)

    async def _send_one(
        self,
        delivery: Delivery,
        earlier: Sequence[Delivery] = (),
        drawn: Awaitable[bytes | None] | None = None,
    ) -> None:
        """Send one delivery; a board names the moves of the ``earlier`` boards it replaced.
        ``drawn``: its picture, being drawn since it was queued."""
        # Else drawn only now that it goes: a board replaced while it waited is never drawn.
        # Only a turn is urgent: a board or a notice's picture waits for the hands.
        urgent = priority(delivery) == TURN
        picture = await (drawn if drawn is not None else self.picture(delivery, urgent=urgent))
        if delivery.kind == "hand":
            await self.hand(delivery, picture)
        elif delivery.kind == "dm":
            to = delivery.to or 0
            text = self.transport.heading(delivery) + delivery.text
            if not await self.transport.dm(
                to, text, closed=delivery.dms_closed, nonce=nonce(delivery),
                channel=delivery.dm_channel,
            ):  # fmt: skip
                if delivery.place.talk:
                    # No channel of the bot's: said with the next interaction in the match.
                    # Its outbox row stays unsent until then: a restart holds it again.
                    shown = replace(delivery, kind="notice", text=f"<@{to}> {delivery.text}")
                    self.conversations.hold(shown)
                    return
                await self.transport.public(
                    delivery.place, f"<@{to}> {delivery.text}", None, to, nonce=nonce(delivery)
                )
        else:
            text = delivery.text
            if delivery.kind == "board":
                w = i18n.words(delivery.lang)
                ping = "" if delivery.mention is None else board_ping(delivery.mention, w.lang)
                text = board_text(delivery, earlier, w, LIMIT - len(ping))
            await self.transport.public(
                delivery.place,
                text,
                picture,
                delivery.mention,
                delivery.kind,
                nonce=nonce(delivery),
                lang=delivery.lang,
            )

    # -- private -----------------------------------------------------------------------------

    async def hand(self, delivery: Delivery, picture: bytes | None) -> bool:
        """The hand by DM; False (and the thread told how to open DMs) if they are closed."""
        assert delivery.to is not None and delivery.view is not None
        text = self.transport.heading(delivery) + delivery.text
        legal = list(delivery.view.get("legal_moves") or [])
        w = i18n.words(delivery.lang)
        components = move_buttons(
            delivery.match_id, delivery.version, legal, w, delivery.game, hint=delivery.hints
        )
        try:
            sent = await self.transport.dm(
                delivery.to,
                text,
                picture,
                components,
                closed=delivery.dms_closed,
                nonce=nonce(delivery),
                channel=delivery.dm_channel,
            )
        finally:
            release(components)
        if not sent:
            self.offers.dms_closed(delivery, delivery.to)
        return sent
