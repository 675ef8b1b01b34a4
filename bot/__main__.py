"""`python -m bot`: the entry point of Tapis."""

from __future__ import annotations

import os
import sys

import games


def main() -> int:
    if os.environ.get("DISCORD_TOKEN"):
        print("Tapis: the Discord bot is not built yet; nothing was started.", file=sys.stderr)
        return 1
    print(
        "Tapis — the local sandbox is not built yet.\n"
        f"The game engines are ready: {', '.join(games.names())}.\n"
        "When it is, `make run` without DISCORD_TOKEN will start a terminal sandbox where you\n"
        "play against a built-in opponent; with DISCORD_TOKEN set it will run the Discord bot."
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
