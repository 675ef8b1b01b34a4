"""Lessons as matches: a guided first deal played against the computer through the service.

A lesson is a match like any other — challenged, accepted, stored, its moves logged and its
messages delivered through the outbox exactly once — whose second seat is the computer as a
teacher (:data:`TEACHER_ID`). That seat is what marks it: the deal comes from the game's
lesson (``games.lessons``) instead of a fresh seed, each move of the learner must be the one
the lesson asks for (any other is explained, not just refused), the teacher plays the
lesson's own replies, and the learner's hand says the lesson's note for the moment (worded
with the rest of the hand, in ``wording``; the lesson's last word in ``endings``). A lesson
is unrated and leaves no result: no leaderboard, record or web page ever counts it.
"""

from __future__ import annotations

from dataclasses import dataclass

import bot.service.wording as wording
import games
from bot.service.values import TEACHER_ID, MatchRow, Phrase, PlayerRef, Refused
from games import State
from games.lessons import LEARNER, Lesson, lesson_for
from games.words import N_, Words

TEACHER = PlayerRef(TEACHER_ID, "Tapis")
"""The teacher as a player: named like the computer at every level (``computer``)."""


@dataclass(frozen=True)
class MoveSaid:
    """A move in the reader's words, as a blank of a refusal."""

    game: str
    move: str

    def say(self, words: Words) -> str:
        return wording.move_text(self.game, self.move, words)


def lesson_of(row: MatchRow) -> Lesson | None:
    """The lesson ``row`` plays, None if it is no lesson."""
    return lesson_for(row.game) if row.lesson else None


def first_state(row: MatchRow) -> tuple[int, State] | None:
    """A lesson's seed and first state, dealt from its prepared decks; None for a match
    that is no lesson (it is dealt from a fresh seed)."""
    lesson = lesson_of(row)
    return None if lesson is None else (lesson.seed, lesson.start())


def check(row: MatchRow, state: State, move: str) -> None:
    """Refuse, with the lesson's reason, a move of the learner other than the one the
    lesson asks for now: an illegal one with the rule that forbids it, a legal one with what
    the lesson asks and why. Nothing for a match that is no lesson, or the teacher's moves."""
    lesson = lesson_of(row)
    if lesson is None or state.to_move != LEARNER:
        return
    expected = lesson.expected(row.version)
    if expected is None:
        return
    asked = MoveSaid(row.game, expected)
    try:
        canonical = state.canonical(move)
        if canonical == expected:
            return
        state.apply(canonical)
    except ValueError as error:
        raise Refused(
            N_("{why} This lesson asks for this move now: {move}."),
            why=wording.engine_reason(error),
            move=asked,
        ) from None
    why = lesson.why(row.version)
    raise Refused(
        N_(
            "The rules allow that move, but this lesson's cards are arranged so that each rule "
            "comes up in turn, and it asks for this move now: {move}. {why}"
        ),
        move=asked,
        why=Phrase(why or N_("Play it, and the lesson goes on.")),
    )


def scripted(row: MatchRow) -> str | None:
    """The teacher's move now in a lesson, None if it is no lesson or not the teacher's turn."""
    lesson = lesson_of(row)
    if lesson is None or row.state is None or row.state.to_move == LEARNER:
        return None
    return lesson.expected(row.version)


def start_for(game: str, seat1_id: int | None) -> State | None:
    """The first state of a stored match whose second seat is ``seat1_id``, if it is a
    lesson (to replay it from its log); None otherwise."""
    if seat1_id != TEACHER_ID:
        return None
    lesson = lesson_for(game)
    return None if lesson is None else lesson.start()


def given(game: str) -> Lesson:
    """The lesson of ``game``, to be started; a refusal naming the games that have one."""
    try:
        lesson = lesson_for(game)
    except KeyError:
        lesson = None
    if lesson is None:
        raise Refused(
            N_("There is no lesson for “{game}”. Lessons are given for {names}."),
            game=game,
            names=", ".join(lessons_given()),
        )
    return lesson


def lessons_given() -> list[str]:
    """The games that have a lesson, by their names."""
    return [name for name in games.names() if lesson_for(name) is not None]
