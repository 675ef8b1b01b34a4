"""Every message the service and the adapter send, in English, French and Swedish, read by a
small style checker: no rule decision ids, no raw move codes, no hyphen-minus for a minus,
no "1 cards", and no English left in French or Swedish. The end of a match of each game is
also kept as golden text in the three languages."""

from __future__ import annotations

import os
import random
import re
from dataclasses import replace
from pathlib import Path

import pytest

import games
from bot import i18n
from bot.discord.challenges import answered_post, thread_name
from bot.discord.commands import _label, help_text, record
from bot.service import MatchService, PlayerRef, ServiceError, endings, notices, wording
from bot.service import life as life_module
from bot.service.values import MatchRow, People, PlayerProfile
from games.words import ENGLISH
from tests import style
from tests.bot.conftest import CHANNEL, GUILD, FakeClock

LANGS = i18n.LANGS
GOLDEN = Path(__file__).parent / "golden" / "words"

_DECISION = style.decision_ids("D", re.I)
_CODE = re.compile(r"(?<![\w`])(?:10|[2-9]|1[0-9]|2[01]|[JQKA])[SHDCT]\b")
_HYPHEN_MINUS = re.compile(r"(?:^|[\s(–:])-\d")
_ONE_PLURAL = re.compile(
    r"(?<![\d.,])\b1 (?:cards|wins|losses|draws|moves|days|hours|minutes|points|tricks|matches"
    r"|cartes|victoires|défaites|coups|jours|heures|minutes|parties|levées"
    r"|dagar|timmar|minuter|vinster|förluster|partier)\b"
)
# Words that only English uses: one of them in a French or Swedish message means a sentence
# was left untranslated. (Move words such as "discard" are notation, the same everywhere.)
ENGLISH_ONLY = {
    "the", "you", "your", "wins", "win", "against", "turn", "played", "over", "ratings",
    "score", "resigned", "accepts", "offers", "challenges", "match", "with", "not", "is",
    "declines", "withdraws", "reminder", "within", "expired", "rating", "another",
}  # fmt: skip


def style_problems(text: str, lang: str, *, notation: bool = False) -> list[str]:
    """What reads wrong in ``text`` (a message in ``lang``), one line each; ``notation``: the
    message teaches how to write cards, so card codes are its examples."""
    found = []
    if _DECISION.search(text):
        found.append(f"a rule decision id: {text!r}")
    if not notation and _CODE.search(text):
        found.append(f"a raw card code: {text!r}")
    if _HYPHEN_MINUS.search(text):
        found.append(f"a hyphen-minus before a digit: {text!r}")
    if _ONE_PLURAL.search(text):
        found.append(f"a plural after 1: {text!r}")
    if lang != "en":
        words = set(re.findall(r"[A-Za-z]+", re.sub(r"`[^`]*`|<[^>]*>", " ", text)))
        english = {w for w in words if w.lower() in ENGLISH_ONLY}
        if english:
            found.append(f"English words {sorted(english)} in {lang}: {text!r}")
    return found


def test_the_style_checker_finds_what_reads_wrong() -> None:
    assert style_problems("Bob wins 25 – 8.", "en") == []
    assert style_problems("Bob gagne 25 – 8.", "fr") == []
    assert style_problems("Refused (ecarte D8).", "en")
    assert style_problems("Alice: play QS", "en")
    assert style_problems("Score -47–-33", "en")
    assert style_problems("You have 1 cards.", "en")
    assert style_problems("Bob wins 25 – 8.", "fr")
    assert style_problems("Tapez `discard` et jusqu’à 5 cartes.", "fr") == []


def people_in(row: MatchRow, people: People, lang: str) -> dict[int, PlayerProfile]:
    """The match's people, each reading ``lang``."""
    return {uid: replace(p, locale=lang) for uid, p in people.items()}


