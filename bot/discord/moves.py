"""The flows of a match under way: a move, a resignation and its question, a look at the hand
or the table."""

from __future__ import annotations

import logging
import time

import discord

from bot.discord.answers import (
    Desk,
    defer,
    picture_file,
    polite,
    replace_answer,
    strip_components,
    tell,
    tell_instead,
    words_of,
)
from bot.discord.components import move_buttons, release, resign_buttons
from bot.discord.names import NO_PINGS
from bot.discord.talk import talks
from bot.service import (
    ServiceError,
    shown_here,
    wording,
)
from bot.service.values import Phrase
from games.words import N_

log = logging.getLogger(__name__)
RESIGN_WINDOW = 15 * 60
"""Seconds a resignation question may be answered: a Confirm found hours later in an old
reply must not end a match the player has since gone on with."""


class Moves(Desk):
    """What a player does in their match, by command or by button."""

    # -- moves -------------------------------------------------------------------------------

    @polite
    async def play(
        self,
        interaction: discord.Interaction,
        match_id: int | None,
        move: str,
        *,
        expected_version: int | None = None,
    ) -> None:
        await defer(interaction)
        try:
            match_id = await self.resolve(interaction, match_id)
            info, deliveries = await self.service.move(
                match_id, interaction.user.id, move, expected_version=expected_version
            )
        except ServiceError as error:
            await tell(interaction, error)
            # A refusal may still have changed something to tell (too late: lost on time).
            await self.courier.send(error.deliveries, interaction)
            return
        # The confirmation goes with the mover's new hand, in one answer Discord does not
        # count toward the bot's rate limits.
        # The mover's new hand names their move in its own words; the confirmation is said
        # only where the hand does not (none comes, or it says the move otherwise).
        deliveries = await self._waiting(info, deliveries)
        w = words_of(interaction)
        said = wording.move_text(info.game, move, w)
        confirmation = w.gettext("Your move in match #{id}: {move}.").format(move=said, id=info.id)
        pressed = interaction.type == discord.InteractionType.component
        told = await self.courier.send(
            deliveries,
            interaction,
            reply=confirmation,
            in_place=pressed,
            unless=w.gettext("You: {move}.").format(move=said),
        )
        if pressed and not told:
            # No new hand took the pressed one's place: its buttons are history all the same.
            await strip_components(interaction)
        elif not told:
            await interaction.followup.send(confirmation, ephemeral=True)

    @polite
    async def resign(self, interaction: discord.Interaction, match_id: int | None) -> None:
        """Ask first, privately, with Resign and Cancel buttons: a resignation cannot be undone; a
        command picked by a slip of the finger must not end a match of several days."""
        await defer(interaction)
        try:
            match_id = await self.resolve(interaction, match_id)
            info = await self.service.get(match_id)
        except ServiceError as error:
            await tell(interaction, error)
            return
        w = words_of(interaction)
        seat = info.seat_of(interaction.user.id)
        if seat is None or info.seats is None:
            await tell(interaction, Phrase(N_("You do not play in match #{id}."), {"id": match_id}))
            return
        if info.status != "active":
            await tell(
                interaction,
                Phrase(N_("Match #{id} is not in progress, so there is nothing to resign."),
                       {"id": match_id}),
            )  # fmt: skip
            return
        minutes = RESIGN_WINDOW // 60
        components = resign_buttons(match_id, interaction.user.id, int(time.time()), w)
        try:
            await interaction.followup.send(
                w.ngettext(
                    "Resign {game} #{id} against {name}? The match ends at once and counts as a "
                    "loss for you. This question stands for {n} minute.",
                    "Resign {game} #{id} against {name}? The match ends at once and counts as a "
                    "loss for you. This question stands for {n} minutes.",
                    minutes,
                ).format(
                    game=wording.game_title(info.game, w),
                    id=match_id,
                    name=info.seats[1 - seat].name,
                    n=w.number(minutes),
                ),
                view=components,
                ephemeral=True,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        finally:
            release(components)

    @polite
    async def answer_resign(
        self,
        interaction: discord.Interaction,
        match_id: int,
        user_id: int,
        asked: int,
        confirm: bool,
    ) -> None:
        """The answer to :meth:`resign`'s question; the question's buttons go away with it."""
        await defer(interaction)
        w = words_of(interaction)
        if interaction.user.id != user_id:
            await tell(
                interaction,
                Phrase(N_("Only the player who asked to resign can answer this. Leave it.")),
            )
            return
        if not confirm:
            await replace_answer(
                interaction,
                w.gettext("You did not resign: match #{id} goes on.").format(id=match_id),
            )
            return
        if time.time() - asked > RESIGN_WINDOW:
            await replace_answer(
                interaction,
                w.gettext(
                    "This question has expired and nothing was changed. Use `/resign` again if "
                    "you still want to resign."
                ),
            )
            return
        try:
            info, deliveries = await self.service.resign(match_id, user_id)
        except ServiceError as error:
            await replace_answer(interaction, error.say(w))
            return
        await self.courier.send(deliveries, interaction)
        await replace_answer(interaction, w.gettext("You resigned match #{id}.").format(id=info.id))

    # -- looking -----------------------------------------------------------------------------

    @polite
    async def hand(
        self, interaction: discord.Interaction, match_id: int | None, where: str | None
    ) -> None:
        await defer(interaction)
        courier = self.courier
        try:
            match_id = await self.resolve(interaction, match_id)
            delivery = await self.service.hand_delivery(match_id, interaction.user.id)
        except ServiceError as error:
            await tell(interaction, error)
            return
        catch_up = delivery.place.talk
        if delivery.place.talk:
            # Asked in a conversation: shown here, privately; and what the conversation
            # was owed and found no interaction to go with goes with this one: before the
            # hand for a button (the hand then shows the table the board shows), after it
            # for a command (its first follow-up is as private as its "thinking").
            where = where or ("here" if talks(interaction) else None)
            if interaction.type == discord.InteractionType.component:
                catch_up = False
                await courier.send(await self._waiting(await self.service.get(match_id), []),
                                   interaction)  # fmt: skip
        w = words_of(interaction)
        user_id = interaction.user.id
        picture = await courier.picture(delivery)
        legal = list((delivery.view or {}).get("legal_moves") or [])
        components = move_buttons(
            match_id, delivery.version, legal, w, delivery.game, hint=delivery.hints
        )
        text = courier.transport.heading(delivery) + delivery.text
        closed = courier.transport.dms_closed(user_id, delivery.dms_closed)
        try:
            if where == "dm" or (where is None and not closed):
                sent = await courier.transport.dm(
                    user_id, text, picture, components, closed=delivery.dms_closed,
                    retry=where == "dm", channel=delivery.dm_channel,
                )  # fmt: skip
                if sent:
                    await interaction.followup.send(
                        w.gettext("Your hand is in your direct messages."),
                        ephemeral=True,
                        allowed_mentions=NO_PINGS,
                    )
                    return
                text += "\n" + w.gettext(
                    "Your direct messages are closed to me, so here it is, visible to you alone."
                )
            await interaction.followup.send(
                text[:2000],
                file=picture_file(picture),
                view=components or discord.utils.MISSING,
                ephemeral=True,
                allowed_mentions=NO_PINGS,
            )
            courier.talks.spend(interaction)
        finally:
            release(components)
        if catch_up:
            info = await self.service.get(match_id)
            await courier.send(await self._waiting(info, []), interaction)

    @polite
    async def board(self, interaction: discord.Interaction, match_id: int | None) -> None:
        """Post a match's table here: a match of this server for all to see; a player's own
        match of elsewhere to them alone; any other id is answered as unknown (whether it
        exists elsewhere is not this server's business)."""
        try:
            match_id = await self.resolve(interaction, match_id)
            info = await self.service.get_for(match_id, interaction.user.id, interaction.guild_id)
        except ServiceError as error:
            await tell(interaction, error)
            return
        # Its own conversation sees a match played there: the board is theirs to look at.
        at_home = info.talk and info.channel_id == interaction.channel_id
        public = at_home or shown_here(info.guild_id, interaction.guild_id)
        await defer(interaction, ephemeral=not public)
        try:
            delivery = await self.service.board_delivery(match_id)
        except ServiceError as error:
            await tell_instead(interaction, error)
            return
        picture = await self.courier.picture(delivery)
        await interaction.followup.send(
            delivery.text[:2000],
            file=picture_file(picture, "table"),
            ephemeral=not public,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.courier.talks.spend(interaction)
        if at_home:
            # What the conversation was owed (a result on time, a board no interaction
            # carried) goes with this answer, after the table it asked for.
            await self.courier.send(await self._waiting(info, []), interaction)
