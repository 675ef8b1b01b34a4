"""The coach: hints and reviews, decided in the computer's worker processes.

The service says where a hint is allowed and keeps what was given (``coaching``);
the weighing itself (``ai.coach``, ``ai.review``) is CPU-bound and pure, so it runs in the
same worker processes as the computer's own decisions, never on the event loop. What comes
back is worded here in the reader's language, by the game's own phrases (``ai.hints``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import ai.coach
import ai.review
from ai.hints import amount, hint_lines, review_summary
from bot.process.workers import Workers
from bot.service.match_service import MatchService
from games import get as get_game
from games.words import Words

REVIEW_PART = 12
"""Decisions weighed per task of a review: the progress line moves at each part."""

Progress = Callable[[int, int], Awaitable[None]]
"""(decisions weighed so far, decisions in all) as a review goes."""


def _hint(game: str, view: dict[str, Any], seed: int) -> ai.coach.Analysis:
    return ai.coach.analyse(game, view, seed)


class Coach:
    """Hints and reviews for the players of ``service``'s matches."""

    def __init__(self, service: MatchService, workers: Workers) -> None:
        self.service = service
        self.workers = workers

    async def hint(self, match_id: int, user_id: int, words: Words) -> str:
        """The hint for ``user_id``'s move, worded; a ServiceError says why none is given."""
        asked = await self.service.coaching.ask_hint(match_id, user_id)
        analysis = await self.workers.run(_hint, asked.game, asked.view, asked.seed)
        await self.service.coaching.record_hint(
            match_id, user_id, asked.version, analysis.best.move
        )
        return "\n".join(hint_lines(analysis, words))

    async def review(
        self,
        match_id: int,
        user_id: int,
        words: Words,
        progress: Progress | None = None,
    ) -> str:
        """The review of a finished match, worked out once (then read back), worded."""
        coaching = self.service.coaching
        asked = await coaching.ask_review(match_id, user_id)
        stored = await coaching.stored_review(match_id)
        if stored is None:
            plies = await self.workers.run(
                ai.review.choices, asked.game, asked.seed, asked.options, asked.moves
            )
            decisions: list[ai.review.Decision] = []
            for start in range(0, len(plies), REVIEW_PART):
                part = plies[start : start + REVIEW_PART]
                decisions += await self.workers.run(
                    ai.review.weigh, asked.game, asked.seed, asked.options, asked.moves, part
                )
                if progress is not None:
                    await progress(len(decisions), len(plies))
            made = ai.review.summarise(asked.game, decisions)
            stored = await coaching.store_review(match_id, made.to_json())
        review = ai.review.Review.from_json(stored)
        info = await self.service.get(match_id)
        assert info.seats is not None
        names = (info.seats[0].name, info.seats[1].name)
        return "\n".join(review_lines(review, names, words))

    async def costliest(self, match_id: int) -> Plies:
        """The plies of the stored review of ``match_id`` (none if it has none yet)."""
        stored = await self.service.coaching.stored_review(match_id)
        return ((), ()) if stored is None else costliest(stored)


Plies = tuple[tuple[int, ...], tuple[int, ...]]
"""Per seat, the plies of a review's costliest decisions, costliest first."""


def costliest(stored: dict[str, Any]) -> Plies:
    """The plies a stored review tells of, per seat: the positions worth a picture."""
    review = ai.review.Review.from_json(stored)
    first, second = (tuple(d.ply for d in review.worst[seat]) for seat in (0, 1))
    return first, second


def review_lines(review: ai.review.Review, names: tuple[str, str], words: Words) -> list[str]:
    """A review in words: the match in one line, then each player's costliest decisions."""
    game = get_game(review.game)
    lines = [review_summary(review.lost, review.unit, names, words)]
    for seat in (0, 1):
        worst = review.worst[seat]
        if not worst:
            lines.append(
                words.gettext("{name}: no choice cost anything worth telling.").format(
                    name=names[seat]
                )
            )
            continue
        lines.append(words.gettext("**{name}**, the costliest choices:").format(name=names[seat]))
        for decision in worst:
            lines.append(
                words.gettext(
                    "• Move {ply}: {played} instead of {best}, {cost} on average."
                ).format(
                    ply=words.number(decision.ply),
                    played=game.describe(decision.played, words),
                    best=game.describe(decision.best, words),
                    cost=amount(decision.cost, review.unit, words),
                )
            )
    return lines
