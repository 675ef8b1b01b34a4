"""The shared machinery of every engine (games/core.py)."""

from __future__ import annotations

import pytest

from games.core import Option


def test_option_checks() -> None:
    target = Option("target", 11, choices=(11, 17))
    assert target.check(17) == 17
    with pytest.raises(ValueError, match="11 or 17"):
        target.check(12)
    with pytest.raises(ValueError, match="whole number"):
        target.check(True)
    assert Option("first_dealer", None, choices=(0, 1)).check(None) is None
