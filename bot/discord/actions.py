"""What an interaction does, shared by slash commands and components: every flow, in one
object the bot hands to both (its moves in ``moves.py``, its challenges in ``challenges.py``,
its lessons in ``lessons.py``, what they share in ``answers.py``)."""

from __future__ import annotations

import discord

from bot.discord import coaching
from bot.discord.answers import polite
from bot.discord.lessons import Lessons
from bot.discord.moves import Moves


class Actions(Moves, Lessons):
    """The flows a command or a button starts."""

    @polite
    async def hint(self, interaction: discord.Interaction, match_id: int | None) -> None:
        """``/hint`` and the Hint button under a hand: one answer, private to the asker."""
        await coaching.hint(interaction, self, getattr(self.bot, "coach", None), match_id)
