"""Pictures drawn in worker processes are the very pictures drawn here."""

from __future__ import annotations

import pytest

import games
import rendering
from bot.discord.painter import Painter, worker_count


@pytest.mark.parametrize("processes", [0, 1])
async def test_workers_draw_the_same_bytes(processes: int) -> None:
    state = games.get("piquet").new_match(seed=4)
    painter = Painter(processes)
    try:
        hand = await painter.hand(state.view(0), True)
        table = await painter.table(state.view(None), ("Alice", "Bob"))
    finally:
        painter.close()
    assert hand == rendering.hand_png(state.view(0), four_colour=True)
    assert table == rendering.table_png(state.view(None), ("Alice", "Bob"))


async def test_a_bad_view_is_refused_from_a_worker_too() -> None:
    painter = Painter(1)
    try:
        with pytest.raises(ValueError):
            await painter.hand({"game": "poker"}, False)
    finally:
        painter.close()


async def test_a_dead_worker_is_replaced_and_the_picture_still_drawn() -> None:
    state = games.get("ecarte").new_match(seed=2)
    painter = Painter(1)
    try:
        await painter.hand(state.view(0), False)
        pool = painter._pool
        assert pool is not None
        for process in list(pool._processes.values()):  # type: ignore[attr-defined]
            process.kill()
            process.join()
        assert await painter.hand(state.view(0), False) == rendering.hand_png(state.view(0))
        assert await painter.hand(state.view(1), False) == rendering.hand_png(state.view(1))
    finally:
        painter.close()


def test_worker_count_follows_the_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAPIS_RENDER_PROCESSES", "0")
    assert worker_count() == 0
    monkeypatch.setenv("TAPIS_RENDER_PROCESSES", "3")
    assert worker_count() == 3
    monkeypatch.delenv("TAPIS_RENDER_PROCESSES")
    assert 1 <= worker_count() <= 2
