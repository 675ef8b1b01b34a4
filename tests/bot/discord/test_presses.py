"""Whole matches played by pressing alone: every move from the mover's hand message, whose
components must reach every legal move at every turn (nothing typed, no /play)."""

from __future__ import annotations

import collections
import random
from typing import Any

import pytest

import games
from games.moves import move_cards
from tests.bot.discord.conftest import StartBot
from tests.bot.discord.driver import Table
from tests.bot.discord.test_matches import short
from tests.fakediscord import FakeDiscord, FakeUser

# A whole match at Discord's pace takes minutes: the longest games run with `make test-slow`,
# the shortest (Piquet) stays in `make test` as the fast representative.
LONG = ("bezique", "cinq-as", "ecarte")


@pytest.mark.timeout(1800)  # a long Bézigue match is some thousand moves
@pytest.mark.parametrize(
    "game",
    [pytest.param(g, marks=pytest.mark.slow) if g in LONG else g for g in games.names()],
)
async def test_a_whole_match_by_pressing_alone(
    game: str, fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser
) -> None:
    """Bézigue's default match, to 1,500 points, long enough to meet melds naming a card
    twice, which must be picked from the menu too; the other games' shortest."""
    bot = await start_bot()
    options = "" if game == "bezique" else short(game)
    table = await Table.open(fake, bot, game, options, alice, bob)
    table.presses_only = True
    table.secrecy = False  # what is public is checked by test_matches.py; here, the presses
    rng = random.Random(len(game))
    twice = 0

    def prefer(legal: list[str]) -> str | None:
        nonlocal twice
        doubled = [m for m in legal if len(set(move_cards(m))) < len(move_cards(m))]
        if doubled:  # always made when offered: the hardest moves to press
            twice += 1
            return rng.choice(doubled)
        return None

    table.prefer = prefer
    while await table.step(rng, check_images=False):
        assert table.moves < 3000
    info = await bot.service.get(table.match_id)
    assert info.status == "finished" and info.result is not None
    assert table.ways["slash"] == 0 and table.ways["select"] >= table.multi_card_moves
    if game == "bezique":
        assert twice > 0, "the match never offered a meld naming a card twice"


# Bob (not dealing) holds both queens of spades and jacks of diamonds, both jacks of spades
# and the jack of clubs; hearts are trumps (the turn-up), and he draws hearts: he wins each
# trick Alice (low clubs and diamonds) cannot.
BOB = ["QS", "QS", "JD", "JD", "JS", "JS", "JC", "AH"]
ALICE = ["7C", "7C", "7D", "7D", "8C", "8C", "8D", "8D"]
NEXT = ["9H", "10H", "9C", "KH", "9D", "AH", "10C"]  # the turn-up, then the first draws in turn
DOUBLE_BEZIQUE = "meld QS QS JD JD"
FOUR_JACKS = "meld JS JS JD JC"


def _deck() -> list[str]:
    rest = collections.Counter(games.get("bezique").pack)
    rest.subtract(BOB + ALICE + NEXT)
    return BOB + ALICE + NEXT + sorted(rest.elements())


async def test_the_double_bezique_and_four_jacks_of_both_packs_are_pressed(
    fake: FakeDiscord,
    start_bot: StartBot,
    alice: FakeUser,
    bob: FakeUser,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    bezique = games.get("bezique")
    dealt = bezique.new_match

    def new_match(seed: int, options: Any = None, deck: Any = None) -> games.State:
        return dealt(seed=seed, options=options, deck=_deck())

    monkeypatch.setattr(bezique, "new_match", new_match)
    bot = await start_bot()
    table = await Table.open(fake, bot, "bezique", "first_seat=0", alice, bob)
    table.presses_only = True
    made: list[str] = []

    def prefer(legal: list[str]) -> str:
        for wanted in (DOUBLE_BEZIQUE, FOUR_JACKS):
            if wanted in legal and wanted not in made:
                made.append(wanted)
                return wanted
        plays = [m for m in legal if m.startswith("play")]
        hearts = [m for m in plays if m.endswith("H")]
        low = [m for m in plays if m.split()[1][0] in "78"]
        return (hearts or low or plays or legal)[0]

    table.prefer = prefer
    rng = random.Random(1)
    while len(made) < 2 or (await bot.service.get(table.match_id)).to_move == bob.id:
        assert table.moves < 20, made
        await table.step(rng, check_images=False)
    assert made == [DOUBLE_BEZIQUE, FOUR_JACKS]
    assert table.ways["select"] == 2 and table.ways["slash"] == 0
    # Both melds are scored: 500 for the double bézigue, 40 for four jacks.
    view = await bot.service.view_for(table.match_id, None)
    info = await bot.service.get(table.match_id)
    seat = 1 if info.seats is not None and info.seats[1].user_id == bob.id else 0
    assert view["scores"][seat] == 540, view["scores"]
