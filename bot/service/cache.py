"""What the store keeps read back: matches as rows, and states by the text they are stored
as.

The cache of rows is filled only under a match's lock and only with committed rows (see
``MatchStore``), so it never holds an older row than a writer left; here it only keeps the
latest used and lets the oldest go.
"""

from __future__ import annotations

from collections import OrderedDict

from bot.service.values import MatchRow
from games import State


class MatchCache(OrderedDict[int, MatchRow]):
    """The matches read back, by id, the latest used last: at most ``size`` of them."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def keep(self, row: MatchRow) -> None:
        """Keep ``row`` as its match's latest, letting the least recently used go."""
        self[row.id] = row
        self.move_to_end(row.id)
        while len(self) > self.size:
            self.popitem(last=False)


class StateTexts:
    """Each match's latest state with the text it is stored as, for the latest few matches:
    a match read back with that very text has that state (states are immutable, so it is
    shared), not parsed again.

    On a database other processes share, a match is read afresh for every use (see
    ``MatchStore``), and making its state from the text was most of a move's processor
    time; the text itself is the proof that nobody changed it meanwhile.
    """

    def __init__(self, size: int) -> None:
        self._size = size
        self._states: OrderedDict[int, tuple[str, State]] = OrderedDict()

    def get(self, match_id: int, text: str) -> State | None:
        known = self._states.get(match_id)
        if known is None or known[0] != text:
            return None
        self._states.move_to_end(match_id)
        return known[1]

    def keep(self, match_id: int, text: str, state: State) -> None:
        self._states[match_id] = (text, state)
        self._states.move_to_end(match_id)
        while len(self._states) > self._size:
            self._states.popitem(last=False)
