"""One conformance suite over every registered game (docs/engine.md): a new game runs it by
registering, with nothing to write here."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import typing
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games
from games import IllegalMove
from games.core import State

from .conformance import (
    card_multiset,
    first_option,
    junk_moves,
    leak_walk,
    playout,
    variants,
)

PLAYOUTS = int(os.environ.get("TAPIS_PLAYOUTS", "200"))
DEEP_CHECKS = 12
"""Playouts in which every step is checked in depth; the rest are checked at a sample."""

GAMES = games.names()


@pytest.fixture(params=GAMES)
def game(request: pytest.FixtureRequest) -> games.Game:
    return games.get(request.param)


def _check_state(state: State) -> None:
    """Invariants of any state."""
    game = state.game
    over = state.to_move is None
    assert (state.result is not None) == over
    legal = state.legal_moves()
    assert bool(legal) != over, "moves exist exactly while the match is on"
    assert len(legal) == len(set(legal)), "legal moves listed once each"
    for move in legal:
        assert state.canonical(move) == move, f"{move!r} is not in canonical notation"
    assert isinstance(state.scores, tuple) and len(state.scores) == 2
    assert card_multiset(state) == Counter(game.pack), "cards are conserved"
    text = state.to_json()
    assert game.from_json(text) == state, "a stored state reads back equal, finished ones too"
    for seat in (0, 1, None):
        view = state.view(seat)
        json.dumps(view)
        for key in ("game", "seat", "hand", "to_move", "scores", "legal_moves", "result"):
            assert key in view, key
        assert view["game"] == game.name and view["seat"] == seat
        assert view["scores"] == list(state.scores)
        assert view["to_move"] == state.to_move
        if seat is None:
            assert view["hand"] == [] and view["legal_moves"] == []
        elif seat == state.to_move:
            assert view["legal_moves"] == legal
        else:
            assert view["legal_moves"] == []
    if over:
        result = state.result
        assert result is not None and result["winner"] in (0, 1, None)
        assert result["scores"] == list(state.scores)


def _check_moves(state: State, rng: random.Random) -> None:
    """Every legal move applies (in any spelling) without touching ``state``; others refuse."""
    before = state.to_json()
    legal = state.legal_moves()
    sample = legal if len(legal) <= 60 else rng.sample(legal, 60)
    for move in sample:
        after = state.apply(move)
        assert isinstance(after, type(state))
        for spelling in variants(move):
            assert state.apply(spelling) == after, f"{spelling!r} should mean {move!r}"
    legal_set = set(legal)
    for junk in junk_moves(state, rng, 30):
        try:
            canonical = state.canonical(junk)
        except IllegalMove:
            canonical = None
        if canonical in legal_set:
            continue
        with pytest.raises(IllegalMove) as refused:
            state.apply(junk)
        assert str(refused.value), "a refusal says why"
    assert state.to_json() == before, "apply never mutates the state it is called on"
    again = state.game.from_json(before)
    assert again == state and again.legal_moves() == legal
    assert again.to_json() == before


def test_random_playouts_finish(game: games.Game) -> None:
    rng = random.Random(f"playouts/{game.name}")
    moves = 0
    for seed in range(PLAYOUTS):
        deep = seed < DEEP_CHECKS
        for step, (state, _move) in enumerate(playout(game, seed, rng)):
            moves += 1
            if deep or step % 97 == 0 or state.to_move is None:
                _check_state(state)
            if deep and step % 3 == 0:
                _check_moves(state, rng)
    assert moves > PLAYOUTS


def test_same_seed_same_moves_same_states(game: games.Game) -> None:
    for seed in (1, 2, 3):
        rng = random.Random(seed)
        first = [(s.to_json(), m) for s, m in playout(game, seed, rng)]
        state = game.new_match(seed=seed)
        for text, move in first:
            assert state.to_json() == text
            if move is not None:
                state = state.apply(move)


def test_seeds_differ(game: games.Game) -> None:
    deals = {game.new_match(seed=seed).view(0)["hand"].__repr__() for seed in range(20)}
    assert len(deals) > 15


def test_finished_match_refuses_moves(game: games.Game) -> None:
    *_, (last, _none) = playout(game, 5, random.Random(5))
    assert last.to_move is None and last.legal_moves() == []
    with pytest.raises(IllegalMove, match="over"):
        last.apply("play QS")


@pytest.mark.parametrize("seat", [0, 1])
def test_leak_views_ignore_hidden_cards(game: games.Game, seat: int) -> None:
    """docs/engine.md: swap a card of seat's opponent with a hidden one; views stay identical."""
    rng = random.Random(f"leak/{game.name}/{seat}")
    compared = 0
    for seed in range(40):
        steps, _why = leak_walk(game, seat, seed, rng)
        compared += steps
    assert compared > 40 * 3, "the walks compared enough steps to mean something"


