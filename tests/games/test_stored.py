"""States stored by earlier versions still load, unchanged (docs/engine.md, "Stored states").

Users' databases hold states written by ``to_json``; a new version must read them back to the
same views, the same legal moves and the same JSON text. ``stored/<game>.json`` holds states
written at fixed seeds before the engines shared their match header. When the stored format
grows, add the new version's states beside them (``python -m tests.games.test_stored v2``
writes ``stored/<game>-v2.json``); a new game's first states are written by the same command
without a version. Files already there are never written over.
"""

from __future__ import annotations

import json
import random
import sys
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
    files = [STORED / f"{name}.json", *sorted(STORED.glob(f"{name}-*.json"))]
    records = [record for path in files for record in json.loads(path.read_text(encoding="utf-8"))]
    assert records, "no stored states"
    for record in records:
        state = game.from_json(record["state"])
        assert state.to_json() == record["state"]
        assert state.legal_moves() == record["legal_moves"]
        views = json.loads(json.dumps([state.view(0), state.view(1), state.view(None)]))
        # Views may grow: a key added since the record was written is not compared, but
        # every key the record has must read the same.
        for view, kept in zip(views, record["views"], strict=True):
            assert {key: view.get(key) for key in kept} == kept


if __name__ == "__main__":
    suffix = f"-{sys.argv[1]}" if len(sys.argv) > 1 else ""
    for game_name in games.names():
        target = STORED / f"{game_name}{suffix}.json"
        if target.exists():  # stored states are added, never written over
            print(f"{target} exists: kept as it is", file=sys.stderr)
            continue
        text = json.dumps(generate(game_name), ensure_ascii=False, separators=(",", ":"))
        target.write_text(text + "\n", encoding="utf-8")
