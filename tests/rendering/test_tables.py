"""Table pictures from hand-built public views (views.py): size, content, bad input."""

from __future__ import annotations

import copy

import pytest

import rendering
from rendering import registry
from rendering.canvas import fit
from rendering.fonts import font
from tests.rendering import views
from tests.rendering.helpers import colours, image, mean_difference

NAMES = ("Alice", "Bob")


def test_every_game_has_a_sample() -> None:
    assert sorted(views.SAMPLES) == registry.games()


@pytest.mark.parametrize("game", sorted(views.SAMPLES))
def test_table_is_phone_width_and_drawn(game: str) -> None:
    data = rendering.table_png(views.SAMPLES[game](None), NAMES)
    picture = image(data)
    assert picture.width == 1000
    assert 600 <= picture.height <= 2000
    assert colours(picture) > 100
    assert len(data) <= 200_000


@pytest.mark.parametrize("game", sorted(views.SAMPLES))
def test_names_are_drawn(game: str) -> None:
    view = views.SAMPLES[game](None)
    a = image(rendering.table_png(view, NAMES))
    b = image(rendering.table_png(view, ("Zoé", "Bob")))
    assert mean_difference(a, b) > 0


@pytest.mark.parametrize("game", sorted(views.SAMPLES))
def test_the_same_view_gives_the_same_bytes(game: str) -> None:
    view = views.SAMPLES[game](None)
    assert rendering.table_png(view, NAMES) == rendering.table_png(copy.deepcopy(view), NAMES)


@pytest.mark.parametrize("game", sorted(views.SAMPLES))
def test_the_winner_is_named_once_over(game: str) -> None:
    view = views.SAMPLES[game](None)
    before = image(rendering.table_png(view, NAMES))
    view.update({"result": {"winner": 1, "scores": view["scores"]}, "to_move": None})
    view["phase"] = "over"
    after = image(rendering.table_png(view, NAMES))
    header = (0, 0, 1000, 60)
    assert mean_difference(before.crop(header), after.crop(header)) > 1


@pytest.mark.parametrize("game", sorted(views.SAMPLES))
def test_four_colour_table(game: str) -> None:
    view = views.SAMPLES[game](None)
    assert rendering.table_png(view, NAMES) != rendering.table_png(view, NAMES, four_colour=True)


def test_long_names_are_shortened() -> None:
    long = ("A" * 5000, "Bob")
    assert image(rendering.table_png(views.piquet(None), long)).width == 1000


def test_fit_keeps_the_longest_start_that_fits() -> None:
    bold = font(28, True)
    assert fit("Bob", 28, 300, bold=True) == "Bob"
    full = "Bartholomew the Magnificent"
    short = fit(full, 28, 120, bold=True)
    kept = len(short) - 1
    assert short == full[:kept] + "…" and bold.getlength(short) <= 120
    assert bold.getlength(full[: kept + 1] + "…") > 120


@pytest.mark.parametrize("name", ["Al\nice", "Tab\there", "\x00zero", "Zoé 🂡 ♠"])
def test_any_name_is_drawn_on_one_line(name: str) -> None:
    assert image(rendering.table_png(views.ecarte(None), (name, "Bob"))).width == 1000


def test_cinq_as_columns_grow_with_expeditions() -> None:
    view = views.cinq_as(None)
    short = image(rendering.table_png(view, NAMES)).height
    view["expeditions"][1]["C"] = ["JC", "QC", "KC", "3C", "5C", "6C", "7C", "8C", "9C", "10C"]
    assert image(rendering.table_png(view, NAMES)).height > short


@pytest.mark.parametrize(
    ("game", "change", "message"),
    [
        ("cinq-as", {"game": "go"}, "no pictures for game 'go'"),
        ("piquet", {"trick": [{"seat": 0, "card": "7Z"}]}, "cannot draw card '7Z'"),
        ("piquet", {"trick": [{"seat": 2, "card": "7S"}]}, "seat is 0 or 1"),
        ("bezique", {"table": [["QS"], ["XX"]]}, "cannot draw card 'XX'"),
        ("bezique", {"turn_up": "1H"}, "cannot draw card '1H'"),
        ("ecarte", {"tricks": [{"cards": [{"seat": 0, "card": "QQ"}], "winner": 0}]}, "'QQ'"),
        ("cinq-as", {"discards": {"S": ["9S", "2Q"]}}, "cannot draw card '2Q'|malformed"),
        ("ecarte", {"stock": None}, "stock must be a whole number"),
        ("ecarte", {"tricks_won": None}, "malformed Écarté view"),
        ("piquet", {"declarations": None}, "malformed Piquet view"),
    ],
)
def test_bad_view_is_a_clear_value_error(
    game: str, change: dict[str, object], message: str
) -> None:
    view = views.SAMPLES[game](None)
    view.update(change)
    with pytest.raises(ValueError, match=message):
        rendering.table_png(view, NAMES)


def test_missing_key_is_a_value_error_naming_it() -> None:
    view = views.bezique(None)
    del view["brisques"]
    with pytest.raises(ValueError, match="brisques"):
        rendering.table_png(view, NAMES)


@pytest.mark.parametrize("names", [("Alice",), ("A", "B", "C"), "AB", ("A", 2), None])
def test_names_must_be_two_strings(names: object) -> None:
    with pytest.raises(ValueError, match="names must be two strings"):
        rendering.table_png(views.ecarte(None), names)  # type: ignore[arg-type]


JUNK: list[object] = [None, "x", -1, 10**6, [], {}, [None], [{"seat": 5, "card": "QS"}], True]


@pytest.mark.parametrize("game", sorted(views.SAMPLES))
def test_any_junk_value_gives_a_picture_or_a_value_error(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No key of a view, whatever it holds, makes Pillow or the drawing code crash otherwise.
    (PNG encoding is skipped here for speed: it only ever sees a finished image.)"""
    monkeypatch.setattr(rendering, "png", lambda image: b"")
    sample = views.SAMPLES[game]
    for key in sample(views.HAND_SEATS[game]):
        for junk in JUNK:
            for seat in (None, views.HAND_SEATS[game]):
                view = sample(seat)
                view[key] = junk
                try:
                    if seat is None:
                        rendering.table_png(view, NAMES)
                    else:
                        rendering.hand_png(view)
                except ValueError:
                    pass
