"""Every sentence of tournaments and duplicate matches, in English, French and Swedish, read by
the style checker of test_words.py (plus the tournament's own English words); the standings
picture in each language; and a server's language reaching what the service posts."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import bot.service.tournament_words as say
from bot import i18n
from bot.discord.tournaments import stage
from bot.service import MatchService, PlayerRef, ServiceError
from bot.service.tournament_values import Entry, TournamentInfo
from games.words import Words
from rendering.standings import standings_png
from tests import style
from tests.bot.test_words import check

# English words of tournaments that French and Swedish never use.
TOURNAMENT_ENGLISH = {
    "round", "rounds", "player", "players", "joins", "leaves", "standings",
    "congratulations", "winner", "against", "duplicate", "leg", "legs", "bye", "forfeit",
    "starts", "clock", "days", "day", "seats", "swapped", "over", "draw", "cancelled",
    "pairings", "tournament", "left", "yet", "open", "it", "and", "the", "wins",
}  # fmt: skip
GUILD = 77


def every_sentence(w: Words) -> list[str]:
    """Every kind of tournament and duplicate-match message, with the counts that change its
    words (none, one, several) and each way a duplicate match ends."""
    said = []
    for count in (0, 1, 2, 5):
        said += [
            say.joined("Cup", "Ana", count, w),
            say.left_before("Cup", "Ana", count, w),
            say.cancelled("Cup", count, w),
        ]
    for rounds, days, duplicate, start in ((1, 1, True, 1.8e9), (3, None, False, None)):
        for format_ in ("swiss", "round-robin"):
            terms = say.describe("Cup", "piquet", format_, duplicate, rounds, days, start, w)
            said += [terms, say.created(4, terms, w)]
    said += [
        say.left_during("Cup", "Ana", 2, w),
        say.pairings("Cup", 2, 3, [("Ana", "Ben", 12), ("Cy", "Di", None)], "Ed", w),
        say.round_match("Cup", 2, "Ana", "Ben", 12, w),
        say.round_title("Cup", 2, 3, w),
        say.standings_caption("Cup", 2, 3, False, w),
        say.standings_caption("Cup", 1, 1, True, w),
        say.standings_caption("Cup", 3, 3, True, w),
        say.winner("Cup", "Ana", w),
        say.duplicate_terms(w),
        say.second_leg(7, 8, "Ana", "Ben", w),
        say.duplicate_over(7, ("Ana", "Ben"), None, None, "aborted", w),
        say.duplicate_over(7, ("Ana", "Ben"), None, 1, "time", w),
        say.duplicate_over(7, ("Ana", "Ben"), None, 0, "resignation", w),
        say.duplicate_over(7, ("Ana", "Ben"), (-12.0, -12.0), None, "play", w),
        say.duplicate_over(7, ("Ana", "Ben"), (31.0, 30.0), 0, "play", w),
        say.duplicate_over(7, ("Ana", "Ben"), (-40.0, 25.0), 1, "play", w),
        say.ratings_moved("bezique", ("Ana", "Ben"), [(1523, 23), (1477, -23)], w),
    ]
    for status, round_ in (("open", 0), ("running", 2), ("finished", 3), ("cancelled", 0)):
        said.append(stage(_info(status, round_), w))
    return said


def _info(status: str, round_: int) -> TournamentInfo:
    return TournamentInfo(
        id=4, guild_id=GUILD, channel_id=5, thread_id=None, name="Cup", game="piquet",
        options={}, format="swiss", duplicate=False, rounds=3, days_per_move=None,
        creator_id=1, status=status, round=round_, starts_at=None,
        players=(Entry(1, "Ana", 1, None),),
    )  # fmt: skip


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_tournament_message_reads_well(lang: str) -> None:
    w = i18n.words(lang)
    said = every_sentence(w)
    # The ratings' sentence is every rated match's (Swedish players say "rating" too):
    # checked here for everything but that word.
    moved = say.ratings_moved("bezique", ("Ana", "Ben"), [(1523, 23), (1477, -23)], w)
    check([text for text in said if text != moved], lang)
    assert style.problems(moved) == []
    if lang != i18n.DEFAULT_LANG:
        english = every_sentence(i18n.words("en"))
        left = [
            (text, sorted(found))
            for text in said
            if (
                found := {
                    x
                    for x in re.findall(r"[A-Za-z]+", re.sub(r"`[^`]*`", " ", text))
                    if x.lower() in TOURNAMENT_ENGLISH
                }
            )
        ]
        assert left == []
        same = [
            a for a, b in zip(said, english, strict=True) if a == b and re.search("[a-z]{3}", a)
        ]
        assert same == []


def test_plurals_and_numbers_come_from_the_language() -> None:
    en, fr, sv = (i18n.words(lang) for lang in ("en", "fr", "sv"))
    assert say.joined("Cup", "Ana", 1, en) == "Ana joins Cup: 1 player so far."
    assert say.joined("Cup", "Ana", 2, en) == "Ana joins Cup: 2 players so far."
    assert "1 joueur " in say.joined("Cup", "Ana", 1, fr)
    assert "2 joueurs " in say.joined("Cup", "Ana", 2, fr)
    assert say.standings_caption("Cup", 1, 1, True, sv).startswith("**Cup** är slut efter 1 rond.")
    over = say.duplicate_over(7, ("Ana", "Ben"), (-40.0, 25.0), 1, "play", en)
    assert "\N{MINUS SIGN}40" in over and "wins by 65 points" in over
    assert "(\N{MINUS SIGN}23)" in say.ratings_moved("piquet", ("A", "B"), [(1, 2), (3, -23)], sv)
    assert "Pikett" in say.describe("Cup", "piquet", "swiss", False, None, None, None, sv)


def test_the_standings_picture_speaks_each_language() -> None:
    rows = [
        {"rank": 1, "name": "Ana", "score": 2.5, "buchholz": 3, "sonneborn_berger": 4.5,
         "wins": 2, "draws": 1, "losses": 0},
        {"rank": 2, "name": "Ben", "score": 0, "buchholz": 1, "sonneborn_berger": 0,
         "wins": 0, "draws": 0, "losses": 3, "left": True},
    ]  # fmt: skip
    pictures = {lang: standings_png("Cup", rows, i18n.words(lang)) for lang in i18n.LANGS}
    assert pictures["en"] == standings_png("Cup", rows)  # English unless told otherwise
    assert len(set(pictures.values())) == len(i18n.LANGS)  # the headings differ


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[MatchService]:
    opened = await MatchService.open(tmp_path / "t.db")
    yield opened
    await opened.close()


async def test_the_service_speaks_the_servers_language(service: MatchService) -> None:
    await service.languages.choose(GUILD, "sv")
    info = await service.tournaments.create(
        PlayerRef(1, "Ana"), guild_id=GUILD, channel_id=5, name="Cup", game="piquet",
        options=None, format_="swiss", duplicate=False, rounds=None, days_per_move=None,
        starts_at=None,
    )  # fmt: skip
    _, news = await service.tournaments.join(info.id, PlayerRef(2, "Ben"), GUILD)
    assert news.text == "Ben går med i Cup: 1 spelare hittills."
    await service.tournaments.join(info.id, PlayerRef(3, "Cy"), GUILD)
    await service.tournaments.start(info.id, 1, GUILD, manager=True)
    await service.tournaments.step()
    (report,) = await service.tournaments.posts.reports()
    assert report.lang == "sv" and report.text.startswith("**Cup**, rond 1 av 1:")
    (posting,) = await service.tournaments.posts.postings()
    assert " mot " in posting.text and posting.thread_name.startswith("Pikett · ")


async def test_refusals_are_told_in_the_askers_language(service: MatchService) -> None:
    terms: dict[str, object] = {
        "guild_id": GUILD, "channel_id": 5, "name": "Cup", "game": "piquet", "options": None,
        "format_": "swiss", "duplicate": False, "rounds": None, "days_per_move": None,
        "starts_at": None,
    }  # fmt: skip
    ana = PlayerRef(1, "Ana")
    refusals: list[ServiceError] = []
    for bad in ({"game": "chess"}, {"format_": "knockout"}, {"rounds": 99}, {"starts_at": 1.0},
                {"format_": "round-robin", "rounds": 2}, {"options": {"deals": 0}},
                {"days_per_move": 99}):  # fmt: skip
        with pytest.raises(ServiceError) as caught:
            await service.tournaments.create(ana, **{**terms, **bad})  # type: ignore[arg-type]
        refusals.append(caught.value)
    info = await service.tournaments.create(ana, **terms)  # type: ignore[arg-type]
    await service.tournaments.join(info.id, ana, GUILD)
    attempts = (
        service.tournaments.join(info.id, ana, GUILD),
        service.tournaments.leave(info.id, 2, GUILD),
        service.tournaments.start(info.id, 2, GUILD, manager=False),
        service.tournaments.start(info.id, 1, GUILD, manager=False),
        service.tournaments.get(info.id + 1, GUILD),
    )
    for attempt in attempts:
        with pytest.raises(ServiceError) as caught:
            await attempt
        refusals.append(caught.value)
    for lang in i18n.LANGS:
        said = [refusal.say(i18n.words(lang)) for refusal in refusals]
        check(said, lang)
        if lang != i18n.DEFAULT_LANG:
            assert not set(said) & {str(refusal) for refusal in refusals}, lang
    assert refusals[7].say(i18n.words("fr")) == "Vous êtes déjà inscrit à Cup."
