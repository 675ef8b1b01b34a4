"""Every legal move is one press away, and Discord would take every hand's components.

Random positions of every game (default options: long Bézigue matches meet the double
bézigue and four jacks of both packs), in every language, are given the components of
their hand message; these are checked with the fake Discord's own limits and every legal
move is checked reachable by pressing.
"""

from __future__ import annotations

import random

import pytest

import games
from bot import i18n
from bot.discord.components import move_buttons, release
from games.moves import move_cards
from tests.bot.discord.driver import unreachable
from tests.fakediscord import limits

MATCHES = 6  # random matches per game, every position of each scanned


@pytest.mark.parametrize("game", games.names())
async def test_every_position_gets_components_discord_takes_and_reaches_every_move(
    game: str,
) -> None:
    rules = games.get(game)
    tongues = [i18n.words(lang) for lang in ("en", "fr", "sv")]
    positions = twice = hinted = 0
    for seed in range(MATCHES):
        rng = random.Random(seed)
        state = rules.new_match(seed=seed)
        while state.result is None:
            legal = state.legal_moves()
            w = tongues[positions % len(tongues)]
            # Every other hand is of a match where hints may be asked: a Hint button beside.
            hint = positions % 2 == 1
            components = move_buttons(7, positions, legal, w, game, hint=hint)
            assert components is not None
            rows = components.to_components()
            ids = [item.get("custom_id", "") for row in rows for item in row["components"]]
            assert any(i.startswith("tapis:hint:7:") for i in ids) <= hint
            hinted += hint and f"tapis:hint:7:{positions}" in ids
            problems = limits.components(rows)
            assert not problems, (game, legal, [str(p) for p in problems])
            assert unreachable(rows, legal, 7) == [], (game, legal)
            release(components)
            twice += any(len(set(c)) < len(c) for c in map(move_cards, legal))
            positions += 1
            state = state.apply(rng.choice(legal))
    assert positions > MATCHES * 10
    assert hinted == positions // 2  # room is kept for it in every layout
    if game == "bezique":
        assert twice > 0  # melds naming a card twice were among the positions scanned
