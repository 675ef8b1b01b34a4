"""The hand picture: shared by every game, legal cards raised and lit, others washed out."""

from __future__ import annotations

import copy
import random

import pytest

import games
import rendering
from bot import i18n
from rendering.canvas import HEADER_H
from rendering.hand import MIN_WIDTH, RAISE, STATUS_H, playable, status
from rendering.style import CARD_H
from tests.rendering import views
from tests.rendering.helpers import colours, image, region_mean


def piquet_hand(cards: list[str], legal: list[str]) -> dict[str, object]:
    view = views.piquet(1)
    view.update({"hand": cards, "legal_moves": legal, "discarded": [], "talon_seen": []})
    return view


@pytest.mark.parametrize("count", [1, 5, 8, 9, 12])
def test_size_fits_a_phone_and_is_not_blank(count: int) -> None:
    cards = ["7S", "8S", "9S", "10S", "JS", "QS", "KS", "AS", "7H", "8H", "9H", "10H"][:count]
    picture = image(rendering.hand_png(piquet_hand(cards, [])))
    assert MIN_WIDTH <= picture.width <= 1000
    assert picture.height >= CARD_H + 100
    assert colours(picture) > 50


def test_empty_hand_is_drawn_too() -> None:
    picture = image(rendering.hand_png(piquet_hand([], [])))
    assert picture.width == MIN_WIDTH


def test_cards_are_shown_in_canonical_order() -> None:
    """A hand given out of order gives the same picture as the sorted hand."""
    shuffled = rendering.hand_png(piquet_hand(["AC", "7S", "10H", "JD"], []))
    ordered = rendering.hand_png(piquet_hand(["7S", "10H", "JD", "AC"], []))
    assert shuffled == ordered


def test_playable_cards_are_those_named_by_legal_moves() -> None:
    hand = ["7S", "8S", "10H"]
    assert playable(hand, ["play 7S", "play 8S"]) == {"7S", "8S"}
    assert playable(hand, ["discard 7S 10H"]) == {"7S", "10H"}


def test_every_move_is_read_until_all_cards_are_named() -> None:
    """A card named only by the last of many moves is still marked; cards that are not in
    the hand never are."""
    hand = ["7S", "8S", "10H"]
    many = ["discard 7S 9C"] * 2000 + ["discard 8S"]
    assert playable(hand, many) == {"7S", "8S"}
    assert playable(hand, [*many, "discard 10H"]) is None  # every card may be played


def test_nothing_marked_when_nothing_tells_cards_apart() -> None:
    hand = ["7S", "8S"]
    assert playable(hand, []) is None  # not this player's turn
    assert playable(hand, ["draw", "draw S"]) is None  # no move names a card
    assert playable(hand, ["play 7S", "play 8S"]) is None  # every card may be played


def test_legal_cards_lit_and_others_washed_out() -> None:
    """The card that may be played is bright; the one that may not is dimmed into the felt."""
    legal = image(rendering.hand_png(piquet_hand(["7S", "AH"], ["play 7S"])))
    other = image(rendering.hand_png(piquet_hand(["7S", "AH"], ["play AH"])))
    plain = image(rendering.hand_png(piquet_hand(["7S", "AH"], [])))
    assert legal.size == other.size == plain.size
    # Card centres: the hand is centred, two cards of 120 px with a 10 px gap.
    left = legal.width // 2 - 65
    right = legal.width // 2 + 65
    y = HEADER_H + STATUS_H + RAISE + 14 + CARD_H // 2 - RAISE // 2  # between lit and not

    def brightness(picture: object, x: int) -> float:
        return region_mean(picture, (x - 30, y - 30, x + 30, y + 30))  # type: ignore[arg-type]

    # Each card is brighter where it may be played than where it may not, and unmarked
    # (not this player's turn) it looks as it does lit.
    assert brightness(legal, left) > brightness(other, left) + 30
    assert brightness(other, right) > brightness(legal, right) + 30
    assert abs(brightness(plain, left) - brightness(legal, left)) < 15


