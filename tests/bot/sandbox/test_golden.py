"""One whole match of each game in the sandbox, in English, French and Swedish, kept as golden
text: what a player reads in a terminal, their typed answers included. Each transcript passes
the style checker, names no key of the games' views, and speaks only the reader's language.

The player types their moves as a speaker of their language does (``jouer D♠``, ``kasta
7♠ 8♦``): the sandbox must take them. ``TAPIS_GOLDEN=update`` writes the files anew; read
them whole, as a player would, before committing them.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import games
from bot import i18n
from bot.sandbox import COMMANDS, HUMAN_ID, Sandbox, as_typed
from bot.service import MatchService
from bot.service import life as life_module
from tests import style
from tests.bot.test_words import style_problems

GOLDEN = Path(__file__).parents[1] / "golden" / "sandbox"
SHORT = {"bezique": "target=100", "cinq-as": "rounds=1", "ecarte": "", "piquet": "deals=1"}
PICTURES = "pictures"


class Player:
    """Answers the sandbox's prompts: the game, a look at the help and the moves, one
    mistyped move, then a move picked at random (seeded) among those open, typed in the
    reader's words; back at the choice of a game, leaves."""

    def __init__(self, service: MatchService, game: str, lang: str) -> None:
        self.service = service
        self.lang = lang
        # The reader's own words for the sandbox's commands: English, French, Swedish.
        own = {"en": 0, "fr": 1, "sv": 2}[lang]
        help_, moves = COMMANDS["help"][own + 1 if own else 0], COMMANDS["moves"][own]
        self.first = iter([f"{game} {SHORT[game]}".strip(), help_, moves, "nonsense"])
        self.rng = random.Random(f"{game}/{lang}")
        self.out: list[str] = []

    async def __call__(self, prompt: str) -> str | None:
        answer = await self._answer(prompt)
        self.out.append(f"{prompt}{answer or ''}")
        return answer

    async def _answer(self, prompt: str) -> str | None:
        if prompt.startswith(("game", "jeu", "spel")) and len(self.out) > 4:
            return {"en": "quit", "fr": "quitter", "sv": "avsluta"}[self.lang]
        first = next(self.first, None)
        if first is not None:
            return first
        (info,) = await self.service.matches_of(HUMAN_ID)
        legal = await self.service.legal_moves(info.id, HUMAN_ID)
        return as_typed(self.rng.choice(legal), i18n.words(self.lang))


@pytest.fixture
async def sqlite_service(db_file: Path) -> AsyncIterator[MatchService]:
    service = await MatchService.open(db_file)
    yield service
    await service.close()


async def transcript(
    service: MatchService, game: str, lang: str, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> str:
    monkeypatch.setattr(life_module, "fresh_seed", lambda: 20261206)
    player = Player(service, game, lang)
    box = Sandbox(
        service,
        folder=folder,
        read_line=player,
        write=player.out.append,
        level="easy",
        human_name="Tester",
        lang=lang,
    )
    assert await box.run() == 0
    return "\n".join(player.out).replace(str(folder), PICTURES) + "\n"


def view_keys() -> set[str]:
    """Every key of every game's views, as the engines name them."""
    keys: set[str] = set()
    for name in games.names():
        state = games.get(name).new_match(seed=1)
        rng = random.Random(1)
        while state.to_move is not None:
            for seat in (0, 1, None):
                keys.update(state.view(seat))
            state = state.apply(rng.choice(state.legal_moves()))
    return keys


_KEYS = view_keys()
# A key written as a label, as a debugger prints it ("stage: 1"), or any key of two words.
_LABELLED = re.compile(r"^\s*(" + "|".join(sorted(_KEYS)) + r")\s*:", re.M)
_JOINED = sorted(key for key in _KEYS if "_" in key)


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("game", games.names())
async def test_a_whole_sandbox_match_reads_as_a_host_tells_it(
    sqlite_service: MatchService,
    tmp_path: Path,
    game: str,
    lang: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = await transcript(sqlite_service, game, lang, tmp_path / "pictures", monkeypatch)
    if os.environ.get("TAPIS_GOLDEN") == "update":
        golden(f"{game}.{lang}.txt", text)  # to be read, even while the checks below fail
    (info,) = await sqlite_service.matches_of(HUMAN_ID, active_only=False)
    assert info.status == "finished"  # a whole match
    problems = []
    for line in text.split("\n"):
        problems += style.problems(line)
        problems += [p for p in style_problems(line, lang) if "raw card code" not in p]
        if lang != "en":
            problems += [f"English {word!r}: {line!r}" for word in style.english_left(line, lang)]
    assert problems == []
    assert not _LABELLED.search(text), _LABELLED.search(text)
    assert [key for key in _JOINED if key in text] == []
    assert "`" not in text and "**" not in text  # Discord's markup is not a terminal's
    assert not re.search(r"Accept|Decline|Accepter|Refuser|Anta|Avböj", text)
    golden(f"{game}.{lang}.txt", text)


def golden(name: str, text: str) -> None:
    """``text`` must equal the golden file ``name``; TAPIS_GOLDEN=update writes it instead."""
    path = GOLDEN / name
    if os.environ.get("TAPIS_GOLDEN") == "update" or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text
