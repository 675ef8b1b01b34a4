"""What an interaction does, shared by slash commands and components.

Each flow is the same: acknowledge at once (Discord allows 3 s), ask the service, send its
deliveries, answer the invoker privately. Errors from the service are polite sentences already
(they say what would be accepted); they go back privately, never into the match thread.
"""

from __future__ import annotations

import contextlib
import functools
import io
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Literal, TypeVar

import discord

from bot import i18n
from bot.discord.components import challenge_buttons, move_buttons, release, resign_buttons
from bot.discord.courier import Courier
from bot.discord.host import Host, channel_of
from bot.discord.names import NO_PINGS, pings, plain_name, safe_name
from bot.discord.queue import TURN
from bot.discord.talk import home_guild, talks
from bot.process import logs, metrics
from bot.service import (
    Delivery,
    MatchInfo,
    MatchService,
    PlayerRef,
    ServiceError,
    shown_here,
    wording,
)
from bot.service.computer import computer_player, is_computer
from bot.service.values import Phrase, Sayable
from games.words import N_, Words

log = logging.getLogger(__name__)
SORRY = N_("Something went wrong on my side; nothing more was changed. Please try again.")
RESIGN_WINDOW = 15 * 60
"""Seconds a resignation question may be answered: a Confirm found hours later in an old
reply must not end a match the player has since gone on with."""
THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080  # a week: matches go on for days
ON_A_SERVER = N_(
    "This command works on a server, where matches and tournaments are played: use it in "
    "a server's channel, not in a direct message."
)
"""The answer to a server's command used elsewhere (Discord offers these on servers only,
as each command declares; this is for whatever arrives all the same)."""


def words_of(interaction: discord.Interaction) -> Words:
    """The language of a reply to ``interaction``: its member's Discord client's."""
    return i18n.words(i18n.lang_of(interaction.locale))


def player_ref(user: discord.abc.User, interaction: discord.Interaction | None = None) -> PlayerRef:
    """Who acts, named safely: the service puts names into the words of public messages, so
    they are escaped here, once, where Discord text is made of them."""
    locale = str(interaction.locale) if interaction is not None else "en"
    return PlayerRef(user.id, safe_name(user.display_name), locale)


async def defer(interaction: discord.Interaction, *, ephemeral: bool = True) -> None:
    """The first response, before any database work or rendering.

    A component's message stays as it is (type 6); a command shows "thinking" to its invoker.
    """
    if interaction.response.is_done():
        return
    if interaction.type == discord.InteractionType.component:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    first_answer(interaction)


INTERACTION_LIFETIME = 900.0
"""Seconds an interaction's token lives: a wait longer than this is no wait Discord measured."""


def first_answer(interaction: discord.Interaction) -> None:
    """Count an interaction just answered, and how long it waited: from its creation by
    Discord (its id's time) to now. Where that time is not Discord's (a test's fake server
    numbers its ids), from when a handler took it up."""
    waited: float | None = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    if waited is None or not 0.0 <= waited <= INTERACTION_LIFETIME:
        started = interaction.extras.get("tapis_started")
        waited = time.monotonic() - started if isinstance(started, float) else None
    metrics.answered(interaction.type.name, waited)


async def tell(interaction: discord.Interaction, said: str | Sayable) -> None:
    """A private answer to the invoker, whatever was answered before, in their language."""
    text = said if isinstance(said, str) else said.say(words_of(interaction))
    if interaction.response.is_done():
        await interaction.followup.send(text[:2000], ephemeral=True, allowed_mentions=NO_PINGS)
    else:
        await interaction.response.send_message(
            text[:2000], ephemeral=True, allowed_mentions=NO_PINGS
        )
        first_answer(interaction)


async def tell_instead(interaction: discord.Interaction, said: str | Sayable) -> None:
    """A private answer after a public defer: the public "thinking" goes, and the invoker
    alone reads why nothing is shown (a public defer's first follow-up would be public).
    Commands that answer for everyone defer publicly before reading anything, to answer
    within Discord's window, and learn only then that the answer is for the invoker."""
    with contextlib.suppress(discord.HTTPException):
        await interaction.delete_original_response()
    await tell(interaction, said)


