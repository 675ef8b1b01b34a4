"""A hint and a review's costs in a player's words, from an :class:`ai.coach.Analysis`.

Numbers are never given bare: each says what it counts ("points on average", "chance of
winning the match") and is rounded the way a player would say it. The moves are named by the
game's own phrases (``Game.describe``: "meld: bézigue (Q♠ J♦)", "propose an exchange"), so a
game's words stay in its module; this module only composes them.
"""

from __future__ import annotations

import games
from ai.coach import Analysis
from games.words import ENGLISH, Words

TOP = 3
"""The moves a hint names: the best, and the next two to compare it with."""
EVEN = 0.5
"""Points (or, for a chance, a half percent) below which two moves are told as alike."""


def amount(value: float, unit: str, words: Words = ENGLISH) -> str:
    """A difference of value as a player says it: "about 12 points", "about 4 % chance of
    winning the match"."""
    if unit == "chance":
        percent = max(1, round(value * 100))
        return words.ngettext(
            "about {n} percentage point of chance to win the match",
            "about {n} percentage points of chance to win the match",
            percent,
        ).format(n=words.number(percent))
    points = max(1, round(value))
    return words.ngettext("about {n} point", "about {n} points", points).format(
        n=words.number(points)
    )


def _even(value: float, unit: str) -> bool:
    return value * (100 if unit == "chance" else 1) < EVEN


def _gain(value: float, words: Words) -> str:
    points = round(value)
    return words.ngettext(
        "it scores {n} point at once", "it scores {n} points at once", points
    ).format(n=words.number(points))


def hint_lines(analysis: Analysis, words: Words = ENGLISH) -> list[str]:
    """The hint: the move the strong level plays, then the next best with what each costs
    against it (and what a move scores at once, when it does), then how it was weighed."""
    game = games.get(analysis.game)
    best = analysis.best
    said = game.describe(best.move, words)
    if analysis.deals == 0:
        return [
            words.gettext("Play **{move}**: it is the only sensible move here.").format(move=said)
        ]
    lines = [words.gettext("Tapis would play **{move}**.").format(move=said)]
    if best.gain >= 0.5:
        lines[0] += " " + words.gettext("({gain}.)").format(gain=_gain(best.gain, words))
    for other in analysis.moves[1:TOP]:
        cost = best.value - other.value
        name = game.describe(other.move, words)
        if _even(cost, analysis.unit):
            line = words.gettext("• {move}: about as good.").format(move=name)
        elif other.gain >= 0.5 and other.gain > best.gain:
            line = words.gettext(
                "• {move}: {gain}, but leaves you {cost} worse off on average."
            ).format(
                move=name, gain=_gain(other.gain, words), cost=amount(cost, analysis.unit, words)
            )
        else:
            line = words.gettext("• {move}: {cost} less on average.").format(
                move=name, cost=amount(cost, analysis.unit, words)
            )
        lines.append(line)
    lines.append(
        words.ngettext(
            "Weighed over {n} deal of the cards you cannot see.",
            "Weighed over {n} deals of the cards you cannot see.",
            analysis.deals,
        ).format(n=words.number(analysis.deals))
    )
    return lines


def review_summary(
    lost: tuple[float, float], unit: str, names: tuple[str, str], words: Words
) -> str:
    """A review's one line for the whole match: what each player lost to their choices."""
    return words.gettext(
        "{first} lost {first_cost} to their choices, {second} {second_cost}, against "
        "the strong level's."
    ).format(
        first=names[0],
        first_cost=amount(lost[0], unit, words),
        second=names[1],
        second_cost=amount(lost[1], unit, words),
    )
