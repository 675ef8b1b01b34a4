"""The write-ahead log's checkpoints, driven by the SQLite writer between two batches.

SQLite's own checkpoints keep the log bounded, but they run inside the commit that fills the
log, so that commit and every move queued behind the writer wait for the copying and its
fsyncs: at the service's floor those waits set the slowest moves (docs/performance.md,
"Bespoke mechanisms"). So the writer drives the checkpoints. Once the log has grown by about
``checkpoint_pages`` pages (at once if no plan waits, else at twice that, so moves go first),
a helper thread copies the bulk of it (a PASSIVE checkpoint on its own connection, which no
move waits for) while the writer goes on; the writer then finishes the job itself between two
batches, copying only what was written meanwhile, so the log starts over at the next commit.
Python's sqlite3 has no WAL hook to count pages, so each checkpoint's report (pages in the
log) teaches the writer how many pages a commit adds. Most finishing checkpoints are PASSIVE
(they never wait); after one that could not copy everything (a reader held an old snapshot),
and every ``RESTART_EVERY``-th time, a RESTART, which waits briefly for readers so that the
log surely starts over. The file's size guards all of this: past half of ``wal_limit`` bytes
the writer waits for the copy under way and restarts the log at once (TRUNCATE past the limit
itself), which holds writes back rather than let the file grow. ``journal_size_limit`` (a
quarter of the limit, set by ``bot.storage.sqlite``) makes SQLite cut an overgrown file back
when the log starts over; below it the file is reused in place, which is cheaper than
appending, whose fsyncs must also record the file's new size.
"""

from __future__ import annotations

import concurrent.futures
import logging
import sqlite3
from pathlib import Path

# A checkpoint once the log holds about this many new pages (4 MB at 4 KiB a page, SQLite's
# own default): often enough that each copies little, rarely enough that their fsyncs (and
# the writer's short pause to finish each) cost little.
CHECKPOINT_PAGES = 1000
RESTART_EVERY = 16  # every so many checkpoints, a RESTART: the log surely starts over
WAL_LIMIT = 64 * 2**20  # bytes: the WAL file stays below (see the module's docstring)
# When plans are waiting, a due checkpoint is put off (moves first) until the log holds
# this many times the pages that make it due.
PUT_OFF = 2
# The writer finishes a checkpoint itself once what is left to copy is below this share of
# ``checkpoint_pages``; until then (and at most COPY_ROUNDS times) the helper copies again.
LEFT_TO_FINISH = 1 / 16
COPY_ROUNDS = 3
# How long a RESTART or TRUNCATE the writer starts by itself may wait for readers to move to
# the newest snapshot: moves wait meanwhile, so not long; if it gives up, the next one retries.
CHECKPOINT_WAIT_MS = 20
MODES = ("PASSIVE", "FULL", "RESTART", "TRUNCATE")

log = logging.getLogger("tapis.storage")


