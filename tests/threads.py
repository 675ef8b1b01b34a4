"""Which threads a piece of code left running, whatever other tests' threads do meanwhile.

Counting threads before and after is not enough: a thread another test left behind (a
process pool's manager winding down, say) may end in between and hide a new one.
"""

from __future__ import annotations

import threading


def running() -> set[threading.Thread]:
    return set(threading.enumerate())


def left_since(before: set[threading.Thread]) -> list[str]:
    """The names of the threads alive now that were not alive at ``before``."""
    return [t.name for t in threading.enumerate() if t not in before and t.is_alive()]
