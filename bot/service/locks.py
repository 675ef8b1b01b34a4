"""One lock per match: whatever changes a match holds its lock, so changes to one match
come one after the other while other matches go on."""

from __future__ import annotations

import asyncio


class KeyedLocks:
    """One asyncio lock per match id, forgotten once nobody holds or awaits it."""

    def __init__(self) -> None:
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}

    def held(self, key: int) -> bool:
        """Whether anyone holds or awaits the lock of ``key``."""
        return key in self._locks

    def hold(self, key: int) -> _Hold:
        """``async with locks.hold(key):`` runs its block holding the lock of ``key``."""
        return _Hold(self._locks, key)


class _Hold:
    """Holding one key's lock: a plain class rather than ``asynccontextmanager``, whose
    generator and wrappers cost more than the lock itself, on every move."""

    __slots__ = ("_key", "_lock", "_locks")

    def __init__(self, locks: dict[int, tuple[asyncio.Lock, int]], key: int) -> None:
        self._locks = locks
        self._key = key
        self._lock: asyncio.Lock | None = None

    async def __aenter__(self) -> None:
        lock, users = self._locks.get(self._key, (None, 0))
        if lock is None:
            lock = asyncio.Lock()
        self._locks[self._key] = (lock, users + 1)
        try:
            await lock.acquire()
        except BaseException:
            self._leave(lock)
            raise
        self._lock = lock

    async def __aexit__(self, *exc: object) -> None:
        lock = self._lock
        assert lock is not None
        lock.release()
        self._leave(lock)

    def _leave(self, lock: asyncio.Lock) -> None:
        lock, users = self._locks[self._key]
        if users == 1:
            del self._locks[self._key]
        else:
            self._locks[self._key] = (lock, users - 1)