Flow = TypeVar("Flow", bound=Callable[..., Awaitable[None]])


def polite(flow: Flow) -> Flow:
    """Whatever goes wrong unforeseen, the invoker hears so privately (a button has no other
    error handler: without this its press would just spin) and the log gets the details."""

    @functools.wraps(flow)
    async def wrapper(
        self: Actions, interaction: discord.Interaction, *args: Any, **kw: Any
    ) -> None:
        # A flow given its match says so on every line it logs; one that must first find its
        # match says so once it has (resolve).
        given = kw.get("match_id", args[0] if args else None)
        if isinstance(given, int) and not isinstance(given, bool):
            logs.set_match(given)
        started = time.perf_counter()
        interaction.extras.setdefault("tapis_started", time.monotonic())
        try:
            # What Discord says the server speaks, for the posts made there with nobody at
            # hand (stored only when it changed).
            await self.service.languages.seen(interaction.guild_id, interaction.guild_locale)
            await flow(self, interaction, *args, **kw)
        except Exception:
            log.exception("%s failed for %s", flow.__name__, interaction.user.id)
            with contextlib.suppress(discord.HTTPException):
                await tell(interaction, Phrase(SORRY))
            return
        # One line per action (never its move or cards: a log is no place for a hand).
        took = round((time.perf_counter() - started) * 1000)
        log.info("%s answered", flow.__name__, extra={"user": interaction.user.id, "ms": took})

    return wrapper  # type: ignore[return-value]


