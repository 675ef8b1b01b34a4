"""What the service says: pure functions from a match (and the people in it) to words and
deliveries.

Nothing here reads or writes anything: a move's words are made from the match as decided
(before the writer stores it, with it) and the people read with it. Public deliveries are made from
``state.view(None)`` alone, a hand from ``state.view(seat)`` alone; each is computed once.
"""

from __future__ import annotations

import functools

import games
from bot import clocks, ratings
from bot.service.values import (
    Delivery,
    DeliveryKind,
    Json,
    MatchRow,
    People,
    game_view,
    person,
)

MAX_LISTED_MOVES = 12


@functools.cache
def game_title(name: str) -> str:
    return games.get(name).title


def title(row: MatchRow) -> str:
    return f"{game_title(row.game)} #{row.id}"


def sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "!", "?", ")")) else text + "."


def listing(moves: list[str]) -> str:
    if not moves:
        return "no move is open to you now"
    shown = ", ".join(moves[:MAX_LISTED_MOVES])
    more = len(moves) - MAX_LISTED_MOVES
    return shown + (f" (and {more} more)" if more > 0 else "")


def status_reason(row: MatchRow) -> str:
    """Why a match cannot be played now, as the end of a sentence."""
    return {
        "challenge": f"match #{row.id} has not started: the challenge is still open",
        "finished": f"match #{row.id} is over",
        "declined": f"the challenge #{row.id} was declined",
        "cancelled": f"the challenge #{row.id} was cancelled",
        "aborted": f"match #{row.id} was aborted",
        "corrupt": (
            f"match #{row.id} has been set aside because its stored record is damaged; "
            "your other matches are not affected"
        ),
    }.get(row.status, f"match #{row.id} is {row.status}")


def terms(title: str, options: Json, days: int | None) -> str:
    """A game and its terms: 'Le 5 As (rounds 3, 3 days per move)'."""
    extra = [f"{name} {value}" for name, value in sorted(options.items())]
    extra.append(f"{days} day{'s' if days != 1 else ''} per move" if days else "no clock")
    return f"{title} ({', '.join(extra)})"


def seat_names(row: MatchRow, people: People) -> tuple[str, str]:
    assert row.seat_ids is not None
    return person(people, row.seat_ids[0]).name, person(people, row.seat_ids[1]).name


def clock_text(row: MatchRow, now: float) -> str:
    """' (within 2 days, by …)' for a match on the clock, '' for one without."""
    if row.deadline is None:
        return ""
    left = clocks.describe_left(row.deadline - now)
    return f" (within {left}, by {clocks.format_deadline(row.deadline)})"


def result_text(row: MatchRow, names: tuple[str, str]) -> str:
    result = row.result or {}
    scores = result.get("scores") or [0, 0]
    score = f"{scores[0]} – {scores[1]}"
    winner = result.get("winner")
    how = result.get("how", "play")
    if winner not in (0, 1):
        return f"a draw, {score}"
    if how == "resignation":
        return f"{names[1 - winner]} resigned: {names[winner]} wins ({score})"
    if how == "time":
        return f"{names[1 - winner]} ran out of time: {names[winner]} wins ({score})"
    return f"{names[winner]} wins, {score}"


def delivery(
    kind: DeliveryKind,
    row: MatchRow,
    people: People,
    to: int | None,
    text: str,
    *,
    view: Json | None = None,
    mention: int | None = None,
    names: tuple[str, str] | None = None,
) -> Delivery:
    """A delivery about ``row`` carrying where it goes and its recipient's settings."""
    recipient = None if to is None else people.get(to)
    return Delivery(
        kind,
        row.id,
        to,
        text,
        view,
        mention,
        names,
        game=row.game,
        version=row.version,
        status=row.status,
        place=row.place,
        four_colour=recipient is not None and recipient.four_colour,
        dms_closed=recipient is not None and recipient.dms_closed,
    )


def board(
    row: MatchRow, people: People, clock: str, names: tuple[str, str] | None = None
) -> Delivery:
    """The public table: only ``view(None)``, and text made only from it."""
    assert row.state is not None
    state = row.state
    view = game_view(state, None)
    names = names or seat_names(row, people)
    parts = [title(row)]
    last = view.get("last_move")
    if isinstance(last, dict) and last.get("seat") in (0, 1) and last.get("move"):
        parts.append(f"{names[last['seat']]}: {last['move']}")
    scores = view.get("scores") or [0, 0]
    parts.append(f"{names[0]} {scores[0]} – {scores[1]} {names[1]}")
    mention = None
    if row.status == "active" and state.to_move is not None:
        mention = row.seat_ids[state.to_move] if row.seat_ids else None
        parts.append(f"{names[state.to_move]} to play" + clock)
    elif row.result is not None:
        parts.append(result_text(row, names))
    text = " · ".join(parts)
    return delivery("board", row, people, None, text, view=view, mention=mention, names=names)


def hand(
    row: MatchRow, people: People, seat: int, clock: str, names: tuple[str, str] | None = None
) -> Delivery:
    """One player's hand: ``view(seat)``, and text made only from it."""
    assert row.seat_ids is not None and row.state is not None
    state = row.state
    view = game_view(state, seat)
    names = names or seat_names(row, people)
    opponent = names[1 - seat]
    parts = [f"{title(row)} against {opponent}"]
    last = view.get("last_move")
    if isinstance(last, dict) and last.get("seat") in (0, 1) and last.get("move"):
        who = "you" if last["seat"] == seat else opponent
        parts.append(f"last move, {who}: {last['move']}")
    if row.status != "active" or state.to_move is None:
        parts.append(status_reason(row))
    elif state.to_move == seat:
        parts.append("your turn" + clock)
    else:
        parts.append(f"{opponent}'s turn")
    text = " · ".join(parts)
    return delivery("hand", row, people, row.seat_ids[seat], text, view=view, names=names)


