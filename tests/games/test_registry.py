"""The registry of games (docs/engine.md, "The registry")."""

from __future__ import annotations

import pytest

import games


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
