"""Lessons as matches: a guided first deal played against the computer through the service.

A lesson is a match like any other — challenged, accepted, stored, its moves logged and its
messages delivered through the outbox exactly once — whose second seat is the computer as a
teacher (:data:`TEACHER_ID`). That seat is what marks it: the deal comes from the game's
lesson (``games.lessons``) instead of a fresh seed, each move of the learner must be the one
the lesson asks for (any other is explained, not just refused), the teacher plays the
lesson's own replies, and the learner's hand says the lesson's note for the moment. A lesson
is unrated and leaves no result: no leaderboard, record or web page ever counts it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import bot.service.wording as wording
import games
from bot import i18n
from bot.service.values import (
    Delivery,
    MatchInfo,
    MatchRow,
    People,
    Phrase,
    PlayerRef,
    Refused,
)
from games import State
from games.lessons import LEARNER, Lesson, lesson_for
from games.words import N_, Words

if TYPE_CHECKING:
    from bot.service.life import MatchLife

TEACHER_ID = 110
"""The computer when it teaches: an id of its own beside the levels' (bot/computer.py), far
below any Discord id, so that a match's seats alone say it is a lesson, after a restart too."""


@dataclass(frozen=True)
class MoveSaid:
    """A move in the reader's words, as a blank of a refusal."""

    game: str
    move: str

    def say(self, words: Words) -> str:
        return wording.move_text(self.game, self.move, words)


def is_lesson(row: MatchRow) -> bool:
    """Whether ``row`` is a lesson: the teacher is its opponent."""
    seats = row.seat_ids or ()
    return row.opponent_id == TEACHER_ID or TEACHER_ID in seats


def lesson_of(row: MatchRow) -> Lesson | None:
    """The lesson ``row`` plays, None if it is no lesson."""
    return lesson_for(row.game) if is_lesson(row) else None


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


def hand_lines(row: MatchRow, seat: int, w: Words) -> list[str]:
    """What the learner's hand adds in a lesson: the note for the moment, then the move the
    lesson asks for if it is their turn; at the end, the lesson's last word."""
    lesson = lesson_of(row)
    if lesson is None or seat != LEARNER or row.state is None:
        return []
    if row.status != "active":
        return []  # the last word comes with the result (see ended)
    lines = []
    note = lesson.note(row.version)
    if note is not None:
        lines.append(w.gettext("Lesson: {note}").format(note=w.gettext(note)))
    expected = lesson.expected(row.version)
    if expected is not None and row.state.to_move == LEARNER:
        move = wording.move_text(row.game, expected, w)
        lines.append(w.gettext("The lesson's move now: {move}.").format(move=move))
    return lines


def start_for(game: str, seat1_id: int | None) -> State | None:
    """The first state of a stored match whose second seat is ``seat1_id``, if it is a
    lesson (to replay it from its log); None otherwise."""
    if seat1_id != TEACHER_ID:
        return None
    lesson = lesson_for(game)
    return None if lesson is None else lesson.start()


TEACHER = PlayerRef(TEACHER_ID, "Tapis")
"""The teacher as a player: named like the computer at every level (bot/computer.py)."""


async def start(
    life: MatchLife, learner: PlayerRef, game: str, guild_id: int | None, channel_id: int | None
) -> tuple[MatchInfo, list[Delivery]]:
    """Challenge the teacher to ``game``'s lesson and take it up at once: the match starts
    dealt from the lesson's decks (see :func:`first_state`)."""
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
    info, notices = await life.challenge(
        learner, TEACHER, lesson.game, guild_id=guild_id, channel_id=channel_id,
        options=dict(lesson.options), rated=False,
    )  # fmt: skip
    info, deliveries = await life.accept(info.id, TEACHER)
    return info, notices + deliveries


def lessons_given() -> list[str]:
    """The games that have a lesson, by their names."""
    return [name for name in games.names() if lesson_for(name) is not None]


def ended(row: MatchRow, people: People, said: list[Delivery]) -> list[Delivery]:
    """A finished match's words (``said``), and in a lesson its last word to the learner:
    the result is marked as a lesson's, so that what follows is offered instead of a
    rematch."""
    lesson = lesson_of(row)
    if lesson is None or row.seat_ids is None:
        return said
    learner = row.seat_ids[LEARNER]
    w = wording.words_for(people, learner, i18n.DEFAULT_LANG)
    text = "\n".join(
        [
            w.gettext("Lesson: {note}").format(note=w.gettext(lesson.end)),
            w.gettext(
                "The lesson is over. Play a real match against the computer, or challenge "
                "someone: {game} is yours to play."
            ).format(game=wording.game_title(row.game, w)),
        ]
    )
    marked = [replace(d, lesson=True) if d.kind == "notice" else d for d in said]
    return [*marked, wording.delivery("dm", row, people, learner, text, w)]
