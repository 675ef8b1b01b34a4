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

# The shortest match each game offers, so the suite stays quick.
SHORT = {"bezique": "target=100", "cinq-as": "rounds=1", "ecarte": "target=11", "piquet": "deals=1"}


@pytest.mark.parametrize("game", games.names())
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
    table = await Table.open(fake, bot, game, SHORT.get(game, ""), alice, bob)
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
