"""The terminal: Discord's markup as a terminal shows it, and the reader's language."""

from __future__ import annotations

import pytest

from bot.sandbox.terminal import as_shown, environment_lang


def test_what_to_type_is_quoted_in_the_readers_language_without_stars() -> None:
    text = "Type `play QS` **now**."
    assert as_shown(text, "en") == "Type “play QS” now."
    assert as_shown(text, "fr") == "Type «\u00a0play QS\u00a0» now."
    assert as_shown(text, "sv") == "Type ”play QS” now."
    assert as_shown(text, "xx") == as_shown(text, "en")  # a language without its own: English


def test_the_language_is_the_locales_first_one_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LC_ALL", "C")  # the plain locale says nothing of a language
    monkeypatch.setenv("LC_MESSAGES", "sv_SE.UTF-8")
    monkeypatch.setenv("LANG", "fr_FR.UTF-8")
    assert environment_lang() == "sv"
    monkeypatch.delenv("LC_MESSAGES")
    assert environment_lang() == "fr"