def check(texts: list[str], lang: str, *, notation: bool = False) -> None:
    """Every text passes this checker, and the house one of the games' words (raw move codes
    such as ``draw D``, a bare ``discard``) unless it teaches the notation."""
    problems = [line for text in texts for line in style_problems(text, lang, notation=notation)]
    if not notation:
        problems += [line for text in texts for line in style.problems(text)]
    assert problems == []


def all_kinds(row: MatchRow, people: People, lang: str, now: float) -> list[str]:
    """Every delivery the service makes of this match, as ``lang`` reads it."""
    people = people_in(row, people, lang)
    said: list[str] = []
    if row.state is not None and row.seat_ids is not None:
        said += [d.text for d in wording.progress(row, people, now, lang)]
        said += [d.text for d in endings.aborted(row, people, 0, lang)]
        ended = replace(
            row, status="finished", result={"winner": 1, "scores": [-47, 33], "how": "play"}
        )
        for how in ("play", "resignation", "time"):
            over = replace(ended, result={**(ended.result or {}), "how": how})
            said += [d.text for d in endings.ending(over, people, [], now, lang)]
        said += [d.text for d in endings.resigned(ended, people, 0, [], now, lang)]
        said += [d.text for d in endings.timed_out(ended, people, 0, [], now, lang)]
        timed = replace(row, deadline=now + 3 * 86_400 + 7200, reminder_at=None)
        said += [d.text for d in notices.reminder(timed, people, 0, now)]
        said += [d.text for d in wording.progress(timed, people, now, lang)]
    challenge = replace(row, status="challenge", seat_ids=None, state=None, days_per_move=1)
    said += [d.text for d in notices.challenged(challenge, people, lang)]
    said += [d.text for d in notices.challenged(replace(challenge, opponent_id=None), people, lang)]
    said += [d.text for d in notices.challenge_expired(challenge, people, 1.0, lang)]
    for status in ("declined", "cancelled"):
        closed = replace(challenge, status=status)
        said += [d.text for d in notices.challenge_closed(closed, people, row.challenger_id, lang)]
    for status in ("challenge", "finished", "declined", "cancelled", "aborted", "corrupt"):
        said.append(wording.status_reason(replace(row, status=status)).say(i18n.words(lang)))
    return said


async def test_every_message_kind_of_the_service_and_the_adapter_in_each_language(
    service: MatchService, clock: FakeClock
) -> None:
    alice, bob = PlayerRef(11, "Alice"), PlayerRef(12, "Bob")
    info, _ = await service.challenge(alice, bob, "piquet", guild_id=GUILD, channel_id=CHANNEL)
    info, _ = await service.accept(info.id, bob)
    row, people = await service.store.peek_with_people(info.id)
    refusals: list[ServiceError] = []
    for attempt in (
        service.move(info.id, 999, "play QS"),
        service.move(info.id, info.to_move if info.to_move != alice.user_id else bob.user_id,
                     "play QS"),
        service.move(info.id, info.to_move or 0, "play 3Z"),
        service.move(info.id, info.to_move or 0, "nonsense"),
        service.move(12345, alice.user_id, "play QS"),
        service.move(info.id, info.to_move or 0, row.state.legal_moves()[0] if row.state else "",
                     expected_version=99),
        service.challenge(alice, alice, "piquet", guild_id=GUILD, channel_id=CHANNEL),
        service.challenge(alice, bob, "chess", guild_id=GUILD, channel_id=CHANNEL),
        service.challenge(alice, bob, "piquet", guild_id=GUILD, channel_id=CHANNEL,
                          options={"deals": 0}),
        service.challenge(alice, bob, "piquet", guild_id=GUILD, channel_id=CHANNEL,
                          options={"colour": 1}),
        service.challenge(alice, bob, "piquet", guild_id=GUILD, channel_id=CHANNEL,
                          days_per_move=99),
        service.accept(info.id, alice),
        service.rematch(info.id, alice),
        service.hand_delivery(info.id, 999),
    ):  # fmt: skip
        with pytest.raises(ServiceError) as refused:
            await attempt
        refusals.append(refused.value)
    for lang in LANGS:
        w = i18n.words(lang)
        said = all_kinds(row, people, lang, service.store.ts())
        match = row.info(people)
        said += [thread_name(match, w), answered_post(match, w), _label(match, alice.user_id, w)]
        said += [record(1, 0, 2, w), help_text(w)]
        # Refusals of a malformed move say how cards are written, with codes as examples.
        check([error.say(w) for error in refusals], lang, notation=True)
        for error in refusals:  # one sentence (or two), ending with a full stop
            assert error.say(w).rstrip().endswith("."), error.say(w)
        check(said, lang)
        if lang != "en":
            english = all_kinds(row, people, "en", service.store.ts())
            assert [s for s in said[: len(english)] if s in english and "#" not in s] == []


