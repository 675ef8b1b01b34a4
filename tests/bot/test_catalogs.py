"""Every message the source marks is translated, with the same blanks, in every language."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from bot import i18n
from games.words import ENGLISH

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [lang for lang in i18n.LANGS if lang != i18n.DEFAULT_LANG]


def blanks(text: str) -> set[str]:
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


def problems(marked: dict[tuple[str | None, str], object], catalog: Catalog) -> list[str]:
    """What is wrong with ``catalog`` against the messages the source marks, one line each."""
    found: list[str] = []
    for (context, key), message in sorted(marked.items(), key=lambda item: str(item[0])):
        entry = catalog.get(key, context=context)
        english = message if isinstance(message, tuple) else (message,)
        if entry is None:
            found.append(f"missing: {key!r}")
            continue
        forms = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if entry.fuzzy or not all(forms):
            found.append(f"not translated: {key!r}")
            continue
        expected = set().union(*(blanks(text) for text in english))
        for form in forms:
            if blanks(form) - expected:
                found.append(f"unknown blank in {form!r} (for {key!r})")
        if not expected <= set().union(*(blanks(form) for form in forms)):
            found.append(f"a blank of {key!r} is missing from its translation")
    marked_keys = {key for key in marked}
    found += [
        f"no longer in the source (run make messages): {entry.id!r}"
        for entry in catalog
        if entry.id
        and (entry.context, entry.id if isinstance(entry.id, str) else entry.id[0])
        not in marked_keys
    ]
    return found


@pytest.fixture(scope="module")
def marked() -> dict[tuple[str | None, str], object]:
    return dict(i18n.marked_messages(ROOT))


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_marked_message_is_translated(
    lang: str, marked: dict[tuple[str | None, str], object]
) -> None:
    with i18n.catalog_path(lang).open("rb") as source:
        catalog = read_po(source, locale=lang)
    assert problems(marked, catalog) == []


def test_the_check_finds_what_is_wrong() -> None:
    catalog = Catalog(locale="fr")
    catalog.add("{name} wins.", "{nom} gagne.")
    catalog.add("Draw.", "")
    catalog.add(("{n} card", "{n} cards"), ("{n} carte", "{n} cartes"))
    catalog.add("Gone.", "Parti.")
    marked: dict[tuple[str | None, str], object] = {
        (None, "{name} wins."): "{name} wins.",
        (None, "Draw."): "Draw.",
        (None, "{n} card"): ("{n} card", "{n} cards"),
        (None, "Resign."): "Resign.",
    }
    found = problems(marked, catalog)
    assert any("unknown blank" in line and "{nom}" in line for line in found)
    assert "not translated: 'Draw.'" in found
    assert "missing: 'Resign.'" in found
    assert any("no longer in the source" in line and "Gone." in line for line in found)
    assert not any("card" in line for line in found)


@pytest.mark.parametrize(
    ("locale", "lang"),
    [("fr", "fr"), ("sv-SE", "sv"), ("en-GB", "en"), ("en-US", "en"), ("de", "en"), (None, "en")],
)
def test_discord_locales_map_to_the_three_languages(locale: str | None, lang: str) -> None:
    assert i18n.lang_of(locale) == lang


def test_numbers_are_written_as_each_language_writes_them() -> None:
    assert ENGLISH.number(-1234) == "\N{MINUS SIGN}1,234"
    assert i18n.words("en").number(-47) == "\N{MINUS SIGN}47"
    assert i18n.words("fr").number(1234).replace("\N{NARROW NO-BREAK SPACE}", " ") == "1 234"
    assert i18n.words("sv").number(-3) == "\N{MINUS SIGN}3"
    assert i18n.words("xx").lang == "en"


def test_plural_forms_follow_each_language() -> None:
    forms = {"en": ("card", "cards"), "fr": ("carte", "cartes"), "sv": ("kort", "kort")}
    for lang in i18n.LANGS:
        words = i18n.words(lang)
        one, many = forms[lang]
        assert words.ngettext("{n} card", "{n} cards", 1) == "{n} " + one
        assert words.ngettext("{n} card", "{n} cards", 2) == "{n} " + many
    # French counts nought as one ("0 carte"), English and Swedish as many.
    assert i18n.words("fr").ngettext("{n} card", "{n} cards", 0) == "{n} carte"
    assert i18n.words("en").ngettext("{n} card", "{n} cards", 0) == "{n} cards"


def french_spacing(text: str) -> list[str]:
    """Where ``text`` breaks French typography: a plain space (where a line may break) before
    : ; ! ? or », or after «, instead of a non-breaking one."""
    bad = re.findall(r" [:;!?»]|« ", re.sub(r"`[^`]*`", "", text))
    return [f"{mark!r} in {text!r}" for mark in bad]


def french_translations() -> list[str]:
    """Every translation in the French catalog, each plural form on its own."""
    with i18n.catalog_path("fr").open("rb") as source:
        catalog = read_po(source, locale="fr")
    return [
        form
        for entry in catalog
        if entry.id
        for form in (entry.string if isinstance(entry.string, tuple) else (entry.string,))
    ]


def test_french_keeps_its_spaces_before_double_punctuation() -> None:
    assert french_spacing("Donne 1 : Alice.") and french_spacing("« oui »")
    assert not french_spacing("Donne 1\u00a0: Alice, `play QS ?`.")
    assert [fault for form in french_translations() for fault in french_spacing(form)] == []


def straight_apostrophes(text: str) -> list[str]:
    """The words of a French ``text`` joined by a typewriter apostrophe (l'as) instead of the
    typographic one (l’as) the rest of the French text uses; what is typed stays as typed."""
    return re.findall(r"\w+'\w+", re.sub(r"`[^`]*`", "", text))


def test_french_writes_one_apostrophe() -> None:
    assert straight_apostrophes("le roi d'atout") == ["d'atout"]
    assert not straight_apostrophes("le roi d’atout, `l'as`")
    assert [fault for form in french_translations() for fault in straight_apostrophes(form)] == []


# A person's name, as the messages' blanks call one.
_PERSON = r"\{(?:name|loser|winner|player|first|second|challenger|opponent)\}"


def gendered_about_a_name(text: str) -> list[str]:
    """Where a French ``text`` makes a past participle agree with a person named by a blank
    ("{loser} est resté"): whether Alice or Bob, the name's gender is not known, so the
    sentence must be turned without one ("{loser} reste")."""
    return re.findall(_PERSON + r" (?:est|était|a été|sera) \w+é\b", text)


# Messages whose {name} is a tournament's ("le tournoi …"), not a person's.
_NAMES_OF_THINGS = {"{name} is over", "{name} was cancelled"}


def test_french_never_guesses_a_players_gender() -> None:
    assert gendered_about_a_name("{loser} est resté sous 100") == ["{loser} est resté"]
    assert not gendered_about_a_name("{loser} reste sous 100, la partie n° {id} est terminée")
    with i18n.catalog_path("fr").open("rb") as source:
        catalog = read_po(source, locale="fr")
    faults = [
        fault
        for entry in catalog
        if entry.id and entry.id not in _NAMES_OF_THINGS
        for form in (entry.string if isinstance(entry.string, tuple) else (entry.string,))
        for fault in gendered_about_a_name(form)
    ]
    assert faults == []
