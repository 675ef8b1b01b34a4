"""How far a long operator command is: a count, the time left, and a summary at the end.

On a terminal, one line redrawn in place — a bar, the count, the estimate; otherwise (a log
file, a cron job's mail) a plain line every few seconds, which a log keeps readable. The
estimate is the time taken so far over the share done: the steps of these commands (a match
replayed, a block of rows copied) take about the same time each.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Final, TextIO

BAR: Final = 30
"""Characters of the bar on a terminal."""
EVERY: Final = 5.0
"""Seconds between two lines when not on a terminal."""
REDRAW: Final = 0.1
"""Seconds between two redraws on a terminal: often enough to look alive, no more."""


def duration(seconds: float) -> str:
    """``75.2`` → ``"1 min 15 s"``: what an operator reads at a glance."""
    whole = round(seconds)
    if whole < 60:
        return f"{seconds:.1f} s" if seconds < 10 else f"{whole} s"
    minutes, secs = divmod(whole, 60)
    if minutes < 60:
        return f"{minutes} min {secs:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


class Progress:
    """``what`` counted up to ``total``: call :meth:`step` as it goes, :meth:`done` at the
    end (which says how long it took). ``unit`` names what is counted (``one``: one of it)."""

    def __init__(
        self,
        what: str,
        total: int,
        unit: str = "",
        *,
        one: str = "",
        stream: TextIO | None = None,
        terminal: bool | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.what = what
        self.total = max(0, total)
        self.unit = unit
        self.one = one  # the unit's singular, for a count of one in the summary
        self.stream = stream if stream is not None else sys.stderr
        self.terminal = self.stream.isatty() if terminal is None else terminal
        self._clock = clock
        self.started = clock()
        self.count = 0
        self._shown = -1.0  # when the last line was shown (never yet)

    def step(self, count: int = 1) -> None:
        self.update(self.count + count)

    def update(self, count: int) -> None:
        self.count = min(count, self.total) if self.total else count
        now = self._clock()
        wait = REDRAW if self.terminal else EVERY
        if self._shown < 0 and not self.terminal:
            self._shown = now  # the first plain line after a few seconds, not at once
            return
        if now - self._shown >= wait:
            self._shown = now
            self._show(now)

    def left(self, now: float | None = None) -> float | None:
        """Seconds left by the pace so far; None before anything is done."""
        if not self.count or not self.total:
            return None
        spent = (self._clock() if now is None else now) - self.started
        return spent * (self.total - self.count) / self.count

    def line(self, now: float | None = None) -> str:
        share = self.count / self.total if self.total else 1.0
        counted = f"{self.count:,}/{self.total:,}" + (f" {self.unit}" if self.unit else "")
        left = self.left(now)
        eta = "" if left is None else f", about {duration(left)} left"
        return f"{self.what}: {counted} ({share:.0%}{eta})"

    def _show(self, now: float) -> None:
        if self.terminal:
            filled = round(BAR * (self.count / self.total if self.total else 1.0))
            bar = "█" * filled + "·" * (BAR - filled)
            self.stream.write(f"\r{bar} {self.line(now)}\x1b[K")
        else:
            self.stream.write(self.line(now) + "\n")
        self.stream.flush()

    def done(self, summary: str = "") -> float:
        """End the progress line; print ``summary`` and the time taken. The seconds taken."""
        took = self._clock() - self.started
        if self.terminal and self._shown >= 0:
            self.stream.write("\r\x1b[K")
        unit = self.one if self.count == 1 and self.one else self.unit
        counted = f"{self.count:,}" + (f" {unit}" if unit else "")
        said = f"{self.what}: {counted} in {duration(took)}."
        self.stream.write(said + (f" {summary}" if summary else "") + "\n")
        self.stream.flush()
        return took
