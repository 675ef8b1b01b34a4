"""/resign asks first: a private question with Resign and Cancel, for the asker only."""

from __future__ import annotations

import pytest

from bot.discord import moves
from tests.bot.discord.conftest import StartBot
from tests.bot.discord.driver import Table
from tests.fakediscord import FakeDiscord, FakeUser


def _button(custom_ids: list[str], answer: str) -> str:
    return next(c for c in custom_ids if c.startswith(f"tapis:resign:{answer}:"))


async def test_resign_asks_privately_and_cancel_keeps_the_match(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser, carol: FakeUser
) -> None:
    bot = await start_bot()
    table = await Table.open(fake, bot, "ecarte", "", alice, bob)
    stranger = await (await fake.slash(carol, "resign", match=table.match_id)).finished()
    assert stranger.ephemeral and "do not play" in stranger.content
    assert not stranger.custom_ids()  # no question for someone who cannot resign
    question = await (await fake.slash(bob, "resign", table.thread_id)).finished()
    assert question.ephemeral and f"#{table.match_id}" in question.content
    assert "Alice" in question.content  # who would win
    assert (await bot.service.get(table.match_id)).status == "active"  # nothing yet
    since = len(fake.log)
    cancel = _button(question.custom_ids(), "cancel")
    done = await (await fake.press(bob, question, cancel)).finished()
    assert done.kind == "edit" and not fake.is_public(done)
    assert "did not resign" in done.content and not done.custom_ids()
    assert (await bot.service.get(table.match_id)).status == "active"
    public = [s for s in fake.log[since:] if fake.is_public(s) and (s.content or s.files)]
    assert not public  # the thread heard nothing


async def test_only_the_asker_can_confirm_and_a_restart_keeps_the_question(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser
) -> None:
    bot = await start_bot()
    table = await Table.open(fake, bot, "piquet", "deals=1", alice, bob)
    question = await (await fake.slash(alice, "resign", table.thread_id)).finished()
    confirm = _button(question.custom_ids(), "confirm")
    refused = await (await fake.press(bob, question, confirm)).finished()
    assert refused.ephemeral and "Only the player" in refused.content
    assert (await bot.service.get(table.match_id)).status == "active"
    bot = await start_bot()  # the buttons are rebuilt from their ids after a restart
    done = await (await fake.press(alice, question, confirm)).finished()
    assert "You resigned" in done.content and not done.custom_ids()
    info = await bot.service.get(table.match_id)
    assert info.status == "finished" and info.result is not None
    assert info.result["winner"] == info.seat_of(bob.id)
    # Pressing again (another copy of the question) says why, politely.
    again = await (await fake.press(alice, question, confirm)).finished()
    assert "resigned" not in again.content.lower() or "over" in again.content.lower()
    assert (await bot.service.get(table.match_id)).status == "finished"


async def test_an_old_question_expires_without_resigning(
    fake: FakeDiscord,
    start_bot: StartBot,
    alice: FakeUser,
    bob: FakeUser,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bot = await start_bot()
    table = await Table.open(fake, bot, "cinq-as", "rounds=1", alice, bob)
    question = await (await fake.slash(alice, "resign", table.thread_id)).finished()
    monkeypatch.setattr(moves, "RESIGN_WINDOW", -1)
    confirm = _button(question.custom_ids(), "confirm")
    answer = await (await fake.press(alice, question, confirm)).finished()
    assert "expired" in answer.content and not answer.custom_ids()
    assert (await bot.service.get(table.match_id)).status == "active"