class Actions:
    def __init__(self, bot: Host, courier: Courier) -> None:
        self.bot = bot
        self.courier = courier

    @property
    def service(self) -> MatchService:
        return self.bot.service

    # -- finding the match -------------------------------------------------------------------

    async def resolve(self, interaction: discord.Interaction, given: int | None) -> int:
        """The match meant: the one named, else this thread's, else the user's only one; from
        then on the lines this action logs are about it."""
        found = await self._find(interaction, given)
        logs.set_match(found)
        return found

    async def _find(self, interaction: discord.Interaction, given: int | None) -> int:
        if given is not None:
            # Another server's match is as unknown here as one that does not exist.
            await self.service.get_for(given, interaction.user.id, interaction.guild_id)
            return given
        if interaction.channel_id is not None:
            here = await self.service.match_in_thread(interaction.channel_id)
            if here is not None:
                return int(here.id)
        mine = [m for m in await self.service.matches_of(interaction.user.id)]
        playing = [m for m in mine if m.status == "active"]
        if len(playing) == 1:
            return int(playing[0].id)
        my_turn = [m for m in playing if m.to_move == interaction.user.id]
        if len(my_turn) == 1:
            return int(my_turn[0].id)
        if not playing:
            raise ServiceError(
                N_("You have no match in progress. Start one with `/challenge`, or accept one.")
            )
        raise ServiceError(
            N_(
                "You are playing several matches. Use this command in the match's thread, or "
                "choose one in the `match` option (it lists them)."
            )
        )

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
            await _strip_components(interaction)
        elif not told:
            await interaction.followup.send(confirmation, ephemeral=True)

    async def _waiting(self, info: MatchInfo, deliveries: list[Delivery]) -> list[Delivery]:
        """For a match in a conversation (``talk.py``): what it owes its conversation and
        found no interaction to go with, before ``deliveries`` (this interaction's own)."""
        if not info.talk:
            return deliveries
        own = {d.outbox_id for d in deliveries if d.outbox_id is not None}
        earlier = [
            d
            for d in await self.service.unsent_of(info.id)
            if not d.private and d.outbox_id is not None and d.outbox_id not in own
        ]
        return [*earlier, *deliveries]

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
            await _replace(
                interaction,
                w.gettext("You did not resign: match #{id} goes on.").format(id=match_id),
            )
            return
        if time.time() - asked > RESIGN_WINDOW:
            await _replace(
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
            await _replace(interaction, error.say(w))
            return
        await self.courier.send(deliveries, interaction)
        await _replace(interaction, w.gettext("You resigned match #{id}.").format(id=info.id))

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
    ) -> None:
        talk = talks(interaction)
        # In a conversation the challenge is the answer itself, for all there to see.
        await defer(interaction, ephemeral=not talk)
        if interaction.guild_id is None and not talk:
            await tell(interaction, Phrase(ON_A_SERVER))
            return
        me = self.bot.user
        if talk:
            await self._challenge_here(interaction, game, opponent, options, days, duplicate)
            return
        if duplicate and opponent is not None and me is not None and opponent.id == me.id:
            await tell(interaction, "A duplicate match is played between two members, not me.")
            return
        if opponent is not None and me is not None and opponent.id == me.id:
            await self._against_computer(interaction, game, options, days, level)
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
        # From inside a thread (another match's, say) the challenge goes to the channel the
        # thread belongs to, so that the new match gets a thread of its own.
        home = interaction.channel
        if isinstance(home, discord.Thread) and home.parent is not None:
            home = home.parent
        assert isinstance(home, discord.abc.Messageable) and home.id is not None
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
            )
        except ServiceError as error:
            await tell(interaction, error)
            return
        where = await self._announce(interaction, home, info, deliveries)
        await interaction.followup.send(
            words_of(interaction)
            .gettext("Challenge #{id} posted in {where}.")
            .format(id=info.id, where=f"<#{where}>"),
            ephemeral=True,
        )

    async def _challenge_here(
        self,
        interaction: discord.Interaction,
        game: str,
        opponent: discord.abc.User | None,
        options: dict[str, int],
        days: int | None,
        duplicate: bool,
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
    ) -> None:
        """A match against the computer: it accepts at once and plays in the match's thread;
        the match is not rated (a rating measures people against people)."""
        home = interaction.channel
        if isinstance(home, discord.Thread) and home.parent is not None:
            home = home.parent
        assert isinstance(home, discord.abc.Messageable) and home.id is not None
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
        said = (
            words_of(interaction)
            .gettext("Match #{id} against {computer} started in {where}.")
            .format(id=info.id, computer=computer.name, where=f"<#{where}>")
        )
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
                await _strip_components(interaction)
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
        components = move_buttons(match_id, delivery.version, legal, w, delivery.game)
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
                file=_file(picture),
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
            file=_file(picture, "table"),
            ephemeral=not public,
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.courier.talks.spend(interaction)
        if at_home:
            # What the conversation was owed (a result on time, a board no interaction
            # carried) goes with this answer, after the table it asked for.
            await self.courier.send(await self._waiting(info, []), interaction)


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
        return w.gettext(
            "**{first} vs {second} · #{id}**: {game}, accepted. The match is played in its thread."
        ).format(first=info.seats[0].name, second=info.seats[1].name, id=info.id, game=game)
    if info.status == "declined":
        return w.gettext("~~Challenge #{id} ({game})~~: declined.").format(id=info.id, game=game)
    return w.gettext("~~Challenge #{id} ({game})~~: withdrawn.").format(id=info.id, game=game)


def _file(picture: bytes | None, name: str = "hand") -> discord.File:
    if picture is None:
        return discord.utils.MISSING  # type: ignore[no-any-return]
    return discord.File(io.BytesIO(picture), filename=f"{name}.png")


async def _replace(interaction: discord.Interaction, text: str) -> None:
    """Replace a pressed component's message with ``text``, without its buttons."""
    await interaction.edit_original_response(
        content=text[:2000], view=None, allowed_mentions=discord.AllowedMentions.none()
    )


async def _strip_components(interaction: discord.Interaction) -> None:
    try:
        await interaction.edit_original_response(view=None)
    except discord.HTTPException:
        log.debug("could not remove the buttons of an old message", exc_info=True)
