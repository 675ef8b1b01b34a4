"""/hint and /review on Discord: private answers, decided in the computer's workers.

A hint answers only the asking player, privately; a review is for the match's players, and
while it is worked out a progress line is edited in place so the wait is told.
"""

from __future__ import annotations

import discord

from bot.discord import replay
from bot.discord.answers import Desk, defer, tell, words_of
from bot.discord.names import NO_PINGS, safe_name
from bot.service import ServiceError
from bot.service.coach import Coach
from games.words import Words


async def hint(
    interaction: discord.Interaction, actions: Desk, coach: Coach | None, match_id: int | None
) -> None:
    """Answer ``/hint`` (or the Hint button): the strong level's move and why, privately."""
    await defer(interaction)
    w = words_of(interaction)
    if coach is None:
        await tell(interaction, w.gettext("Tapis is starting: ask for a hint again in a moment."))
        return
    try:
        match_id = await actions.resolve(interaction, match_id)
        text = await coach.hint(match_id, interaction.user.id, w)
    except ServiceError as error:
        await tell(interaction, error)
        return
    await tell(interaction, text)


async def review(
    interaction: discord.Interaction, actions: Desk, coach: Coach | None, match_id: int
) -> None:
    """Answer ``/review``: the match's costliest choices, privately to one of its players,
    with a line edited as the review goes when it is not made yet."""
    await defer(interaction)
    w = words_of(interaction)
    if coach is None:
        await tell(interaction, w.gettext("Tapis is starting: ask for a review again in a moment."))
        return

    async def progress(done: int, total: int) -> None:
        await interaction.edit_original_response(
            content=w.gettext("Reviewing match #{id}: {done} of {total} decisions weighed…").format(
                id=match_id, done=w.number(done), total=w.number(total)
            )
        )

    try:
        text = await coach.review(match_id, interaction.user.id, w, progress)
    except ServiceError as error:
        await tell(interaction, error)
        return
    parts = _parts(text)
    await interaction.edit_original_response(content=parts[0])
    for part in parts[1:]:
        await interaction.followup.send(part, ephemeral=True, allowed_mentions=NO_PINGS)
    await _positions(interaction, actions, coach, match_id, w)


async def _positions(
    interaction: discord.Interaction, actions: Desk, coach: Coach, match_id: int, w: Words
) -> None:
    """Each player's costliest choices in pictures: one private follow-up a player, a picture
    a choice, titled by its move (the review's lines above say what was played)."""
    files = await replay.decisions(actions.bot, match_id, await coach.costliest(match_id), w)
    info = await actions.service.get(match_id)
    assert info.seats is not None
    for seat, pictures in enumerate(files):
        if not pictures:
            continue
        embeds = [
            discord.Embed(title=w.gettext("Before move {ply}").format(ply=w.number(ply))).set_image(
                url=f"attachment://{picture.filename}"
            )
            for ply, picture in pictures
        ]
        content = w.gettext("**{name}**: the table and their hand before each of those choices.")
        await interaction.followup.send(
            content.format(name=safe_name(info.seats[seat].name)),
            files=[picture for _, picture in pictures],
            embeds=embeds,
            ephemeral=True,
            allowed_mentions=NO_PINGS,
        )


def _parts(text: str, limit: int = 2000) -> list[str]:
    """``text`` in messages Discord takes, cut between lines."""
    parts = [""]
    for line in text.split("\n"):
        if parts[-1] and len(parts[-1]) + 1 + len(line) > limit:
            parts.append("")
        parts[-1] = f"{parts[-1]}\n{line}" if parts[-1] else line[:limit]
    return parts
