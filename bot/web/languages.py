"""Which language a page speaks, and the words, numbers and dates it is written with.

A page speaks the language asked for with ``?lang=fr|sv|en``; else the first of the
browser's ``Accept-Language`` that Tapis speaks (Babel negotiates: ``sv-SE`` reads Swedish);
else English. A language asked for in the address is a choice the reader made, so every link
of the page carries it on; one negotiated from the header needs no carrying, as the browser
sends the header again with every request.

Everything a template writes goes through a :class:`Speech`: its messages (``_`` and
``ngettext``, from the catalogs of ``bot.i18n``), numbers and dates as the language writes
them (Babel), the games' names in each language's tradition, and links that keep the chosen
language.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final
from urllib.parse import urlencode

from babel import Locale
from babel.dates import format_skeleton, get_datetime_format
from babel.lists import format_list
from markupsafe import Markup, escape

import games
from bot import i18n
from games.cards import card_name
from games.words import Words

# Each language named in its own words, for the switch on every page.
ENDONYMS: Final = {"en": "English", "fr": "Français", "sv": "Svenska"}
MAX_HEADER: Final = 500  # an Accept-Language longer than this is read up to here
KEPT: Final = ("page", "ply")  # the parameters that choose what a page shows


def preferred(header: str) -> list[str]:
    """The languages of an ``Accept-Language`` header, most wanted first (``q=0`` dropped,
    ``*`` ignored, malformed parts skipped)."""
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(header[:MAX_HEADER].split(",")):
        code, _, params = part.strip().partition(";")
        code = code.strip()
        if not code or code == "*" or not code.replace("-", "").isalnum():
            continue
        weight = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    weight = float(value.strip())
                except ValueError:
                    weight = 0.0
        if 0 < weight <= 1:
            ranked.append((-weight, index, code))
    return [code for _, _, code in sorted(ranked)]


def negotiate(header: str | None) -> str:
    """The language Tapis speaks that the header's reader prefers; English if none."""
    wanted = preferred(header or "")
    if not wanted:
        return i18n.DEFAULT_LANG
    found = Locale.negotiate(wanted, list(i18n.LANGS), sep="-")
    if found is None or found.language not in i18n.LANGS:
        return i18n.DEFAULT_LANG
    return found.language


def choose(query: Mapping[str, str], header: str | None) -> tuple[str, bool]:
    """(language, whether it was asked for in the address). An unknown ``?lang=`` is
    ignored rather than refused: the page still reads, in the header's language."""
    asked = query.get("lang", "").strip().lower()
    if asked in i18n.LANGS:
        return asked, True
    return negotiate(header), False


@functools.cache
def _locale(lang: str) -> Locale:
    return Locale.parse(lang)


@functools.lru_cache(maxsize=4096)
def _when(lang: str, timestamp: float) -> str:
    """Worked out once per language and moment: Babel is slow to write a date, and a page of
    matches writes a dozen that the next visitor's page writes again."""
    moment = datetime.fromtimestamp(timestamp, UTC)
    locale = _locale(lang)
    day = format_skeleton("yMMMd", moment, tzinfo=UTC, locale=locale)
    time = format_skeleton("Hm", moment, tzinfo=UTC, locale=locale)
    # The language's own way of joining a date and a time ("{1}, {0}", "{1} {0}").
    joined = str(get_datetime_format("medium", locale=locale))
    return joined.replace("{1}", day).replace("{0}", time) + " UTC"


@functools.cache
def _all_games(lang: str) -> str:
    words = i18n.words(lang)
    return format_list([games.get(n).title_in(words) for n in games.names()], locale=_locale(lang))


@dataclass(frozen=True)
class Speech:
    """One page's language: its words, numbers, dates and links."""

    lang: str
    chosen: bool  # asked for with ?lang=: links carry it

    @property
    def words(self) -> Words:
        return i18n.words(self.lang)

    # -- words -------------------------------------------------------------------------------
    def gettext(self, message: str) -> Markup:
        """A message in this language, escaped for HTML: ``.format()`` on it escapes what
        fills its blanks too, so a player's name can never become markup."""
        return Markup(escape(self.words.gettext(message)))

    def ngettext(self, singular: str, plural: str, n: int) -> Markup:
        return Markup(escape(self.words.ngettext(singular, plural, n)))

    def text(self, message: str, **blanks: object) -> str:
        """A message filled in, as plain text (for Python code: escaped by the template)."""
        return self.words.gettext(message).format(**blanks)

    def number(self, value: int | float) -> str:
        return self.words.number(value)

    def when(self, timestamp: float) -> str:
        """A moment as the language writes a date and time, in UTC (said so)."""
        return _when(self.lang, timestamp)

    def title_of(self, game: str) -> str:
        """A game's name in this language's tradition (Piquet is Pikett in Swedish)."""
        try:
            return games.get(game).title_in(self.words)
        except KeyError:
            return game

    def all_games(self) -> str:
        """Every game's name, listed as the language lists things ("A, B and C")."""
        return _all_games(self.lang)

    def move(self, game: str, move: str) -> str:
        """A move in players' words, as the game names it in this language."""
        try:
            return games.get(game).describe(move, self.words)
        except (KeyError, ValueError):
            return move

    def cards(self, hand: list[str]) -> str:
        """A hand as the pictures name its cards (``D♠`` in French), or that it is empty."""
        return " ".join(card_name(c, self.words) for c in hand) or self.words.gettext("no cards")

    # -- links -------------------------------------------------------------------------------
    def link(self, path: str, **query: object) -> str:
        """``path`` with ``query``, and the chosen language if one was chosen."""
        pairs = [(k, str(v)) for k, v in query.items() if v is not None]
        if self.chosen:
            pairs.append(("lang", self.lang))
        return f"{path}?{urlencode(pairs)}" if pairs else path

    def switch(self, path: str, query: Mapping[str, str]) -> list[tuple[str, str, str, bool]]:
        """The language switch: (code, name, address of this very page in it, current).
        Only what chooses the page (its page number, a replay's move) is kept: nothing else
        a visitor typed in the address is written back into the page."""
        kept = [(k, v) for k, v in query.items() if k in KEPT]
        return [
            (code, ENDONYMS[code], f"{path}?{urlencode([*kept, ('lang', code)])}",
             code == self.lang)
            for code in i18n.LANGS
        ]  # fmt: skip

    def context(self, path: str, query: Mapping[str, str]) -> dict[str, object]:
        """What every template may call, for this page."""
        return {
            "lang": self.lang,
            "_": self.gettext,
            "ngettext": self.ngettext,
            "number": self.number,
            "when": self.when,
            "title_of": self.title_of,
            "all_games": self.all_games,
            "link": self.link,
            "languages": self.switch(path, query),
        }


def speech_of(query: Mapping[str, str], header: str | None) -> Speech:
    lang, chosen = choose(query, header)
    return Speech(lang, chosen)
