"""Seasons on Discord: a manager starts the next one; anyone reads a season's table."""

from __future__ import annotations

import discord

import games
from bot.discord.answers import tell, tell_instead
from bot.discord.host import Host
from bot.discord.names import NO_PINGS
from bot.service import ServiceError


async def start_season(bot: Host, interaction: discord.Interaction) -> None:
    """Close the server's current season and open the next (managers only: every member's
    season table starts again from nothing). Ratings are kept."""
    if interaction.guild_id is None:
        await tell(interaction, "Seasons belong to a server: use this command in one.")
        return
    if not interaction.permissions.manage_guild:
        await tell(
            interaction,
            "Only members who may manage this server can start a new season.",
        )
        return
    await interaction.response.defer(thinking=True)
    closed, opened = await bot.service.seasons.start_new(interaction.guild_id)
    await interaction.followup.send(
        f"Season {closed.number} is closed and season {opened.number} begins: every season "
        f"table starts again from nothing, and ratings are kept. Past tables stay readable "
        f"with `/tapis leaderboard season:{closed.number}`.",
        allowed_mentions=NO_PINGS,
    )


async def season_table(bot: Host, interaction: discord.Interaction, game: str, season: int) -> None:
    """A season's table of a game on this server: a point a win, half a point a draw."""
    if interaction.guild_id is None:
        await tell(interaction, "Seasons belong to a server: use this command in one.")
        return
    await interaction.response.defer(thinking=True)
    try:
        lines = await bot.service.seasons.table(game, interaction.guild_id, season)
        current = await bot.service.seasons.current(interaction.guild_id)
    except ServiceError as error:
        await tell_instead(interaction, str(error))
        return
    title = games.get(game).title
    when = "current season" if season == current.number else "closed"
    if not lines:
        text = f"No rated {title} match in season {season} on this server."
    else:
        text = f"**{title}** — season {season} ({when})\n" + "\n".join(
            f"{line.rank}. {line.name} — {line.points:g} point{'s' if line.points != 1 else ''}"
            f" ({line.wins} won, {line.draws} drawn, {line.losses} lost)"
            for line in lines
        )
    await interaction.followup.send(text[:2000], allowed_mentions=NO_PINGS)
