"""What the service says: pure functions from a match (and the people in it) to words and
deliveries, in the language of whoever reads them. Here: the words every delivery is made of
(titles, scores, results, the moves open to a player; the games' own words are in
``game_words``) and the table after a move, its board and each player's hand. What is said
as a challenge lives is in ``notices``; how a match's end is told, in ``endings``.

Nothing here reads or writes anything: a move's words are made from the match as decided
(before the writer stores it, with it) and the people read with it. Public deliveries are made from
``state.view(None)`` alone, a hand from ``state.view(seat)`` alone; each is computed once.

Every sentence is written once, in English, and translated through the catalogs
(``bot/locales``): a public delivery speaks ``public`` (its server's language), a private one
its recipient's (the locale Discord last showed for them). Sentences are whole, end with a
full stop, name people rather than seats, and take their plurals from the catalogs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Self

import games
from bot import i18n
from bot.service import clocks
from bot.service.computer_ids import is_computer
from bot.service.game_words import deal_summary as deal_summary
from bot.service.game_words import game_title as game_title
from bot.service.game_words import move_text as move_text
from bot.service.game_words import pretty as pretty
from bot.service.game_words import rules_text as rules_text
from bot.service.values import (
    DELIVERY_FIELDS,
    Delivery,
    DeliveryKind,
    Json,
    MatchRow,
    People,
    Phrase,
    game_view,
    person,
)
from games.lessons import LEARNER, lesson_for
from games.moves import move_cards
from games.phrases import typed_in
from games.words import N_, Words

MAX_LISTED_MOVES = 12


def words_for(people: People, user_id: int | None, public: str) -> Words:
    """The language of a delivery to ``user_id`` (None: a public one, in ``public``)."""
    if user_id is None:
        return i18n.words(public)
    return i18n.words(i18n.lang_of(person(people, user_id).locale))


# -- pieces of sentences ----------------------------------------------------------------------


def title(row: MatchRow, w: Words) -> str:
    return w.gettext("{game} #{id}").format(game=game_title(row.game, w), id=row.id)


def score(first: int, second: int, w: Words) -> str:
    """Two scores as read aloud: '25 – 8', with true minus signs."""
    return f"{w.number(first)} – {w.number(second)}"


def listing(game: str, moves: Sequence[str], w: Words) -> str:
    """The moves open to a player, as a sentence: named one by one, except that a verb
    whose moves are sets of cards (a discard of any 1 to 5 of 12 cards) is told as what
    to type, never as hundreds of combinations."""
    if not moves:
        return w.gettext("No move is open to you now.")
    sets: dict[str, int] = {}
    for move in moves:
        # A Piquet discard lists some 1,500 moves: a move's words bound its cards, so only
        # one that could name more than the most seen yet for its verb is looked into.
        verb, _, rest = move.partition(" ")
        if rest.count(" ") + 1 > sets.get(verb, 1):
            cards = len(move_cards(move))
            if cards > 1:
                sets[verb] = max(sets.get(verb, 0), cards)
    single = [m for m in moves if m.partition(" ")[0] not in sets]
    parts = [
        w.ngettext("type `{verb}` and a card", "type `{verb}` and up to {n} cards", most).format(
            verb=verb, n=w.number(most)
        )
        for verb, most in sorted(sets.items())
    ]
    shown = [move_text(game, m, w) for m in single[:MAX_LISTED_MOVES]]
    more = len(single) - MAX_LISTED_MOVES
    if more > 0:
        shown.append(w.ngettext("{n} more", "{n} more", more).format(n=w.number(more)))
    if shown:
        parts.insert(0, ", ".join(shown))
    return typed_in(
        w.gettext("Moves open to you: {moves}.").format(
            moves=w.gettext(" or ").join(parts) if len(parts) > 1 else parts[0]
        ),
        w,
    )


@dataclass(frozen=True)
class Listing:
    """The moves open to a player, said in the language of whoever is told."""

    game: str
    moves: tuple[str, ...]

    def say(self, w: Words) -> str:
        return listing(self.game, self.moves, w)


@dataclass(frozen=True)
class EngineReason:
    """Why an engine refused a move that is not an :class:`~games.IllegalMove` (which says
    its own reason in any language): a plain refusal, since the English of an unexpected
    error is no sentence for a player (the list of moves that follows says what would do)."""

    reason: str

    def say(self, w: Words) -> str:
        return w.gettext("That move is not open to you now.")


def engine_reason(error: Exception) -> games.IllegalMove | EngineReason:
    """Why the engine refused a move, to be said in each reader's language."""
    if isinstance(error, games.IllegalMove):
        return error
    return EngineReason(str(error))


