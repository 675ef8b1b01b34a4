"""``/learn`` on the fake Discord: each game's lesson played to its end by pressing the moves
it asks for in the learner's hand, the notes in that hand, a move other than the lesson's
explained privately, and the buttons at its end (a real match against the computer, or how
to challenge someone)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import cast

import pytest

from bot import i18n
from bot.discord.components import LessonEndButton, lesson_end_buttons
from bot.discord.lessons import ELSEWHERE
from bot.service import wording
from bot.service.computer import (
    COMPUTER_IDS,
    LEVELS,
    computer_player,
    level_description,
    level_name,
)
from bot.service.lessons import TEACHER
from games.lessons import lesson_for
from tests.bot.discord.conftest import StartBot
from tests.bot.discord.driver import Table
from tests.fakediscord import FakeDiscord, FakeUser, Sent
from tests.style import problems

LOCALES = {"en": "en-US", "fr": "fr", "sv": "sv-SE"}


class Lesson(Table):
    """A lesson's table: the teacher's reply may come before the answer to the learner's
    press (a hand without buttons, edited in place), so the hand to press is the latest with
    buttons of the match as it stands."""

    def latest_hand(self, user: FakeUser) -> Sent | None:
        for sent in reversed(self.fake.log):
            if sent.reader == user.id and any(
                c.split(":")[2:3] == [str(self.match_id)] for c in sent.custom_ids()
            ):
                return sent
        return None


def flat(text: str) -> str:
    return " ".join(text.split())


async def play_lesson(
    fake: FakeDiscord, start_bot: StartBot, learner: FakeUser, game: str, lang: str
) -> None:
    """``learner`` takes ``game``'s lesson with ``/learn`` and plays it to its end by pressing
    the moves it asks for; once, a move it does not ask for, explained privately. Then the
    buttons at its end: how to challenge someone, and a real match against the computer."""
    fake.guild_locale = LOCALES[lang]
    learner = replace(learner, locale=LOCALES[lang])
    fake.users[learner.id] = learner
    w = i18n.words(lang)
    bot = await start_bot()
    assert bot.computer is not None
    lesson = lesson_for(game)
    assert lesson is not None
    handle = await fake.slash(learner, "learn", game=game)
    started = await handle.finished()
    assert "<#" in started.content and started.ephemeral, started.content
    (info,) = await bot.service.matches_of(learner.id)
    assert info.status == "active" and info.thread_id is not None
    assert info.seats is not None and info.seats[1].user_id == TEACHER.user_id
    # The post that opened the thread names the lesson, in the server's language.
    opened = w.gettext(
        "{name} learns {game} with {teacher}: a guided first deal (match #{id}, not rated)."
    ).format(name=learner.name, game=wording.game_title(game, w), teacher=TEACHER.name, id=info.id)
    assert any(
        fake.is_public(s) and s.channel_id == fake.channel_id and s.content == opened
        for s in fake.log
    )
    teacher = FakeUser(TEACHER.user_id, TEACHER.name)
    table = Lesson(fake, bot, {learner.id: learner, teacher.id: teacher}, info.id, info.thread_id)
    table.presses_only = True
    notes = {w.gettext(note) for note in lesson.notes.values()}
    seen: set[str] = set()
    explained = False
    rng = random.Random(1)
    for _ in range(400):
        await bot.computer.idle()
        await bot.courier.settled()
        info = await bot.service.get(info.id)
        for sent in fake.log:
            if sent.reader == learner.id and f"#{info.id}" in sent.content:
                seen |= {note for note in notes if flat(note) in flat(sent.content)}
        if info.status != "active":
            break
        assert info.to_move == learner.id, "the teacher left its turn unplayed"
        expected = lesson.expected(info.version)
        assert expected is not None
        hand = table.latest_hand(learner)
        assert hand is not None
        prefix = w.gettext("The lesson's move now: {move}.").split("{move}")[0]
        assert prefix in hand.content, hand.content
        if not explained:
            legal = await bot.service.legal_moves(info.id, learner.id)
            other = next((m for m in legal if m != expected), None)
            if other is not None:
                explained = True
                made, _ = await table._make(learner, other, rng)
                said = await fake.wait_for(
                    lambda s, made=made: s.token == made.token and s.kind == "followup",
                    since=made.since,
                )
                assert said.ephemeral and said.reader == learner.id
                # The refusal names the move the lesson asks for, and says why.
                asked = wording.move_text(game, expected, w)
                assert flat(asked) in flat(said.content), said.content
                assert problems(said.content) == []
                assert (await bot.service.get(info.id)).version == info.version  # refused
                continue
        made, _ = await table._make(learner, expected, rng)
        await made.finished()
    assert info.status == "finished" and info.result is not None
    assert info.result.get("winner") == 0
    assert explained
    assert seen == notes, notes - seen
    # The lesson's last word, privately; nothing sent to the teacher.
    ending = await fake.wait_for(
        lambda s: (
            fake.is_dm(s)
            and s.dm_to == learner.id
            and flat(w.gettext(lesson.end)) in flat(s.content)
        )
    )
    assert problems(ending.content) == []
    assert not [
        s
        for s in fake.log
        if fake.is_dm(s) and s.dm_to in (*COMPUTER_IDS.values(), TEACHER.user_id)
    ]
    # Every level is offered, each told in the lesson's last word, then pressed: strong.
    for level in LEVELS:
        assert flat(level_description(level, w)) in flat(ending.content)
    offer = await fake.wait_for(lambda s: f"tapis:learnt:strong:{info.id}" in s.custom_ids())
    assert {f"tapis:learnt:{c}:{info.id}" for c in (*LEVELS, "challenge")} <= set(
        offer.custom_ids()
    )
    assert offer.channel_id == info.thread_id and fake.is_public(offer)
    labels = {str(c.get("label")) for c in offer.components()}
    played = {
        w.gettext("Play the computer ({level})").format(level=level_name(level, w))
        for level in LEVELS
    }
    assert {*played, w.gettext("Challenge someone")} <= labels
    assert not [c for c in offer.custom_ids() if c.startswith("tapis:rematch")]
    how = await (await fake.press(learner, offer, f"tapis:learnt:challenge:{info.id}")).finished()
    assert "/challenge" in how.content and how.ephemeral
    press = await fake.press(learner, offer, f"tapis:learnt:strong:{info.id}")
    answer = await press.finished()
    started_again = w.gettext("Match #{id} against {computer} started in {where}.")
    assert started_again.split("{id}")[0] in answer.content, answer.content
    assert flat(level_description("strong", w)) in flat(answer.content)  # what they chose
    (real,) = [m for m in await bot.service.matches_of(learner.id) if m.id != info.id]
    assert real.status == "active" and real.game == info.game and real.seats is not None
    assert computer_player("strong") in real.seats
    await bot.computer.idle()
    assert (await bot.service.stats(learner.id)).games == 0  # the lesson counts nowhere
    assert fake.unexpected == []


@pytest.mark.slow  # a whole lesson at Discord's pace (the sandbox plays every lesson fast)
async def test_the_piquet_lesson_in_english(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser
) -> None:
    await play_lesson(fake, start_bot, alice, "piquet", "en")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "lang"),
    [  # every lesson in every language (the Piquet lesson in English is above)
        (game, lang)
        for game in ("bezique", "cinq-as", "ecarte", "piquet")
        for lang in i18n.LANGS
        if (game, lang) != ("piquet", "en")
    ],
)
async def test_a_lesson_played_to_its_end(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, game: str, lang: str
) -> None:
    await play_lesson(fake, start_bot, alice, game, lang)


async def test_a_lesson_is_not_given_where_the_bot_cannot_post(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser
) -> None:
    fake.installed.add(alice.id)
    channel = fake.add_group_dm(alice, bob)
    bot = await start_bot(dev_guild=False)
    answer = await (await fake.slash(alice, "learn", channel, game="piquet")).finished()
    assert i18n.words("en").gettext(ELSEWHERE).split(":")[0] in answer.content
    assert answer.ephemeral
    assert await bot.service.matches_of(alice.id) == []


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_finished_lesson_offers_each_level_by_name(lang: str) -> None:
    w = i18n.words(lang)
    view = lesson_end_buttons(7, w)
    items = [cast(LessonEndButton, item).item for item in view.children]
    ids = [item.custom_id for item in items]
    assert ids == [f"tapis:learnt:{c}:7" for c in (*LEVELS, "challenge")]
    for level, item in zip(LEVELS, items, strict=False):
        assert item.label is not None and level_name(level, w) in item.label
        assert problems(item.label) == [] and len(item.label) <= 80
    # A button of a lesson ended before the levels were offered still plays (at normal).
    assert LessonEndButton.__discord_ui_compiled_template__.fullmatch("tapis:learnt:computer:7")
