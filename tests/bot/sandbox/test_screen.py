"""What the sandbox shows: the table told in sentences in each language, the hand and its
moves numbered in the picture's order, and whether pictures can be drawn at all."""

from __future__ import annotations

import random
import re
import sys
import types

import pytest

import games
from bot import i18n
from bot.sandbox import screen
from bot.service.wording import pretty
from tests.style import english_left, problems


def test_without_pictures_the_sandbox_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "rendering", types.ModuleType("rendering"))
    assert screen.pictures() is None


def test_describe_shows_any_view_as_text() -> None:
    """The hand in the order the picture shows it (Bézigue's from the ace down), and only
    in the player's own view."""
    state = games.get("bezique").new_match(seed=3)
    view = state.view(0)
    text = screen.describe(view)
    order = screen.hand_order(view)
    assert "Your hand: " + " ".join(pretty(c) for c in sorted(view["hand"], key=order)) in text
    public = screen.describe(state.view(None))
    assert "Your hand" not in public
    for card in view["hand"]:
        assert pretty(card) not in public.split()
    assert "seat" not in text and "Tapis" in text  # people named, never seat numbers


def test_beziques_cards_laid_out_are_numbered_after_the_hand_as_pictured() -> None:
    """The picture shows the hand, then the cards laid out on the table in a row under it:
    the moves are numbered in that order, not with the table's cards among the hand's."""
    view = {
        "game": "bezique", "seat": 0, "hand": ["KS", "AC"], "to_move": 0, "scores": [0, 0],
        "legal_moves": ["play AC", "play KD", "play KS", "play QD"], "result": None,
        "table": [["KD", "QD"], []], "trump": "H", "stage": 1,
    }  # fmt: skip
    shown = screen.picture_cards(view)
    assert shown[:2] == sorted(["KS", "AC"], key=screen.hand_order(view))
    assert set(shown[2:]) == {"KD", "QD"}
    listed = screen.listed_moves(view["legal_moves"], "bezique", shown)
    assert [m.split()[1] for m in listed] == shown


def test_moves_are_numbered_in_the_pictures_order() -> None:
    """Piquet's picture shows A♠ Q♠ J♠ 7♠: so are its moves numbered, whatever the order
    the engine lists them in."""
    listed = screen.listed_moves(["play 7S", "play JS", "play QS", "play AS"], "piquet")
    assert listed == ["play AS", "play QS", "play JS", "play 7S"]
    order = screen.hand_order({"game": "piquet"})
    assert sorted(["7S", "JS", "QS", "AS"], key=order) == ["AS", "QS", "JS", "7S"]


# What a debugger would print: an empty value, an engine's word, a key of the views.
_RAW = re.compile(r"\b(?:None|True|False|seat|count|winner|stage|phase|committed)\b|\w_\w")


@pytest.mark.parametrize("game", games.names())
def test_the_table_is_told_in_each_language(game: str) -> None:
    """Every seat's view and the public one, all through a random match, in every language:
    the table in sentences, cards named as the reader's pictures name them, melds and
    declarations in the game's words, nothing of the engines' data, no English left."""
    options = {"bezique": {"target": 700}, "cinq-as": {"rounds": 2}, "piquet": {"deals": 2}}
    state = games.get(game).new_match(seed=5, options=options.get(game, {}))
    rng = random.Random(5)
    said: dict[str, set[str]] = {lang: set() for lang in i18n.LANGS}
    while state.to_move is not None:
        for lang, lines in said.items():
            for seat in (0, 1, None):
                text = screen.describe(state.view(seat), i18n.words(lang), ("Alice", "Bob"))
                lines.update(text.split("\n"))
        state = state.apply(rng.choice(state.legal_moves()))
    for lang, lines in said.items():
        for line in lines:
            assert english_left(line, lang) == [] and problems(line) == [], line
            assert not _RAW.search(line), line
            if lang != "en":
                assert not re.search(r"\b[JQ][♠♥♦♣]", line), line
    assert any("takes the trick" in line for line in said["en"]) or game == "cinq-as"
    if game == "piquet":
        assert any("point de" in line and "cartes" in line for line in said["fr"])
    if game == "bezique":
        assert any("sept d’atout" in line or "mariage" in line for line in said["fr"])
    if game == "cinq-as":
        assert any(line.startswith("Expéditions de Alice") for line in said["fr"])


def test_an_ecarte_exchange_is_said_in_words() -> None:
    """Écarté's exchanges say how many cards each side changed, in the reader's language."""
    state = games.get("ecarte").new_match(seed=2)
    for move in ("propose", "accept"):
        while move not in state.legal_moves():  # the king first, if the turn-up is none
            state = state.apply(state.legal_moves()[0])
        state = state.apply(move)
    elder = state.to_move
    assert elder is not None
    hand = state.view(elder)["hand"]
    state = state.apply("discard " + " ".join(hand[:3]))
    state = state.apply("discard")  # the dealer keeps every card
    said = {
        lang: screen.describe(state.view(elder), i18n.words(lang), ("Alice", "Bob"))
        for lang in i18n.LANGS
    }
    assert "3 cards changed" in said["en"] and "no card changed" in said["en"]
    assert "3 cartes changées" in said["fr"] and "aucune carte changée" in said["fr"]
    assert "3 kort bytta" in said["sv"] and "inget kort bytt" in said["sv"]


def test_a_trick_is_told_with_who_took_it_in_each_language() -> None:
    state = games.get("piquet").new_match(seed=4)
    rng = random.Random(4)
    said: dict[str, str] = {}
    while state.to_move is not None and not said:
        view = state.view(0)
        last = view.get("last_trick")
        if last and last["winner"] == 0 and not view.get("trick"):
            for lang in i18n.LANGS:
                said[lang] = screen.describe(view, i18n.words(lang), ("Alice", "Bob"))
        state = state.apply(rng.choice(state.legal_moves()))
    assert "Alice takes the trick (" in said["en"] and "Alice prend la levée (" in said["fr"]
    assert "Alice tar sticket (" in said["sv"]


def test_piquets_talons_are_said_of_elder_and_younger_whichever_seat_is_elder() -> None:
    """The view gives the talons and the exchanges as elder's then younger's: read as seat
    0's then seat 1's, the reader was told they had exchanged elder's cards."""
    for seed in range(20):
        state = games.get("piquet").new_match(seed=seed)
        if state.to_move == 1:  # elder is seat 1: the order that used to be misread
            break
    hand = state.view(1)["hand"]
    state = state.apply(f"discard {hand[0]} {hand[1]} {hand[2]}")
    text = screen.describe(state.view(0), names=("Alice", "Bob"))
    assert "Cards left in the talons: Alice 3, Bob 2." in text
