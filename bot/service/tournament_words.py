"""What tournaments and duplicate matches say: every player-facing sentence of them, in one
place, as pure functions of plain data (names already safe for message text) and the
reader's :class:`~games.words.Words`.

Each sentence is one message of the catalogs (``bot/locales``), with named blanks and plurals
from ``ngettext``, so French and Swedish put the words in their own order. Posts in a
tournament's thread speak its server's language; the caller chooses, as for every post.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.service import clocks
from bot.service.wording import game_title
from games.words import N_, Words

# A tournament's format as its terms name it, translated where it is said.
FORMATS = {"swiss": N_("Swiss"), "round-robin": N_("round-robin")}


def points(value: float) -> str:
    """1, 1½, 0½ → '1', '1½', '½': how tournament points are written (in every language)."""
    whole, half = int(value), value - int(value) >= 0.5
    if half:
        return "½" if whole == 0 else f"{whole}½"
    return str(whole)


def describe(
    name: str,
    game: str,
    format_: str,
    duplicate: bool,
    rounds: int | None,
    days: int | None,
    starts_at: float | None,
    w: Words,
) -> str:
    """One sentence of a tournament's terms."""
    parts = [
        w.gettext("**{name}**: {game}, {format}").format(
            name=name, game=game_title(game, w), format=w.gettext(FORMATS[format_])
        )
    ]
    if rounds is not None:
        parts.append(w.ngettext("{n} round", "{n} rounds", rounds).format(n=w.number(rounds)))
    if duplicate:
        parts.append(
            w.gettext("duplicate matches (each pairing plays the same deals twice, seats swapped)")
        )
    if days is None:
        parts.append(w.gettext("no clock"))
    else:
        parts.append(w.ngettext("{n} day per move", "{n} days per move", days).format(n=days))
    if starts_at is not None:
        parts.append(w.gettext("starts {when}").format(when=clocks.format_deadline(starts_at)))
    return ", ".join(parts) + "."


def created(number: int, terms: str, w: Words) -> str:
    return w.gettext(
        "Tournament #{id} is open. {terms} Join it with `/tournament join`; its creator starts "
        "it with `/tournament start`."
    ).format(id=number, terms=terms)


def joined(name: str, who: str, count: int, w: Words) -> str:
    return w.ngettext(
        "{who} joins {name}: {n} player so far.", "{who} joins {name}: {n} players so far.", count
    ).format(who=who, name=name, n=w.number(count))


def left_before(name: str, who: str, count: int, w: Words) -> str:
    return w.ngettext(
        "{who} leaves {name}: {n} player now.", "{who} leaves {name}: {n} players now.", count
    ).format(who=who, name=name, n=w.number(count))


def left_during(name: str, who: str, round_: int, w: Words) -> str:
    return w.gettext(
        "{who} leaves {name} in round {round}: any match of theirs still going is resigned, "
        "and they are paired no more."
    ).format(who=who, name=name, round=w.number(round_))


def removed_before(name: str, who: str, count: int, w: Words) -> str:
    return w.ngettext(
        "{who} is taken off {name} by its organisers: {n} player now.",
        "{who} is taken off {name} by its organisers: {n} players now.",
        count,
    ).format(who=who, name=name, n=w.number(count))


def removed_during(name: str, who: str, round_: int, w: Words) -> str:
    return w.gettext(
        "{who} is taken off {name} by its organisers in round {round}: any match of theirs "
        "still going is resigned, and they are paired no more."
    ).format(who=who, name=name, round=w.number(round_))


def cancelled(name: str, count: int, w: Words) -> str:
    return w.ngettext(
        "{name} could not start: it needs at least 2 players and has {n} player. It is cancelled.",
        "{name} could not start: it needs at least 2 players and has {n} players. It is cancelled.",
        count,
    ).format(name=name, n=w.number(count))


def pairings(
    name: str,
    round_: int,
    rounds: int,
    pairs: Sequence[tuple[str, str, int | None]],
    bye: str | None,
    w: Words,
) -> str:
    """The announcement of a round: who meets whom (and in which match)."""
    lines = [
        w.gettext("**{name}**, round {round} of {rounds}:").format(
            name=name, round=w.number(round_), rounds=w.number(rounds)
        )
    ]
    for first, second, match_id in pairs:
        if match_id is None:
            line = w.gettext("• {first} against {second} (no match: a forfeit)")
        else:
            line = w.gettext("• {first} against {second} (match #{id})")
        lines.append(line.format(first=first, second=second, id=match_id))
    if bye is not None:
        lines.append(
            w.gettext("• {name} has the bye this round and scores a point.").format(name=bye)
        )
    return "\n".join(lines)


