"""``/metrics``: the figures an operator graphs, scraped from a bot playing on the fake Discord."""

from __future__ import annotations

import random

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.process import metrics
from tests.bot.discord.conftest import StartBot
from tests.bot.discord.driver import Table
from tests.fakediscord import FakeDiscord, FakeUser


async def _scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}/metrics") as response,
    ):
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain")
        text = await response.text()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def _total(figures: dict[tuple[str, tuple[tuple[str, str], ...]], float], name: str) -> float:
    return sum(value for (found, _), value in figures.items() if found == name)


async def test_the_figures_move_while_a_match_is_played(
    fake: FakeDiscord,
    start_bot: StartBot,
    alice: FakeUser,
    bob: FakeUser,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TAPIS_METRICS_PORT", "0")  # any free port, on 127.0.0.1
    bot = await start_bot()
    assert bot.metrics is not None
    before = await _scrape(bot.metrics.port)
    table = await Table.open(fake, bot, "ecarte", "target=11", alice, bob)
    rng = random.Random(3)
    for _ in range(3):
        assert await table.step(rng, check_images=False)
    after = await _scrape(bot.metrics.port)
    grown = {
        name: _total(after, name) - _total(before, name)
        for name in (
            "tapis_moves_total",
            "tapis_interactions_total",
            "tapis_first_answer_seconds_count",
            "tapis_deliveries_sent_total",
            "tapis_discord_requests_total",
        )
    }
    assert grown["tapis_moves_total"] == 3, grown
    assert after[("tapis_moves_total", (("game", "ecarte"), ("shard", "all")))] >= 3
    # The challenge, the accept and three moves were each answered once, within Discord's 3 s.
    assert grown["tapis_interactions_total"] >= 5, grown
    assert grown["tapis_first_answer_seconds_count"] >= 4, grown  # the accept and the moves
    # The waits are real ones (from when the bot took the interaction up), not years.
    assert (
        0
        < _total(after, "tapis_first_answer_seconds_sum")
        - _total(before, "tapis_first_answer_seconds_sum")
        < 60 * grown["tapis_first_answer_seconds_count"]
    )
    assert grown["tapis_deliveries_sent_total"] >= 3, grown  # a board a move, at least
    assert grown["tapis_discord_requests_total"] >= grown["tapis_deliveries_sent_total"]
    # Every priority's queue is figured, and nothing waits once the courier settled.
    waiting = {dict(labels)["priority"]: value for (name, labels), value in after.items()
               if name == "tapis_deliveries_waiting"}  # fmt: skip
    assert set(waiting) == set(metrics.PRIORITIES)
    await bot.courier.settled()
    settled = await _scrape(bot.metrics.port)
    assert _total(settled, "tapis_deliveries_waiting") == 0
    assert _total(settled, "tapis_discord_rate_limited_total") >= 0
    for name in ("tapis_worker_restarts", "tapis_matches_set_aside", "tapis_clock_events",
                 "tapis_tournament_rounds", "tapis_discord_invalid_requests"):  # fmt: skip
        assert f"# TYPE {name}_total counter" in metrics_text()


def metrics_text() -> str:
    from prometheus_client import generate_latest

    return generate_latest(metrics.REGISTRY).decode()


def test_the_figures_are_not_served_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TAPIS_METRICS_PORT", raising=False)
    assert metrics.serve_from_env() is None
    monkeypatch.setenv("TAPIS_METRICS_PORT", "metrics")
    assert metrics.serve_from_env() is None  # refused, and logged
    monkeypatch.delenv("TAPIS_METRICS_HOST", raising=False)
    assert metrics.host_from_env() == "127.0.0.1"  # never public unless the operator says
