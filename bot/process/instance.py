"""One bot per database: a lock file beside it, held for the life of the process.

Two bot processes on one SQLite file would each trust their own cache of the matches and
each send every reminder, so a second one is refused at start instead. The lock is an
``fcntl.flock`` on ``<database>.lock``: the system drops it when the process ends, however
it ends (a crash, SIGKILL), so a stale lock never blocks a restart. Only the bot takes it:
``python -m bot backup`` and ``verify`` read (and set aside) through SQLite's own locking and
may run beside the bot. On PostgreSQL (``TAPIS_DB=postgresql://…``) there is no such lock:
several processes share that database by design, and the server keeps them from doing
anything twice (see ``bot/storage/postgres.py``).
"""

from __future__ import annotations

import os
from pathlib import Path

try:
    import fcntl
except ImportError:  # not on POSIX: no lock, as before
    fcntl = None  # type: ignore[assignment]


class AlreadyRunning(Exception):
    """Another process holds the database's lock; ``str(error)`` says what to do."""


class InstanceLock:
    """The held lock (see :func:`claim`); ``release`` gives it back."""

    def __init__(self, path: Path, fd: int | None) -> None:
        self.path = path
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the file drops the flock
            self._fd = None


def lock_path(database: Path) -> Path:
    return database.with_name(database.name + ".lock")


def claim(database: Path) -> InstanceLock:
    """Take the lock of ``database`` for this process; AlreadyRunning if another has it."""
    path = lock_path(database)
    path.parent.mkdir(parents=True, exist_ok=True)
    if fcntl is None:
        return InstanceLock(path, None)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        holder = os.read(fd, 32).decode(errors="replace").strip() or "unknown"
        os.close(fd)
        raise AlreadyRunning(
            f"another Tapis bot (process {holder}) is already running on {database}. "
            "Stop it first: two bots on one database would answer every player twice. "
            "(`python -m bot backup` and `verify` may run beside it.)"
        ) from None
    os.ftruncate(fd, 0)
    os.write(fd, str(os.getpid()).encode())
    return InstanceLock(path, fd)
