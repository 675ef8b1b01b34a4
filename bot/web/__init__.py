"""Tapis on the web: read-only pages of leaderboards, profiles, matches and replays.

``python -m bot web`` serves it alone; the bot serves it too when ``TAPIS_WEB_PORT`` is set.
Both read the same database through ``bot.storage.Database``.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from bot.backends import open_database

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

    db = await open_database(db_path, durable=durable)
    try:
        runner = await start(db, host, port)
        print(f"Tapis web site on http://{host}:{port}/ (Ctrl-C stops it)", flush=True)
        try:
            await asyncio.Event().wait()
        finally:
            await runner.cleanup()
    finally:
        await db.close()
