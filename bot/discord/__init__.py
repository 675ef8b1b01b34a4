"""The Discord adapter: slash commands, buttons and DMs over the match service.

``run()`` is what ``python -m bot`` calls when a Discord token is configured. It reads the
environment (or ``.env``), points discord.py at Discord or at whatever ``DISCORD_API_BASE`` /
``DISCORD_GATEWAY_URL`` name (a REST proxy, a test server), and runs until stopped.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from typing import TYPE_CHECKING

import aiohttp
import discord

from bot.discord.config import ConfigError, Settings, environment, point_at
from bot.process import instance, logs

if TYPE_CHECKING:  # the client imports the service, rendering and games: only when run
    from bot.discord.client import Beside

__all__ = ["run"]

log = logging.getLogger("tapis.bot")


def run(log_format: str | None = None, *, beside: Beside | None = None) -> int:
    """Run the bot; the exit status says whether it could start (messages go to stderr).

    Logs go to stderr one line per record (``bot.process.logs``), as ``key=value`` or JSON lines
    (``log_format``, else ``TAPIS_LOG_FORMAT``). ``beside`` is what the process serves beside
    the bot (the web site, handed in by ``python -m bot``)."""
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
        return _run(settings, beside)
    try:
        lock = instance.claim(settings.database)
    except instance.AlreadyRunning as error:
        print(f"Tapis cannot start: {error}", file=sys.stderr)
        return 2
    try:
        return _run(settings, beside)
    finally:
        lock.release()


def _run(settings: Settings, beside: Beside | None) -> int:
    point_at(settings)
    from bot.discord.client import make_bot  # imports the service, rendering and games

    bot = make_bot(settings, settle_heap=True, beside=beside)
    try:
        asyncio.run(serve(bot, settings.token))
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


# The signals that stop the bot: ``docker stop`` sends SIGTERM, Ctrl-C SIGINT.
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


async def serve(bot: discord.Client, token: str) -> None:
    """Run ``bot`` until Discord ends it or a stop signal comes; then close it, in full.

    A stop signal is handled by the event loop (``add_signal_handler``): the loop notes it and
    runs ``stopping`` between two callbacks, which cancels the gateway connection at an
    ``await``. The bot is then closed as after any end of ``start``, in its own order (see
    ``TapisBot.close``): every task stopped, every message handed over sent, the database
    closed with each connection on the loop that owns it. A handler that raised in the
    middle of whatever Python code was running (the way Ctrl-C does by default) could land
    inside a C extension's callback, asyncpg's reading of a server reply say, leaving its
    connection half-updated: closing it then hung, or crashed the process.

    A second signal while the bot closes is the system's default again: it stops the
    process at once, for whoever will not wait.
    """
    loop = asyncio.get_running_loop()
    async with bot:  # closes the bot however start() ended
        started = asyncio.ensure_future(bot.start(token))

        def stopping(signum: signal.Signals) -> None:
            log.info("stopping (%s): closing the bot", signum.name)
            for each in STOP_SIGNALS:
                loop.remove_signal_handler(each)
            started.cancel()

        for signum in STOP_SIGNALS:
            loop.add_signal_handler(signum, stopping, signum)
        try:
            await asyncio.wait([started])
        finally:
            for signum in STOP_SIGNALS:
                loop.remove_signal_handler(signum)
        if not started.cancelled():
            started.result()  # why start() failed (a rejected token…), if it did