def status_reason(row: MatchRow) -> Phrase:
    """Why a match cannot be played now, as a whole sentence."""
    reasons = {
        "challenge": N_("Match #{id} has not started: its challenge is still open."),
        "finished": N_("Match #{id} is over."),
        "declined": N_("The challenge #{id} was declined."),
        "cancelled": N_("The challenge #{id} was withdrawn."),
        "aborted": N_("Match #{id} was called off."),
        "corrupt": N_(
            "Match #{id} has been set aside because its stored record is damaged; "
            "your other matches are not affected."
        ),
    }
    return Phrase(reasons.get(row.status, N_("Match #{id} cannot be played now.")), {"id": row.id})


def seat_names(row: MatchRow, people: People) -> tuple[str, str]:
    assert row.seat_ids is not None
    return person(people, row.seat_ids[0]).name, person(people, row.seat_ids[1]).name


Clocks = dict[str, str]
"""The clock text of one change, by language: made once per language it is said in."""


def clock_text(row: MatchRow, now: float, w: Words) -> str:
    """' within 2 days (by …)' for a match on the clock, '' for one without."""
    if row.deadline is None:
        return ""
    return w.gettext(" within {left} (by {deadline})").format(
        left=clocks.describe_left(row.deadline - now, w),
        deadline=clocks.format_deadline(row.deadline),
    )


def result_text(row: MatchRow, names: tuple[str, str], w: Words) -> str:
    """The end of a match, winner first with their score first: 'Bob wins 25 – 8.'; one given
    up or lost on time, with the score as it stood: 'Alice resigned at 3 – 10: Bob wins.'"""
    result = row.result or {}
    scores = result.get("scores") or [0, 0]
    winner = result.get("winner")
    how = result.get("how", "play")
    if winner not in (0, 1):
        return w.gettext("A draw, {score}.").format(score=score(scores[0], scores[1], w))
    loser = 1 - winner
    blanks = {
        "winner": names[winner],
        "loser": names[loser],
        "score": score(scores[winner], scores[loser], w),
    }
    # A match given up is often given up behind: the score as it stood is said from the
    # loser's side ("Bob resigned at 3 – 10"), not as a winner's "wins 3 – 10".
    stood = score(scores[loser], scores[winner], w)
    if how == "resignation":
        return w.gettext("{loser} resigned at {stood}: {winner} wins.").format(
            stood=stood, **blanks
        )
    if how == "time":
        return w.gettext("{loser} ran out of time at {stood}: {winner} wins.").format(
            stood=stood, **blanks
        )
    text = w.gettext("{winner} wins {score}.").format(**blanks)
    settled = result.get("settlement")
    if isinstance(settled, int) and settled:
        # A game scored as one settlement (Piquet): what the winner takes, and why.
        if result.get("rubicon"):
            text += " " + w.gettext(
                "{loser} stayed under 100 and is rubiconed: {winner} scores 100 plus both "
                "totals, {points} in all."
            ).format(points=w.number(settled), **blanks)
        else:
            text += " " + w.gettext(
                "{winner} scores 100 plus the difference, {points} in all."
            ).format(points=w.number(settled), **blanks)
    return text


def last_move(view: Json) -> tuple[int, str] | None:
    last = view.get("last_move")
    if isinstance(last, dict) and last.get("seat") in (0, 1) and last.get("move"):
        return int(last["seat"]), str(last["move"])
    return None


# -- deliveries -------------------------------------------------------------------------------


def delivery(
    kind: DeliveryKind,
    row: MatchRow,
    people: People,
    to: int | None,
    text: str,
    w: Words,
    *,
    view: Json | None = None,
    mention: int | None = None,
    names: tuple[str, str] | None = None,
    news: tuple[str, ...] = (),
) -> Delivery:
    """A delivery about ``row`` carrying where it goes and its recipient's settings."""
    return Delivery(
        kind=kind, to=to, text=text, view=view, mention=mention, names=names, lang=w.lang,
        news=news, **_about(row, people, to),
    )  # fmt: skip


