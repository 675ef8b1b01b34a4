"""Pacing the bot's REST requests by Discord's limits, read from every response it gets.

Discord allows about 50 requests a second to a whole bot (interaction responses and
follow-ups, which go through the interaction's webhook, are not counted), a few messages per
channel in a few seconds (5 per 5 s), and bans for a while a bot that makes 10,000 invalid
requests (401, 403, 429) in 10 minutes. discord.py waits when it is answered 429, but only
then: a bot that leans on that is a bot that collects 429s, and 429s count toward the ban.

The :class:`Gauge` sees every request through an aiohttp trace (discord.py's ``http_trace``),
the courier's and everyone else's, and keeps:

- a rolling second of requests counted toward the global limit, so that :meth:`Gauge.slot`
  lets the courier send only while the second has room (its own budget, below Discord's, for
  the requests made outside the courier: a challenge posted, a thread opened). Discord counts
  a request when it arrives, which is some time between when it left and when its answer
  came back, and the network does not keep requests evenly spaced; so a request is counted
  here from when its slot is taken until a second after its answer: never fewer than
  Discord counts, whatever the delays;
- per channel, when its bucket is next free, from ``X-RateLimit-Remaining`` and
  ``X-RateLimit-Reset-After`` (or a 429's ``retry_after``), so the courier serves other
  channels meanwhile instead of a worker sleeping inside discord.py;
- the invalid requests of the last 10 minutes, with a warning long before the ban.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import time
from typing import Any

import aiohttp

from bot.process import metrics

log = logging.getLogger(__name__)

GLOBAL_PER_SECOND = 50
"""Discord's global limit for a bot, requests per second."""
BUDGET_PER_SECOND = 47
"""What the courier allows itself in any rolling second, unless ``TAPIS_GLOBAL_REQUESTS_PER_SECOND``
says otherwise (a bot granted a higher global limit): the rest is headroom for requests made
outside it, which it sees only once they are made."""
BAN_THRESHOLD = 10_000
"""Invalid requests (401, 403, 429 not of scope ``shared``) in 10 minutes that get a bot
banned for an hour by Cloudflare."""
BAN_WINDOW = 600.0
WARN_AT = (500, 1_000, 2_500, 5_000, 7_500)
"""Counts of recent invalid requests that are logged as they are reached: the first well
before the ban, so that an operator hears of a misbehaving bot while it is still harmless."""
INVALID = (401, 403, 429)
WINDOW = 1.0


def exempt(path: str) -> bool:
    """Interaction callbacks and follow-ups (``/interactions/…``, ``/webhooks/…``) are not
    bound by the global limit."""
    parts = path.split("/api/", 1)[-1].split("/")
    return len(parts) > 1 and parts[1] in ("interactions", "webhooks")


def channel_of(path: str) -> int | None:
    """The channel of a ``/channels/{id}/…`` route: the major parameter of its buckets."""
    parts = path.split("/api/", 1)[-1].split("/")
    if len(parts) > 2 and parts[1] == "channels" and parts[2].isdigit():
        return int(parts[2])
    return None


