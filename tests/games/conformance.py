"""Helpers of the conformance suite run over every registered game (test_conformance.py)."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import games
from games.core import FIRST_SEAT, Game, State
from games.deals import shuffled
from games.moves import move_cards

MOVE_CAP = 50_000
"""No match of any game comes near this many moves; reaching it means a loop."""


def first_option(game: Game) -> str:
    """The option fixing who deals or plays first: one name in every game (docs/engine.md)."""
    assert FIRST_SEAT in {option.name for option in game.options}, f"{game.name}: no first seat"
    return FIRST_SEAT


def playout(
    game: Game, seed: int, rng: random.Random, options: dict[str, Any] | None = None
) -> Iterator[tuple[State, str | None]]:
    """Yield (state, move chosen) for a random match to its end; the last move is None."""
    state = game.new_match(seed=seed, options=options)
    for _ in range(MOVE_CAP):
        if state.to_move is None:
            yield state, None
            return
        move = rng.choice(state.legal_moves())
        yield state, move
        state = state.apply(move)
    raise AssertionError(f"{game.name} seed {seed}: no end after {MOVE_CAP} moves")


def card_multiset(state: State) -> Counter[str]:
    return Counter(card for zone in state.zones().values() for card in zone)


def verbs(moves: list[str]) -> set[str]:
    return {move.split()[0] for move in moves}


def junk_moves(state: State, rng: random.Random, count: int) -> list[str]:
    """Strings that look like moves (right verbs, real cards) or are plainly not moves."""
    pack = sorted(set(state.game.pack))
    words = list(state.syntax)
    out = ["", "   ", "fly", "play", "play ZZ", "play 1S", "discard 11H 2S", "draw X", "42"]
    for _ in range(count):
        verb = rng.choice(words)
        cards = rng.sample(pack, rng.randrange(0, 3))
        out.append(" ".join([verb, *cards]))
    return out


def variants(move: str) -> list[str]:
    """Other ways a player may type the same move: case, spacing, symbols, card order."""
    symbols = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    words = move.split()
    out = [move.upper(), move.lower(), "  " + "   ".join(words) + " "]
    if len(words) > 1:
        out.append(" ".join([words[0], *reversed(words[1:])]))
        out.append(", ".join([words[0].capitalize(), *words[1:]]))
        out.append(" ".join([words[0], *(w[:-1] + symbols.get(w[-1], w[-1]) for w in words[1:])]))
    return out


def swapped_decks(
    game: Game, seat: int, seed: int, rng: random.Random
) -> tuple[dict[str, Any], list[str], list[str], str, str]:
    """Two first-deal decks differing only by a card X of seat's opponent and a hidden card Y."""
    options = {first_option(game): rng.randrange(2)}
    deck = list(shuffled(game.pack, seed, "leak-test", 0))
    opponent, hidden = game.deal_secrets(seat, options)
    while True:
        i, j = rng.choice(opponent), rng.choice(hidden)
        if deck[i] != deck[j]:
            break
    other = list(deck)
    other[i], other[j] = other[j], other[i]
    return options, deck, other, deck[i], deck[j]


def leak_walk(game: Game, seat: int, seed: int, rng: random.Random) -> tuple[int, str]:
    """Play the same moves in the two swapped matches; return (steps compared, why it stopped).

    Fails (AssertionError) at the first step where a view differs while the swap should still
    be invisible to ``seat``: see docs/engine.md, "Hidden information".
    """
    options, deck_a, deck_b, x, y = swapped_decks(game, seat, seed, rng)
    a = game.new_match(seed=seed, options=options, deck=deck_a)
    b = game.new_match(seed=seed, options=options, deck=deck_b)
    for step in range(MOVE_CAP):
        why = _visible(game, seat, a, b)
        if why:
            return step, why
        for who in (seat, None):
            view_a, view_b = a.view(who), b.view(who)
            if view_a != view_b:
                raise AssertionError(
                    f"{game.name}: view({who}) reveals a hidden card at step {step} "
                    f"(X={x} in the opponent's hand, Y={y} hidden):\n" + _diff(view_a, view_b)
                )
        common = sorted(set(a.legal_moves()) & set(b.legal_moves()))
        if not common:
            return step, "no common move"
        move = rng.choice(common)
        a, b = a.apply(move), b.apply(move)
        if x in move_cards(move) or y in move_cards(move):
            return step, "a swapped card was shown"
    raise AssertionError("leak walk did not end")


def _visible(game: Game, seat: int, a: State, b: State) -> str:
    """Why the swap may legitimately show now, or '' while it must stay invisible."""
    if a.to_move is None or b.to_move is None:
        return "match over"
    if a.scores != b.scores:
        return "scores differ"
    if a.to_move != b.to_move:
        return "turn differs"
    if verbs(a.legal_moves()) != verbs(b.legal_moves()):
        return "kinds of moves differ"
    view_a, view_b = a.view(seat), b.view(seat)
    if view_a["hand"] != view_b["hand"]:
        return "seat drew a swapped card"
    for key in game.public_facts:
        if view_a.get(key) != view_b.get(key):
            return f"announced {key} differ"
    return ""


def _diff(a: dict[str, Any], b: dict[str, Any]) -> str:
    lines = []
    for key in sorted(set(a) | set(b)):
        if a.get(key) != b.get(key):
            lines.append(f"  {key}: {json.dumps(a.get(key))} != {json.dumps(b.get(key))}")
    return "\n".join(lines)


def all_games() -> list[str]:
    return games.names()


Check = Callable[[State], None]