def _about(row: MatchRow, people: People, to: int | None) -> dict[str, Any]:
    """A delivery's fields that its match and its recipient (None: public) decide."""
    recipient = None if to is None else people.get(to)
    return {
        "match_id": row.id,
        "game": row.game,
        "version": row.version,
        "status": row.status,
        "place": row.place,
        "four_colour": recipient is not None and recipient.four_colour,
        "dms_closed": recipient is not None and recipient.dms_closed,
        "dm_channel": None if recipient is None else recipient.dm_channel,
        "hints": hints_open(row),
    }


def hints_open(row: MatchRow) -> bool:
    """Whether a player of ``row`` may ask for a hint, so that their hand offers one: its
    challenge allowed hints, or it is an unrated match against the computer (a lesson says
    its own moves). The service checks again when one is asked (``coaching``)."""
    if row.hints:
        return True
    seats = row.seat_ids or ()
    return not row.rated and not row.lesson and any(is_computer(user) for user in seats)


def _clock(row: MatchRow, now: float, w: Words, said: Clocks | None) -> str:
    said = {} if said is None else said
    if w.lang not in said:
        said[w.lang] = clock_text(row, now, w)
    return said[w.lang]


def board_news(
    row: MatchRow, view: Json, w: Words, names: tuple[str, str], ended: bool
) -> tuple[str, ...]:
    """A board's news, the lines under its title telling what happened: the last move, then
    the breakdown of the deal it ended, if it ``ended`` one."""
    last = last_move(view)
    lines = []
    if last is not None:
        lines.append(
            w.gettext("{name}: {move}.").format(
                name=names[last[0]], move=move_text(row.game, last[1], w)
            )
        )
    if ended:
        lines += deal_summary(row.game, view, w, names)
    return tuple(lines)


def board_mention(row: MatchRow, view: Json) -> int | None:
    """Who a board calls to the table: the player to move, only when the turn has just
    passed to them (a player who moves twice running, Le 5 As' lay then draw, is not called
    back)."""
    state = row.state
    if row.status != "active" or state is None or state.to_move is None or not row.seat_ids:
        return None
    last = last_move(view)
    return row.seat_ids[state.to_move] if last is None or last[0] != state.to_move else None


def board(
    row: MatchRow,
    people: People,
    now: float,
    public: str,
    names: tuple[str, str] | None = None,
    said: Clocks | None = None,
    *,
    ended: bool = False,
    view: Json | None = None,
    news: tuple[str, ...] | None = None,
) -> Delivery:
    """The public table: only ``view(None)``, and text made only from it; when the change
    ``ended`` a deal, that deal's breakdown as its game scores it. ``news``: the lines that
    tell what happened, when already made (see ``OwedBoard``)."""
    assert row.state is not None
    w = i18n.words(public)
    state = row.state
    view = view if view is not None else game_view(state, None)
    names = names or seat_names(row, people)
    if news is None:
        news = board_news(row, view, w, names, ended)
    lines = [f"**{title(row, w)}**", *news]
    scores = view.get("scores") or [0, 0]
    lines.append(
        w.gettext("Score: {first} {score} {second}.").format(
            first=names[0], score=score(scores[0], scores[1], w), second=names[1]
        )
    )
    if row.status == "active" and state.to_move is not None:
        lines.append(
            w.gettext("{name} to play{clock}.").format(
                name=names[state.to_move], clock=_clock(row, now, w, said)
            )
        )
    elif row.result is not None and len(news) <= (last_move(view) is not None):
        lines.append(result_text(row, names, w))  # no breakdown of the last deal tells it
    if row.hints:  # both players may ask for hints: everyone watching is told
        lines.append(w.gettext("Hints allowed: this match is not rated."))
    text = "\n".join(lines)
    mention = board_mention(row, view)
    return delivery(
        "board", row, people, None, text, w, view=view, mention=mention, names=names, news=news
    )


