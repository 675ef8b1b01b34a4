"""Who the computer is among a match's players: its ids, one per level, and the teacher's.

The computer plays through the service like anyone (``computer``); the rooms that must tell
its seat from a person's (where hints are allowed) read it here, from the ids alone, without
importing the player that drives the service. It imports no other room: the values and the
words read it too.
"""

from __future__ import annotations

DEFAULT_LEVEL = "normal"
COMPUTER_IDS = {"easy": 101, "normal": 102, "strong": 103}
LEGACY_ID = 2
"""The sandbox's opponent before there were levels: its unfinished matches go on at normal."""
TEACHER_ID = 110
"""The computer when it teaches (``lessons``): an id of its own beside the levels', far
below any Discord id, so that a match's seats alone say it is a lesson, after a restart too."""


def level_of(user_id: int | None) -> str | None:
    """The level the computer plays at with this id; None for a person."""
    if user_id in (LEGACY_ID, TEACHER_ID):  # the teacher plays a lesson's own moves
        return DEFAULT_LEVEL
    for level, computer_id in COMPUTER_IDS.items():
        if computer_id == user_id:
            return level
    return None


def is_computer(user_id: int | None) -> bool:
    return level_of(user_id) is not None
