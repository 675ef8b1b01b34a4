"""The bot whose courier stops for good at one point of its work: run by ``test_outbox.py``.

``python -m tests.bot.discord.held_bot WHERE`` runs ``python -m bot`` with its courier held
at WHERE, so that the test can kill the process exactly there: ``before-send`` (a change
committed, nothing of it sent) or ``before-mark`` (a message sent, not yet marked sent in the
outbox); ``post-before-send`` and ``post-before-mark`` likewise for a post owed by a mark of
its own (a tournament round's report, run by ``test_tournament_outbox.py``). The bot itself
knows nothing of this: the courier's own methods are wrapped here.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import Any

from bot.__main__ import main
from bot.discord.courier import Courier
from bot.discord.queue import Item

log = logging.getLogger(__name__)


async def _forever(where: str) -> None:
    log.warning("the courier is held %s", where)
    await asyncio.Event().wait()


def hold(where: str) -> None:
    """Wrap the courier's methods so that it stops at ``where``."""
    if where == "before-send":
        send = Courier.send

        async def held_send(self: Courier, deliveries: Any, *args: Any, **kwargs: Any) -> bool:
            if any(d.outbox_id is not None for d in deliveries):
                await _forever(where)
            return await send(self, deliveries, *args, **kwargs)

        Courier.send = held_send  # type: ignore[method-assign]
    elif where == "before-mark":
        deliver = Courier._deliver

        async def held_deliver(self: Courier, item: Item) -> None:
            delivery, job = item.payload
            if delivery is None or delivery.outbox_id is None:
                await deliver(self, item)
                return
            await job()  # sent, and never marked
            await _forever(where)

        Courier._deliver = held_deliver  # type: ignore[method-assign]
    elif where in ("post-before-send", "post-before-mark"):
        post = Courier.post

        async def held_post(self: Courier, *args: Any, **kwargs: Any) -> Any:
            owed = kwargs.get("nonce") is not None
            if owed and where == "post-before-send":
                await _forever(where)
            message = await post(self, *args, **kwargs)
            if owed:
                await _forever(where)  # posted, and never marked
            return message

        Courier.post = held_post  # type: ignore[method-assign]
    else:
        raise SystemExit(
            "held where? before-send, before-mark, post-before-send or post-before-mark,"
            f" not {where!r}"
        )


if __name__ == "__main__":
    hold(sys.argv[1])
    sys.exit(main([]))
