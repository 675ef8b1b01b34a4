"""Lessons through the service: each game's prepared deal played to its end against the
teacher, every move of the learner but the lesson's explained, no result kept."""

from __future__ import annotations

import pytest

from bot.service import MatchService, Refused
from bot.service.computer import Computer
from bot.service.lessons import TEACHER, lessons_given
from games.lessons import lesson_for
from games.words import ENGLISH
from tests.bot.conftest import ALICE, CHANNEL, GUILD
from tests.style import problems


@pytest.mark.parametrize("game", lessons_given())
async def test_a_lesson_is_played_to_its_end(service: MatchService, game: str) -> None:
    lesson = lesson_for(game)
    assert lesson is not None
    computer = Computer(service, processes=0)
    info, deliveries = await service.learn(ALICE, game, guild_id=GUILD, channel_id=CHANNEL)
    assert info.status == "active" and info.seat_of(TEACHER.user_id) == 1
    first = next(d for d in deliveries if d.kind == "hand" and d.to == ALICE.user_id)
    assert "Lesson: " in first.text and "The lesson's move now: " in first.text
    assert problems(first.text) == []
    wrong = refused = 0
    try:
        while info.status == "active":
            if info.to_move == TEACHER.user_id:
                info, deliveries = await computer.play_turns(info.id)
                continue
            expected = lesson.expected(info.version)
            assert expected is not None
            legal = await service.legal_moves(info.id, ALICE.user_id)
            other = next((m for m in legal if m != expected), None)
            if other is not None and not wrong:
                wrong += 1
                with pytest.raises(Refused, match="this lesson") as off_script:
                    await service.move(info.id, ALICE.user_id, other)
                assert problems(off_script.value.say(ENGLISH)) == []
            if not refused:
                refused += 1
                with pytest.raises(Refused, match="This lesson asks for this move now"):
                    await service.move(info.id, ALICE.user_id, "no such move")
            info, deliveries = await service.move(info.id, ALICE.user_id, expected)
    finally:
        await computer.close()
    assert info.result is not None and info.result.get("winner") == 0
    assert wrong == refused == 1
    assert await service.verify(info.id)
    notice = next(d for d in deliveries if d.kind == "notice")
    assert notice.lesson
    last = next(d for d in deliveries if d.kind == "dm" and d.to == ALICE.user_id)
    assert "The lesson is over" in last.text and problems(last.text) == []
    assert (await service.stats(ALICE.user_id)).games == 0


async def test_a_game_without_a_lesson_is_refused(service: MatchService) -> None:
    with pytest.raises(Refused, match="no lesson"):
        await service.learn(ALICE, "nothing", guild_id=GUILD, channel_id=CHANNEL)
