"""``/learn``: a guided first deal against the computer as a teacher, in a thread of its own,
and what its end offers (a real match against the computer, or how to challenge someone).

The lesson itself is the service's (``bot.service.lessons``): the learner's hand carries the
note for the moment, and a move other than the lesson's is refused with its explanation,
privately, as every refused move is. Here it is only started and posted like a match against
the computer, which never keeps anyone waiting: no Accept button, the first hand at once.
"""

from __future__ import annotations

from dataclasses import replace

import discord

from bot.discord.answers import defer, home_of, player_ref, polite, tell, words_of
from bot.discord.challenges import Challenges
from bot.discord.names import safe_name
from bot.discord.talk import talks
from bot.service import Delivery, ServiceError, wording
from bot.service.computer import DEFAULT_LEVEL
from bot.service.lessons import TEACHER
from bot.service.values import Phrase
from games.words import N_

ELSEWHERE = N_(
    "A lesson is played against me in a thread of its own, in a server that has me: use "
    "`/learn` in one of its channels. Here, `/rules` tells any game's rules."
)
"""The answer to ``/learn`` where the bot cannot post (a conversation it is no member of, or
its own DM, which holds no thread)."""


class Lessons(Challenges):
    """A lesson started, and the buttons at its end."""

    @polite
    async def learn(self, interaction: discord.Interaction, game: str) -> None:
        """Start ``game``'s lesson for the invoker, in the thread of a new post here."""
        await defer(interaction)
        if talks(interaction) or interaction.guild_id is None:
            await tell(interaction, Phrase(ELSEWHERE))
            return
        home = home_of(interaction)
        assert home is not None and home.id is not None
        try:
            info, deliveries = await self.service.learn(
                player_ref(interaction.user, interaction),
                game,
                guild_id=interaction.guild_id,
                channel_id=home.id,
            )
        except ServiceError as error:
            await tell(interaction, error)
            return
        public = self.public_words(info)
        text = public.gettext(
            "{name} learns {game} with {teacher}: a guided first deal (match #{id}, not rated)."
        ).format(
            name=safe_name(interaction.user.display_name),
            game=wording.game_title(info.game, public),
            teacher=TEACHER.name,
            id=info.id,
        )
        # The challenge is this post: the teacher took it at once.
        challenged = [d for d in deliveries if d.kind == "notice" and d.status == "challenge"]
        await self.service.delivered([d for d in challenged if d.outbox_id is not None])
        where = await self._post_challenge(home, info, text, None, buttons=False)
        # The match was started before its thread was opened: what it owes its table goes
        # to the thread.
        rest = [in_thread(d, where) for d in deliveries if d not in challenged]
        w = words_of(interaction)
        said = w.gettext(
            "Your lesson of {game} (match #{id}) started in {where}. Your cards and what each "
            "step teaches come to you privately: press the move the lesson asks for."
        ).format(game=wording.game_title(info.game, w), id=info.id, where=f"<#{where}>")
        if not await self.courier.send(rest, interaction, reply=said):
            await interaction.followup.send(said, ephemeral=True)

    @polite
    async def after_lesson(
        self, interaction: discord.Interaction, match_id: int, choice: str
    ) -> None:
        """A button under a finished lesson: a level (or ``computer``, its usual one) starts
        a real match against the computer at that level in the same game; ``challenge`` says
        privately how to challenge someone to it."""
        await defer(interaction)
        try:
            info = await self.service.get_for(match_id, interaction.user.id, interaction.guild_id)
        except ServiceError as error:
            await tell(interaction, error)
            return
        if choice == "challenge":
            w = words_of(interaction)
            await tell(
                interaction,
                w.gettext(
                    "Use `/challenge` with the game {game}: name a member as the opponent, or "
                    "leave it empty and anyone here may accept."
                ).format(game=wording.game_title(info.game, w)),
            )
            return
        if interaction.guild_id is None or talks(interaction):
            await tell(interaction, Phrase(ELSEWHERE))
            return
        level = DEFAULT_LEVEL if choice == "computer" else choice
        await self._against_computer(interaction, info.game, {}, None, level, False)


def in_thread(delivery: Delivery, thread_id: int) -> Delivery:
    """``delivery`` sent to the match's thread, if it was worded before the thread was opened
    (a post that could open none keeps its channel: ``thread_id`` is that channel then)."""
    place = delivery.place
    if place.thread_id is not None or place.channel_id == thread_id:
        return delivery
    return replace(delivery, place=replace(place, thread_id=thread_id))
