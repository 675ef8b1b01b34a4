"""The registry of games (docs/engine.md, "The registry")."""

from __future__ import annotations

import inspect
import io
from collections.abc import Iterator

import pytest
from PIL import Image

import ai
import games
import rendering
from ai import base as ai_base
from tests.games import test_conformance as conformance_suite
from tests.games import toy as toy_module


def test_names_are_canonical_and_sorted() -> None:
    names = games.names()
    assert "cinq-as" in names and names == sorted(names)


@pytest.mark.parametrize(
    "alias", ["cinq-as", "CINQ-AS", "Le 5 As", "five-aces", "lost-cities", "Lost Cities", "5 as"]
)
def test_aliases(alias: str) -> None:
    assert games.get(alias).name == "cinq-as"


def test_unknown_name_lists_the_games() -> None:
    with pytest.raises(KeyError, match="cinq-as"):
        games.get("poker")


def test_game_identity() -> None:
    game = games.get("cinq-as")
    assert (game.name, game.title) == ("cinq-as", "Le 5 As")
    assert game is games.get("five aces")


# -- a fifth game, added from the tests with nothing shared to edit -------------------------


@pytest.fixture
def toy() -> Iterator[games.Game]:
    """High card (tests/games/toy.py) registered for one test, withdrawn however it ends."""
    with games.registering(toy_module.GAME) as game:
        yield game


CONFORMANCE = sorted(name for name in dir(conformance_suite) if name.startswith("test_"))


@pytest.mark.parametrize("check", CONFORMANCE)
def test_a_fifth_game_registered_from_the_tests_passes_the_conformance_suite(
    toy: games.Game, check: str
) -> None:
    """Each test of tests/games/test_conformance.py, run on the toy game as on the others."""
    run = getattr(conformance_suite, check)
    if "seat" in inspect.signature(run).parameters:
        for seat in (0, 1):
            run(game=toy, seat=seat)
    else:
        run(game=toy)


def test_a_fifth_game_is_listed_found_by_its_names_and_its_parts_beside_it(
    toy: games.Game,
) -> None:
    assert toy.name in games.names() and toy in games.registered()
    assert games.get("HighCard") is toy and games.get("High card") is toy
    assert games.part(toy.name, "ai") == "tests.ai.toy"
    assert games.part(toy.name, "rendering") == "tests.rendering.toy"
    assert toy.name in rendering.games()


def test_a_fifth_game_is_drawn(toy: games.Game) -> None:
    state = toy.new_match(seed=4, options={"first_seat": 0})
    state = state.apply(state.legal_moves()[0])  # a card on the table
    hand = Image.open(io.BytesIO(rendering.hand_png(state.view(state.to_move))))
    assert hand.size[0] > 0 and hand.size[1] > 0
    table = rendering.table_image(state.view(None), ("Ada", "Blaise"))
    assert table.size == rendering.table_image(state.view(None), ("Ada", "Blaise")).size
    # The card led is on the table; the picture of the table before it was played differs.
    before = rendering.table_image(
        toy.new_match(seed=4, options={"first_seat": 0}).view(None), ("Ada", "Blaise")
    )
    assert before.tobytes() != table.tobytes()


def test_the_computer_plays_a_fifth_game_and_beats_chance(toy: games.Game) -> None:
    """Every level decides a legal move, the same for the same seed; over whole matches the
    computer takes more tricks than a player choosing at random."""
    state = toy.new_match(seed=2)
    view = state.view(state.to_move)
    for level in ai.LEVELS:
        move = ai.choose(toy.name, view, level, seed=3)
        assert move in state.legal_moves()
        assert ai.choose(toy.name, view, level, seed=3) == move
    computer = chance = 0
    for seed in range(12):
        state = toy.new_match(seed=seed)
        seat = seed % 2
        while state.to_move is not None:
            view = state.view(state.to_move)
            if state.to_move == seat:
                move = ai.choose(toy.name, view, "normal", seed=seed)
            else:
                move = ai.random_move(view, seed=len(state.to_json()))
            state = state.apply(move)
        computer += state.scores[seat]
        chance += state.scores[1 - seat]
    assert computer > chance, (computer, chance)


def test_a_fifth_game_withdrawn_leaves_no_trace() -> None:
    """Registration is undone: what the web, the bot and the golden tests see is unchanged."""
    before = games.names()
    with games.registering(toy_module.GAME):
        assert len(games.names()) == len(before) + 1
    assert games.names() == before and toy_module.NAME not in rendering.games()
    with pytest.raises(KeyError):
        games.get("highcard")
    with pytest.raises(KeyError):
        ai_base.lookup(toy_module.NAME)
    with pytest.raises(ValueError, match="no pictures"):
        rendering.hand_png({"game": toy_module.NAME})


def test_a_name_taken_is_refused_and_registering_again_is_harmless() -> None:
    piquet = games.get("piquet")
    assert games.register(piquet) is piquet and games.names().count("piquet") == 1
    with games.registering(toy_module.GAME), pytest.raises(ValueError, match="another game"):
        games.register(toy_module.HighCard(toy_module.ToyState))
