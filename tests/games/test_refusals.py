"""Every refusal of every game, in English, French and Swedish.

An engine refuses a move with a marked message and its blanks (docs/engine.md); the reader's
language is chosen by whoever tells it. Here random matches are played and, at many moments,
a bag of wrong moves is tried (cards not held or outside the pack, moves out of turn, melds
that are none, malformed text); every kind of refusal a raise site in ``games/`` can make must
turn up, and each reads well in the three languages: one whole sentence with a full stop, card
names rather than codes, no rule decision ids, no English left in French or Swedish, and the
list of moves open that the bot adds after it.
"""

from __future__ import annotations

import ast
import itertools
import json
import random
from collections import Counter
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import games
from bot import i18n
from bot.service import wording
from games.bezique import TURN_UP_AT
from games.cards import ACE_MARKERS, DOUBLE_PACK, SUITS, TAROT_SET
from games.core import State
from games.refusals import IllegalMove, not_held, not_in_pack
from tests.style import english_left, problems

GAMES_DIR = Path(games.__file__).parent
ALL_CARDS = sorted({*DOUBLE_PACK, *TAROT_SET, *ACE_MARKERS, "2S", "6H"})
OPTIONS: dict[str, dict[str, int]] = {
    "bezique": {"target": 1000},
    "cinq-as": {"rounds": 1},
    "ecarte": {"target": 11},
    "piquet": {"deals": 2},
}
SEEDS = {
    "bezique": range(1, 3),
    "cinq-as": range(1, 2),
    "ecarte": range(1, 5),
    "piquet": range(1, 3),
}
TEXTS = [
    42, "", "   ", "nonsense", "play", "play QS KS", "play ZZ", "play 1X", "draw X Y", "draw Z",
    "exchange 7S", "declare", "declare 8", "meld", "propose now", "discard 7S 7S", "king yes",
    "meld QS JD", "meld QS QS JD JD", "meld KH QH", "meld QS KH", "meld AS AS AH AD",
    "meld 2S 3S", "discard 2S", "play 2S", "play AS", "play 7H",
    *(f"meld A{s} 10{s} K{s} Q{s} J{s}" for s in "SHDC"),
    *(f"meld K{s} Q{s}" for s in "SHDC"),
]  # fmt: skip
VERBS = ("draw", "exchange", "declare 7", "propose", "accept", "refuse", "king", "discard")


def refusal_messages() -> set[str]:
    """The message of every ``IllegalMove(...)`` written in ``games/`` (its English text)."""
    found: set[str] = set()
    for path in sorted(GAMES_DIR.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "IllegalMove"):
                continue
            marked = [
                call.args[0].value
                for call in ast.walk(node.args[0])
                if isinstance(call, ast.Call)
                and getattr(call.func, "id", "") in ("N_", "counted")
                and isinstance(call.args[0], ast.Constant)
            ]
            assert marked, f"{path.name}:{node.lineno}: a refusal that is not a marked message"
            found.add(marked[0])
    return found


def _wrong_moves(state: State, rng: random.Random) -> Iterator[Any]:
    """Moves to try at ``state``: mostly wrong, some right (they are simply accepted)."""
    hand = list(state.view(state.to_move)["hand"])
    yield from TEXTS
    yield from VERBS
    yield from (f"draw {suit}" for suit in SUITS)
    yield from (f"play {card}" for card in hand)
    yield from (f"play {card}" for card in rng.sample(ALL_CARDS, 8))
    yield from (f"discard {card}" for card in rng.sample(ALL_CARDS, 4))
    yield " ".join(["discard", *hand])
    for size in (1, 2, 3, 4, 6):
        if len(hand) >= size:
            yield " ".join(["discard", *rng.sample(hand, size)])
    for size in (2, 3, 4, 5):
        for cards in itertools.islice(itertools.combinations(hand, size), 0, None, 11):
            yield " ".join(["meld", *cards])
    # Melds again of cards already on the table (Bézigue), alone or with one from the hand.
    table = (state.view(state.to_move).get("table") or [[], []])[state.to_move or 0]
    for size in (2, 4, 5):
        for cards in itertools.combinations(table, size):
            yield " ".join(["meld", *cards])
        for cards in itertools.combinations(table, size - 1):
            yield from (" ".join(["meld", *cards, card]) for card in hand)


def _next(state: State, rng: random.Random) -> State:
    """A random legal move, mostly one that is not a card played (a meld, a proposal, an
    exchange), so that matches go where refusals are rarer: rich tables, depleted stocks."""
    moves = state.legal_moves()
    if "king" in moves:  # Écarté: announced half the time, so that it is also held back
        held_back = [move for move in moves if move != "king"]
        return state.apply("king" if rng.random() < 0.5 or not held_back else rng.choice(held_back))
    others = [move for move in moves if not move.startswith("play ")]
    return state.apply(rng.choice(others if others and rng.random() < 0.8 else moves))


