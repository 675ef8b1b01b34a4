"""A finished match's stored review as a page shows it, in the reader's words.

The web never works a review out: ``/review`` does, once, and keeps it (``coaching``); a page
reads what was kept through ``queries.review`` and shows it here worded: the match in one
line, then each player's costliest decisions, each with the move that was played, the one the
strong level would have played and what the difference cost on average. Only a finished
match has a review to show: a match still being played shows none, even were one kept.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import ai.review
from ai.hints import amount, review_summary
from bot.service import queries
from games import get as get_game
from games.words import Words


@dataclass(frozen=True)
class Choice:
    """One costly decision: the move that made ``ply``, decided from the position at
    ``ply - 1`` (the one its picture shows) by ``seat``."""

    ply: int
    seat: int
    said: str


@dataclass(frozen=True)
class PlayerReview:
    """A player's part of the review: a heading and their costliest decisions."""

    seat: int
    heading: str
    choices: tuple[Choice, ...]


@dataclass(frozen=True)
class Reviewed:
    """The review of a match, worded: the one line for the match, then each player's part."""

    summary: str
    players: tuple[PlayerReview, PlayerReview]


async def reviewed(db: queries.Reads, match: queries.Match, words: Words) -> Reviewed | None:
    """The stored review of ``match`` worded for ``words``'s reader, its players named as
    ``match`` names them; None if the match is not finished or has no review (or a review
    that cannot be read, which is not worth a failed page)."""
    if match.status != "finished" or not match.replayable:
        return None
    stored = await queries.review(db, match.id)
    if stored is None:
        return None
    try:
        review = ai.review.Review.from_json(stored)
        game = get_game(review.game)
    except (KeyError, TypeError, ValueError):
        return None
    return word(review, match.names, words, game.describe)


def word(
    review: ai.review.Review,
    names: tuple[str, str],
    words: Words,
    describe: Callable[[str, Words], str],
) -> Reviewed:
    """``review`` in ``words``'s language, ``describe`` naming each move (``Game.describe``)."""
    summary = review_summary(review.lost, review.unit, names, words)
    parts = []
    for seat in (0, 1):
        worst = review.worst[seat][: ai.review.WORST]
        if not worst:
            heading = words.gettext("{name}: no choice cost anything worth telling.")
        else:
            heading = words.gettext("{name}, the costliest choices:")
        choices = tuple(
            Choice(
                decision.ply,
                seat,
                words.gettext(
                    "Move {ply}: {name} played {played}; the strong level would have "
                    "played {best}. Cost: {cost} on average."
                ).format(
                    ply=words.number(decision.ply),
                    name=names[seat],
                    played=describe(decision.played, words),
                    best=describe(decision.best, words),
                    cost=amount(decision.cost, review.unit, words),
                ),
            )
            for decision in worst
        )
        parts.append(PlayerReview(seat, heading.format(name=names[seat]), choices))
    return Reviewed(summary, (parts[0], parts[1]))
