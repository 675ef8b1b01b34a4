"""The Discord adapter: slash commands, buttons and DMs over the match service.

``run()`` is what ``python -m bot`` calls when a Discord token is configured. It reads the
environment (or ``.env``), points discord.py at Discord or at whatever ``DISCORD_API_BASE`` /
``DISCORD_GATEWAY_URL`` name (a REST proxy, a test server), and runs until stopped.
"""

from __future__ import annotations

import signal
import sys

import aiohttp
import discord

from bot import instance, logs
from bot.discord.config import ConfigError, Settings, environment, point_at

__all__ = ["run"]


def run(log_format: str | None = None) -> int:
    """Run the bot; the exit status says whether it could start (messages go to stderr).

    Logs go to stderr one line per record (``bot.logs``), as ``key=value`` or JSON lines
    (``log_format``, else ``TAPIS_LOG_FORMAT``)."""
    log_format = log_format or logs.format_from_env()
    if log_format not in logs.FORMATS:
        print(
            f"Tapis cannot start: TAPIS_LOG_FORMAT must be one of {', '.join(logs.FORMATS)}, "
            f"not {log_format!r}.",
            file=sys.stderr,
        )
        return 2
    try:
        settings = Settings.from_env(environment())
    except ConfigError as error:
        print(f"Tapis cannot start: {error}", file=sys.stderr)
        return 2
    logs.setup(log_format)
    if settings.database_url is not None:
        # PostgreSQL: several processes share the database by design (each serving its
        # shards); the server, not a lock file, keeps them from doing anything twice.
        return _run(settings)
    try:
        lock = instance.claim(settings.database)
    except instance.AlreadyRunning as error:
        print(f"Tapis cannot start: {error}", file=sys.stderr)
        return 2
    try:
        return _run(settings)
    finally:
        lock.release()


def _run(settings: Settings) -> int:
    point_at(settings)
    from bot.discord.client import make_bot  # imports the service, rendering and games

    bot = make_bot(settings)
    _stop_on_sigterm()
    try:
        # log_handler=None: discord.py keeps to the handler set up above.
        bot.run(settings.token, log_handler=None)
    except discord.LoginFailure:
        print(
            "Tapis cannot start: Discord rejected DISCORD_TOKEN. Copy the current token from "
            "the Developer Portal (your application → Bot → Reset Token); a token changes "
            "whenever it is reset.",
            file=sys.stderr,
        )
        return 1
    except (aiohttp.ClientConnectionError, OSError) as error:
        print(
            f"Tapis cannot start: Discord is unreachable at {settings.api_base} ({error}). "
            "Check the network, or DISCORD_API_BASE / DISCORD_GATEWAY_URL if you set them.",
            file=sys.stderr,
        )
        return 1
    except discord.PrivilegedIntentsRequired:
        print("Tapis cannot start: Discord refused the gateway intents requested.", file=sys.stderr)
        return 1
    return 0


def _stop_on_sigterm() -> None:
    """``docker stop`` sends SIGTERM: treat it like Ctrl-C, so discord.py closes the bot (and
    the bot its database) instead of the process dying mid-write."""

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
