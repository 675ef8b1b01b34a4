"""What tournaments and duplicate matches say: every player-facing sentence of them, in one
place, as pure functions of plain data (names already safe for message text)."""

from __future__ import annotations

from collections.abc import Sequence

from bot import clocks
from bot.service.wording import game_title
from games.words import ENGLISH

FORMATS = {"swiss": "Swiss", "round-robin": "round-robin"}


def plural(count: int, one: str, many: str) -> str:
    return f"{count} {one if count == 1 else many}"


def points(value: float) -> str:
    """1, 1½, 0½ → '1', '1½', '½': how tournament points are written."""
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
) -> str:
    """One sentence of a tournament's terms."""
    parts = [f"**{name}**: {game_title(game, ENGLISH)}, {FORMATS[format_]}"]
    if rounds is not None:
        parts.append(plural(rounds, "round", "rounds"))
    if duplicate:
        parts.append("duplicate matches (each pairing plays the same deals twice, seats swapped)")
    parts.append("no clock" if days is None else f"{plural(days, 'day', 'days')} per move")
    if starts_at is not None:
        parts.append(f"starts {clocks.format_deadline(starts_at)}")
    return ", ".join(parts) + "."


def created(number: int, terms: str) -> str:
    return (
        f"Tournament #{number} is open. {terms} Join it with `/tournament join`; its creator "
        "starts it with `/tournament start`."
    )


def joined(name: str, who: str, count: int) -> str:
    return f"{who} joins {name}: {plural(count, 'player', 'players')} so far."


def left_before(name: str, who: str, count: int) -> str:
    return f"{who} leaves {name}: {plural(count, 'player', 'players')} now."


def left_during(name: str, who: str, round_: int) -> str:
    return (
        f"{who} leaves {name} in round {round_}: any match of theirs still going is resigned, "
        "and they are paired no more."
    )


def cancelled(name: str, count: int) -> str:
    return (
        f"{name} could not start: it needs at least 2 players and has "
        f"{plural(count, 'player', 'players')}. It is cancelled."
    )


def pairings(
    name: str,
    round_: int,
    rounds: int,
    pairs: Sequence[tuple[str, str, int | None]],
    bye: str | None,
) -> str:
    """The announcement of a round: who meets whom (and in which match)."""
    lines = [f"**{name}**, round {round_} of {rounds}:"]
    for first, second, match_id in pairs:
        where = f" (match #{match_id})" if match_id is not None else " (no match: a forfeit)"
        lines.append(f"• {first} against {second}{where}")
    if bye is not None:
        lines.append(f"• {bye} has the bye this round and scores a point.")
    return "\n".join(lines)


def round_match(name: str, round_: int, first: str, second: str, match_id: int) -> str:
    return f"{name}, round {round_}: {first} against {second} (match #{match_id})."


def standings_caption(name: str, round_: int, rounds: int, final: bool) -> str:
    if final:
        return f"**{name}** is over after {plural(round_, 'round', 'rounds')}. Final standings:"
    return f"**{name}**: standings after round {round_} of {rounds}."


def winner(name: str, who: str) -> str:
    return f"Congratulations to {who}, winner of {name}!"


def duplicate_terms() -> str:
    return (
        "It is a duplicate match: two legs on the very same deals, seats swapped; whoever "
        "has more points over both legs wins it."
    )


def second_leg(first_leg: int, match_id: int, first: str, second: str) -> str:
    return (
        f"Second leg of duplicate match #{first_leg}: the very same deals, seats swapped. "
        f"{first} against {second} (match #{match_id})."
    )


def duplicate_over(
    first_leg: int,
    names: tuple[str, str],
    net: tuple[float, float] | None,
    winner_seat: int | None,
    how: str,
) -> str:
    """The one result of a duplicate match, named by its first leg; ``names`` are the first
    leg's seats, ``net`` each one's points over both legs (None after a forfeit)."""
    if how == "aborted":
        return f"Duplicate match #{first_leg} was called off: it has no result."
    if net is None:
        assert winner_seat is not None
        reason = "on time" if how == "time" else "by resignation"
        return (
            f"Duplicate match #{first_leg} is over: {names[winner_seat]} wins {reason}, "
            f"as {names[1 - winner_seat]} did not finish both legs."
        )
    scores = f"{names[0]} {net[0]:g} – {net[1]:g} {names[1]} over both legs"
    if winner_seat is None:
        return f"Duplicate match #{first_leg} is over: {scores}; a draw."
    margin = abs(net[0] - net[1])
    return (
        f"Duplicate match #{first_leg} is over: {scores}; {names[winner_seat]} wins by {margin:g}."
    )


def ratings_moved(game: str, names: tuple[str, str], moved: Sequence[tuple[int, int]]) -> str:
    """The server's ratings after a duplicate match, (after, change) for each seat."""
    parts = ", ".join(
        f"{names[i]} {after} ({change:+d})".replace("-", "\N{MINUS SIGN}")
        for i, (after, change) in enumerate(moved)
    )
    return f"{game_title(game, ENGLISH)} ratings on this server: {parts}."
