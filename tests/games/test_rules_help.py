"""The rules help a newcomer learns from, per game and in each language: the ranks of the
game's own pack, who wins a trick, every scoring table, a worked example — as docs/rules/
has them — and every move it shows typed in the reader's own move words."""

from __future__ import annotations

import re

import pytest

import games
from bot import i18n
from games.cards import rank_letter
from games.phrases import MOVE_WORDS

LANGS = i18n.LANGS


def help_of(name: str, lang: str) -> str:
    return games.get(name).rules_help(i18n.words(lang))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", games.names())
def test_the_ranks_said_are_those_of_the_games_pack(name: str, lang: str) -> None:
    """A 7-to-ace pack is never said to run from 2; the letters are the reader's."""
    w = i18n.words(lang)
    text = help_of(name, lang)
    low = min(int(code[:-1]) for code in games.get(name).pack if code[:-1].isdigit())
    said = {
        "en": "Ranks are {} to 10",
        "fr": "Les hauteurs sont {} à 10",
        "sv": "Valörerna är {} till 10",
    }
    assert said[lang].format(low) in text
    for rank in ("J", "Q", "K"):
        assert rank_letter(rank, w) in text.split(said[lang].format(low), 1)[1].split(".")[0]


@pytest.mark.parametrize("lang", LANGS)
def test_piquets_help_gives_every_scoring_table_and_an_example(lang: str) -> None:
    text = help_of("piquet", lang)
    # sequences (tierce 3, quart 4, quint 15 … huitième 18), sets (trio 3, quatorze 14),
    # the ace's 11 for the point, the bonuses, and the rubicon's arithmetic
    for figure in ("3", "4", "15", "16", "17", "18", "14", "11", "50", "60", "30", "40"):
        assert re.search(rf"(?<![\d.,]){figure}(?![\d])", text), (lang, figure)
    assert "100 + 120 + 85 = 305" in text and "100 + 26 = 126" in text
    assert "blanche" in text  # said plainly: there is none in this game
    words = {
        "en": "tierce quart quint sixième septième huitième trio quatorze repique capot",
        "fr": "tierce quatrième quinte seizième dix-huitième brelan quatorze repic capot",
        "sv": "ters kvart kvint sext septim oktav tretal fyrtal repik kapott",
    }
    for word in words[lang].split():
        assert word in text.lower(), (lang, word)


@pytest.mark.parametrize("lang", LANGS)
def test_beziques_help_says_who_takes_a_trick_equal_cards_included(lang: str) -> None:
    text = help_of("bezique", lang)
    said = {
        "en": "When both cards are the same (the two copies of one card), the card led wins.",
        "fr": "la carte jouée en premier l’emporte",
        "sv": "vinner det utspelade kortet",
    }
    assert said[lang] in text
    assert "500" in text and "250" in text and "40" in text  # the melds' table


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", games.names())
def test_each_games_help_has_a_worked_example(name: str, lang: str) -> None:
    example = {"en": "For example", "fr": "Par exemple", "sv": "Till exempel"}
    assert example[lang] in help_of(name, lang)


@pytest.mark.parametrize("lang", ["fr", "sv"])
@pytest.mark.parametrize("name", games.names())
def test_the_help_shows_moves_in_the_readers_move_words(name: str, lang: str) -> None:
    """Outside the line that lists each word's equivalents, every move shown as typed is
    in the reader's language: `écarter 7♠ 8♦`, never `discard 7S 8D`."""
    *paragraphs, notation = help_of(name, lang).split("\n\n")
    typed = re.findall(r"`([a-zéèöäå]+)", "\n".join(paragraphs))
    assert typed
    english = [word for word in typed if word in MOVE_WORDS]
    assert english == [], english
    own = {spelt[0 if lang == "fr" else 1] for spelt in MOVE_WORDS.values()}
    assert any(word in own for word in typed)
    assert notation.count("`") >= 2
