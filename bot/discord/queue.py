"""The courier's queue in front of Discord's REST API: who is served first, and what waits.

Pure bookkeeping (no Discord, no I/O), so its rules are tested on their own:

- **Lanes.** Every destination (a channel or thread, a player's DMs) is a lane whose messages
  leave in the order they came, one at a time, so a thread never reads out of order and a
  lane never has two requests racing for its bucket.
- **Priorities.** Among lanes, the one holding the most urgent message goes first: a player's
  turn (their hand) and personal news before public notices, notices before boards,
  reminders last. Ties go to the oldest.
- **Coalescing.** A board or a hand still waiting is replaced by a newer one of the same match
  (and player): nobody needs a stale table or a hand whose buttons are already out of date.
  The replaced one is handed back, so the courier can mark it done in the outbox or let the
  newer one carry what it said (a board names every move since the last one posted).
- **Waiting.** A message may carry a time before which it is not sent (a board in the middle
  of a player's turn waits for the turn's end, see the courier), and a lane may be blocked
  until its channel's rate-limit bucket has room again.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Lane = tuple[str, int]  # ("channel", channel id) or ("user", user id)

TURN = 0  # a player's turn, personal news: they are waiting on it
NOTICE = 1  # public notices: a match starts or ends, a rematch is offered
BOARD = 2  # the public table
REMINDER = 3  # a clock reminder: useful, never urgent


@dataclass
class Item:
    lane: Lane
    priority: int
    payload: Any
    coalesce: tuple[Any, ...] | None = None  # items with an equal key replace each other
    not_before: float = 0.0
    enqueued: float = 0.0
    seq: int = field(default=0, compare=False)
    # What this item took over from the waiting items it replaced, oldest first: the queue
    # only keeps it, its owner decides what it means (a board's earlier moves).
    carried: list[Any] = field(default_factory=list, compare=False)
    # Work begun for it ahead of time (its picture being drawn), stopped if it is replaced.
    ahead: asyncio.Future[Any] | None = field(default=None, compare=False)


class Outgoing:
    """The waiting messages, by lane; :meth:`take` gives the next one to send."""

    def __init__(self, lane_free_at: Callable[[Lane], float] | None = None) -> None:
        # When a lane's bucket has room again (0: now); asked when a lane comes up.
        self._lane_free_at = lane_free_at or (lambda _lane: 0.0)
        self._lanes: dict[Lane, deque[Item]] = {}
        self._busy: set[Lane] = set()  # a message of the lane is being sent
        self._ready: list[tuple[int, int, Lane]] = []  # (priority, seq, lane), checked lazily
        self._timers: list[tuple[float, int, Lane]] = []  # lanes that wait for a time
        self._seq = itertools.count()
        self.depth = 0
        self.by_priority = [0, 0, 0, 0]

    def put(self, item: Item) -> list[Item]:
        """Queue ``item``; returns the waiting items it replaces (already removed)."""
        item.seq = next(self._seq)
        lane = self._lanes.setdefault(item.lane, deque())
        replaced: list[Item] = []
        if item.coalesce is not None:
            replaced = [old for old in lane if old.coalesce == item.coalesce]
            for old in replaced:
                lane.remove(old)
                self._count(old, -1)
        lane.append(item)
        self._count(item, 1)
        self._schedule(item.lane)
        return replaced

    def _count(self, item: Item, sign: int) -> None:
        self.depth += sign
        self.by_priority[item.priority] += sign

    def _schedule(self, key: Lane) -> None:
        """(Re)announce a lane by its most urgent waiting message; stale entries are skipped
        when they come up."""
        lane = self._lanes.get(key)
        if not lane or key in self._busy:
            return
        heapq.heappush(self._ready, (min(i.priority for i in lane), lane[0].seq, key))

    def cancel(self, lane: Lane, coalesce: tuple[Any, ...]) -> list[Item]:
        """Remove the waiting items of ``lane`` with this key (a hand whose turn has passed)."""
        waiting = self._lanes.get(lane)
        gone = [item for item in waiting or () if item.coalesce == coalesce]
        for item in gone:
            assert waiting is not None
            waiting.remove(item)
            self._count(item, -1)
        if waiting is not None and not waiting:
            del self._lanes[lane]
        elif gone:
            self._schedule(lane)
        return gone

    def ready(self, now: float) -> bool:
        """Whether :meth:`take` would give something now."""
        return self.take(now, peek=True) is not None

    def take(self, now: float, *, peek: bool = False) -> Item | None:
        """The next message to send now, its lane marked busy until :meth:`done`; None if
        nothing can go now (see :meth:`next_time`). ``peek``: only look."""
        while self._timers and self._timers[0][0] <= now:
            _, _, key = heapq.heappop(self._timers)
            self._schedule(key)
        while self._ready:
            priority, seq, key = heapq.heappop(self._ready)
            lane = self._lanes.get(key)
            if not lane or key in self._busy:
                continue
            if lane[0].seq != seq or min(i.priority for i in lane) != priority:
                continue  # a stale entry: the lane was announced again since
            wait = max(lane[0].not_before, self._lane_free_at(key))
            if wait > now:
                heapq.heappush(self._timers, (wait, next(self._seq), key))
                continue
            if peek:
                heapq.heappush(self._ready, (priority, seq, key))
                return lane[0]
            item = lane.popleft()
            self._count(item, -1)
            if not lane:
                del self._lanes[key]
            self._busy.add(key)
            return item
        return None

    def done(self, item: Item) -> None:
        """The lane's message is sent (or given up): the lane may go on."""
        self._busy.discard(item.lane)
        self._schedule(item.lane)

    def next_time(self) -> float | None:
        """When a waiting lane may come up again, if any waits on time."""
        return self._timers[0][0] if self._timers else None

    def waiting(self) -> list[Item]:
        """Every waiting message, lane by lane (for a last flush at shutdown)."""
        return [item for lane in self._lanes.values() for item in lane]
