"""Duplicate matches: two legs on the same seed with the seats swapped, one result.

A duplicate match is asked for in a challenge, or made by a tournament of duplicates; either
way its legs are ordinary matches (moves, clocks, resignations all go the usual way). What is
added here is what happens between and after them, each step written in one transaction so
that a restart picks up where it was: the first leg ends → the second starts on the same seed
with the seats swapped, in the same thread; the second leg ends → the one result (the
difference of the two legs' scores) is written and rated as one match.

Ratings of a duplicate match: each leg is stored unrated; the pair counts as one match for
the rating, won by whoever has more points over both legs (drawn if equal), or lost by the
player who resigned or ran out of time in either leg (or left the tournament between them).
"""

from __future__ import annotations

from dataclasses import replace

import bot.service.tournament_store as stored
import bot.service.tournament_words as words
import bot.service.wording as wording
from bot import i18n
from bot.service import ratings, seasons
from bot.service.life import MatchLife
from bot.service.outbox import encode, post, posted
from bot.service.store import MatchStore
from bot.service.tournament_store import TournamentStore
from bot.service.values import Delivery, MatchRow, People
from bot.storage.sql import Connection


class Duplicates:
    """Duplicate matches over the match store: their legs, and their one result."""

    def __init__(self, store: MatchStore, life: MatchLife) -> None:
        self._store = store
        self._life = life
        self._kept = TournamentStore(store.db)

    async def register(
        self, match_id: int, deliveries: list[Delivery], rated: bool
    ) -> list[Delivery]:
        """Make a new challenge the first leg of a duplicate match; its notice says so."""
        await self._kept.register_duplicate(match_id, rated)
        return [
            replace(d, text=f"{d.text} {words.duplicate_terms(i18n.words(d.lang))}")
            if d.kind == "notice"
            else d
            for d in deliveries
        ]

    async def terms(self, first_leg: int) -> tuple[bool, bool]:
        """Whether the duplicate match of ``first_leg`` is rated (as one result), and whether
        it is over (its result written)."""
        found = await self._kept.duplicate(first_leg)
        if found is None:
            return False, False
        return bool(found["rated"]), found["finished_at"] is not None

    async def legs(self, match_id: int) -> tuple[int, int | None] | None:
        """(first leg, second leg) if ``match_id`` is a leg of a duplicate match."""
        found = await self._kept.legs(match_id)
        return None if found is None else (found["first_leg"], found["second_leg"])

    async def step(self) -> list[Delivery]:
        """Start the second legs due, and write the results of duplicate matches now over."""
        found = await self._kept.duplicates_due()
        deliveries: list[Delivery] = []
        for pending in found:
            first = await self._store.read(pending["first_leg"])
            second = None
            if pending["second_leg"] is not None:
                second = await self._store.read(pending["second_leg"])
            deliveries += await self._after_leg(first, second)
        return deliveries

    async def _after_leg(self, first: MatchRow, second: MatchRow | None) -> list[Delivery]:
        people = await self._store.people(first.user_ids)
        now = self._store.ts()
        forfeit = _forfeit(first) if second is None else _forfeit(second)
        if second is None and forfeit is None and first.seat_ids is not None:
            # A player who left the tournament after the first leg plays no second one.
            gone = await self._kept.left_after(first.id, first.seat_ids)
            if gone is not None:
                forfeit = (gone, "resignation")
        if second is None and forfeit is None and first.status == "finished":
            return await self._second_leg(first, people, now)
        assert first.seat_ids is not None
        names = wording.seat_names(first, people)
        net: tuple[float, float] | None = None
        how = "play"
        if first.status != "finished" or (second is not None and second.status != "finished"):
            winner, how = None, "aborted"
        elif forfeit is not None:
            loser_user, how = forfeit
            winner = 1 - first.seat_ids.index(loser_user)
        else:
            assert second is not None
            one, two = _scores(first), _scores(second)
            net = (float(one[0] + two[1]), float(one[1] + two[0]))
            winner = None if net[0] == net[1] else (0 if net[0] > net[1] else 1)
        margin = None if net is None else net[0] - net[1]
        rated = await self._kept.rated(first.id)

        def plan(conn: Connection) -> list[Delivery]:
            if not stored.write_duplicate(conn, first.id, margin, winner, how, now):
                return []  # written by another pass already
            said = i18n.words(self._life.languages.of(first.guild_id))
            text = words.duplicate_over(first.id, names, net, winner, how, said)
            assert first.seat_ids is not None
            if how != "aborted" and rated:
                seasons.count(conn, first.game, first.guild_id, first.seat_ids, winner, now)
                rating_how = "play" if how == "play" else how
                changes = ratings.rate_match(
                    conn, first.game, first.guild_id, first.seat_ids, winner, rating_how, now
                )
                change = changes[-1]
                moved = [
                    (
                        ratings.displayed(change.after[s].shown),
                        ratings.displayed(change.after[s].shown)
                        - ratings.displayed(change.before[s].shown),
                    )
                    for s in (0, 1)
                ]
                text += " " + words.ratings_moved(first.game, names, moved, said)
            last = second or first
            notice = wording.delivery("notice", last, people, None, text, said, names=names)
            return posted([notice], post(conn, encode([notice]), now))

        return await self._store.db.transact(plan)

    async def _second_leg(self, first: MatchRow, people: People, now: float) -> list[Delivery]:
        assert first.seat_ids is not None and first.seed is not None
        seats = (first.seat_ids[1], first.seat_ids[0])
        seed = first.seed

        def plan(conn: Connection) -> tuple[MatchRow, list[Delivery]]:
            if stored.second_leg_taken(conn, first.id):
                return first, []
            row = stored.start_match(
                conn, first.game, first.options, first.guild_id, first.channel_id,
                first.thread_id, seats, first.days_per_move, seed, False, now,
            )  # fmt: skip
            stored.set_second_leg(conn, first.id, row.id)
            names = wording.seat_names(row, people)
            public = self._life.languages.of(row.guild_id)
            said = i18n.words(public)
            text = words.second_leg(first.id, row.id, *names, said)
            told = [wording.delivery("notice", row, people, None, text, said, names=names)]
            owed = [*told, *wording.progress(row, people, now, public)]
            return row, posted(owed, post(conn, encode(owed), now))

        row, deliveries = await self._store.db.transact(plan)
        if deliveries:
            self._life.clock.changed(row.reminder_at)
        return deliveries


def _scores(row: MatchRow) -> tuple[int, int]:
    scores = (row.result or {}).get("scores") or [0, 0]
    return int(scores[0]), int(scores[1])


def _forfeit(row: MatchRow) -> tuple[int, str] | None:
    """(the user who lost the leg off the board, how) for a leg lost by resignation or on
    time; None for a leg played out."""
    result = row.result or {}
    how = result.get("how")
    if row.status != "finished" or how not in ("resignation", "time") or row.seat_ids is None:
        return None
    winner = result.get("winner")
    if winner not in (0, 1):
        return None
    return row.seat_ids[1 - winner], str(how)
