"""The coach's side of the match service: where hints are allowed, the hints asked, reviews.

Hints are a help one player gets and the other may not: they are allowed only where no one
is measured by the result — against the computer (the sandbox plays it too) and in a match
whose challenge said ``hints:True`` (both players saw it, and such a match is not rated) —
and never in a rated match, a tournament's or a duplicate match's leg. Each hint asked is
kept with the match (its replay shows it), and a finished match's review is kept once made.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from bot.service.computer_ids import is_computer
from bot.service.rows import unknown_match
from bot.service.store import MatchStore
from bot.service.values import Json, MatchOver, MatchRow, NotAPlayer, Refused, game_view
from bot.storage.sql import Connection
from games.words import N_


@dataclass(frozen=True)
class HintAsked:
    """What a hint is decided from: the asking seat's view and a seed fixed by the moment."""

    game: str
    view: Json
    seed: int
    version: int


@dataclass(frozen=True)
class HintUsed:
    """A hint kept with its match: who asked, before which move (the match's version)."""

    user_id: int
    version: int
    move: str


@dataclass(frozen=True)
class ReviewAsked:
    """What a review is worked out from: the match as dealt and its moves."""

    game: str
    seed: int
    options: Json
    moves: list[str]
    seat_ids: tuple[int, int]


def hints_refused(*, rated: bool, duplicate: bool) -> None:
    """Refuse a challenge with ``hints:True`` on terms that cannot have them, saying what
    would be accepted: a duplicate match never, a rated match only once made unrated."""
    if duplicate:
        raise Refused(
            N_(
                "Hints are not allowed in a duplicate match: both legs must be your own play. "
                "Leave out hints, or duplicate."
            )
        )
    if rated:
        raise Refused(
            N_(
                "Hints are not allowed in a rated match: a challenge with hints must be "
                "unrated. Leave out hints to play for your rating."
            )
        )


class Coaching:
    """Hints allowed and kept, reviews kept."""

    def __init__(self, store: MatchStore) -> None:
        self._store = store
        self._db = store.db

    async def allow_hints(self, match_id: int) -> None:
        """Mark a match as one whose challenge allows hints (kept out of the ratings by its
        challenge)."""

        def plan(conn: Connection) -> None:
            conn.execute(
                "INSERT INTO coached (match_id) VALUES (?) ON CONFLICT (match_id) DO NOTHING",
                (match_id,),
            )

        await self._db.transact(plan)

    async def hints_allowed(self, match_id: int) -> bool:
        """Whether the challenge of ``match_id`` said ``hints:True``."""
        found = await self._db.fetchone("SELECT 1 FROM coached WHERE match_id = ?", (match_id,))
        return found is not None

    async def refusal(self, row: MatchRow) -> Refused | None:
        """Why hints are not allowed in this match, or None if they are."""
        legs = await self._db.fetchone(
            "SELECT 1 FROM duplicates WHERE first_leg = ? OR second_leg = ?", (row.id, row.id)
        )
        if legs is not None:
            return Refused(
                N_("Hints are not allowed in a duplicate match: both legs must be your own play.")
            )
        played = await self._db.fetchone(
            "SELECT 1 FROM tournament_games WHERE match_id = ?", (row.id,)
        )
        if played is not None:
            return Refused(N_("Hints are not allowed in a tournament's matches."))
        if row.rated:
            return Refused(
                N_(
                    "Hints are not allowed in a rated match. They are for matches against "
                    "Tapis, the sandbox, and challenges made with hints:True."
                )
            )
        # The computer's seat is known by its ids.
        against_computer = row.seat_ids is not None and any(
            is_computer(user_id) for user_id in row.seat_ids
        )
        if against_computer or await self.hints_allowed(row.id):
            return None
        return Refused(
            N_(
                "Hints are allowed against Tapis, in the sandbox, and in matches challenged "
                "with hints:True; this match's challenge did not allow them."
            )
        )

    async def ask_hint(self, match_id: int, user_id: int) -> HintAsked:
        """The view a hint for ``user_id`` is decided from; a refusal saying why if none may
        be given (not their match, not their turn, not allowed here)."""
        row = await self._store.peek(match_id)
        seat = row.seat_of(user_id)
        if seat is None:
            raise NotAPlayer(
                N_("You do not play in match #{id}: no hint for you there."), id=match_id
            )
        if row.status != "active" or row.state is None:
            raise MatchOver(
                N_("Match #{id} is not being played: there is no move to hint."), id=match_id
            )
        refused = await self.refusal(row)
        if refused is not None:
            raise refused
        if row.state.to_move != seat:
            raise Refused(
                N_("It is not your turn in match #{id}: a hint waits for your move."), id=match_id
            )
        view = game_view(row.state, seat)
        # The seed is the match's and the moment's, as for the computer's own moves: asking
        # twice gives the same hint, and it depends on nothing the seat cannot see.
        return HintAsked(row.game, view, match_id * 1_000_033 + row.version, row.version)

    async def record_hint(self, match_id: int, user_id: int, version: int, move: str) -> None:
        """Keep a hint given (once per player and position)."""
        now = self._store.ts()

        def plan(conn: Connection) -> None:
            conn.execute(
                "INSERT INTO hints (match_id, version, user_id, move, at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (match_id, version, user_id) DO NOTHING",
                (match_id, version, user_id, move, now),
            )

        await self._db.transact(plan)

    async def hints_used(self, match_id: int) -> list[HintUsed]:
        """Every hint given in the match, in the order of its moves."""
        found = await self._db.fetchall(
            "SELECT user_id, version, move FROM hints WHERE match_id = ? ORDER BY version, user_id",
            (match_id,),
        )
        return [HintUsed(int(r["user_id"]), int(r["version"]), str(r["move"])) for r in found]

    async def ask_review(self, match_id: int, user_id: int) -> ReviewAsked:
        """What the review of a finished match is worked out from; only its players may ask."""
        row = await self._store.peek(match_id)
        if row.seat_of(user_id) is None:
            raise unknown_match(match_id)  # a review is its players' alone
        if row.status != "finished" or row.seed is None or row.seat_ids is None:
            raise MatchOver(
                N_("Match #{id} is not finished: a review is made once it is over."), id=match_id
            )
        moves = await self._db.fetchall(
            "SELECT move FROM moves WHERE match_id = ? ORDER BY ply", (match_id,)
        )
        return ReviewAsked(
            row.game, row.seed, dict(row.options), [str(m["move"]) for m in moves], row.seat_ids
        )

    async def stored_review(self, match_id: int) -> Json | None:
        found = await self._db.fetchone(
            "SELECT review FROM reviews WHERE match_id = ?", (match_id,)
        )
        return None if found is None else dict(json.loads(found["review"]))

    async def store_review(self, match_id: int, review: Json) -> Json:
        """Keep a match's review; if another was kept meanwhile, that one stays (and is
        returned): a review is made once."""
        now = self._store.ts()
        text = json.dumps(review, separators=(",", ":"), sort_keys=True)

        def plan(conn: Connection) -> str:
            conn.execute(
                "INSERT INTO reviews (match_id, review, created_at) VALUES (?, ?, ?)"
                " ON CONFLICT (match_id) DO NOTHING",
                (match_id, text, now),
            )
            kept = conn.execute(
                "SELECT review FROM reviews WHERE match_id = ?", (match_id,)
            ).fetchone()
            return str(kept[0])

        return dict(json.loads(await self._db.transact(plan)))