def progress(row: MatchRow, people: People, now: float) -> list[Delivery]:
    """After a change in play: the board, then each player's hand."""
    clock, names = clock_text(row, now), seat_names(row, people)
    return [
        board(row, people, clock, names),
        hand(row, people, 0, clock, names),
        hand(row, people, 1, clock, names),
    ]


def ending(
    row: MatchRow, people: People, changes: list[ratings.Change], now: float
) -> list[Delivery]:
    """The result (with the ratings it moved), then the final board."""
    names = seat_names(row, people)
    text = f"{title(row)} is over: {result_text(row, names)}."
    if changes:
        # The server's ratings where there is one, else everywhere.
        change = changes[-1]
        where = "on this server" if change.scope != ratings.GLOBAL_SCOPE else "overall"
        moved = ", ".join(
            f"{names[seat]} {change.after[seat].shown:.2f} "
            f"({change.after[seat].shown - change.before[seat].shown:+.2f})"
            for seat in (0, 1)
        )
        text += f" {game_title(row.game)} ratings {where}: {moved}."
    return [
        delivery("notice", row, people, None, text, names=names),
        board(row, people, clock_text(row, now), names),
    ]


def challenged(row: MatchRow, people: People) -> list[Delivery]:
    """A new challenge, to the one challenged or to anyone."""
    challenger = person(people, row.challenger_id).name
    what = terms(game_title(row.game), row.options, row.days_per_move)
    if row.opponent_id is None:
        text = (
            f"{challenger} offers a game of {what} to anyone (match #{row.id}): accept it to play."
        )
    else:
        opponent = person(people, row.opponent_id).name
        text = (
            f"{challenger} challenges {opponent} to {what} "
            f"(match #{row.id}): {opponent}, accept or decline."
        )
    return [delivery("notice", row, people, None, text, mention=row.opponent_id)]


def accepted(row: MatchRow, people: People, now: float) -> list[Delivery]:
    """The match starts: who plays first, then the board and both hands."""
    assert row.state is not None and row.opponent_id is not None
    names = seat_names(row, people)
    to_move = row.state.to_move
    starter = "" if to_move is None else f" {names[to_move]} plays first."
    text = (
        f"{person(people, row.opponent_id).name} accepts: {game_title(row.game)}, "
        f"{names[0]} against {names[1]} (match #{row.id}).{starter}"
    )
    notice = delivery("notice", row, people, None, text, mention=row.challenger_id, names=names)
    return [notice, *progress(row, people, now)]


def challenge_closed(row: MatchRow, people: People, user_id: int) -> list[Delivery]:
    """A challenge declined by the one challenged, or cancelled by its maker."""
    verb = "declines" if row.status == "declined" else "cancels"
    text = (
        f"{person(people, user_id).name} {verb} the challenge #{row.id} ({game_title(row.game)})."
    )
    return [delivery("notice", row, people, None, text)]


def challenge_expired(row: MatchRow, people: People, hours: float) -> list[Delivery]:
    """A challenge nobody answered in time: said where it was made, pinging no one."""
    text = (
        f"The challenge #{row.id} ({game_title(row.game)}) by "
        f"{person(people, row.challenger_id).name} expired unanswered after "
        f"{hours:g} hours. Make a new one with `/challenge` whenever you like."
    )
    return [delivery("notice", row, people, None, text)]


def resigned(
    row: MatchRow, people: People, seat: int, changes: list[ratings.Change], now: float
) -> list[Delivery]:
    assert row.seat_ids is not None
    names = seat_names(row, people)
    text = f"{names[seat]} resigned {title(row)}: you win."
    dm = delivery("dm", row, people, row.seat_ids[1 - seat], text, names=names)
    return [*ending(row, people, changes, now), dm]


def aborted(row: MatchRow, people: People, seat: int) -> list[Delivery]:
    assert row.seat_ids is not None
    names = seat_names(row, people)
    text = f"{names[seat]} aborted {title(row)} before the first move; it is not rated."
    return [
        delivery("notice", row, people, None, text, names=names),
        delivery("dm", row, people, row.seat_ids[1 - seat], text, names=names),
    ]


def timed_out(
    row: MatchRow, people: People, seat: int, changes: list[ratings.Change], now: float
) -> list[Delivery]:
    """The player at ``seat`` ran out of time."""
    assert row.seat_ids is not None
    names = seat_names(row, people)
    text = f"You ran out of time in {title(row)}: {names[1 - seat]} wins."
    dm = delivery("dm", row, people, row.seat_ids[seat], text, names=names)
    return [*ending(row, people, changes, now), dm]


def reminder(row: MatchRow, people: People, seat: int, now: float) -> list[Delivery]:
    """The player at ``seat`` has not much time left."""
    assert row.seat_ids is not None and row.deadline is not None
    names = seat_names(row, people)
    text = (
        f"Reminder: it is your turn in {title(row)} against {names[1 - seat]}. "
        f"Move within {clocks.describe_left(row.deadline - now)} "
        f"(by {clocks.format_deadline(row.deadline)}) or you lose on time."
    )
    return [delivery("dm", row, people, row.seat_ids[seat], text, names=names)]
