"""What an interaction does, shared by slash commands and components: every flow, in one
object the bot hands to both (its moves in ``moves.py``, its challenges in ``challenges.py``,
what they share in ``answers.py``)."""

from __future__ import annotations

from bot.discord.challenges import Challenges
from bot.discord.moves import Moves


class Actions(Moves, Challenges):
    """The flows a command or a button starts."""