def _fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(life_module, "fresh_seed", lambda: 20261202)


@pytest.mark.parametrize("game", games.names())
async def test_a_whole_match_reads_well_in_each_language(
    service: MatchService, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full match through the service: every delivery it makes, made again as each language
    reads it, passes the style checker; the end of the match is golden text."""
    _fixed_seed(monkeypatch)
    alice, bob = PlayerRef(21, "Alice", "fr"), PlayerRef(22, "Bob", "sv")
    info, _ = await service.challenge(
        alice,
        bob,
        game,
        guild_id=GUILD,
        channel_id=CHANNEL,
        options=games.get(game).short_options(),
    )
    info, deliveries = await service.accept(info.id, bob)
    rng = random.Random(5)
    seen = {lang: [] for lang in LANGS}  # type: dict[str, list[str]]
    for delivery in deliveries:
        seen[delivery.lang].append(delivery.text)
    while info.status == "active":
        assert info.to_move is not None
        legal = await service.legal_moves(info.id, info.to_move)
        info, deliveries = await service.move(info.id, info.to_move, rng.choice(legal))
        for delivery in deliveries:
            seen[delivery.lang].append(delivery.text)
        row, people = await service.store.peek_with_people(info.id)
        if row.status == "active":
            for lang in LANGS:
                made = wording.progress(row, people_in(row, people, lang), 0.0, lang)
                seen[lang] += [d.text for d in made]
    assert {"fr", "sv"} <= {lang for lang, texts in seen.items() if texts}
    row, people = await service.store.peek_with_people(info.id)
    for lang in LANGS:
        ending = endings.ending(row, people_in(row, people, lang), [], 0.0, lang)
        check(seen[lang] + [d.text for d in ending], lang)
        golden(f"{game}.{lang}.txt", "\n\n".join(d.text for d in ending))


def golden(name: str, text: str) -> None:
    """``text`` must equal the golden file ``name``; TAPIS_GOLDEN=update writes it instead."""
    path = GOLDEN / name
    if os.environ.get("TAPIS_GOLDEN") == "update" or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text + "\n", encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text + "\n"


def _finished(game: str, result: dict[str, object]) -> MatchRow:
    """A finished match between seat 0 (user 1) and seat 1 (user 2) with ``result``."""
    return MatchRow(
        id=1, game=game, guild_id=None, channel_id=None, thread_id=None, challenger_id=1,
        opponent_id=2, seat_ids=(1, 2), options={}, seed=1, status="finished", version=9,
        state=None, to_move_id=None, days_per_move=None, deadline=None, reminder_at=None,
        result=result, rematch_of=None, rated=False,
    )  # fmt: skip


def test_piquet_results_name_the_winner_first_with_settlement_and_rubicon() -> None:
    row = _finished(
        "piquet",
        {"winner": 1, "scores": [80, 125], "how": "play", "settlement": 305, "rubicon": True},
    )
    text = wording.result_text(row, ("Alice", "Bob"), i18n.words("en"))
    assert text.startswith("Bob wins 125 – 80.")
    assert "Alice stayed under 100" in text and "305" in text
    fr = wording.result_text(row, ("Alice", "Bob"), i18n.words("fr"))
    assert fr.startswith("Bob gagne 125 – 80.") and "rubicon" in fr


@pytest.mark.parametrize(
    ("how", "lang", "said"),
    [
        ("resignation", "en", "Bob resigned at 120 – 40: Alice wins."),
        ("time", "en", "Bob ran out of time at 120 – 40: Alice wins."),
        ("resignation", "fr", "Bob abandonne à 120 – 40\u00a0: Alice gagne."),
        ("time", "sv", "Bob fick slut på tid vid 120 – 40: Alice vinner."),
    ],
)
def test_a_match_given_up_behind_says_the_score_as_it_stood(how: str, lang: str, said: str) -> None:
    """Not "Alice wins 40 – 120": the one who gave up is the subject, their score first."""
    row = _finished("bezique", {"winner": 0, "scores": [40, 120], "how": how})
    assert wording.result_text(row, ("Alice", "Bob"), i18n.words(lang)) == said


def test_a_first_loss_never_reads_as_a_negative_rating() -> None:
    from bot.service import ratings

    start = ratings.Skill()
    first, second = ratings.rate(start, start, 0)
    assert ratings.displayed(start.shown) == 1500
    assert 0 < ratings.displayed(second.shown) < 1500 < ratings.displayed(first.shown)
    assert ratings.displayed(-1000.0) == 0


_TERMS = {
    "bezique": ({"target": 1000, "first_seat": 1}, "to 1,000 points, Bob deals first"),
    "cinq-as": ({"rounds": 1, "first_seat": 0}, "in 1 round, Alice plays first"),
    "ecarte": ({"target": 17}, "to 17 points"),
    "piquet": ({"deals": 2, "first_seat": 0}, "in 2 deals, Alice deals first"),
}


def _shortest_terms(game: str) -> tuple[dict[str, int], str]:
    """A game without terms above: its shortest match, the one who accepts dealing first."""
    options = {**games.get(game).short_options(), "first_seat": 1}
    return options, ", ".join(games.get(game).options_text(options, ENGLISH, ("Alice", "Bob")))


@pytest.mark.parametrize("game", games.names())
def test_a_challenge_says_its_options_in_words(game: str) -> None:
    """A challenge's terms say its options as players would ('to 1,000 points, Bob deals
    first'), never the names typed in `/challenge` ('target 1000, first_seat 1'), in every
    language; to anyone, the one who accepts is who the first seat names."""
    options, english = _TERMS.get(game) or _shortest_terms(game)
    people = {
        1: PlayerProfile.unknown(1).seen_as(PlayerRef(1, "Alice")),
        2: PlayerProfile.unknown(2).seen_as(PlayerRef(2, "Bob")),
    }
    row = MatchRow(
        id=7, game=game, guild_id=None, channel_id=None, thread_id=None, challenger_id=1,
        opponent_id=2, seat_ids=None, options=options, seed=None, status="challenge",
        version=0, state=None, to_move_id=None, days_per_move=3, deadline=None,
        reminder_at=None, result=None, rematch_of=None, rated=True,
    )  # fmt: skip
    said = {lang: notices.challenge_post(row, people, i18n.words(lang)) for lang in LANGS}
    assert f"({english}, 3 days per move)" in said["en"], said["en"]
    for lang, text in said.items():
        assert not re.search(r"\b(?:target|rounds|deals|first_seat) \d", text), text
        check([text], lang)
    if game == "piquet":
        assert "(en 2 donnes, Alice donne en premier, 3 jours par coup)" in said["fr"]
        assert "på 2 givar, Alice ger först" in said["sv"]
    first = games.get(game).option_of("first_seat")
    assert first is not None
    older = replace(row, options={first.aliases[0]: 1})
    assert "Bob" in notices.challenge_post(older, people, ENGLISH).split("(")[1]
    if "first_seat" in options:
        open_to_all = notices.challenge_post(replace(row, opponent_id=None), people, ENGLISH)
        who = "whoever accepts" if options["first_seat"] == 1 else "Alice"
        does = {"dealer": "deals", "player": "plays"}[games.get(game).first_seat_role]
        assert f"{who} {does} first" in open_to_all
