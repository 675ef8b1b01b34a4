"""The machine-speed reading printed around each benchmark section."""

from __future__ import annotations

import pytest

from bench import machine


def test_reference_loop_is_timed_in_processor_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(machine, "ADDITIONS", 200_000)
    seconds = machine.reference_seconds()
    assert 0 < seconds < 5


def test_description_gives_both_readings() -> None:
    text = machine.describe(0.66, 0.81)
    assert "0.66 s before" in text and "0.81 s after" in text
    assert "10 million additions" in text
