"""The words a pure module needs from a language, without knowing which language it is.

Pure code (``games/``, ``rendering/``) never reads a catalog: whoever calls it passes a
:class:`Words` for the reader's language, and the pure code asks it for each sentence by its
English text. English is the source language: the English text *is* the message's key, so
:data:`ENGLISH` answers every question with the question itself (and English plurals).

Messages name their blanks (``"{name} wins."``) and are filled with ``str.format`` after
translation, so a translation may put the blanks in its own order. Text that must be listed
for translation but is translated later (a table of names, say) is marked with :func:`N_`.
The project's catalogs (``bot/locales``) are checked against every marked message by the
test suite; ``make messages`` adds new ones to them.
"""

from __future__ import annotations

from typing import Protocol

MINUS = "\N{MINUS SIGN}"


class Words(Protocol):
    """One language's messages and number format."""

    @property
    def lang(self) -> str:
        """The language's code: ``en``, ``fr`` or ``sv``."""
        ...

    def gettext(self, message: str) -> str:
        """The message in this language."""
        ...

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form of a message that fits the number ``n`` (fill ``{n}`` afterwards)."""
        ...

    def pgettext(self, context: str, message: str) -> str:
        """The message as meant in ``context``, for English words with several senses."""
        ...

    def number(self, value: int | float) -> str:
        """A number as this language writes it, with a true minus sign when negative."""
        ...


def N_(message: str) -> str:
    """Mark a message for translation where it is written; it is translated where it is used."""
    return message


class _English:
    """The source language: every message is its own translation."""

    lang = "en"

    def gettext(self, message: str) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural

    def pgettext(self, context: str, message: str) -> str:
        return message

    def number(self, value: int | float) -> str:
        text = f"{value:,}" if isinstance(value, int) else f"{value:,.2f}".rstrip("0").rstrip(".")
        return text.replace("-", MINUS)


ENGLISH: Words = _English()
"""English, the language every message is written in first."""
