"""Pictures of real engines' views: every registered game has its pictures, whole matches
render, and the leak test — a table picture from two states that differ only in hidden cards
is byte-identical, as long as nothing has shown the difference (docs/engine.md)."""

from __future__ import annotations

import random

import pytest

import games
import rendering
from games.moves import move_cards
from tests.games.conformance import first_option, swapped_decks, verbs
from tests.rendering.helpers import colours, image

NAMES = ("Ana", "Bruno")
SAMPLES_PER_MATCH = 12
LEAK_STEPS = 24


def test_every_registered_game_has_pictures() -> None:
    assert set(games.names()) <= set(rendering.games())


@pytest.mark.parametrize("name", games.names())
def test_a_whole_match_renders(name: str) -> None:
    """Table and both hands at moments spread over a random match, the end included."""
    game = games.get(name)
    rng = random.Random(7)
    states = [game.new_match(seed=11)]
    while states[-1].to_move is not None:
        states.append(states[-1].apply(rng.choice(states[-1].legal_moves())))
    stride = max(1, len(states) // SAMPLES_PER_MATCH)
    for state in [*states[::stride], states[-1]]:
        table = image(rendering.table_png(state.view(None), NAMES))
        assert table.width == 1000 and colours(table) > 50
        for seat in (0, 1):
            hand = image(rendering.hand_png(state.view(seat)))
            assert 760 <= hand.width <= 1000


@pytest.mark.parametrize("name", games.names())
def test_the_legal_cards_are_marked_on_real_views(name: str) -> None:
    """Somewhere in a match, a hand picture marks some cards and not others, and differs
    from the same hand when it is not the player's turn."""
    game = games.get(name)
    verbs_marked = rendering.registry.renderer_for({"game": name}).marking_verbs
    rng = random.Random(3)
    state = game.new_match(seed=5)
    for _ in range(400):
        if state.to_move is None:
            break
        view = state.view(state.to_move)
        named = {
            code
            for move in view["legal_moves"]
            if verbs_marked is None or move.split()[0] in verbs_marked
            for code in move_cards(move)
        }
        if named and not set(view["hand"]) <= named:
            waiting = dict(view, legal_moves=[])
            assert rendering.hand_png(view) != rendering.hand_png(waiting)
            return
        state = state.apply(rng.choice(state.legal_moves()))
    pytest.fail(f"{name}: no moment with some cards playable and others not")


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("seat", [0, 1])
@pytest.mark.parametrize("name", games.names())
def test_table_picture_does_not_leak_hidden_cards(name: str, seat: int, seed: int) -> None:
    """Two matches whose decks differ only by a card of ``seat``'s opponent and a hidden card
    give byte-identical table pictures (and ``seat``'s hand pictures) until the swap shows."""
    game = games.get(name)
    rng = random.Random(f"{name}/{seat}/{seed}")
    options, deck_a, deck_b, x, y = swapped_decks(game, seat, seed, rng)
    assert first_option(game) in options
    a = game.new_match(seed=seed, options=options, deck=deck_a)
    b = game.new_match(seed=seed, options=options, deck=deck_b)
    compared = 0
    for _ in range(LEAK_STEPS):
        if _shows(game, a, b, seat):
            break
        assert rendering.table_png(a.view(None), NAMES) == rendering.table_png(
            b.view(None), NAMES
        ), f"{name}: the table picture differs with hidden cards {x}/{y} swapped"
        assert rendering.hand_png(a.view(seat)) == rendering.hand_png(b.view(seat))
        compared += 1
        common = sorted(set(a.legal_moves()) & set(b.legal_moves()))
        if not common:
            break
        move = rng.choice(common)
        a, b = a.apply(move), b.apply(move)
        if x in move_cards(move) or y in move_cards(move):
            break
    assert compared > 0


def _shows(game: games.Game, a: games.State, b: games.State, seat: int) -> bool:
    """True once the swap may legitimately be seen (the same reasons as the engines' leak
    test: match over, scores or turn or kinds of move differ, seat drew a swapped card, or a
    public announcement depends on it)."""
    if a.to_move is None or b.to_move is None:
        return True
    if a.scores != b.scores or a.to_move != b.to_move:
        return True
    if verbs(a.legal_moves()) != verbs(b.legal_moves()):
        return True
    if a.view(seat)["hand"] != b.view(seat)["hand"]:
        return True
    return any(a.view(seat).get(key) != b.view(seat).get(key) for key in game.public_facts)


@pytest.mark.parametrize("name", games.names())
def test_a_table_from_a_player_s_view_is_refused(name: str) -> None:
    """A player's view may hold words only they may read (their own face-down discards in
    last_move): drawn as a table it could reach the public thread, so it is refused."""
    state = games.get(name).new_match(seed=2)
    for seat in (0, 1):
        with pytest.raises(ValueError, match="public view"):
            rendering.table_png(state.view(seat), NAMES)
