"""Tapis on the web: read-only pages of leaderboards, profiles, matches and replays.

``python -m bot web`` serves it alone; the bot serves it too when ``TAPIS_WEB_PORT`` is set.
Both read the same database through the service's read-only queries (``bot.service.queries``):
the site never opens, holds or writes the database itself.
"""

from __future__ import annotations

import asyncio
import logging
import os
from pathlib import Path
from typing import Any

from bot.service.queries import Reads, reading

log = logging.getLogger("tapis.web")

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8080


def host_from_env() -> str:
    """``TAPIS_WEB_HOST`` (default 127.0.0.1: put a reverse proxy with TLS in front)."""
    return os.environ.get("TAPIS_WEB_HOST", "").strip() or DEFAULT_HOST


def port_from_env() -> int | None:
    """``TAPIS_WEB_PORT`` as a port number, None if unset; ValueError if it is not one."""
    text = os.environ.get("TAPIS_WEB_PORT", "").strip()
    if not text:
        return None
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise ValueError(f"TAPIS_WEB_PORT must be a port number (1-65535), not {text!r}")
    return int(text)


async def serve(db_path: Path | str, host: str, port: int, *, durable: bool = False) -> None:
    """Serve the site until cancelled (Ctrl-C)."""
    from bot.web.app import start

    async with reading(db_path, durable=durable) as db:
        runner = await start(db, host, port)
        print(f"Tapis web site on http://{host}:{port}/ (Ctrl-C stops it)", flush=True)
        try:
            await asyncio.Event().wait()
        finally:
            await runner.cleanup()


async def beside_bot(reads: Reads) -> Any:
    """Serve the site from the bot's process too, when ``TAPIS_WEB_PORT`` is set: its runner
    (the bot cleans it up when it stops), or None when no port is asked for or none is free."""
    try:
        port = port_from_env()
    except ValueError as error:
        log.error("web site not started: %s", error)
        return None
    if port is None:
        return None
    from bot.web.app import start

    try:
        return await start(reads, host_from_env(), port)
    except OSError as error:
        log.error("web site not started on port %d: %s", port, error)
        return None
