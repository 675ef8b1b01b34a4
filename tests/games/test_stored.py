"""States stored by earlier versions still load, unchanged (docs/engine.md, "Stored states").

Users' databases hold states written by ``to_json``; a new version must read them back to the
same views, the same legal moves and the same JSON text. ``stored/<game>.json`` holds states
written at fixed seeds before the engines shared their match header; refresh it only by
adding states (``python -m tests.games.test_stored``), never by rewriting the old ones.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import games

STORED = Path(__file__).parent / "stored"
SEEDS = (3, 11)
MOMENTS = (0.0, 0.3, 0.7, 1.0)
"""Where along a random match a state is kept: its start, two points inside, its end."""


def _record(state: games.State) -> dict[str, Any]:
    return {
        "state": state.to_json(),
        "legal_moves": state.legal_moves(),
        "views": [state.view(0), state.view(1), state.view(None)],
    }


def generate(name: str) -> list[dict[str, Any]]:
    """States of random matches at fixed seeds, as the current code writes and shows them."""
    game = games.get(name)
    records = []
    for seed in SEEDS:
        rng = random.Random(seed)
        states = [game.new_match(seed=seed)]
        while states[-1].to_move is not None:
            states.append(states[-1].apply(rng.choice(states[-1].legal_moves())))
        records.extend(_record(states[round(at * (len(states) - 1))]) for at in MOMENTS)
    return records


@pytest.mark.parametrize("name", games.names())
def test_stored_states_load_to_the_same_views_moves_and_text(name: str) -> None:
    game = games.get(name)
    records = json.loads((STORED / f"{name}.json").read_text(encoding="utf-8"))
    assert records, "no stored states"
    for record in records:
        state = game.from_json(record["state"])
        assert state.to_json() == record["state"]
        assert state.legal_moves() == record["legal_moves"]
        views = json.loads(json.dumps([state.view(0), state.view(1), state.view(None)]))
        assert views == record["views"]


if __name__ == "__main__":
    for game_name in games.names():
        text = json.dumps(generate(game_name), ensure_ascii=False, separators=(",", ":"))
        (STORED / f"{game_name}.json").write_text(text + "\n", encoding="utf-8")
