"""The local sandbox and `python -m bot`: scripted terminal sessions, the Discord hook."""

from __future__ import annotations

import re
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ai
import games
from bot import __main__ as entry
from bot import i18n
from bot.sandbox import HUMAN_ID, Sandbox
from bot.sandbox.screen import MAX_NUMBERED
from bot.service import MatchService, ServiceError
from bot.service.computer import computer_player, is_computer, level_name
from bot.service.wording import pretty

HAND_STARTS = ("Your hand: ", "Votre main\u00a0: ", "Din hand: ")


class Script:
    """Answers for the prompts: a game choice, then the first listed move until the end (at
    a discard, whose moves have no numbers, the first card of the hand last shown)."""

    def __init__(self, lines: list[str], then: str | None = "1", limit: int = 5000) -> None:
        self.lines: Iterator[str] = iter(lines)
        self.then = then
        self.limit = limit
        self.prompts: list[str] = []
        self.out: list[str] = []  # what the sandbox wrote, given by ``session``

    async def __call__(self, prompt: str) -> str | None:
        self.prompts.append(prompt)
        if len(self.prompts) > self.limit:
            return None
        line = next(self.lines, None)
        if line is not None:
            return line
        if prompt.startswith(("game", "jeu", "spel")):
            return None  # back at the game choice: leave
        said = "\n".join(self.out[-3:])
        if self.then == "1" and " 1. " not in said.rsplit("\n-- ", 1)[-1]:
            for start in HAND_STARTS:  # in each language the sandbox speaks
                if start in said:
                    hand = said.rsplit(start, 1)[1].split("\n", 1)[0].split()
                    # A number card reads the same in every language (a French "D♠" is Q♠).
                    plain = [card for card in hand if card[0].isdigit()] or hand
                    return f"discard {plain[0]}"
        return self.then


async def session(
    service: MatchService, folder: Path, script: Script, out: list[str] | None = None
) -> tuple[int, str]:
    """Run the sandbox; its exit code and all it wrote (each write also kept in ``out``)."""
    out = [] if out is None else out
    script.out = out
    code = await Sandbox(
        service,
        folder=folder,
        read_line=script,
        write=out.append,
        level="easy",
        human_name="Tester",
    ).run()
    return code, "\n".join(out)


@pytest.mark.parametrize("game", games.names())
async def test_a_whole_match_in_the_sandbox(
    service: MatchService, tmp_path: Path, game: str
) -> None:
    script = Script([game, "help", "nonsense words", "moves", "hand", "table"])
    writes: list[str] = []
    code, out = await session(service, tmp_path / "pictures", script, writes)
    assert code == 0
    assert "local sandbox" in out and "at level easy" in out  # it explains itself
    assert "Not accepted:" in out and "Moves open to you" in out
    assert "Commands (at any prompt):" in out and "Your hand:" in out
    assert "is over" in out
    (info,) = await service.matches_of(HUMAN_ID, active_only=False)
    assert info.status == "finished" and info.seats is not None
    assert info.seats[1] == computer_player("easy")
    assert await service.verify(info.id)
    assert await service.leaderboard(game, None) == []  # practice: not rated
    # A hand shown at the player's turn says each thing once (what to type for a set of
    # cards is both in the hand's text and in the list of moves: shown by the prompt only).
    hands = [shown for shown in writes if shown.startswith("\n-- ")]
    assert hands
    for shown in hands:
        lines = [line for line in shown.split("\n") if line.strip()]
        assert len(lines) == len(set(lines)), shown