def _two_beziques_on_the_table() -> State:
    """A Bézigue position, after a trick won, where the player to meld has two beziques on the
    table (Q♠ J♦ twice) and nothing of them in hand: rare in random play, so laid out here by
    moving cards between the hands and the stock of a real position."""
    rules = games.get("bezique")
    rng = random.Random(2)
    state = rules.new_match(seed=1, options=OPTIONS["bezique"])
    while not any(move.startswith("meld") for move in state.legal_moves()):
        state = state.apply(rng.choice(state.legal_moves()))
    data = json.loads(state.to_json())
    seat, deck, pos = data["turn"], data["deck"], data["pos"]
    hand, table = ["AS", "10H", "8D"], ["QS", "QS", "JD", "JD"]
    spare = list((Counter(data["hands"][seat]) - Counter(hand + table)).elements())
    for card in (Counter(hand + table) - Counter(data["hands"][seat])).elements():
        other = data["hands"][1 - seat]
        if card in other:
            other[other.index(card)] = spare.pop()
        else:  # from the stock: swapped in the deck with a card dealt earlier
            out = spare.pop()
            i = deck.index(card, pos)
            j = next(j for j in range(pos) if deck[j] == out and j != TURN_UP_AT)
            deck[i], deck[j] = deck[j], deck[i]
    data["hands"][seat] = hand
    data["tables"][seat] = [[card, 0, 1, 0] for card in table]  # served in a bezique
    return rules.from_json(json.dumps(data))


@cache
def refusals_of(game: str) -> dict[str, IllegalMove]:
    """One refusal of each kind that random matches of ``game`` met, by message."""
    seen: dict[str, IllegalMove] = {}
    rules = games.get(game)
    for seed in SEEDS.get(game, range(1, 3)):
        rng = random.Random(seed)
        state = rules.new_match(seed=seed, options=OPTIONS.get(game, rules.short_options()))
        while state.to_move is not None:
            for move in _wrong_moves(state, rng):
                try:
                    state.apply(move)
                except IllegalMove as error:
                    seen.setdefault(error.reason.text, error)
            state = _next(state, rng)
        try:
            state.apply("play QS")
        except IllegalMove as error:
            seen.setdefault(error.reason.text, error)
    if game == "bezique":
        with pytest.raises(IllegalMove) as refused:
            _two_beziques_on_the_table().apply("meld JD JD QS QS")
        seen.setdefault(refused.value.reason.text, refused.value)
    return seen


def test_every_refusal_is_a_marked_message_and_every_one_is_met() -> None:
    written = refusal_messages()
    met = set().union(*(refusals_of(game) for game in games.names()))
    assert written - met == set(), "refusals no wrong move reached"


@pytest.mark.parametrize("game", games.names())
@pytest.mark.parametrize("lang", i18n.LANGS)
def test_refusals_read_well_in_each_language(game: str, lang: str) -> None:
    w = i18n.words(lang)
    for error in refusals_of(game).values():
        said = error.say(w)
        whole = " ".join((wording.engine_reason(error).say(w), wording.listing(game, [], w)))
        assert said[:1].isupper() or said[:1] in "`“«”0123456789", said
        assert said.endswith("."), said
        assert "{" not in said and "}" not in said, said
        assert problems(said) == [] and english_left(whole, lang) == [], whole
        if lang != "en":
            assert said != error.say(i18n.words("en")), f"untranslated in {lang}: {said}"


def test_a_refusal_names_cards_as_the_reader_does() -> None:
    state = games.get("piquet").new_match(seed=1, options={})
    hand = set(state.view(state.to_move)["hand"])
    missing = next(card for card in ("QS", "QH", "QD", "QC") if card not in hand)
    with pytest.raises(IllegalMove) as refused:
        state.apply(f"discard {missing}")
    symbol = missing[-1].replace("S", "♠").replace("H", "♥").replace("D", "♦").replace("C", "♣")
    assert str(refused.value) == f"You do not hold Q{symbol}."
    assert refused.value.say(i18n.words("fr")) == f"Vous n’avez pas D{symbol} en main."
    assert refused.value.say(i18n.words("sv")) == f"Du har inte D{symbol} på handen."


def test_illegal_move_is_a_value_error() -> None:
    assert issubclass(IllegalMove, ValueError)


def test_the_shared_refusals_count_their_cards() -> None:
    assert str(not_held(["QS"])) == "You do not hold Q♠."
    assert str(not_held(["QS", "7H"])) == "You do not hold these cards: Q♠, 7♥."
    assert str(not_in_pack(["2S"])) == (
        "2♠ is not in this game's pack, which has 7 to A in each suit."
    )
    assert str(not_in_pack(["2S", "6H"])).startswith("2♠, 6♥ are not in this game's pack")
