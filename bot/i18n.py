"""Tapis in English, French and Swedish: message catalogs, and which language to speak.

The catalogs are gettext ``.po`` files under ``bot/locales/<lang>/LC_MESSAGES/tapis.po``,
read with Babel when a language is first needed (no compiled files are kept in the tree).
Messages are keyed by their English text, so English needs no catalog. A message is written
once, in English, where it is used::

    words = i18n.words(lang)
    words.gettext("{name} wins {score}.").format(name=..., score=...)
    words.ngettext("{n} card", "{n} cards", n).format(n=words.number(n))

``make messages`` lists every marked message of the source into the catalogs, new ones with
an empty translation; the test suite fails while any message lacks a translation in any
language, or a translation's ``{blanks}`` differ from the English ones.

Which language: a reply speaks the language of the member's Discord client
(``interaction.locale``); public posts speak the server's (``guild_locale``, or the server's
own setting); a DM speaks its reader's. :func:`lang_of` maps Discord's locale codes
(``fr``, ``sv-SE``, ``en-GB``…) to the three languages, English for every other one.
"""

from __future__ import annotations

import functools
import io
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import Translations

from games.words import MINUS, Words

LANGS = ("en", "fr", "sv")
DEFAULT_LANG = "en"
DOMAIN = "tapis"
CATALOGS = Path(__file__).parent / "locales"


@functools.lru_cache(maxsize=256)  # a few dozen locales exist; each hand asks for one
def lang_of(locale: object) -> str:
    """The language Tapis speaks to a reader of ``locale`` (a Discord locale, a code, None)."""
    code = str(getattr(locale, "value", locale) or "").replace("_", "-").lower()
    lang = code.split("-", 1)[0]
    return lang if lang in LANGS else DEFAULT_LANG


def catalog_path(lang: str) -> Path:
    return CATALOGS / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


class Catalog:
    """One language's messages (from its ``.po`` file) and number format (from Babel's data)."""

    def __init__(self, lang: str, translations: Translations | None) -> None:
        self._lang = lang
        self._translations = translations

    @property
    def lang(self) -> str:
        return self._lang

    def gettext(self, message: str) -> str:
        return self._translations.gettext(message) if self._translations else message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        if self._translations is None:
            return singular if n == 1 else plural
        return self._translations.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        if self._translations is None:
            return message
        return str(self._translations.pgettext(context, message))

    def number(self, value: int | float) -> str:
        return _number(self._lang, value)


@functools.lru_cache(maxsize=8192, typed=True)
def _number(lang: str, value: int | float) -> str:
    """A number as ``lang`` writes it, worked out once: Babel is slow to write one, and a move
    writes the same few scores again and again."""
    return format_decimal(value, locale=Locale.parse(lang)).replace("-", MINUS)


def _load(lang: str) -> Translations | None:
    path = catalog_path(lang)
    if lang == DEFAULT_LANG or not path.exists():
        return None
    with path.open("rb") as source:
        catalog = read_po(source, locale=lang, domain=DOMAIN)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    return Translations(compiled, domain=DOMAIN)


@functools.cache
def words(lang: str) -> Words:
    """The messages of ``lang`` (one of :data:`LANGS`; anything else is English)."""
    lang = lang if lang in LANGS else DEFAULT_LANG
    return Catalog(lang, _load(lang))


# What marks a message for translation in the source: the functions of ``games.words.Words``
# (called on any object), the marker ``N_`` and ``games.words.counted`` (a message whose form
# follows a number, said later). Plural messages take their first two arguments; ``pgettext``
# its context, then the message.
KEYWORDS: dict[str, Any] = {
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "N_": None,
    "counted": (1, 2),
}
SOURCES = ("games", "rendering", "ai", "bot")
# The web site's templates mark their messages with ``_()`` (and ``ngettext``), read by
# Jinja2's own extractor; a template that does not parse fails the listing, never skips it.
TEMPLATES = ("bot/web/templates",)
TEMPLATE_KEYWORDS: dict[str, Any] = {**KEYWORDS, "_": None}


def marked_messages(root: Path) -> dict[tuple[str | None, str], str | tuple[str, ...]]:
    """Every message the source marks, keyed by (context, English text), as written there."""
    from babel.messages.extract import extract_from_dir

    found: dict[tuple[str | None, str], str | tuple[str, ...]] = {}
    for folder in SOURCES:
        for _file, _line, message, _comments, context in extract_from_dir(
            root / folder, method_map=[("**.py", "python")], keywords=KEYWORDS
        ):
            key = message[0] if isinstance(message, tuple) else message
            found[(context, key)] = message
    for folder in TEMPLATES:
        for _file, _line, message, _comments, context in extract_from_dir(
            root / folder,
            method_map=[("**.html", "jinja2.ext:babel_extract")],
            options_map={"**.html": {"silent": "false"}},
            keywords=TEMPLATE_KEYWORDS,
        ):
            key = message[0] if isinstance(message, tuple) else message
            found[(context, key)] = message
    return found
