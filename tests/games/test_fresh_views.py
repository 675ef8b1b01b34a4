"""Views, stored data and legal moves are fresh values: states keep derived parts of them
(scores, orders, JSON of finished tricks) to answer every move quickly, and these tests catch
one such part handed out twice, or computed otherwise than the plain reading of the rules."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games
from games.cards import sort_key
from games.cinq_as import expedition_score
from games.core import State
from games.ecarte import _tricks_json
from games.header import MatchState

from .conformance import playout

GAMES = games.names()


def _containers(value: Any) -> list[Any]:
    """Every list and dict inside ``value``, itself included."""
    found = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found.append(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            found.append(item)
            stack.extend(item)
        elif isinstance(item, tuple):
            stack.extend(item)
    return found


def _spoil(value: Any) -> None:
    """Change every list and dict inside ``value``."""
    for item in _containers(value):
        if isinstance(item, dict):
            item["spoiled"] = True
        else:
            item.append("spoiled")


def _text(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _check_fresh(state: State) -> None:
    """Each call gives what the one before gave, in lists and dicts of its own, however the
    one before was changed since."""
    asked = [lambda seat=seat: state.view(seat) for seat in (None, 0, 1)]
    asked.append(state.legal_moves)
    if isinstance(state, MatchState):
        asked += [state.to_data, lambda: state.to_data(tuples=True)]
    for ask in asked:
        first = ask()
        kept = _text(first)
        again = ask()
        mine = {id(item) for item in _containers(first)}
        assert not any(id(item) in mine for item in _containers(again)), "a list or dict shared"
        _spoil(first)
        assert _text(again) == kept
        assert _text(ask()) == kept


def _check_reference(state: State) -> None:
    """The parts derived for speed agree with the plain reading of the view or the rules."""
    zones = state.zones()
    for seat in (0, 1):
        hand = state.view(seat)["hand"]
        assert hand == sorted(hand, key=sort_key), "a hand is shown in canonical order"
    public: Any = state.view(None)
    assert json.dumps(state.to_data(tuples=True), separators=(",", ":"), sort_keys=True) == (
        state.to_json()
    )
    name = state.game.name
    if name == "cinq-as":
        for part in (public, public["last_round"]):
            if part is None:
                continue
            for exp, scores in zip(part["expeditions"], part["expedition_scores"], strict=True):
                assert scores == {suit: expedition_score(cards) for suit, cards in exp.items()}
    elif name == "bezique":
        for seat in (0, 1):
            won = Counter(card[:-1] for card in zones[f"won{seat}"])
            assert public["brisques"][seat] == won["A"] + won["10"]
            assert public["table"][seat] == sorted(zones[f"table{seat}"], key=sort_key)
    elif name == "ecarte":
        previous = public["previous_hand"]
        if previous is not None:
            winners = Counter(trick["winner"] for trick in previous["tricks"])
            assert previous["tricks_won"] == [winners[0], winners[1]]
    elif name == "piquet":
        assert public["hand_sizes"] == [len(zones["hand0"]), len(zones["hand1"])]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(GAMES),
    seed=st.integers(0, 2**31),
    every=st.integers(4, 12),
    steps=st.integers(1, 300),
)
def test_views_are_fresh_and_as_the_rules_read(
    name: str, seed: int, every: int, steps: int
) -> None:
    game = games.get(name)
    rng = random.Random(seed)
    for step, (state, _move) in enumerate(playout(game, seed, rng)):
        if step % every == 0 or state.to_move is None:
            for checked in (state, game.from_json(state.to_json())):
                _check_fresh(checked)
                _check_reference(checked)
        if step >= steps:
            break


def test_finished_matches_are_fresh_too() -> None:
    for name in GAMES:
        game = games.get(name)
        *_, (state, _move) = playout(game, 3, random.Random(3))
        assert state.result is not None
        for checked in (state, game.from_json(state.to_json())):
            _check_fresh(checked)
            _check_reference(checked)


def test_a_stored_trick_of_any_length_is_shown_as_stored() -> None:
    tricks = ((((0, "7S"),), 0), (((1, "8S"), (0, "9S")), 0))
    assert _tricks_json(tricks) == [
        {"cards": [{"seat": 0, "card": "7S"}], "winner": 0},
        {"cards": [{"seat": 1, "card": "8S"}, {"seat": 0, "card": "9S"}], "winner": 0},
    ]
