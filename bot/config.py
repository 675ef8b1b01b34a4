"""Settings every entry point shares (the Discord bot, the sandbox, the command line).

They are read here, from the environment (or a mapping built from it and a ``.env`` file), and
handed to the storage as plain arguments, so ``bot/storage/sqlite.py`` never looks at the
environment and a test can open any database with any setting.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from bot.storage.sql import is_postgres

DEFAULT_PATH = Path("data") / "tapis.db"
_YES = ("1", "true", "yes", "on")


def database_path(env: Mapping[str, str] | None = None) -> Path:
    """The SQLite file: ``TAPIS_DB`` if set (and not blank), else ``data/tapis.db``.

    When ``TAPIS_DB`` is a PostgreSQL address, ``data/tapis.db`` all the same: the files a
    process keeps beside its database (the heartbeat, the commands sent) are named after it.
    """
    env = os.environ if env is None else env
    text = env.get("TAPIS_DB", "").strip()
    if is_postgres(text):
        return DEFAULT_PATH
    return Path(text or DEFAULT_PATH)


def database(env: Mapping[str, str] | None = None) -> Path | str:
    """What ``TAPIS_DB`` names: a ``postgresql://`` address as given, else the SQLite file."""
    env = os.environ if env is None else env
    text = env.get("TAPIS_DB", "").strip()
    return text if is_postgres(text) else database_path(env)


def durable(env: Mapping[str, str] | None = None) -> bool:
    """Whether every acknowledged write must survive a power loss (``synchronous=FULL``).

    ``TAPIS_DURABLE=1`` (or true/yes/on) asks for it; so does ``TAPIS_SYNCHRONOUS=FULL`` or
    ``EXTRA``, the SQLite names, for whoever thinks in those.
    """
    env = os.environ if env is None else env
    flag = env.get("TAPIS_DURABLE", "").strip().lower()
    sync = env.get("TAPIS_SYNCHRONOUS", "").strip().upper()
    return flag in _YES or sync in ("FULL", "EXTRA")


DEFAULT_CHALLENGE_HOURS = 24.0


def challenge_hours(env: Mapping[str, str] | None = None) -> float:
    """``TAPIS_CHALLENGE_HOURS``: how long an unanswered challenge stays open (default 24).

    A value that is not a positive number is an error, said plainly, rather than a
    challenge that never or instantly expires.
    """
    env = os.environ if env is None else env
    text = env.get("TAPIS_CHALLENGE_HOURS", "").strip()
    if not text:
        return DEFAULT_CHALLENGE_HOURS
    try:
        hours = float(text)
    except ValueError:
        hours = 0.0
    if not 0 < hours <= 24 * 365:
        raise ValueError(
            f"TAPIS_CHALLENGE_HOURS must be a number of hours above 0 (such as 24), not {text!r}"
        )
    return hours
