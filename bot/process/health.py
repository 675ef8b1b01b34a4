"""Is the bot alive? A heartbeat file for container health checks.

While the bot is connected to Discord's gateway it touches ``<database>.alive`` every
``BEAT_EVERY`` seconds; ``python -m bot health`` (the Docker image's HEALTHCHECK) says it is
healthy while that file is fresh. A process that hangs, loses the gateway for good, or stops
stops touching the file, and the check fails within ``STALE_AFTER`` seconds. The file sits
beside the database because that is the one folder the bot surely may write.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Final

BEAT_EVERY: Final = 30.0
STALE_AFTER: Final = 120.0


def heartbeat_path(database: Path) -> Path:
    return database.with_name(database.name + ".alive")


def beat(path: Path) -> None:
    """Record that the bot is connected, now."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"{time.time():.0f}\n", encoding="utf-8")


def stop(path: Path) -> None:
    """The bot stops: no heartbeat is left behind to look alive."""
    path.unlink(missing_ok=True)


def problem(path: Path, now: float | None = None) -> str | None:
    """Why the bot is not healthy, or None when its heartbeat is fresh."""
    now = time.time() if now is None else now
    try:
        age = now - path.stat().st_mtime
    except OSError:
        return f"no heartbeat at {path}: the bot is not running, or not connected yet"
    if age > STALE_AFTER:
        return f"the last heartbeat is {age:.0f} s old (at most {STALE_AFTER:.0f} s allowed)"
    return None
