"""What an interaction does, shared by slash commands and components: every flow, in one
object the bot hands to both (its moves in ``moves.py``, its challenges in ``challenges.py``,
its lessons in ``lessons.py``, what they share in ``answers.py``)."""

from __future__ import annotations

from bot.discord.lessons import Lessons
from bot.discord.moves import Moves


class Actions(Moves, Lessons):
    """The flows a command or a button starts."""
