"""Each game's lesson played to its end in the sandbox, in English, French and Swedish, kept
as golden text: ``learn <game>`` typed in the reader's words, a hint asked, one move other
than the lesson's explained, the lesson's notes told with the hand, and its last word.

``TAPIS_GOLDEN=update`` writes the files anew; read them whole before committing them.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot import i18n
from bot.sandbox import COMMANDS, HUMAN_ID, Sandbox, as_typed
from bot.service import MatchService
from bot.service.lessons import lessons_given
from games.lessons import Lesson, lesson_for
from tests import style
from tests.bot.sandbox.test_golden import PICTURES, golden
from tests.bot.test_words import style_problems

OWN = {"en": 0, "fr": 1, "sv": 2}  # where each language's spelling sits in COMMANDS
QUIT_WORD = {"en": "quit", "fr": "quitter", "sv": "avsluta"}


class Learner:
    """Answers the sandbox's prompts: ``learn`` and the game, then at their first turn a
    hint and a move the lesson does not ask for, then the lesson's own moves, typed in the
    reader's words; back at the choice of a game, leaves."""

    def __init__(self, service: MatchService, game: str, lang: str) -> None:
        self.service = service
        self.lang = lang
        self.w = i18n.words(lang)
        self.learn = COMMANDS["learn"][OWN[lang]]
        self.hint = COMMANDS["hint"][min(OWN[lang], 2)]
        self.game = game
        self.out: list[str] = []
        self.asked: list[str] = []  # what was typed at the lesson's prompts
        self.started = False

    async def __call__(self, prompt: str) -> str | None:
        answer = await self._answer(prompt)
        self.out.append(f"{prompt}{answer or ''}")
        return answer

    async def _answer(self, prompt: str) -> str | None:
        if prompt.startswith(("game", "jeu", "spel")):
            if self.started:
                return QUIT_WORD[self.lang]
            self.started = True
            return f"{self.learn} {self.game}"
        (info,) = await self.service.matches_of(HUMAN_ID)
        lesson = lesson_for(info.game)
        assert lesson is not None
        expected = lesson.expected(info.version)
        assert expected is not None
        if not self.asked:
            self.asked.append(self.hint)
            return self.hint
        if len(self.asked) == 1:
            legal = await self.service.legal_moves(info.id, HUMAN_ID)
            other = next(m for m in legal if m != expected)
            self.asked.append(other)
            return as_typed(other, self.w)
        self.asked.append(expected)
        return as_typed(expected, self.w)


@pytest.fixture
async def sqlite_service(db_file: Path) -> AsyncIterator[MatchService]:
    service = await MatchService.open(db_file)
    yield service
    await service.close()


def notes_said(lesson: Lesson, lang: str) -> list[str]:
    """The lesson's notes and last word as the reader reads them."""
    w = i18n.words(lang)
    return [w.gettext(note) for note in [*lesson.notes.values(), lesson.end]]


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("game", lessons_given())
async def test_a_lesson_in_the_sandbox_is_told_to_its_end(
    sqlite_service: MatchService, tmp_path: Path, game: str, lang: str
) -> None:
    folder = tmp_path / "pictures"
    learner = Learner(sqlite_service, game, lang)
    box = Sandbox(
        sqlite_service,
        folder=folder,
        read_line=learner,
        write=learner.out.append,
        human_name="Tester",
        lang=lang,
    )
    assert await box.run() == 0
    text = "\n".join(learner.out).replace(str(folder), PICTURES) + "\n"
    if os.environ.get("TAPIS_GOLDEN") == "update":
        golden(f"lesson-{game}.{lang}.txt", text)
    (info,) = await sqlite_service.matches_of(HUMAN_ID, active_only=False)
    assert info.status == "finished" and info.result is not None
    assert info.result.get("winner") == 0  # the learner wins their lesson
    lesson = lesson_for(game)
    assert lesson is not None
    flat = " ".join(text.split())
    missing = [note for note in notes_said(lesson, lang) if " ".join(note.split()) not in flat]
    assert missing == []
    w = i18n.words(lang)
    over = w.gettext(
        "The lesson is over. Play a real match against the computer, or challenge "
        "someone: {game} is yours to play."
    ).split("{game}")[0]
    assert over in text
    # The move the lesson did not ask for is explained, and the hint named a move.
    assert w.gettext("Not accepted: {why}").split("{why}")[0] in text
    assert "**" not in text and "`" not in text
    problems = []
    for line in text.split("\n"):
        problems += style.problems(line)
        problems += [p for p in style_problems(line, lang) if "raw card code" not in p]
        if lang != "en":
            problems += [f"English {word!r}: {line!r}" for word in style.english_left(line, lang)]
    assert problems == []
    assert (await sqlite_service.stats(HUMAN_ID)).games == 0  # a lesson counts nowhere
    golden(f"lesson-{game}.{lang}.txt", text)


async def test_a_hint_in_any_sandbox_match_and_learn_asked_wrongly(
    sqlite_service: MatchService, tmp_path: Path
) -> None:
    typed = iter(["learn", "learn whist", "piquet", "hint", "quit"])
    out: list[str] = []

    async def read_line(prompt: str) -> str | None:
        answer = next(typed, None)
        out.append(f"{prompt}{answer or ''}")
        return answer

    box = Sandbox(
        sqlite_service,
        folder=tmp_path / "pictures",
        read_line=read_line,
        write=out.append,
        human_name="Tester",
        lang="en",
    )
    assert await box.run() == 0
    text = "\n".join(out)
    assert "Which game? Type “learn” and its name" in text
    assert "There is no lesson for “whist”. Lessons are given for " in text
    after = text.split("your move> hint", 1)[1]
    assert after.lstrip("\n").startswith(("Tapis would play ", "Play ")), after[:200]
    assert "**" not in after and "deals of the cards you cannot see" in after
    (info,) = await sqlite_service.matches_of(HUMAN_ID)
    assert info.status == "active" and info.game == "piquet"  # kept, not a lesson
    assert not [
        h for h in await sqlite_service.coaching.hints_used(info.id) if h.user_id != HUMAN_ID
    ]
    assert len(await sqlite_service.coaching.hints_used(info.id)) == 1  # kept with the match
