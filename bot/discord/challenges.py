"""The flows of a challenge: made to someone, to anyone or to the computer, answered, and
played again; its post and its thread."""

from __future__ import annotations

import contextlib
import logging

import discord

from bot import i18n
from bot.discord.answers import (
    ON_A_SERVER,
    THREAD_ARCHIVE_MINUTES,
    Desk,
    defer,
    home_of,
    player_ref,
    polite,
    strip_components,
    tell,
    tell_instead,
    words_of,
)
from bot.discord.components import challenge_buttons, release
from bot.discord.host import channel_of
from bot.discord.names import pings, plain_name, safe_name
from bot.discord.queue import TURN
from bot.discord.talk import home_guild, talks
from bot.process import logs
from bot.service import (
    Delivery,
    MatchInfo,
    PlayerRef,
    ServiceError,
    wording,
)
from bot.service.computer import computer_player, is_computer, level_description, level_of
from bot.service.values import Phrase
from games.words import N_, Words

log = logging.getLogger(__name__)


class Challenges(Desk):
    """A challenge from its post to its answer, and the rematch after a match."""

    # -- challenges --------------------------------------------------------------------------

    @polite
    async def challenge(
        self,
        interaction: discord.Interaction,
        game: str,
        opponent: discord.abc.User | None,
        options: dict[str, int],
        days: int | None,
        level: str | None = None,
        *,
        duplicate: bool = False,
        hints: bool = False,
    ) -> None:
        talk = talks(interaction)
        # In a conversation the challenge is the answer itself, for all there to see.
        await defer(interaction, ephemeral=not talk)
        if interaction.guild_id is None and not talk:
            await tell(interaction, Phrase(ON_A_SERVER))
            return
        me = self.bot.user
        if talk:
            await self._challenge_here(interaction, game, opponent, options, days, duplicate, hints)
            return
        if duplicate and opponent is not None and me is not None and opponent.id == me.id:
            await tell(interaction, "A duplicate match is played between two members, not me.")
            return
        if opponent is not None and me is not None and opponent.id == me.id:
            await self._against_computer(interaction, game, options, days, level, hints)
            return
        if level is not None:
            await tell(
                interaction,
                Phrase(
                    N_(
                        "A level is for playing the computer. Challenge {me} to play at that "
                        "level, or leave the level out."
                    ),
                    {"me": me.mention if me else "Tapis"},
                ),
            )
            return
        if opponent is not None and opponent.bot:
            await tell(
                interaction,
                Phrase(N_("Bots cannot play. Challenge a person, or leave the challenge open.")),
            )
            return
        home = home_of(interaction)
        assert home is not None and home.id is not None
        try:
            info, deliveries = await self.service.challenge(
                player_ref(interaction.user, interaction),
                player_ref(opponent) if opponent is not None else None,
                game,
                guild_id=interaction.guild_id,
                channel_id=home.id,
                options=options or None,
                days_per_move=days,
                duplicate=duplicate,
                rated=not hints,  # a match with hints is never rated: the card says so
                hints=hints,
            )
        except ServiceError as error:
            await tell(interaction, error)
            return
        where = await self._announce(interaction, home, info, deliveries)
        w = words_of(interaction)
        said = w.gettext("Challenge #{id} posted in {where}.").format(
            id=info.id, where=f"<#{where}>"
        )
        if hints:
            said += " " + w.gettext("Hints allowed: this match is not rated.")
        await interaction.followup.send(said, ephemeral=True)

    async def _challenge_here(
        self,
        interaction: discord.Interaction,
        game: str,
        opponent: discord.abc.User | None,
        options: dict[str, int],
        days: int | None,
        duplicate: bool,
        hints: bool,
    ) -> None:
        """A challenge in a conversation the bot is no member of (``talk.py``): the match
        belongs to no server, and its challenge, with Accept and Decline, is this command's
        answer (the public one its defer announced)."""
        me = self.bot.user
        refusal = None
        if opponent is not None and (opponent.bot or (me is not None and opponent.id == me.id)):
            refusal = Phrase(
                N_(
                    "Here I can only answer the two of you: challenge a person. Play me in a "
                    "server that has me, or in your direct messages with me."
                )
            )
        elif duplicate:
            refusal = Phrase(N_("Duplicate matches are played in a server that has me."))
        if refusal is not None:
            await tell_instead(interaction, refusal)
            return
        assert interaction.channel_id is not None
        try:
            info, deliveries = await self.service.challenge(
                player_ref(interaction.user, interaction),
                player_ref(opponent) if opponent is not None else None,
                game,
                guild_id=None,
                channel_id=interaction.channel_id,
                options=options or None,
                days_per_move=days,
                talk=True,
                rated=not hints,
                hints=hints,
            )
        except ServiceError as error:
            await tell_instead(interaction, error)
            return
        announce = next((d for d in deliveries if d.kind == "notice"), None)
        text = announce.text if announce else wording.game_title(info.game, i18n.words("en"))
        mention = announce.mention if announce is not None else None
        if mention is not None:
            text = f"<@{mention}> {text}"
        components = challenge_buttons(info.id, self.public_words(info))
        self.courier.talks.heard(info.id, info.channel_id, interaction)
        try:
            self.courier.talks.spend(interaction)
            await interaction.followup.send(
                text[:2000], view=components, allowed_mentions=pings(mention)
            )
        finally:
            release(components)
        if announce is not None and announce.outbox_id is not None:
            await self.service.delivered([announce])
        await self.courier.send([d for d in deliveries if d is not announce], interaction)

    async def _against_computer(
        self,
        interaction: discord.Interaction,
        game: str,
        options: dict[str, int],
        days: int | None,
        level: str | None,
        hints: bool,
    ) -> None:
        """A match against the computer: it accepts at once and plays in the match's thread;
        the match is not rated (a rating measures people against people). Hints are allowed
        there whatever ``hints`` says; with it, the board says so too."""
        home = home_of(interaction)
        assert home is not None and home.id is not None
        computer = computer_player(level)
        try:
            info, _notices = await self.service.challenge(
                player_ref(interaction.user, interaction),
                computer,
                game,
                guild_id=interaction.guild_id,
                channel_id=home.id,
                options=options or None,
                days_per_move=days,
                rated=False,
                hints=hints,
            )
        except ServiceError as error:
            await tell(interaction, error)
            return
        public = self.public_words(info)
        text = public.gettext("{name} plays {game} against {computer} (match #{id}, not rated).")
        text = text.format(
            name=safe_name(interaction.user.display_name),
            game=wording.game_title(info.game, public),
            computer=computer.name,
            id=info.id,
        )
        await self._play_computer(interaction, home, info, computer, text)

    async def _play_computer(
        self,
        interaction: discord.Interaction,
        channel: discord.abc.Messageable,
        info: MatchInfo,
        computer: PlayerRef,
        text: str,
    ) -> None:
        """Post a match against the computer and start it at once: the computer never keeps
        anyone waiting, so there is no Accept button to press."""
        where = await self._post_challenge(channel, info, text, None, buttons=False)
        try:
            _, deliveries = await self.service.accept(info.id, computer)
        except ServiceError as error:
            await tell(interaction, error)
            return
        w = words_of(interaction)
        said = w.gettext("Match #{id} against {computer} started in {where}.").format(
            id=info.id, computer=computer.name, where=f"<#{where}>"
        )
        level = level_of(computer.user_id)
        if level is not None:  # what the level the player chose (or got) is like
            said += "\n" + level_description(level, w)
        if not await self.courier.send(deliveries, interaction, reply=said):
            await interaction.followup.send(said, ephemeral=True)

    def public_words(self, info: MatchInfo) -> Words:
        """The language of ``info``'s public posts: its server's."""
        return i18n.words(self.service.languages.of(info.guild_id))

    async def _announce(
        self,
        interaction: discord.Interaction,
        channel: discord.abc.Messageable,
        info: MatchInfo,
        deliveries: list[Delivery],
    ) -> int:
        """Post a new challenge (its first notice, with Accept/Decline) and send the rest."""
        announce = next((d for d in deliveries if d.kind == "notice"), None)
        text = announce.text if announce else wording.game_title(info.game, i18n.words("en"))
        mention = announce.mention if announce is not None else None
        if mention is not None:
            text = f"<@{mention}> {text}"  # the challenged member is notified
        rest = [d for d in deliveries if d is not announce]
        where = await self._post_challenge(channel, info, text, mention)
        await self.courier.send(rest, interaction)
        return where

    @polite
    async def rematch(self, interaction: discord.Interaction, match_id: int) -> None:
        """Ask the last opponent for another match on the same terms — or, if they asked
        first, accept theirs."""
        await defer(interaction)
        try:
            await self.service.get_for(match_id, interaction.user.id, interaction.guild_id)
            info, deliveries = await self.service.rematch(
                match_id, player_ref(interaction.user, interaction)
            )
        except ServiceError as error:
            await tell(interaction, error)
            return
        if info.status != "challenge":
            # They asked first: this accepts theirs. The pressed button belongs to the result,
            # not to the challenge's post.
            await self._answered(interaction, info, deliveries, accepted=True, on_post=False)
            return
        channel = await channel_of(self.bot, info.channel_id)
        if channel is None:
            await tell(
                interaction,
                Phrase(
                    N_(
                        "I can no longer post in that match's channel. Start a new match with "
                        "`/challenge` where I may post."
                    )
                ),
            )
            return
        computer = info.opponent
        if computer is not None and is_computer(computer.user_id):
            # The computer never keeps anyone waiting: it takes the rematch at once.
            public = self.public_words(info)
            text = public.gettext("{name} plays {computer} again (match #{id}, not rated).")
            text = text.format(
                name=safe_name(interaction.user.display_name), computer=computer.name, id=info.id
            )
            await self._play_computer(interaction, channel, info, computer, text)
            return
        where = await self._announce(interaction, channel, info, deliveries)
        await interaction.followup.send(
            words_of(interaction)
            .gettext("Rematch #{id} asked in {where}.")
            .format(id=info.id, where=f"<#{where}>"),
            ephemeral=True,
        )

    async def _post_challenge(
        self,
        channel: discord.abc.Messageable,
        info: MatchInfo,
        text: str,
        mention: int | None,
        *,
        buttons: bool = True,
    ) -> int:
        """Post the challenge with its buttons and open the match's thread on it.

        Where threads cannot be made (no permission, already in a thread) the match lives in
        the channel itself.
        """
        public = self.public_words(info)
        components = challenge_buttons(info.id, public) if buttons else None
        guild_id = getattr(getattr(channel, "guild", None), "id", None)
        channel_id = getattr(channel, "id", None)
        assert isinstance(channel_id, int)
        try:
            # Through the courier: within the rate limits, like every post.
            message = await self.courier.post(
                channel_id, text, guild_id=guild_id, components=components,
                mentions=pings(mention), level=TURN,
            )  # fmt: skip
        finally:
            release(components)
        if message is None:
            return channel_id
        if not isinstance(channel, discord.TextChannel):
            return message.channel.id
        name = thread_name(info, public)
        try:
            thread = await message.create_thread(
                name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES
            )
        except discord.HTTPException as error:
            log.info("no thread for match %s (%s): playing in the channel", info.id, error)
            return channel.id
        await self.service.set_thread(info.id, thread.id)
        return thread.id

    @polite
    async def accept(self, interaction: discord.Interaction, match_id: int | None) -> None:
        await defer(interaction)
        try:
            if match_id is None:
                match_id = await self._pending_challenge(interaction)
            await self.service.get_here(match_id, home_guild(interaction))
            info, deliveries = await self.service.accept(
                match_id, player_ref(interaction.user, interaction)
            )
        except ServiceError as error:
            await tell(interaction, error)
            return
        await self._answered(interaction, info, deliveries, accepted=True)

    @polite
    async def decline(self, interaction: discord.Interaction, match_id: int | None) -> None:
        """Decline a challenge; the challenger declining their own withdraws it."""
        await defer(interaction)
        try:
            if match_id is None:
                match_id = await self._pending_challenge(interaction)
            current = await self.service.get_for(
                match_id, interaction.user.id, interaction.guild_id
            )
            if current.challenger.user_id == interaction.user.id:
                info, deliveries = await self.service.cancel(match_id, interaction.user.id)
            else:
                info, deliveries = await self.service.decline(match_id, interaction.user.id)
        except ServiceError as error:
            await tell(interaction, error)
            return
        await self._answered(interaction, info, deliveries, accepted=False)

    async def _answered(
        self,
        interaction: discord.Interaction,
        info: MatchInfo,
        deliveries: list[Delivery],
        *,
        accepted: bool,
        on_post: bool = True,
    ) -> None:
        """Tell an answered challenge: its post and its thread say what became of it (no
        "accept or decline" left behind), then the invoker hears it privately (with their hand,
        when the match started, in the same answer)."""
        public = self.public_words(info)
        post = answered_post(info, public)
        if interaction.type == discord.InteractionType.component:
            # The challenge's buttons go first: nobody else should press them meanwhile.
            if on_post:
                with contextlib.suppress(discord.HTTPException):
                    await interaction.edit_original_response(
                        content=post, view=None, allowed_mentions=discord.AllowedMentions.none()
                    )
            else:
                await strip_components(interaction)
                await self._edit_post(info, post)
            await self.courier.send(deliveries, interaction)
        else:
            await self._edit_post(info, post)
            w = words_of(interaction)
            done = (
                w.gettext("Challenge #{id} accepted.")
                if accepted
                else w.gettext("Challenge #{id} declined.")
            ).format(id=info.id)
            if not await self.courier.send(deliveries, interaction, reply=done):
                await interaction.followup.send(done, ephemeral=True)
        if accepted and info.thread_id is not None:
            await self._rename_thread(info.thread_id, thread_name(info, public))

    async def _edit_post(self, info: MatchInfo, post: str) -> None:
        """Edit a challenge's post (the message its thread was opened on: the same id)."""
        channel = await channel_of(self.bot, info.channel_id)
        if channel is None or info.thread_id is None:
            return
        try:
            await channel.get_partial_message(info.thread_id).edit(  # type: ignore[attr-defined]
                content=post, view=None, allowed_mentions=discord.AllowedMentions.none()
            )
        except (discord.HTTPException, AttributeError):
            log.debug("could not edit the post of challenge %s", info.id, exc_info=True)

    async def _rename_thread(self, thread_id: int, name: str) -> None:
        thread = await channel_of(self.bot, thread_id)
        if isinstance(thread, discord.Thread) and thread.name != name:
            try:
                await thread.edit(name=name)
            except discord.HTTPException:
                log.debug("could not rename thread %s", thread_id, exc_info=True)

    async def _pending_challenge(self, interaction: discord.Interaction) -> int:
        if interaction.channel_id is not None:
            here = await self.service.match_in_thread(interaction.channel_id)
            if here is not None:
                logs.set_match(here.id)
                return int(here.id)
        mine = await self.service.matches_of(interaction.user.id, active_only=False)
        waiting = [
            m for m in mine if m.status == "challenge" and m.guild_id == home_guild(interaction)
        ]
        if len(waiting) == 1:
            logs.set_match(waiting[0].id)
            return int(waiting[0].id)
        raise ServiceError(
            N_(
                "I cannot tell which challenge you mean. Press its Accept or Decline button, or "
                "choose it in the `match` option."
            )
        )