class Checkpoints:
    """The checkpoint policy of one database file and its state, touched only on the
    writer's thread (and the helper's, for the copy it makes)."""

    def __init__(
        self, path: Path, *, checkpoint_pages: int, wal_limit: int, busy_timeout_ms: int
    ) -> None:
        self.path = path
        self.wal = Path(f"{path}-wal")
        self.checkpoint_pages = max(1, checkpoint_pages)
        self.wal_limit = wal_limit
        self.busy_timeout_ms = busy_timeout_ms  # the writer's own, restored after a short wait
        self._commits = 0
        self._measured_at = 0  # commits when the last checkpoint started
        # A first guess, measured by each checkpoint; high, so that the first one comes soon.
        self._pages_per_commit = checkpoint_pages / 8
        self._last_log = 0  # pages in the log at the last checkpoint
        self._complete = True  # whether the last checkpoint copied the whole log
        self._checkpoints = 0  # by the writer
        # The helper thread that copies the bulk of the log while the writer goes on; created
        # at the first checkpoint, so a database that fails to open leaves no thread behind.
        self._copier: concurrent.futures.ThreadPoolExecutor | None = None
        self._copier_conn: sqlite3.Connection | None = None  # used on the helper thread only
        self._copying: concurrent.futures.Future[tuple[int, int, int] | None] | None = None
        self._copy_started = 0  # commits when the copy started
        self._copy_rounds = 0  # copies since the writer's last checkpoint

    def committed(self) -> None:
        """A batch has committed: the log has grown by about one commit's pages."""
        self._commits += 1

    def between_batches(self, conn: sqlite3.Connection, *, idle: bool) -> None:
        """Between batches: start, go on with or finish a checkpoint as the log has grown.

        Copying the log into the database, with its fsyncs, takes long: done here, every
        move arriving meanwhile would wait. So the bulk of it is copied by a
        helper thread while the writer goes on (again while much was written meanwhile), and
        the writer finishes the job here, copying only what is left, so the log starts over.
        """
        size = _size(self.wal)  # a high-water mark: the log may be shorter than its file
        if size > self.wal_limit // 2:
            # Writes outrun the copies (or a long read held the log): the writer waits for
            # the copy under way, then starts the log over itself.
            self._checkpoint_here(conn, "TRUNCATE" if size > self.wal_limit else "RESTART")
            return
        if self._copying is not None:
            if not self._copying.done():
                return
            self._copied()
        grown = (self._commits - self._measured_at) * self._pages_per_commit
        if self._copy_rounds:  # a copy has ended
            if grown > self.checkpoint_pages * LEFT_TO_FINISH and self._copy_rounds < COPY_ROUNDS:
                self._start_copy()
            else:
                periodic = self._checkpoints % RESTART_EVERY == RESTART_EVERY - 1
                restart = periodic or not self._complete
                self._checkpoint_here(conn, "RESTART" if restart else "PASSIVE")
        elif grown >= self.checkpoint_pages * (1 if idle else PUT_OFF):
            self._start_copy()

    def _copied(self) -> None:
        """A copy has ended: learn from its report."""
        assert self._copying is not None
        outcome = self._copying.result()
        self._copying = None
        if outcome is not None:
            self._learn(outcome, self._copy_started)

    def _start_copy(self) -> None:
        if self._copier is None:
            self._copier = concurrent.futures.ThreadPoolExecutor(1, "tapis-checkpoint")
        self._copy_started = self._commits
        self._copy_rounds += 1
        self._copying = self._copier.submit(self._copy)

    def _copy(self) -> tuple[int, int, int] | None:
        """On the helper thread: a PASSIVE checkpoint, on a connection of its own."""
        try:
            if self._copier_conn is None:
                self._copier_conn = sqlite3.connect(self.path, isolation_level=None)
            busy, pages, copied = self._copier_conn.execute(
                "PRAGMA wal_checkpoint(PASSIVE)"
            ).fetchone()
        except sqlite3.Error:  # the writer's own checkpoint will copy what is left
            log.exception("checkpoint failed")
            return None
        return int(busy), int(pages), int(copied)

    def close_copier(self) -> None:
        """On the writer thread, when stopping: let a copy end, then end the helper."""
        if self._copier is None:
            return
        self._copier.submit(self._close_copier_conn).result()
        self._copier.shutdown(wait=True)
        self._copier = None
        self._copying = None

    def _close_copier_conn(self) -> None:
        if self._copier_conn is not None:
            self._copier_conn.close()
            self._copier_conn = None

    def _checkpoint_here(self, conn: sqlite3.Connection, mode: str) -> None:
        """A checkpoint on the writer, between batches; RESTART and TRUNCATE wait only briefly
        for readers, since moves wait meanwhile (if one gives up, the next one retries)."""
        if mode == "PASSIVE":
            self.quietly(conn, mode)
            return
        conn.execute(f"PRAGMA busy_timeout = {CHECKPOINT_WAIT_MS}").fetchall()
        try:
            self.quietly(conn, mode)
        finally:
            conn.execute(f"PRAGMA busy_timeout = {self.busy_timeout_ms}").fetchall()

    def quietly(self, conn: sqlite3.Connection, mode: str) -> None:
        """A checkpoint whose failure is logged, not raised."""
        try:
            self.checkpoint(conn, mode)
        except sqlite3.Error:  # the next one will try again; the log only grows meanwhile
            log.exception("%s checkpoint failed", mode)

    def checkpoint(self, conn: sqlite3.Connection, mode: str) -> tuple[int, int, int]:
        """A checkpoint on the writer's connection, after any copy under way has ended (two
        checkpoints never run at once); it ends the current round of copies."""
        if self._copying is not None:
            concurrent.futures.wait([self._copying])
            self._copied()
        busy, pages, copied = conn.execute(f"PRAGMA wal_checkpoint({mode})").fetchone()
        outcome = int(busy), int(pages), int(copied)
        self._learn(outcome, self._commits)
        self._copy_rounds = 0
        self._checkpoints += 1
        return outcome

    def _learn(self, outcome: tuple[int, int, int], commits: int) -> None:
        """From a checkpoint's report, the pages a commit adds to the log.

        After a complete checkpoint the log starts over at the next commit, so what it holds
        at the next one was added since; after an incomplete one it grew from where it was.
        """
        busy, pages, copied = outcome
        added = pages if self._complete else pages - self._last_log
        if commits > self._measured_at and added > 0:
            measured = max(1.0, added / (commits - self._measured_at))
            self._pages_per_commit = (self._pages_per_commit + measured) / 2
        self._complete = busy == 0 and pages == copied
        self._last_log = pages
        self._measured_at = commits


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0