def hand(
    row: MatchRow,
    people: People,
    seat: int,
    now: float,
    names: tuple[str, str] | None = None,
    said: Clocks | None = None,
    *,
    ended: bool = False,
) -> Delivery:
    """One player's hand: ``view(seat)``, and text made only from it (with the breakdown of
    the deal the change ``ended``, if it ended one)."""
    assert row.seat_ids is not None and row.state is not None
    to = row.seat_ids[seat]
    w = words_for(people, to, i18n.DEFAULT_LANG)
    state = row.state
    view = game_view(state, seat)
    names = names or seat_names(row, people)
    opponent = names[1 - seat]
    lines = [
        w.gettext("**{title}** against {opponent}.").format(title=title(row, w), opponent=opponent)
    ]
    last = last_move(view)
    if last is not None:
        move = move_text(row.game, last[1], w)
        lines.append(
            w.gettext("You: {move}.").format(move=move)
            if last[0] == seat
            else w.gettext("{name}: {move}.").format(name=opponent, move=move)
        )
    if ended:
        # By name, as on the table: the games' sentences are in the third person, and a
        # breakdown saying "You" would read "You scores 2 points" ("Vous marque").
        lines += deal_summary(row.game, view, w, names)
    if row.status != "active" or state.to_move is None:
        lines.append(status_reason(row).say(w))
    elif state.to_move == seat:
        lines.append(w.gettext("Your turn{clock}.").format(clock=_clock(row, now, w, said)))
        legal = list(view.get("legal_moves") or [])
        # A move of one word and a card ("play QS") cannot name two cards: not split.
        if any(m.count(" ") > 1 and len(move_cards(m)) > 1 for m in legal):
            lines.append(listing(row.game, legal, w))
    else:
        lines.append(w.gettext("{name} to play{clock}.").format(name=opponent, clock=""))
    if row.lesson and seat == LEARNER:
        lines += lesson_lines(row, w)  # a lesson's word for the moment
    text = "\n".join(lines)
    return delivery("hand", row, people, to, text, w, view=view, names=names)


def lesson_lines(row: MatchRow, w: Words) -> list[str]:
    """What the learner's hand adds while a lesson goes on: the note for the moment, then the
    move the lesson asks for if it is their turn (its last word comes with the result)."""
    lesson = lesson_for(row.game)
    if lesson is None or row.state is None or row.status != "active":
        return []
    note, expected = lesson.note(row.version), lesson.expected(row.version)
    lines = [] if note is None else [w.gettext("Lesson: {note}").format(note=w.gettext(note))]
    if expected is not None and row.state.to_move == LEARNER:
        move = move_text(row.game, expected, w)
        lines.append(w.gettext("The lesson's move now: {move}.").format(move=move))
    return lines


class Owed(Delivery):
    """A delivery after a move, worded only when first read.

    Under load most of a move's deliveries are never read: one still waiting to go is
    replaced by the next (see the courier's queue), and the service stores each long before
    Discord's limits let it out. So its words (and a hand's view) are made on first use,
    from the match as the move left it; the outbox stores what to make them from
    (``Delivery.owed``), and one read back from it is worded by the service
    (``MatchService.unsent``). Everything else about it (who, where, which version) is
    known at once. It reads and compares as the delivery it stands for.
    """

    def _word(self) -> Delivery:
        """The delivery it stands for, worded now."""
        raise NotImplementedError

    def worded(self) -> Delivery:
        """The delivery it stands for (made once), with this one's outbox row."""
        made: Delivery | None = self.__dict__.get("_made")
        if made is None:
            made = self.__dict__["_made"] = self._word()
        return made if self.outbox_id is None else made.posted(self.outbox_id)

    # Set only by the dataclass's own ``__init__`` (``dataclasses.replace`` makes a copy
    # that way): such a copy holds its words as given.
    @property
    def text(self) -> str:
        given: str | None = self.__dict__.get("_text")
        return self.worded().text if given is None else given

    @text.setter
    def text(self, value: str) -> None:
        self.__dict__["_text"] = value

    @property
    def view(self) -> Json | None:
        if "_view" in self.__dict__:
            given: Json | None = self.__dict__["_view"]
            return given
        return self.worded().view

    @view.setter
    def view(self, value: Json | None) -> None:
        self.__dict__["_view"] = value

    def to_json(self) -> Json:
        """As the delivery it stands for (the outbox keeps ``owed_json`` instead)."""
        return self.plain().to_json()

    def plain(self) -> Delivery:
        """The delivery it stands for, as a plain one (worded now if not yet)."""
        fields = {name: getattr(self, name) for name in DELIVERY_FIELDS}
        return Delivery(**{**fields, "owed": None})

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Owed):
            other = other.plain()
        return self.plain() == other

    __hash__ = Delivery.__hash__

    def __repr__(self) -> str:
        kind = type(self).__name__
        return f"{kind}(match_id={self.match_id}, to={self.to}, version={self.version})"

    @classmethod
    def _known(
        cls, kind: DeliveryKind, row: MatchRow, people: People, to: int | None, lang: str,
        names: tuple[str, str], owed: Json, made_from: tuple[object, ...], *,
        mention: int | None = None, news: tuple[str, ...] = (),
    ) -> Self:  # fmt: skip
        """One standing for a delivery of ``row`` until worded: every field but its words
        and view set as ``delivery`` sets them, without making a delivery first (three a
        move)."""
        made = object.__new__(cls)
        made.__dict__.update(
            _about(row, people, to),
            kind=kind,
            to=to,
            mention=mention,
            names=names,
            outbox_id=None,
            lang=lang,
            news=news,
            owed=owed,
            leg=False,  # a leg's ending is marked so with its change (store._legs_marked)
            lesson=False,  # only a lesson's result notice is marked (endings.lesson_ended)
            _from=made_from,
        )
        return made


