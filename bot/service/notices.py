"""What is said as a challenge lives: made, accepted, declined or withdrawn, left to expire;
and the reminder to a player whose time runs short.

Pure functions from a match and its people to deliveries, as in ``wording``, whose pieces
of sentences (titles, names, the table after a start) they are made of.
"""

from __future__ import annotations

import games
from bot import i18n
from bot.service import clocks
from bot.service.values import Delivery, Json, MatchRow, People, person
from bot.service.wording import delivery, game_title, progress, seat_names, title, words_for
from games.words import Words


def terms(
    game: str, options: Json, days: int | None, w: Words, seats: tuple[str, str] | None = None
) -> str:
    """A game and its terms: 'Le 5 As (in 3 rounds, Bob plays first, 3 days per move)'.
    ``seats``: the challenger's name and the other player's, for the first-seat option."""
    extra = games.get(game).options_text(options, w, seats)
    if days:
        extra.append(
            w.ngettext("{n} day per move", "{n} days per move", days).format(n=w.number(days))
        )
    else:
        extra.append(w.gettext("no clock"))
    return f"{game_title(game, w)} ({', '.join(extra)})"


def challenge_post(row: MatchRow, people: People, w: Words) -> str:
    """A challenge's own post, while it is open."""
    challenger = person(people, row.challenger_id).name
    other = (
        w.gettext("whoever accepts")
        if row.opponent_id is None
        else person(people, row.opponent_id).name
    )
    what = terms(row.game, row.options, row.days_per_move, w, (challenger, other))
    # Hints are a term of the challenge: whoever accepts has read them.
    hints = " " + w.gettext("Hints allowed: this match is not rated.") if row.hints else ""
    if row.opponent_id is None:
        return (
            w.gettext(
                "Match #{id}: {challenger} offers a game of {what} to anyone. Press Accept to play."
            ).format(challenger=challenger, what=what, id=row.id)
            + hints
        )
    return w.gettext(
        "Match #{id}: {challenger} challenges {opponent} to {what}. "
        "{opponent}, press Accept or Decline."
    ).format(challenger=challenger, opponent=person(people, row.opponent_id).name, what=what,
             id=row.id) + hints  # fmt: skip


def challenged(row: MatchRow, people: People, public: str) -> list[Delivery]:
    """A new challenge, to the one challenged or to anyone."""
    w = i18n.words(public)
    text = challenge_post(row, people, w)
    return [delivery("notice", row, people, None, text, w, mention=row.opponent_id)]


def accepted(row: MatchRow, people: People, now: float, public: str) -> list[Delivery]:
    """The match starts: who plays first, then the board and both hands."""
    assert row.state is not None and row.opponent_id is not None
    w = i18n.words(public)
    names = seat_names(row, people)
    text = w.gettext("{name} accepts: {game}, {first} against {second} (match #{id}).").format(
        name=person(people, row.opponent_id).name,
        game=game_title(row.game, w),
        first=names[0],
        second=names[1],
        id=row.id,
    )
    to_move = row.state.to_move
    if to_move is not None:
        text += " " + w.gettext("{name} plays first.").format(name=names[to_move])
    notice = delivery("notice", row, people, None, text, w, mention=row.challenger_id, names=names)
    return [notice, *progress(row, people, now, public)]


def challenge_closed(row: MatchRow, people: People, user_id: int, public: str) -> list[Delivery]:
    """A challenge declined by the one challenged, or withdrawn by its maker."""
    w = i18n.words(public)
    blanks = {"name": person(people, user_id).name, "id": row.id, "game": game_title(row.game, w)}
    if row.status == "declined":
        text = w.gettext("{name} declines the challenge #{id} ({game}).").format(**blanks)
    else:
        text = w.gettext("{name} withdraws the challenge #{id} ({game}).").format(**blanks)
    return [delivery("notice", row, people, None, text, w)]


def challenge_expired(row: MatchRow, people: People, hours: float, public: str) -> list[Delivery]:
    """A challenge nobody answered in time: said where it was made, pinging no one."""
    w = i18n.words(public)
    whole = max(1, round(hours))
    text = w.ngettext(
        "The challenge #{id} ({game}) by {name} expired unanswered after {n} hour. "
        "Make a new one with `/challenge` whenever you like.",
        "The challenge #{id} ({game}) by {name} expired unanswered after {n} hours. "
        "Make a new one with `/challenge` whenever you like.",
        whole,
    ).format(
        id=row.id,
        game=game_title(row.game, w),
        name=person(people, row.challenger_id).name,
        n=w.number(whole),
    )
    return [delivery("notice", row, people, None, text, w)]


def reminder(row: MatchRow, people: People, seat: int, now: float) -> list[Delivery]:
    """The player at ``seat`` has not much time left."""
    assert row.seat_ids is not None and row.deadline is not None
    names = seat_names(row, people)
    to = row.seat_ids[seat]
    w = words_for(people, to, i18n.DEFAULT_LANG)
    text = w.gettext(
        "Reminder: it is your turn in {title} against {name}. "
        "Move within {left} (by {deadline}), or you lose on time."
    ).format(
        title=title(row, w),
        name=names[1 - seat],
        left=clocks.describe_left(row.deadline - now, w),
        deadline=clocks.format_deadline(row.deadline),
    )
    return [delivery("dm", row, people, to, text, w, names=names)]
