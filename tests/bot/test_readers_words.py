"""Translations read by someone who speaks them: every move word a refusal, a list of moves
or the help names is the reader's own (`écarter`, `melda`) and is read back when typed;
French puts no bare preposition before a game's name ("au 5 As", never "à Le 5 As"); one
word for one thing; and a match resumed in another language speaks only that one."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import games
from bot import i18n
from bot.sandbox import HUMAN_ID, as_typed
from bot.service import MatchService, wording
from games.phrases import MOVE_WORDS
from games.refusals import IllegalMove
from tests.bot.sandbox.test_sandbox import Script, session

# The first word of anything shown as typed, between backticks.
_TYPED = re.compile(r"`([^\W\d_]+)")


def refusals_and_listings(name: str, lang: str) -> list[str]:
    """What a player of ``lang`` is told through a random match of ``name``: the refusal of
    every kind of malformed or illegal move at many moments, and the list of moves open."""
    w = i18n.words(lang)
    game = games.get(name)
    state = game.new_match(seed=11)
    rng = random.Random(11)
    said: list[str] = []
    seen_moves: list[str] = []
    step = 0
    while state.to_move is not None:
        legal = state.legal_moves()
        seen_moves += legal[:3]
        if step % 5 == 0:
            tries = ["nonsense", "", *game.state_type.syntax]
            tries += [f"{verb} ZZ" for verb in game.state_type.syntax]
            tries += [f"{verb} QS QS QS QS QS QS" for verb in game.state_type.syntax]
            tries += [m for m in seen_moves[-30:] if m not in legal]
            for typed in tries:
                try:
                    state.apply(state.canonical(typed))
                except IllegalMove as error:
                    said.append(error.say(w))
                except ValueError:
                    continue
            said.append(wording.listing(name, legal, w))
        state = state.apply(rng.choice(legal))
        step += 1
    return said


@pytest.mark.parametrize("lang", ["fr", "sv"])
@pytest.mark.parametrize("name", games.names())
def test_every_move_word_a_refusal_or_help_names_is_the_readers(name: str, lang: str) -> None:
    texts = refusals_and_listings(name, lang)
    *paragraphs, _equivalents = games.get(name).rules_help(i18n.words(lang)).split("\n\n")
    texts += paragraphs  # the last lists each word's English and other equivalents
    named = {word for text in texts for word in _TYPED.findall(text)}
    own = {spelt[0 if lang == "fr" else 1] for spelt in MOVE_WORDS.values()}
    english = sorted(word for word in named if word in MOVE_WORDS)
    assert english == [], (name, lang, english)
    verbs = {spelt[0 if lang == "fr" else 1] for verb, spelt in MOVE_WORDS.items()
             if verb in games.get(name).state_type.syntax}  # fmt: skip
    assert verbs <= named & own, (name, lang, sorted(named))


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("name", games.names())
def test_a_move_typed_in_the_readers_words_is_read(name: str, lang: str) -> None:
    """`écarter D♠ V♦`, `melda D♠ Kn♦`: what the reader is taught is what the parser reads."""
    w = i18n.words(lang)
    state = games.get(name).new_match(seed=3)
    rng = random.Random(3)
    for _ in range(40):
        if state.to_move is None:
            break
        for move in state.legal_moves()[:20]:
            assert state.canonical(as_typed(move, w)) == move
        state = state.apply(rng.choice(state.legal_moves()))


def _translations(lang: str) -> list[str]:
    with i18n.catalog_path(lang).open("rb") as source:
        catalog = read_po(source, locale=lang)
    return [
        form
        for entry in catalog
        if entry.id
        for form in (entry.string if isinstance(entry.string, tuple) else (entry.string,))
    ]


def test_french_puts_no_bare_preposition_before_a_games_name() -> None:
    """ "Root défie Tapis à Le 5 As" reads wrong: a game's name follows no "à" or "de"."""
    wrong = re.compile(r"(?:\b[àÀ]|\b[dD]e|\b[dD]u|\b[aA]u|d’)[\s\u00a0\u202f]*\{(?:game|what)\}")
    found = [text for text in _translations("fr") if wrong.search(text)]
    assert found == []
    fr = i18n.words("fr")
    title = games.get("cinq-as").title_in(fr)
    for text in _translations("fr"):
        if "{game}" in text or "{what}" in text:
            filled = text.replace("{game}", title).replace("{what}", title)
            assert not re.search(r"\b(?:à|de) Le\b", filled), filled


def test_swedish_calls_a_meld_by_one_word() -> None:
    """ "meldning" on the board, in the rules and in the pictures, never "melding" beside it."""
    said = " ".join(_translations("sv")).lower()
    assert "meldning" in said
    assert not re.search(r"\bmelding", said)


async def test_a_match_resumed_in_another_language_speaks_only_that_one(
    service: MatchService, tmp_path: Path
) -> None:
    async def run(lang: str, lines: list[str]) -> str:
        import bot.sandbox

        script = Script(lines, then=None)
        out: list[str] = []
        script.out = out
        box = bot.sandbox.Sandbox(
            service, folder=tmp_path, read_line=script, write=out.append, level="easy",
            human_name="Tester", lang=lang,
        )  # fmt: skip
        assert await box.run() == 0
        return "\n".join(out)

    await run("sv", ["ecarte", "quit"])
    (info,) = await service.matches_of(HUMAN_ID)
    resumed = await run("en", [f"#{info.id}", "hand", "quit"])
    assert f"#{info.id} Écarté against Tapis (easy)" in resumed  # which game, whom against
    assert "Your hand:" in resumed and "Score:" in resumed
    swedish = {"Din", "Ställning", "mot", "Dina", "drag", "tur", "kort", "talongen"}
    assert swedish.isdisjoint(re.findall(r"\w+", resumed)), resumed
    _code, text = await session(service, tmp_path, Script(["quit"], then=None))
    assert "Unfinished matches:" in text and "Écarté against Tapis (easy)" in text