class OwedHand(Owed):
    """A player's hand after a move: its words and view (two game views and a page of text
    a move, about half of a move's work) made on first use."""

    @classmethod
    def of(
        cls, row: MatchRow, people: People, seat: int, now: float, names: tuple[str, str],
        ended: bool, said: Clocks | None = None,
    ) -> OwedHand:  # fmt: skip
        assert row.seat_ids is not None
        to = row.seat_ids[seat]
        lang = i18n.lang_of(person(people, to).locale)
        owed = {"seat": seat, "now": now, "ended": ended}
        return cls._known("hand", row, people, to, lang, names, owed, (row, people, said))

    def _word(self) -> Delivery:
        row, people, said = self.__dict__["_from"]
        owed = self.__dict__["owed"]
        return hand(
            row, people, owed["seat"], owed["now"], self.__dict__["names"], said,
            ended=owed["ended"],
        )  # fmt: skip


class OwedBoard(Owed):
    """The public table after a move: its view and news (what the courier reads of a board
    replaced while it waited) made at once, the rest of its words on first use."""

    @classmethod
    def of(
        cls, row: MatchRow, people: People, now: float, public: str, names: tuple[str, str],
        said: Clocks, *, ended: bool, view: Json,
    ) -> OwedBoard:  # fmt: skip
        w = i18n.words(public)
        owed = cls._known(
            "board", row, people, None, w.lang, names, {"now": now, "ended": ended},
            (row, people, said), mention=board_mention(row, view),
            news=board_news(row, view, w, names, ended),
        )  # fmt: skip
        owed.__dict__["_view"] = view  # made already: the move needed it
        return owed

    def _word(self) -> Delivery:
        row, people, said = self.__dict__["_from"]
        owed = self.__dict__["owed"]
        return board(
            row, people, owed["now"], self.lang, self.__dict__["names"], said,
            ended=owed["ended"], view=self.view, news=self.news,
        )  # fmt: skip


def deal_ended(before: MatchRow | None, row: MatchRow, view: Json) -> bool:
    """Whether the change from ``before`` to ``row`` (whose public view is ``view``) ended a
    deal: its game's breakdown of the last deal is new. The breakdown stays in the views
    until the next deal ends, so it is told once, when it appears."""
    now_said = row.deal_said_in(view)  # kept with the row, for the next move to compare
    if before is None or before.state is None:
        return False
    return bool(now_said) and now_said != before.deal_said


def progress(
    row: MatchRow, people: People, now: float, public: str, before: MatchRow | None = None
) -> list[Delivery]:
    """After a change in play (from ``before``): the board, then each player's hand."""
    assert row.state is not None
    names, said = seat_names(row, people), Clocks()
    view = game_view(row.state, None)
    ended = deal_ended(before, row, view)
    return [
        OwedBoard.of(row, people, now, public, names, said, ended=ended, view=view),
        OwedHand.of(row, people, 0, now, names, ended, said),
        OwedHand.of(row, people, 1, now, names, ended, said),
    ]