def round_match(name: str, round_: int, first: str, second: str, match_id: int, w: Words) -> str:
    return w.gettext("{name}, round {round}: {first} against {second} (match #{id}).").format(
        name=name, round=w.number(round_), first=first, second=second, id=match_id
    )


def round_title(name: str, round_: int, rounds: int, w: Words) -> str:
    """The standings picture's title after a round."""
    return w.gettext("{name} · round {round} of {rounds}").format(
        name=name, round=w.number(round_), rounds=w.number(rounds)
    )


def standings_caption(name: str, round_: int, rounds: int, final: bool, w: Words) -> str:
    if final:
        return w.ngettext(
            "**{name}** is over after {n} round. Final standings:",
            "**{name}** is over after {n} rounds. Final standings:",
            round_,
        ).format(name=name, n=w.number(round_))
    return w.gettext("**{name}**: standings after round {round} of {rounds}.").format(
        name=name, round=w.number(round_), rounds=w.number(rounds)
    )


def winner(name: str, who: str, w: Words) -> str:
    return w.gettext("Congratulations to {who}, winner of {name}!").format(who=who, name=name)


def duplicate_terms(w: Words) -> str:
    return w.gettext(
        "It is a duplicate match: two legs on the very same deals, seats swapped; whoever "
        "has more points over both legs wins it."
    )


def second_leg(first_leg: int, match_id: int, first: str, second: str, w: Words) -> str:
    return w.gettext(
        "Second leg of duplicate match #{first_leg}: the very same deals, seats swapped. "
        "{first} against {second} (match #{id})."
    ).format(first_leg=first_leg, first=first, second=second, id=match_id)


def _net(value: float, w: Words) -> str:
    """A net score over both legs: whole points, with a true minus sign."""
    return w.number(int(value)) if value == int(value) else w.number(value)


def duplicate_over(
    first_leg: int,
    names: tuple[str, str],
    net: tuple[float, float] | None,
    winner_seat: int | None,
    how: str,
    w: Words,
) -> str:
    """The one result of a duplicate match, named by its first leg; ``names`` are the first
    leg's seats, ``net`` each one's points over both legs (None after a forfeit)."""
    if how == "aborted":
        return w.gettext("Duplicate match #{id} was called off: it has no result.").format(
            id=first_leg
        )
    if net is None:
        assert winner_seat is not None
        if how == "time":
            text = w.gettext(
                "Duplicate match #{id} is over: {winner} wins on time, as {loser} did not "
                "finish both legs."
            )
        else:
            text = w.gettext(
                "Duplicate match #{id} is over: {winner} wins by resignation, as {loser} did "
                "not finish both legs."
            )
        return text.format(id=first_leg, winner=names[winner_seat], loser=names[1 - winner_seat])
    blanks = {
        "id": first_leg,
        "first": names[0],
        "second": names[1],
        "first_net": _net(net[0], w),
        "second_net": _net(net[1], w),
    }
    if winner_seat is None:
        return w.gettext(
            "Duplicate match #{id} is over: {first} {first_net} – {second_net} {second} over "
            "both legs; a draw."
        ).format(**blanks)
    margin = abs(net[0] - net[1])
    return w.ngettext(
        "Duplicate match #{id} is over: {first} {first_net} – {second_net} {second} over both "
        "legs; {winner} wins by {n} point.",
        "Duplicate match #{id} is over: {first} {first_net} – {second_net} {second} over both "
        "legs; {winner} wins by {n} points.",
        int(margin),
    ).format(**blanks, winner=names[winner_seat], n=_net(margin, w))


def ratings_moved(
    game: str, names: tuple[str, str], moved: Sequence[tuple[int, int]], w: Words
) -> str:
    """The server's ratings after a duplicate match, (after, change) for each seat: the same
    sentence as after any rated match."""
    said = [
        f"{names[i]} {w.number(after)} ({'+' if change >= 0 else ''}{w.number(change)})"
        for i, (after, change) in enumerate(moved)
    ]
    return w.gettext("{game} ratings on this server: {first}, {second}.").format(
        game=game_title(game, w), first=said[0], second=said[1]
    )
