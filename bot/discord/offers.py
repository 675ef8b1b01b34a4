"""What the courier says of its own beside a match's deliveries, once a process: under a
finished match, what may follow (a rematch, or after a lesson a real match at a level of the
learner's choice); and in the match's thread, how a player whose DMs are closed can still
see their hand. Neither goes through the outbox: both are offers, not a move's messages.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot import i18n
from bot.discord.components import lesson_end_buttons, release, rematch_buttons
from bot.discord.queue import NOTICE, TURN, Lane
from bot.discord.transport import Transport
from bot.discord.triage import nonce
from bot.service import Delivery

Job = Callable[[], Awaitable[None]]
QueueJob = Callable[[Lane, int, int, Job], None]
"""The courier's queue, for a message that is no delivery of its own: (lane, urgency,
match, the job that sends it)."""


class Offers:
    def __init__(self, transport: Transport, queue_job: QueueJob) -> None:
        self.transport = transport
        self._queue_job = queue_job
        self._offered: set[int] = set()  # matches whose ending got its buttons
        self._told: set[tuple[int, int]] = set()  # (match, user) told in the thread about DMs

    def after_match(self, ending: Delivery) -> None:
        """Under a finished match, a button for another one on the same terms; under a
        lesson, buttons for a real match against the computer or a challenge."""
        if ending.match_id in self._offered or ending.names is None or ending.place.talk:
            return
        self._offered.add(ending.match_id)
        w = i18n.words(ending.lang)
        text = w.gettext("{first} and {second}, another match?").format(
            first=ending.names[0], second=ending.names[1]
        )
        if ending.lesson:  # after a lesson, a real match instead of the lesson again
            text = w.gettext("{name}, the lesson is over. What next?").format(name=ending.names[0])

        async def offer() -> None:
            if ending.lesson:
                components = lesson_end_buttons(ending.match_id, w)
            else:
                components = rematch_buttons(ending.match_id, w)
            try:
                await self.transport.public(
                    ending.place, text, None, None, components=components,
                    nonce=nonce(ending, "r"),
                )  # fmt: skip
            finally:
                release(components)

        self._queue_job(("channel", ending.place.channel or 0), NOTICE, ending.match_id, offer)

    def dms_closed(self, delivery: Delivery, user_id: int) -> None:
        """Tell the match's thread, once, how ``user_id`` can see the hand their closed DMs
        refused (in a conversation, the board's *My hand* shows it privately)."""
        if (delivery.match_id, user_id) in self._told or delivery.place.talk:
            return
        self._told.add((delivery.match_id, user_id))

        text = i18n.words(delivery.lang).gettext(
            "{mention}, I cannot send you your hand: your direct messages are closed to me. "
            "Use `/hand` here to see it privately. To get it by direct message after each "
            "move, open this server's menu → Privacy Settings → allow direct messages, then "
            "use `/hand` with `where: DM`."
        )

        async def tell() -> None:
            await self.transport.public(
                delivery.place, text.format(mention=f"<@{user_id}>"), None, user_id
            )

        lane: Lane = ("channel", delivery.place.channel or 0)
        self._queue_job(lane, TURN, delivery.match_id, tell)
