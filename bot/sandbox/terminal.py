"""The terminal itself: a line read off the event loop, the reader's language from the
locale, their login name, and Discord's markup as a terminal shows it."""

from __future__ import annotations

import asyncio
import contextlib
import getpass
import os
import re
import threading
from collections.abc import Awaitable, Callable

from bot import i18n

ReadLine = Callable[[str], Awaitable[str | None]]
Write = Callable[[str], None]
# What a player types, between the quotation marks of the reader's language.
QUOTES = {"en": ("“", "”"), "fr": ("«\u00a0", "\u00a0»"), "sv": ("”", "”")}
_TYPED = re.compile(r"`([^`\n]+)`")


async def read_stdin(prompt: str) -> str | None:
    """One line from the terminal, read off the event loop; None at end of input.

    The read runs in a daemon thread of its own (not the loop's executor), so Ctrl-C leaves
    at once instead of waiting for a line that will never come.
    """
    loop = asyncio.get_running_loop()
    future: asyncio.Future[str | None] = loop.create_future()

    def settle(line: str | None) -> None:
        if not future.done():
            future.set_result(line)

    def read() -> None:
        try:
            line: str | None = input(prompt)
        except (EOFError, OSError, ValueError):
            line = None
        with contextlib.suppress(RuntimeError):  # the loop may be gone: nobody waits
            loop.call_soon_threadsafe(settle, line)

    threading.Thread(target=read, name="sandbox-input", daemon=True).start()
    return await future


def environment_lang() -> str:
    """The language of the terminal's locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name, "")
        if value and value not in ("C", "POSIX"):
            return i18n.lang_of(value.split(".", 1)[0])
    return i18n.DEFAULT_LANG


def as_shown(text: str, lang: str) -> str:
    """Discord's markup read as a terminal shows it: no bold stars, and what to type between
    the reader's quotation marks instead of backticks."""
    opening, closing = QUOTES.get(lang, QUOTES["en"])
    return _TYPED.sub(lambda m: f"{opening}{m.group(1)}{closing}", text.replace("**", ""))


def user_name() -> str:
    try:
        return getpass.getuser().capitalize() or "You"
    except (OSError, KeyError):
        return "You"
