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


class Sayable(Protocol):
    """Something told in a reader's language when it is read: a message, a list of cards."""

    def say(self, words: Words) -> str: ...


Blank = str | int | Sayable
"""What fills a message's blank: text told as it is (a symbol, a word typed), a number
(written as the reader's language writes it), or something said in the reader's words."""


def _said(value: Blank, words: Words) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return words.number(value)
    return value.say(words)


class Message:
    """A marked message and its named blanks, put into a reader's language only when someone
    reads it: pure code says *what* to tell (``Message(N_("You do not hold {card}."),
    card=...)``), whoever delivers it says it in the reader's words with :meth:`say`.

    A message whose words depend on a number is made by :func:`counted`.
    """

    __slots__ = ("blanks", "n", "plural", "text")

    def __init__(self, text: str, /, **blanks: Blank) -> None:
        self.text = text
        self.plural: str | None = None
        self.n = 0
        self.blanks = blanks

    def say(self, words: Words = ENGLISH) -> str:
        if self.plural is None:
            text = words.gettext(self.text)
        else:
            text = words.ngettext(self.text, self.plural, self.n)
        filled = {key: _said(value, words) for key, value in self.blanks.items()}
        return text.format(**filled) if filled else text

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Message):
            return NotImplemented
        return (self.text, self.plural, self.n, self.blanks) == (
            other.text,
            other.plural,
            other.n,
            other.blanks,
        )

    def __hash__(self) -> int:
        return hash((self.text, self.plural, self.n))

    def __str__(self) -> str:
        return self.say()

    def __repr__(self) -> str:
        return f"Message({self.say()!r})"


def either(items: list[str], words: Words = ENGLISH) -> str:
    """Alternatives as the reader's language lists them: "A, B or C"."""
    if len(items) < 2:
        return "".join(items)
    return ", ".join(items[:-1]) + words.gettext(" or ") + items[-1]


class Either:
    """Words typed as they are (move words, say), told as alternatives: "`draw` or `play`"."""

    __slots__ = ("items",)

    def __init__(self, items: list[str]) -> None:
        self.items = items

    def say(self, words: Words = ENGLISH) -> str:
        return either(self.items, words)


def counted(singular: str, plural: str, n: int, /, **blanks: Blank) -> Message:
    """A message in the form that fits the number ``n`` (its blank ``{n}``), in any language:
    ``counted("{n} card", "{n} cards", 3)``. Marked for translation where it is written."""
    message = Message(singular, n=n, **blanks)
    message.plural = plural
    message.n = n
    return message
