"""What a player types: a move in their own words, and commands that never mean two things."""

from __future__ import annotations

from bot import i18n
from bot.sandbox.commands import COMMANDS, as_typed


def test_a_move_is_typed_in_the_readers_words() -> None:
    assert as_typed("play QS", i18n.words("fr")) == "jouer D♠"
    assert as_typed("discard 7S 9H", i18n.words("sv")) == "kasta 7♠ 9♥"
    assert as_typed("declare H", i18n.words("fr")) == "déclarer ♥"
    assert as_typed("play QS", i18n.words("en")) == "play Q♠"


def test_no_spelling_stands_for_two_commands() -> None:
    meaning: dict[str, str] = {}
    for command, spellings in COMMANDS.items():
        for spelling in spellings:
            assert meaning.setdefault(spelling, command) == command, spelling
    assert all(spelling == spelling.lower() for spelling in meaning)  # read lowered