def test_status_words() -> None:
    view = piquet_hand(["7S"], ["play 7S"])
    assert status(view, ["play 7S"]) == ("Your turn: play", True)
    assert status(view, []) == ("Your opponent's turn", False)
    assert status(view, ["play 7S", "discard"], i18n.words("fr")) == (
        "À vous\u00a0: jouer / écarter",
        True,
    )
    assert status(view, ["play 7S"], i18n.words("sv")) == ("Din tur: spela", True)
    view["result"] = {"winner": 0}
    assert status(view, []) == ("Match over", False)


def test_four_colour_changes_the_picture() -> None:
    view = piquet_hand(["7D", "8C"], [])
    assert rendering.hand_png(view) != rendering.hand_png(view, four_colour=True)


def test_extra_rows_for_own_knowledge() -> None:
    """Piquet: own discards and the talon cards the player may see are shown under the hand."""
    view = piquet_hand(["7S", "AH"], [])
    bare = image(rendering.hand_png(view))
    view["discarded"] = ["8S", "9S"]
    view["talon_seen"] = ["KD"]
    assert image(rendering.hand_png(view)).height > bare.height + 2 * 150


def test_bezique_cards_on_the_table_are_playable_and_lit() -> None:
    view = views.bezique(1)
    view["table"][1] = ["KS", "QS"]
    view["legal_moves"] = ["play KS", "play 7S"]
    picture = image(rendering.hand_png(view))
    assert picture.height > 500


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game": "chess"}, "no pictures for game 'chess'"),
        ({"game": None}, "no pictures for game None"),
        ({"hand": ["7S", "ZZ"]}, "cannot draw card 'ZZ'"),
        ({"hand": ["1S"]}, "cannot draw card '1S'"),
        ({"hand": None}, "the view has no hand"),
        ({"legal_moves": "play 7S"}, "legal_moves must be a list"),
        ({"discarded": ["7S", 3]}, "must be a list of card codes"),
        ({"talon_seen": ["XX"]}, "cannot draw card 'XX'"),
    ],
)
def test_bad_input_is_a_clear_value_error(change: dict[str, object], message: str) -> None:
    view = copy.deepcopy(views.piquet(1))
    view.update(change)
    with pytest.raises(ValueError, match=message):
        rendering.hand_png(view)


def test_a_view_must_be_a_dict() -> None:
    with pytest.raises(ValueError, match="a view is a dict"):
        rendering.hand_png([])  # type: ignore[arg-type]


def test_an_empty_hand_takes_a_line_not_a_card_row() -> None:
    empty = image(rendering.hand_png(piquet_hand([], [])))
    held = image(rendering.hand_png(piquet_hand(["7S"], [])))
    assert empty.height < held.height - CARD_H
    scene = rendering.hand_scene(piquet_hand([], []), owner="Alice")
    assert scene.empty == "Alice holds no cards."


@pytest.mark.parametrize("name", games.names())
@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_spectators_hand_names_its_owner_in_the_third_person(name: str, lang: str) -> None:
    """A replay's hands, at every ply of a match: never "your", always the owner's name."""
    words = i18n.words(lang)
    second = {"en": "Your", "fr": "Vo", "sv": "Din"}[lang]
    state = games.get(name).new_match(seed=5)
    rng = random.Random(5)
    seen_turn = seen_wait = False
    while state.to_move is not None:
        for seat in (0, 1):
            owner = ("Alice", "Bob")[seat]
            scene = rendering.hand_scene(state.view(seat), words=words, owner=owner)
            told = [scene.status, scene.empty, *(title for title, _, _ in scene.extras)]
            assert not any(second in said or "you" in said.lower() for said in told), told
            assert (
                owner in scene.status
                or not scene.status.strip()
                or scene.status == (words.gettext("Match over"))
            )
            for title, _, _ in scene.extras:
                assert owner in title, title
            if state.to_move == seat:
                assert scene.status == words.gettext("{name} to play").format(name=owner)
                assert scene.urgent
                seen_turn = True
            else:
                assert not scene.urgent
                seen_wait = True
        state = state.apply(rng.choice(state.legal_moves()))
    assert seen_turn and seen_wait