async def test_a_number_stands_only_for_a_move_shown_with_it(
    service: MatchService, tmp_path: Path
) -> None:
    """At a Piquet discard no move is shown with a number (they are any few of twelve
    cards): a number typed there is refused, saying what to type, and nothing is played."""
    code, out = await session(service, tmp_path, Script(["piquet", "1", "99"], then=None))
    assert code == 0
    refusals = [line for line in out.split("\n") if line.startswith("Not accepted:")]
    assert len(refusals) == 2 and all("have no numbers now" in r for r in refusals), refusals
    assert all("“discard”" in r for r in refusals)  # what to type, quoted as a terminal does
    (info,) = await service.matches_of(HUMAN_ID)
    assert info.to_move == HUMAN_ID  # still the player's discard to make
    legal = await service.legal_moves(info.id, HUMAN_ID)
    assert all(move.startswith("discard") for move in legal)


async def test_a_number_past_those_shown_is_refused(
    service: MatchService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "moves" numbers at most MAX_NUMBERED moves and asks to type the rest: a number past
    them is refused like any other number no move was shown with."""
    many = [f"play {n}X" for n in range(MAX_NUMBERED + 5)]
    box = Sandbox(service, folder=tmp_path, read_line=Script([]), write=lambda _text: None)

    async def legal_moves(match_id: int, user_id: int) -> list[str]:
        return many

    async def view_for(match_id: int, user_id: int) -> dict[str, Any]:
        return {"game": "piquet", "hand": []}

    monkeypatch.setattr(service, "legal_moves", legal_moves)
    monkeypatch.setattr(service, "view_for", view_for)
    info = types.SimpleNamespace(id=1, game="piquet")
    assert await box._numbered(info, str(MAX_NUMBERED)) == many[-6]
    with pytest.raises(ServiceError):
        await box._numbered(info, str(MAX_NUMBERED + 1))


async def test_a_discard_turn_says_once_what_to_type(service: MatchService, tmp_path: Path) -> None:
    """Piquet's first turn is a discard, of any few of twelve cards: the hand's text says what
    to type (as a DM must), and so does the list of moves by the prompt; shown once."""
    writes: list[str] = []
    code, out = await session(service, tmp_path, Script(["piquet"], then=None), writes)
    assert code == 0
    told = [line for line in out.split("\n") if "“discard”" in line]
    assert len(told) == 1, told
    assert "Your hand:" in out.split(told[0])[0]  # after the hand, by the prompt


async def test_the_computers_hand_is_never_shown(service: MatchService, tmp_path: Path) -> None:
    out: list[str] = []
    shown: list[Any] = []
    mine: set[str] = set()
    box = Sandbox(
        service,
        folder=tmp_path,
        read_line=Script([games.names()[0]], limit=40),
        write=out.append,
        level="easy",
    )
    original = box._deliver

    async def spy(deliveries: list[Any], *, full: bool = False) -> None:
        shown.extend(d for d in deliveries if is_computer(d.to))
        mine.update(
            " ".join(sorted(pretty(c) for c in d.view["hand"]))
            for d in deliveries
            if d.to == HUMAN_ID and d.view
        )
        await original(deliveries, full=full)

    box._deliver = spy  # type: ignore[method-assign]
    await box.run()
    assert shown  # the service did send the computer its hand …
    text = "\n".join(out)
    for delivery in shown:  # … and none of it was written
        assert delivery.text not in text
    # Every hand written is one the human held (the two may hold the same cards at
    # different moments, so a computer's hand is looked for only among what was written).
    written = {
        " ".join(sorted(line.split("Your hand: ", 1)[1].split()))
        for line in out
        for line in line.splitlines()
        if line.startswith("Your hand: ")
    }
    assert written and written <= mine


async def test_quit_keeps_the_match_and_resume_finds_it(
    service: MatchService, tmp_path: Path
) -> None:
    code, out = await session(service, tmp_path, Script([games.names()[0], "quit"]))
    assert code == 0 and "kept" in out
    (info,) = await service.matches_of(HUMAN_ID)
    code, out = await session(service, tmp_path, Script([f"#{info.id}", "quit"]))
    assert f"Resuming match #{info.id}" in out
    code, out = await session(service, tmp_path, Script(["#99999", "zzz", "quit"], then=None))
    assert "not one of your unfinished matches" in out and "no game called" in out


async def test_a_game_number_out_of_range_is_answered_politely(
    service: MatchService, tmp_path: Path
) -> None:
    beyond, zero = str(len(games.names()) + 1), "0"
    code, out = await session(service, tmp_path, Script([beyond, zero, "quit"], then=None))
    assert code == 0
    assert out.count(f"Choose a number from 1 to {len(games.names())}") == 2
    assert await service.matches_of(HUMAN_ID) == []  # "0" never picked the last game


async def test_pictures_are_written_when_the_renderer_has_them(
    service: MatchService, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []

    def hand_png(view: dict[str, Any], *, four_colour: bool = False, words: Any = None) -> bytes:
        assert view["seat"] is not None and words.lang == "en"  # drawn in the reader's words
        calls.append("hand four" if four_colour else "hand")
        return b"\x89PNG hand"

    def table_png(view: dict[str, Any], names: tuple[str, str], **given: Any) -> bytes:
        assert view["seat"] is None and view["hand"] == [] and given["words"].lang == "en"
        calls.append("table")
        return b"\x89PNG table"

    fake = types.ModuleType("rendering")
    fake.hand_png = hand_png  # type: ignore[attr-defined]
    fake.table_png = table_png  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "rendering", fake)
    folder = tmp_path / "pictures"
    _, out = await session(service, folder, Script([games.names()[0], "colours", "hand", "quit"]))
    assert str(folder) in out and "Four-colour deck on" in out
    (match_folder,) = folder.iterdir()
    assert (match_folder / "hand.png").read_bytes() == b"\x89PNG hand"
    assert (match_folder / "table.png").read_bytes() == b"\x89PNG table"
    assert "hand" in calls and "table" in calls and calls[-1] == "hand four"
    record = await service.player(HUMAN_ID)
    assert record is not None and record.four_colour  # remembered for next time


def test_the_computer_has_one_name_and_its_level_is_said_in_words() -> None:
    assert {computer_player(level).name for level in ai.LEVELS} == {"Tapis"}
    assert level_name("easy", i18n.words("fr")) == "facile"
    assert level_name("strong", i18n.words("sv")) == "stark"


def test_a_token_starts_the_discord_adapter(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "secret")
    started: list[bool] = []
    adapter = types.ModuleType("bot.discord")
    adapter.run = lambda log_format=None, beside=None: started.append(True) or 0  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bot.discord", adapter)
    assert entry.main([]) == 0 and started == [True]


def test_a_token_without_the_adapter_says_so(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "secret")
    monkeypatch.setitem(sys.modules, "bot.discord", None)  # import fails: not there
    assert entry.main([]) == 2
    assert "no Discord adapter" in capsys.readouterr().err


def test_dotenv_fills_the_environment_without_overriding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = tmp_path / ".env"
    env.write_text("# settings\nTAPIS_TEST_A=one\nexport TAPIS_TEST_B='two'\nTAPIS_TEST_C=x\n")
    monkeypatch.setenv("TAPIS_TEST_C", "kept")
    monkeypatch.delenv("TAPIS_TEST_A", raising=False)
    monkeypatch.delenv("TAPIS_TEST_B", raising=False)
    entry.load_dotenv(env)
    import os

    assert os.environ["TAPIS_TEST_A"] == "one" and os.environ["TAPIS_TEST_B"] == "two"
    assert os.environ["TAPIS_TEST_C"] == "kept"
    for key in ("TAPIS_TEST_A", "TAPIS_TEST_B"):
        monkeypatch.delenv(key)


def test_the_command_line_backup_and_verify(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    db = tmp_path / "t.db"
    import asyncio

    async def make() -> None:
        service = await MatchService.open(db)
        await Sandbox(
            service,
            folder=tmp_path,
            read_line=Script([games.names()[0]], limit=30),
            write=lambda _: None,
        ).run()
        await service.close()

    asyncio.run(make())
    assert entry.main(["--db", str(db), "verify"]) == 0
    assert entry.main(["--db", str(db), "backup", str(tmp_path / "copy.db")]) == 0
    assert (tmp_path / "copy.db").exists()


def test_a_damaged_database_gets_a_clear_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    bad = tmp_path / "bad.db"
    bad.write_text("not a database, just words " * 100)
    assert entry.main(["--db", str(bad), "verify"]) == 1
    assert "cannot use the database" in capsys.readouterr().err


async def test_the_computers_level_is_chosen_after_the_games_name(
    service: MatchService, tmp_path: Path
) -> None:
    script = Script(["ecarte level=expert", "ecarte level=strong", "quit"], then=None)
    code, out = await session(service, tmp_path, script)
    assert code == 0 and "There is no level “expert”" in out
    (info,) = await service.matches_of(HUMAN_ID)
    assert info.seats is not None and info.seats[1] == computer_player("strong")
    assert info.to_move == HUMAN_ID  # the computer played its turns before handing over


async def test_a_level_may_be_named_plainly_in_english_or_in_the_readers_language(
    service: MatchService, tmp_path: Path
) -> None:
    """ "ecarte strong" as well as "ecarte level=strong"; a word that is no game is answered
    as such before its options are read ("new ecarte" once said "ecarte" was no option)."""
    script = Script(["new ecarte", "ecarte strong", "quit"], then=None)
    code, out = await session(service, tmp_path, script)
    assert code == 0 and "There is no game called “new”" in out
    assert "is not an option" not in out
    (info,) = await service.matches_of(HUMAN_ID)
    assert info.seats is not None and info.seats[1] == computer_player("strong")
    out_fr: list[str] = []
    french = Script(["piquet facile", "ecarte level=fort", "quit"], then=None)
    french.out = out_fr
    code = await Sandbox(
        service, folder=tmp_path, read_line=french, write=out_fr.append, lang="fr"
    ).run()
    assert code == 0
    levels = {m.seats[1] for m in await service.matches_of(HUMAN_ID) if m.seats is not None}
    assert {computer_player("easy"), computer_player("strong")} <= levels
    assert "piquet fort" in "\n".join(out_fr)  # the example, in the reader's words


async def test_help_gives_examples_of_the_game_being_played(
    service: MatchService, tmp_path: Path
) -> None:
    script = Script(["help", "cinq-as", "help", "quit"], then=None)
    code, out = await session(service, tmp_path, script)
    assert code == 0
    at_choice, in_match = out.split("Commands (at any prompt):")[1:3]
    assert "play Q♠" in at_choice  # cards as the reader's pictures name them
    assert "play 3♠" in in_match and "play Q♠" not in in_match


async def test_resigning_asks_first_and_only_yes_ends_the_match(
    service: MatchService, tmp_path: Path
) -> None:
    """A mistyped "resign" must not end a match: the sandbox asks, as Discord does."""
    script = Script(["ecarte", "resign", "no", "resign", "yes", "quit"], then=None)
    code, out = await session(service, tmp_path, script)
    assert code == 0
    assert out.count("Resign Écarté #") == 2 and "You did not resign: match #" in out
    match_id = int(re.search(r"Resign Écarté #(\d+)", out).group(1))  # type: ignore[union-attr]
    info = await service.get(match_id)
    assert info.status == "finished" and info.result is not None
    assert info.result["how"] == "resignation" and "resigned at" in out


async def test_a_match_ends_with_its_result_after_the_last_trick(
    service: MatchService, tmp_path: Path
) -> None:
    """Read top to bottom, the last move and the deal's breakdown come before the result
    they lead to, which is the last word of the match."""
    code, out = await session(service, tmp_path, Script(["piquet deals=1"]))
    assert code == 0
    result = out.index(" is over. ")
    assert out.index("Deal 1: ") < result
    assert out.index("Tricks: ") < result
