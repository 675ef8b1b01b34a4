"""Whole matches of every registered game, played on the fake Discord by two users."""

from __future__ import annotations

import logging
import re

import pytest

import games
from tests.bot.discord.conftest import StartBot
from tests.bot.discord.driver import Table
from tests.fakediscord import FakeDiscord, FakeUser

CARD = re.compile(r"\b(?:10|[2-9]|19|2[01]|[JQKA])[SHDCT]\b")


def short(game: str) -> str:
    """The shortest match the game offers, as typed in `/challenge`, so the suite stays quick."""
    return " ".join(f"{name}={value}" for name, value in games.get(game).short_options().items())


# A whole match at Discord's pace takes minutes: the longest games run with `make test-slow`,
# the shortest (Piquet) stays in `make test` as the fast representative.
LONG = ("bezique", "cinq-as", "ecarte")


@pytest.mark.parametrize(
    "game",
    [pytest.param(g, marks=pytest.mark.slow) if g in LONG else g for g in games.names()],
)
async def test_a_whole_match_through_commands_and_buttons(
    game: str,
    fake: FakeDiscord,
    start_bot: StartBot,
    alice: FakeUser,
    bob: FakeUser,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    bot = await start_bot()
    table = await Table.open(fake, bot, game, short(game), alice, bob)
    await table.play_out(seed=len(game))
    info = await bot.service.get(table.match_id)
    assert info.status == "finished" and info.result is not None
    assert table.ways["button"] > 0 and table.ways["slash"] > 0, table.ways
    # Discards and melds of several cards were made with the card menus.
    assert table.ways["select"] >= table.multi_card_moves, table.ways
    summary = await fake.wait_for(
        lambda s: s.channel_id == table.thread_id and "rating" in s.content.lower()
    )
    assert summary.content
    assert fake.unexpected == []
    # Logs at info level are public too: not one card is named in them, hidden or not.
    logged = [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO]
    assert logged and not [line for line in logged if CARD.search(line)]
