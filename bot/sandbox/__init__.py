"""The local sandbox: play any game against a simple computer opponent from a terminal.

It drives the very same match service and database as the Discord bot — the same
challenge, accept and move calls, the same move notation, the same deliveries — so what works
here works on Discord. The opponent is the computer at a chosen level
(bot/service/computer.py), which decides off the event loop. The match is told as a host
tells it at the table, in the service's and the games' own words and the reader's language:
each move, who took the trick, the cards drawn, the table in sentences, the hand and its moves
in the picture's order.
Pictures, when the renderer provides them, are written as PNG files to a folder named at the
start, in the reader's words too. Nothing of Discord shows: no buttons, no markup.

Its rooms: the loop that chooses a game and plays it out (``play``), what the player sees
(``screen``), what they type (``commands``) and the terminal itself (``terminal``).
"""

from bot.sandbox.commands import COMMANDS, as_typed
from bot.sandbox.play import HUMAN_ID, Sandbox, run_sandbox

__all__ = ["COMMANDS", "HUMAN_ID", "Sandbox", "as_typed", "run_sandbox"]
