"""``python -m rendering preview --game G --seed N --out DIR``: pictures of a match to look at.

Plays match ``N`` of game ``G`` with random legal moves (seeded by ``N`` too, so the same
command writes the same pictures) and writes, at a few moments from the deal to the end, the
table picture and both players' hand pictures as PNG files in ``DIR``.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import games
import rendering
from games.core import State


def play(game: games.Game, seed: int) -> list[State]:
    """Every state of a random match, in order."""
    rng = random.Random(f"preview/{seed}")
    states = [game.new_match(seed=seed)]
    while states[-1].to_move is not None:
        states.append(states[-1].apply(rng.choice(states[-1].legal_moves())))
    return states


def moments(count: int, wanted: int) -> list[int]:
    """``wanted`` move numbers spread from the first state to the last, without repeats."""
    if wanted <= 1 or count <= 1:
        return [count - 1]
    return sorted({round(i * (count - 1) / (wanted - 1)) for i in range(wanted)})


def preview(args: argparse.Namespace) -> int:
    try:
        game = games.get(args.game)
    except KeyError as error:
        print(error.args[0], file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    names = (args.names[0], args.names[1])
    states = play(game, args.seed)
    written = 0
    for index in moments(len(states), args.moments):
        state = states[index]
        stem = f"{game.name}-{args.seed}-move{index:03d}"
        pictures = {
            "table": rendering.table_png(state.view(None), names, four_colour=args.four_colour),
            "hand0": rendering.hand_png(state.view(0), four_colour=args.four_colour),
            "hand1": rendering.hand_png(state.view(1), four_colour=args.four_colour),
        }
        for what, data in pictures.items():
            (out / f"{stem}-{what}.png").write_bytes(data)
            written += 1
    print(
        f"{written} pictures of {game.title} (seed {args.seed}, {len(states) - 1} moves) in {out}"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rendering", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    command = commands.add_parser("preview", help="write a match's pictures to a folder")
    command.add_argument("--game", required=True, help=f"one of {', '.join(games.names())}")
    command.add_argument("--seed", type=int, default=1, help="match seed (default 1)")
    command.add_argument("--out", default="preview", help="folder to write (default preview/)")
    command.add_argument("--moments", type=int, default=5, help="moments pictured (default 5)")
    command.add_argument("--four-colour", action="store_true", help="four-colour deck")
    command.add_argument("--names", nargs=2, default=("Alice", "Bob"), metavar=("SEAT0", "SEAT1"))
    args = parser.parse_args(argv)
    return preview(args)


if __name__ == "__main__":
    sys.exit(main())
