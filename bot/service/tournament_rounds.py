"""A tournament's rounds: giving each game its points once its match (or duplicate match) is
over, and, once a round's games all have theirs, pairing the next round (Swiss or
round-robin) and making its matches, or ending the tournament.

Each step is one transaction guarded by the round it moves from, so two passes at once, or a
restart mid-round, pair a round once.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Final

import bot.service.tournament_store as stored
from bot.process import metrics
from bot.service import pairing
from bot.service.life import MatchLife, fresh_seed
from bot.service.store import MatchStore
from bot.service.tournament_store import TournamentStore, as_object
from bot.service.tournament_values import TournamentInfo
from bot.service.values import MatchRow
from bot.storage.sql import Connection, Row

MIN_PLAYERS: Final = 2
ENDED: Final = ("finished", "aborted", "corrupt", "cancelled", "declined")


class Rounds:
    """Scores the games of running tournaments and pairs their rounds."""

    def __init__(
        self, store: MatchStore, life: MatchLife, kept: TournamentStore, wake: Callable[[], None]
    ) -> None:
        self._store = store
        self._life = life
        self._kept = kept
        self._wake = wake

    async def score(self) -> None:
        """Give every tournament game whose match (or duplicate) is over its points."""
        found = await self._kept.unscored()
        scored: list[tuple[float, float, int, int, int]] = []
        for game in found:
            if game["duplicate"]:
                if game["finished_at"] is None:
                    continue
                winner = game["winner_seat"]
                # The seats of the first leg are the game's seats (see _new_round).
                if winner is None and _aborted_duplicate(game):
                    points = (0.0, 0.0)
                else:
                    points = _points(winner)
            else:
                if game["status"] not in ENDED:
                    continue
                if game["status"] != "finished":
                    points = (0.0, 0.0)  # called off or set aside: nobody scores
                else:
                    result = as_object(game["result"])
                    points = _points(result.get("winner"))
            scored.append((*points, game["tournament_id"], game["round"], game["board"]))
        if not scored:
            return
        await self._kept.score(scored)

    async def advance(self, tournament_id: int) -> None:
        """Start the tournament if due, or pair its next round, or end it, as it stands."""
        row = await self._kept.row(tournament_id)
        if row is None:
            return
        info = await self._kept.info(row)
        now = self._store.ts()
        if info.status == "open":
            if row["due_at"] is None or row["due_at"] > now:
                return
            playing = [e for e in info.players if e.left_round is None]
            if len(playing) < MIN_PLAYERS:
                await self._kept.cancel(info.id, now)
                return
            count = len(playing)
            if info.format == "round-robin":
                rounds = pairing.round_robin_rounds(count)
            else:
                wanted = info.rounds or max(1, math.ceil(math.log2(count)))
                rounds = min(wanted, count - 1)
            await self._new_round(info, 1, rounds, now)
            return
        open_games = await self._kept.open_games(tournament_id, info.round)
        if open_games is None or open_games > 0:
            return
        assert info.rounds is not None
        remaining = [e for e in info.players if e.left_round is None]
        if info.round >= info.rounds or len(remaining) < MIN_PLAYERS:
            await self._kept.finish(tournament_id, info.round, now)
            return
        await self._new_round(info, info.round + 1, info.rounds, now)

    async def _new_round(self, info: TournamentInfo, number: int, rounds: int, now: float) -> None:
        """Pair round ``number`` and make its matches, with the round, in one transaction."""
        history = await self._kept.history(info.id)
        if info.format == "round-robin":
            # Everyone who started keeps their place in the schedule, even once gone.
            starting = [e.user_id for e in info.players]
            drawn = pairing.round_robin(starting, number)
        else:
            drawn = pairing.swiss(_entrants(info, history))
        gone = {e.user_id for e in info.players if e.left_round is not None}
        new_rows: list[MatchRow] = []

        def plan(conn: Connection) -> None:
            if not stored.begin_round(conn, info.id, number, rounds, now):
                return  # another pass did it
            board = 0
            for first, second in drawn.pairs:
                board += 1
                if first in gone or second in gone:
                    # A round-robin still lists who left: the one still in wins by forfeit.
                    points = (
                        (0.0, 0.0)
                        if first in gone and second in gone
                        else ((0.0, 1.0) if first in gone else (1.0, 0.0))
                    )
                    stored.add_forfeit(conn, info.id, number, board, (first, second), points)
                    continue
                seed = fresh_seed()
                row = stored.start_match(
                    conn, info.game, info.options, info.guild_id, info.channel_id, None,
                    (first, second), info.days_per_move, seed, not info.duplicate, now,
                )  # fmt: skip
                new_rows.append(row)
                if info.duplicate:
                    stored.add_duplicate(conn, row.id)
                stored.add_game(conn, info.id, number, board, (first, second), row.id)
            if drawn.bye is not None and drawn.bye not in gone:
                stored.add_bye(conn, info.id, number, board + 1, drawn.bye, pairing.BYE)

        await self._store.db.transact(plan)
        metrics.tournament_round()
        for row in new_rows:
            self._life.clock.changed(row.reminder_at)
        if new_rows == [] and drawn.pairs == ():
            self._wake()  # a round of byes only: it is over at once


def _points(winner: object) -> tuple[float, float]:
    if winner == 0:
        return pairing.WIN, 0.0
    if winner == 1:
        return 0.0, pairing.WIN
    return pairing.DRAW, pairing.DRAW


def _aborted_duplicate(game: Row) -> bool:
    return bool(game["status"] != "finished")


def _entrants(info: TournamentInfo, history: Sequence[Row]) -> list[pairing.Entrant]:
    """Who is still in, as the Swiss pairing sees them after the games so far."""
    score: dict[int, float] = {}
    met: dict[int, set[int]] = {}
    first: dict[int, int] = {}
    second: dict[int, int] = {}
    byes: set[int] = set()
    for game in history:
        a, b = game["seat0_id"], game["seat1_id"]
        score[a] = score.get(a, 0.0) + (game["points0"] or 0.0)
        if b is None:
            byes.add(a)
            continue
        score[b] = score.get(b, 0.0) + (game["points1"] or 0.0)
        met.setdefault(a, set()).add(b)
        met.setdefault(b, set()).add(a)
        first[a] = first.get(a, 0) + 1
        second[b] = second.get(b, 0) + 1
    return [
        pairing.Entrant(
            user_id=e.user_id,
            score=score.get(e.user_id, 0.0),
            order=e.place,
            opponents=frozenset(met.get(e.user_id, ())),
            first_seats=first.get(e.user_id, 0),
            second_seats=second.get(e.user_id, 0),
            had_bye=e.user_id in byes,
        )
        for e in info.players
        if e.left_round is None
    ]
