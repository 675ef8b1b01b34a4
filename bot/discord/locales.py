"""Slash commands in the reader's language: their descriptions and choices come from the
catalogs (``bot/locales``) through discord.py's :class:`app_commands.Translator`.

Command and option names stay English on purpose: they are what the help, the README and
other players write, and a name typed in one language must work for everyone on a server.
Descriptions and choices are written in English where the commands are declared (marked with
``N_``) and translated like every other message.
"""

from __future__ import annotations

import discord
from discord import app_commands

import games
from bot import i18n
from games.words import N_

_OPTIONS = N_("Game options, e.g. {example} (the list suggests each game's)")
_EXAMPLE = games.example().example_options
OPTIONS_HELP = app_commands.locale_str(
    _OPTIONS.format(example=_EXAMPLE), key=_OPTIONS, example=_EXAMPLE
)
"""The /challenge options' description; its example comes from the games themselves."""
START_HELP = N_(
    "When it starts by itself: 2026-12-24 18:00 (UTC), or in 3h, in 2d (default: /tournament start)"
)
"""The /tournament create start's description."""

NAMES = (
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
)


def translate(string: app_commands.locale_str, locale: discord.Locale | str) -> str | None:
    """``string`` in the language of ``locale``; None where Discord should show the English.

    A string with blanks carries its message as ``key`` (its English shown filled in) and
    the blanks' values in its extras, filled in after translation, so an example drawn from
    the games is the same in every language."""
    lang = i18n.lang_of(locale)
    if lang == i18n.DEFAULT_LANG:
        return None
    extras = dict(string.extras)
    key = str(extras.pop("key", string.message))
    translated = i18n.words(lang).gettext(key)
    if translated == key:
        return None
    return translated.format(**extras) if extras else translated


class Translator(app_commands.Translator):
    """Descriptions and choice names from the catalogs; names stay as written."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if context.location in NAMES:
            return None
        return translate(string, locale)