class Gauge:
    """What Discord's answers say of its limits, and the room left under them now."""

    def __init__(self, per_second: int = BUDGET_PER_SECOND, *, clock: Any = time.monotonic):
        self.per_second = per_second
        self._clock = clock
        self._second: collections.deque[float] = collections.deque()  # request start times
        self._reserved = 0  # slots taken by the courier whose request has not started yet
        self._in_flight = 0  # requests started, not yet answered
        self._free_at: dict[int, float] = {}  # channel id -> when its bucket has room again
        self._invalid: collections.deque[float] = collections.deque()
        self._warned = 0  # the highest WARN_AT step logged and not yet fallen back under
        self.requests = 0  # counted toward the global limit, since start
        self.invalid_total = 0
        self.rate_limited = 0  # 429s received, any scope
        self.trace = aiohttp.TraceConfig()
        self.trace.on_request_start.append(self._started)
        self.trace.on_request_end.append(self._ended)
        self.trace.on_request_exception.append(self._failed)

    # -- the global budget -------------------------------------------------------------------

    def _used(self, now: float) -> int:
        self._prune(now)
        return len(self._second) + self._reserved + self._in_flight

    def _prune(self, now: float) -> None:
        while self._second and self._second[0] <= now - WINDOW:
            self._second.popleft()

    async def slot(self, count: int = 1) -> None:
        """Wait until ``count`` more requests fit in the rolling second, and take their
        places at once (a worker holding one place while it waits for another could wait
        for ever on the others doing the same)."""
        while True:
            now = self._clock()
            if self._used(now) + count <= self.per_second:
                self._reserved += count
                return
            wake = self._second[0] + WINDOW if self._second else now + 0.01
            await asyncio.sleep(max(0.005, wake - now))

    def release(self) -> None:
        """A slot taken but not used (nothing was sent after all)."""
        if self._reserved > 0:
            self._reserved -= 1

    def recent(self) -> int:
        """Requests counted toward the global limit now: answered in the last second, in
        flight, or about to start."""
        return self._used(self._clock())

    # -- channels ----------------------------------------------------------------------------

    def free_at(self, channel_id: int | None) -> float:
        """When a message may next go to this channel without a 429 (0: now)."""
        if channel_id is None:
            return 0.0
        until = self._free_at.get(channel_id, 0.0)
        if until and until <= self._clock():
            del self._free_at[channel_id]
            return 0.0
        return until

    # -- what the responses say --------------------------------------------------------------

    async def _started(self, _session: Any, _context: Any, params: Any) -> None:
        if exempt(params.url.path):
            return
        self.requests += 1
        if self._reserved > 0:
            self._reserved -= 1  # the courier's own: its slot becomes a request in flight
        self._in_flight += 1

    def _landed(self, path: str) -> None:
        if not exempt(path) and self._in_flight > 0:
            self._in_flight -= 1
            self._second.append(self._clock())

    async def _ended(self, _session: Any, _context: Any, params: Any) -> None:
        self._landed(params.url.path)
        self.observe(params.url.path, params.response.status, params.response.headers)

    async def _failed(self, _session: Any, _context: Any, params: Any) -> None:
        self._landed(params.url.path)  # no answer, but it may have arrived all the same

    def observe(self, path: str, status: int, headers: Any) -> None:
        """Learn from one response: its bucket's room, and whether it was an invalid one."""
        now = self._clock()
        channel = channel_of(path)
        if status == 429:
            self.rate_limited += 1
            retry = _float(headers.get("Retry-After")) or _float(
                headers.get("X-RateLimit-Reset-After")
            )
            if channel is not None and headers.get("X-RateLimit-Scope") != "global":
                self._free_at[channel] = now + (retry or 1.0)
            log.warning(
                "rate limited (429, scope %s) on %s: retry in %.2f s",
                headers.get("X-RateLimit-Scope", "?"), path, retry or 0.0,
            )  # fmt: skip
        elif channel is not None and headers.get("X-RateLimit-Remaining") == "0":
            reset = _float(headers.get("X-RateLimit-Reset-After"))
            if reset:
                self._free_at[channel] = now + reset
        invalid = status in INVALID and not (
            status == 429 and headers.get("X-RateLimit-Scope") == "shared"
        )
        metrics.requested(status, invalid=invalid)
        if invalid:
            self._count_invalid(now)

    def _count_invalid(self, now: float) -> None:
        self.invalid_total += 1
        self._invalid.append(now)
        count = self.invalid_recent(now)
        step = max((w for w in WARN_AT if count >= w), default=0)
        if step > self._warned:
            log.warning(
                "%d invalid requests (401/403/429) in the last 10 minutes: Discord bans a bot "
                "for an hour at %d; look for what is refused again and again",
                count, BAN_THRESHOLD,
            )  # fmt: skip
        self._warned = step

    def invalid_recent(self, now: float | None = None) -> int:
        """Invalid requests in the last 10 minutes, the window of the ban."""
        now = self._clock() if now is None else now
        while self._invalid and self._invalid[0] <= now - BAN_WINDOW:
            self._invalid.popleft()
        return len(self._invalid)


def _float(value: str | None) -> float | None:
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None