def test_options_are_validated(game: games.Game) -> None:
    with pytest.raises(ValueError, match="is not an option of"):
        game.new_match(seed=1, options={"colour": 1})
    with pytest.raises(ValueError):
        game.new_match(seed=1, options={first_option(game): 2})
    with pytest.raises(ValueError):
        game.new_match(seed="x")  # type: ignore[arg-type]
    for seat in (0, 1):
        state = game.new_match(seed=1, options={first_option(game): seat})
        assert state.to_json() != ""


def test_the_first_seat_option_keeps_its_older_name(game: games.Game) -> None:
    """Stored matches carry ``first_dealer``/``first_player``: they must still replay alike."""
    (option,) = [option for option in game.options if option.name == first_option(game)]
    assert option.aliases, "the name the option had before it was shared"
    for seat in (0, 1):
        shared = game.new_match(seed=5, options={option.name: seat})
        for alias in option.aliases:
            assert game.new_match(seed=5, options={alias: seat}) == shared
    assert game.new_match(seed=5, options={option.aliases[0]: 1}) != game.new_match(
        seed=5, options={option.name: 0}
    )
    with pytest.raises(ValueError, match="twice"):
        game.new_match(seed=5, options={option.name: 0, option.aliases[0]: 0})


def test_wrong_decks_are_refused(game: games.Game) -> None:
    deck = list(game.pack)
    with pytest.raises(ValueError, match="missing"):
        game.new_match(seed=1, deck=deck[:-1])
    with pytest.raises(ValueError):
        game.new_match(seed=1, deck=[*deck[:-1], deck[0]])
    with pytest.raises(ValueError):
        game.new_match(seed=1, deck=[*deck[:-1], "ZZ"])
    assert game.new_match(seed=1, deck=deck) == game.new_match(seed=1, deck=[deck])


def test_deck_override_fixes_first_deal_only(game: games.Game) -> None:
    deck = list(reversed(game.pack))
    state = game.new_match(seed=9, deck=deck)
    assert state != game.new_match(seed=9)
    assert state == game.new_match(seed=9, deck=[deck])


def test_corrupt_json_is_refused(game: games.Game) -> None:
    state = game.new_match(seed=3)
    text = state.to_json()
    for broken in ("", "{", "[]", json.dumps({"game": "other"}), json.dumps({"game": game.name})):
        with pytest.raises(ValueError):
            game.from_json(broken)
    data = json.loads(text)
    for key in data:
        if key != "game":
            partial = {k: v for k, v in data.items() if k != key}
            with pytest.raises(ValueError):
                game.from_json(json.dumps(partial))
    held = state.view(0)["hand"][0]
    other = next(card for card in game.pack if card != held)
    with pytest.raises(ValueError, match="cards"):
        game.from_json(text.replace(f'"{held}"', f'"{other}"'))


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(seed=st.integers(0, 2**31), steps=st.integers(0, 80), text=st.text(max_size=20))
def test_any_text_is_a_move_or_a_polite_refusal(
    game: games.Game, seed: int, steps: int, text: str
) -> None:
    rng = random.Random(seed)
    state = game.new_match(seed=seed)
    for _ in range(steps):
        if state.to_move is None:
            break
        state = state.apply(rng.choice(state.legal_moves()))
    try:
        after = state.apply(text)
    except IllegalMove as refusal:
        assert str(refusal)
    else:
        assert state.canonical(text) in state.legal_moves()
        assert after.to_json() != state.to_json()


def test_games_describe_themselves(game: games.Game) -> None:
    """Help texts and examples come from these: they must be real moves and real options."""
    assert game.summary.strip().endswith(".")
    state = game.new_match(seed=0)
    assert game.example_moves
    for move in game.example_moves:
        assert state.canonical(move) == move
    pairs = [word.split("=") for word in game.example_options.split()]
    options = {name: int(value) for name, value in pairs}
    assert game.new_match(seed=0, options=options).to_json() != state.to_json()


def test_views_hold_exactly_the_keys_their_typed_dict_declares(game: games.Game) -> None:
    """The TypedDict a game exports is the contract with rendering/: mypy checks the
    renderers against it, this checks the engine's views against it."""
    view_type = typing.get_type_hints(game.state_type.view)["return"]
    keys = set(view_type.__required_keys__)
    rng = random.Random(f"keys/{game.name}")
    for step, (state, _move) in enumerate(playout(game, 3, rng)):
        if step % 17 == 0 or state.to_move is None:
            for seat in (0, 1, None):
                assert set(state.view(seat)) == keys


def test_a_loaded_state_rebuilds_every_field(game: games.Game) -> None:
    """JSON equality says nothing of the fields JSON does not keep (the derived ones): a state
    read back must hold every field, stored or derived, as the state that wrote it."""
    rng = random.Random(f"fields/{game.name}")
    names = [field.name for field in dataclasses.fields(game.state_type)]
    for step, (state, _move) in enumerate(playout(game, 5, rng)):
        if step % 11 == 0 or state.to_move is None:
            loaded = game.from_json(state.to_json())
            for name in names:
                assert getattr(loaded, name) == getattr(state, name), name
            copied = state._copy()  # the copy every move starts from
            assert all(getattr(copied, name) == getattr(state, name) for name in names)
