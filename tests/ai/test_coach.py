"""The coach's weighing: from the seat's view alone, the same for a seed, and told in words."""

from __future__ import annotations

import random

import pytest

import ai.coach
import ai.review
import games
from ai.hints import hint_lines
from bot import i18n
from games.moves import move_cards
from tests.games.conformance import _visible, all_games, swapped_decks
from tests.style import english_left, problems

LIGHT = 60  # the strong budget divided by this: enough to exercise the weighing


@pytest.mark.parametrize("game", all_games())
def test_a_hint_depends_only_on_the_view(game: str) -> None:
    """Two matches differing only by a card of the opponent's hand swapped with one hidden
    from everyone: while the seat cannot tell them apart, the hint is the same."""
    rules = games.get(game)
    rng = random.Random(f"coach {game}")
    compared = 0
    for seed in range(6):
        seat = seed % 2
        options, deck_a, deck_b, x, y = swapped_decks(rules, seat, seed, rng)
        a = rules.new_match(seed=seed, options=options, deck=deck_a)
        b = rules.new_match(seed=seed, options=options, deck=deck_b)
        for step in range(40):
            if _visible(rules, seat, a, b) or compared >= 4:
                break
            if a.to_move == seat and len(a.legal_moves()) > 1:
                view_a, view_b = a.view(seat), b.view(seat)
                found_a = ai.coach.analyse(game, view_a, step, share=LIGHT)  # type: ignore[arg-type]
                found_b = ai.coach.analyse(game, view_b, step, share=LIGHT)  # type: ignore[arg-type]
                assert found_a == found_b and found_a.best.move in a.legal_moves()
                compared += 1
            common = sorted(set(a.legal_moves()) & set(b.legal_moves()))
            if not common:
                break
            move = rng.choice(common)
            a, b = a.apply(move), b.apply(move)
            if {x, y} & set(move_cards(move)):
                break
    assert compared >= 2


@pytest.mark.parametrize("game", all_games())
@pytest.mark.parametrize("lang", ["en", "fr", "sv"])
def test_a_hint_is_told_in_words_in_each_language(game: str, lang: str) -> None:
    words = i18n.words(lang)
    state = games.get(game).new_match(seed=11)
    rng = random.Random(11)
    told = 0
    for _ in range(30):
        if state.to_move is None:
            break
        view = state.view(state.to_move)
        if len(state.legal_moves()) > 1:
            found = ai.coach.analyse(game, view, 1, share=LIGHT)  # type: ignore[arg-type]
            text = "\n".join(hint_lines(found, words))
            assert problems(text) == [], text
            if lang != "en":
                assert english_left(text, lang) == [], text
            told += 1
        state = state.apply(rng.choice(state.legal_moves()))
    assert told >= 3


def test_a_review_reads_back_what_it_stored() -> None:
    state = games.get("ecarte").new_match(seed=2)
    rng = random.Random(2)
    moves = []
    while state.to_move is not None and len(moves) < 40:
        move = rng.choice(state.legal_moves())
        moves.append(move)
        state = state.apply(move)
    plies = ai.review.choices("ecarte", 2, None, moves)
    weighed = ai.review.weigh("ecarte", 2, None, moves, plies[:10])
    made = ai.review.summarise("ecarte", weighed)
    assert made.unit == "chance" and sum(made.decisions) == 10
    assert all(d.cost >= 0 for d in weighed)
    assert ai.review.Review.from_json(made.to_json()) == made
    assert weighed == ai.review.weigh("ecarte", 2, None, moves, plies[:10])


def test_each_level_is_described_in_each_language() -> None:
    for lang in ("en", "fr", "sv"):
        for level in ai.LEVELS:
            text = ai.coach.level_description(level, i18n.words(lang))
            assert text and problems(text) == []
