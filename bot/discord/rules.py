"""``/tapis rules`` and ``/rules``: a game's rules, privately, in as many messages as they
take."""

from __future__ import annotations

import discord

from bot.discord.answers import words_of
from bot.service.wording import rules_text


async def send_rules(interaction: discord.Interaction, game: str) -> None:
    """A game's rules, privately; longer than one message allows: sent in parts, each whole
    paragraphs (a handful: within the follow-ups an interaction may carry anywhere)."""
    parts = message_parts(rules_text(game, words_of(interaction)))
    await interaction.response.send_message(parts[0], ephemeral=True)
    for part in parts[1:]:
        await interaction.followup.send(part, ephemeral=True)


def message_parts(text: str, limit: int = 2000) -> list[str]:
    """``text`` in parts Discord accepts (``limit`` characters), cut between paragraphs."""
    parts: list[str] = []
    for paragraph in text.split("\n\n"):
        while len(paragraph) > limit:  # one paragraph longer than a message: cut it
            parts.append(paragraph[:limit])
            paragraph = paragraph[limit:]
        if parts and len(parts[-1]) + 2 + len(paragraph) <= limit:
            parts[-1] += "\n\n" + paragraph
        else:
            parts.append(paragraph)
    return parts or [""]