def thread_name(info: MatchInfo, w: Words) -> str:
    """A match's thread: 'Piquet · Alice vs Bob · #1', or '… Alice vs anyone …' while open."""
    against = plain_name(info.opponent.name) if info.opponent else w.gettext("anyone")
    return w.gettext("{game} · {challenger} vs {opponent} · #{id}").format(
        game=wording.game_title(info.game, w),
        challenger=plain_name(info.challenger.name),
        opponent=against,
        id=info.id,
    )[:100]


def answered_post(info: MatchInfo, w: Words) -> str:
    """What a challenge's post says once answered, in place of its question."""
    game = wording.game_title(info.game, w)
    if info.status in ("active", "finished") and info.seats is not None:
        said = w.gettext(
            "**{first} vs {second} · #{id}**: {game}, accepted. The match is played in its thread."
        ).format(first=info.seats[0].name, second=info.seats[1].name, id=info.id, game=game)
        if info.hints:  # the challenge's terms stay on its post
            said += " " + w.gettext("Hints allowed: this match is not rated.")
        return said
    if info.status == "declined":
        return w.gettext("~~Challenge #{id} ({game})~~: declined.").format(id=info.id, game=game)
    return w.gettext("~~Challenge #{id} ({game})~~: withdrawn.").format(id=info.id, game=game)
