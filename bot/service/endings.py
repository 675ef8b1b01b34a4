"""How the end of a match is told: its result with the ratings it moved, and to each
player what ended it (a resignation, the clock, a match called off).

Pure functions from a match and its people to deliveries, as in ``wording``, whose pieces
of sentences (titles, names, the result, the final board) they are made of.
"""

from __future__ import annotations

from dataclasses import replace

import ai
from ai.coach import level_description
from bot import i18n
from bot.service import ratings
from bot.service.values import Delivery, MatchRow, People
from bot.service.wording import (
    board,
    delivery,
    game_title,
    result_text,
    seat_names,
    title,
    words_for,
)
from games.lessons import LEARNER, lesson_for
from games.words import N_, Words


def rating_changes(
    row: MatchRow, names: tuple[str, str], changes: list[ratings.Change], w: Words
) -> str:
    """'Piquet ratings on this server: Alice 1,523 (+23), Bob 1,477 (−23).'"""
    if not changes:
        return ""
    # The server's ratings where there is one, else everywhere.
    change = changes[-1]
    moved = []
    for seat in (0, 1):
        after = ratings.displayed(change.after[seat].shown)
        delta = after - ratings.displayed(change.before[seat].shown)
        sign = "+" if delta >= 0 else ""
        moved.append(f"{names[seat]} {w.number(after)} ({sign}{w.number(delta)})")
    blanks = {"game": game_title(row.game, w), "first": moved[0], "second": moved[1]}
    if change.scope != ratings.GLOBAL_SCOPE:
        return w.gettext("{game} ratings on this server: {first}, {second}.").format(**blanks)
    return w.gettext("{game} ratings: {first}, {second}.").format(**blanks)


def ending(
    row: MatchRow, people: People, changes: list[ratings.Change], now: float, public: str
) -> list[Delivery]:
    """The result (with the ratings it moved), then the final board."""
    w = i18n.words(public)
    names = seat_names(row, people)
    text = w.gettext("{title} is over. {result}").format(
        title=title(row, w), result=result_text(row, names, w)
    )
    moved = rating_changes(row, names, changes, w)
    if moved:
        text += " " + moved
    said = [
        delivery("notice", row, people, None, text, w, names=names),
        # The last deal's breakdown, when play (not a resignation or the clock) ended it.
        board(row, people, now, public, names, ended=(row.result or {}).get("how") == "play"),
    ]
    return lesson_ended(row, people, said) if row.lesson else said


def lesson_ended(row: MatchRow, people: People, said: list[Delivery]) -> list[Delivery]:
    """A lesson's end: its result (``said``), marked as a lesson's so that what follows is
    offered instead of a rematch, and the lesson's last word to the learner."""
    lesson = lesson_for(row.game)
    if lesson is None or row.seat_ids is None:
        return said
    learner = row.seat_ids[LEARNER]
    w = words_for(people, learner, i18n.DEFAULT_LANG)
    text = "\n".join(
        [
            w.gettext("Lesson: {note}").format(note=w.gettext(lesson.end)),
            w.gettext(
                "The lesson is over. Play a real match against the computer, or challenge "
                "someone: {game} is yours to play."
            ).format(game=game_title(row.game, w)),
            w.gettext("The computer plays at these levels:"),
            *(f"• {level_description(level, w)}" for level in ai.LEVELS),
        ]
    )
    marked = [replace(d, lesson=True) if d.kind == "notice" else d for d in said]
    return [*marked, delivery("dm", row, people, learner, text, w)]


def resigned(
    row: MatchRow,
    people: People,
    seat: int,
    changes: list[ratings.Change],
    now: float,
    public: str,
) -> list[Delivery]:
    assert row.seat_ids is not None
    names = seat_names(row, people)
    to = row.seat_ids[1 - seat]
    w = words_for(people, to, public)
    text = w.gettext("{name} resigned {title}: you win.").format(
        name=names[seat], title=title(row, w)
    )
    dm = delivery("dm", row, people, to, text, w, names=names)
    return [*ending(row, people, changes, now, public), dm]


def aborted(row: MatchRow, people: People, seat: int, public: str) -> list[Delivery]:
    assert row.seat_ids is not None
    names = seat_names(row, people)
    to = row.seat_ids[1 - seat]
    public_words, private_words = i18n.words(public), words_for(people, to, public)
    message = N_("{name} called off {title} before the first move; it is not rated.")
    return [
        delivery("notice", row, people, None, _called_off(message, names[seat], row, public_words),
                 public_words, names=names),
        delivery("dm", row, people, to, _called_off(message, names[seat], row, private_words),
                 private_words, names=names),
    ]  # fmt: skip


def left_server(row: MatchRow, people: People, public: str) -> list[Delivery]:
    """Tapis left the server a match was played on: each player hears privately that it
    was called off (there is no public place left to say it)."""
    assert row.seat_ids is not None
    names = seat_names(row, people)
    said = []
    for to in row.seat_ids:
        w = words_for(people, to, public)
        text = w.gettext(
            "{title} was called off: Tapis is no longer on the server it was played on. It "
            "is not rated."
        ).format(title=title(row, w))
        said.append(delivery("dm", row, people, to, text, w, names=names))
    return said


def _called_off(message: str, name: str, row: MatchRow, w: Words) -> str:
    return w.gettext(message).format(name=name, title=title(row, w))


def timed_out(
    row: MatchRow,
    people: People,
    seat: int,
    changes: list[ratings.Change],
    now: float,
    public: str,
) -> list[Delivery]:
    """The player at ``seat`` ran out of time."""
    assert row.seat_ids is not None
    names = seat_names(row, people)
    to = row.seat_ids[seat]
    w = words_for(people, to, public)
    text = w.gettext("You ran out of time in {title}: {name} wins.").format(
        title=title(row, w), name=names[1 - seat]
    )
    dm = delivery("dm", row, people, to, text, w, names=names)
    said = [*ending(row, people, changes, now, public), dm]
    if row.talk:
        # No channel to post the result in on the bot's own: the winner hears it privately.
        winner = row.seat_ids[1 - seat]
        ww = words_for(people, winner, public)
        won = ww.gettext("{name} ran out of time in {title}: you win.").format(
            name=names[seat], title=title(row, ww)
        )
        said.append(delivery("dm", row, people, winner, won, ww, names=names))
    return said
