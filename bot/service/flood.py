"""How often a player may challenge: caps on the open challenges of one player and of one
channel, and a rate (a token bucket per player), so that nobody floods a channel with
challenges. A challenge beyond them is refused politely, and nothing is taken.
"""

from __future__ import annotations

from bot.service import clocks
from bot.service.values import ChallengeLimits, Refused
from bot.storage.sql import Database
from games.words import N_


class ChallengeFlood:
    """The caps and the rate of challenges, under ``limits``; the buckets are kept in memory
    (a restart fills them all)."""

    def __init__(self, db: Database, limits: ChallengeLimits) -> None:
        self._db = db
        self.limits = limits
        self._buckets: dict[int, tuple[float, float]] = {}  # user -> (tokens, at)

    def _tokens(self, user_id: int, now: float) -> float:
        """The challenges ``user_id`` may make right now under the rate (a token bucket)."""
        limits = self.limits
        tokens, at = self._buckets.get(user_id, (float(limits.burst), now))
        return min(float(limits.burst), tokens + max(0.0, now - at) / limits.every_seconds)

    async def check(self, user_id: int, channel_id: int | None, now: float) -> None:
        """Refuse, politely, a challenge beyond the caps or the rate; nothing is taken."""
        limits = self.limits
        tokens = self._tokens(user_id, now)
        if tokens < 1:
            wait = (1 - tokens) * limits.every_seconds
            raise Refused(
                N_("You are making challenges too quickly. You may make another one in {left}."),
                left=clocks.describe_left(max(wait, 60.0)),
            )
        mine = await self._db.fetchone(
            "SELECT COUNT(*) FROM matches WHERE challenger_id = ? AND status = 'challenge'",
            (user_id,),
        )
        if mine is not None and mine[0] >= limits.per_user:
            raise Refused(
                N_(
                    "You already have {n} open challenges. Wait for an answer, or withdraw one "
                    "with `/decline`, before making another."
                ),
                n=mine[0],
            )
        if channel_id is not None:
            here = await self._db.fetchone(
                "SELECT COUNT(*) FROM matches WHERE channel_id = ? AND status = 'challenge'",
                (channel_id,),
            )
            if here is not None and here[0] >= limits.per_channel:
                raise Refused(
                    N_(
                        "This channel already has {n} open challenges. Accept one of them, or "
                        "try again when some are answered."
                    ),
                    n=here[0],
                )

    def spend(self, user_id: int, now: float) -> None:
        """Take one challenge from ``user_id``'s bucket: one was made."""
        self._buckets[user_id] = (self._tokens(user_id, now) - 1, now)
        if len(self._buckets) > 10_000:  # forget the full buckets: they are the default
            full = float(self.limits.burst)
            self._buckets = {u: b for u, b in self._buckets.items() if self._tokens(u, now) < full}
