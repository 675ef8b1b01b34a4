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
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import discord

import games
from bot import logs
from bot.computer import computer_player, is_computer
from bot.discord.components import challenge_buttons, move_buttons, resign_buttons
from bot.discord.names import NO_PINGS, pings, plain_name, safe_name
from bot.service import Delivery, MatchInfo, MatchService, PlayerRef, ServiceError

if TYPE_CHECKING:
    from bot.discord.client import TapisBot

log = logging.getLogger(__name__)
SORRY = "Something went wrong on my side; nothing more was changed. Please try again."
RESIGN_WINDOW = 15 * 60
"""Seconds a resignation question may be answered: a Confirm found hours later in an old
reply must not end a match the player has since gone on with."""
THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080  # a week: matches go on for days


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


async def tell(interaction: discord.Interaction, text: str) -> None:
    """A private answer to the invoker, whatever was answered before."""
    text = text[:1].upper() + text[1:]  # the service's sentences may start in lower case
    if interaction.response.is_done():
        await interaction.followup.send(text[:2000], ephemeral=True, allowed_mentions=NO_PINGS)
    else:
        await interaction.response.send_message(
            text[:2000], ephemeral=True, allowed_mentions=NO_PINGS
        )


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
        try:
            await flow(self, interaction, *args, **kw)
        except Exception:
            log.exception("%s failed for %s", flow.__name__, interaction.user.id)
            with contextlib.suppress(discord.HTTPException):
                await tell(interaction, SORRY)
            return
        # One line per action (never its move or cards: a log is no place for a hand).
        took = round((time.perf_counter() - started) * 1000)
        log.info("%s answered", flow.__name__, extra={"user": interaction.user.id, "ms": took})

    return wrapper  # type: ignore[return-value]


class Actions:
    def __init__(self, bot: TapisBot) -> None:
        self.bot = bot

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
                "You have no match in progress. Start one with `/challenge`, or accept one."
            )
        raise ServiceError(
            "You are playing several matches: use this command in the match's thread, or "
            "choose one in the `match` option (it lists them)."
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
            await tell(interaction, str(error))
            # A refusal may still have changed something to tell (too late: lost on time).
            await self.bot.courier.send(error.deliveries, interaction)
            return
        # The confirmation goes with the mover's new hand, in one answer Discord does not
        # count toward the bot's rate limits.
        confirmation = f"Played `{move}` in match #{info.id}."
        told = await self.bot.courier.send(deliveries, interaction, reply=confirmation)
        if interaction.type == discord.InteractionType.component:
            # The hand these buttons belong to is now history: a fresh one was just sent.
            await _strip_components(interaction)
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
            await tell(interaction, str(error))
            return
        seat = info.seat_of(interaction.user.id)
        if seat is None or info.seats is None:
            await tell(interaction, f"You do not play in match #{match_id}.")
            return
        if info.status != "active":
            await tell(interaction, f"Match #{match_id} is not in progress: nothing to resign.")
            return
        title = games.get(info.game).title
        against = info.seats[1 - seat].name
        await interaction.followup.send(
            f"Resign {title} match #{match_id} against {against}? The match ends at once and "
            f"counts as a loss for you. (This question stands for "
            f"{RESIGN_WINDOW // 60} minutes.)",
            view=resign_buttons(match_id, interaction.user.id, int(time.time())),
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

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
        if interaction.user.id != user_id:
            await tell(interaction, "Only the player who asked to resign can answer this.")
            return
        if not confirm:
            await _replace(interaction, f"You did not resign: match #{match_id} goes on.")
            return
        if time.time() - asked > RESIGN_WINDOW:
            await _replace(
                interaction,
                "This question has expired and nothing was changed: use `/resign` again if you "
                "still want to resign.",
            )
            return
        try:
            info, deliveries = await self.service.resign(match_id, user_id)
        except ServiceError as error:
            text = str(error)
            await _replace(interaction, text[:1].upper() + text[1:])
            return
        await self.bot.courier.send(deliveries, interaction)
        await _replace(interaction, f"You resigned match #{info.id}.")

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
        await defer(interaction)
        me = self.bot.user
        if duplicate and opponent is not None and me is not None and opponent.id == me.id:
            await tell(interaction, "A duplicate match is played between two members, not me.")
            return
        if opponent is not None and me is not None and opponent.id == me.id:
            await self._against_computer(interaction, game, options, days, level)
            return
        if level is not None:
            await tell(
                interaction,
                f"A level is for playing the computer: challenge {me.mention if me else 'me'} "
                "to play at that level, or leave the level out.",
            )
            return
        if opponent is not None and opponent.bot:
            await tell(interaction, "Bots cannot play: challenge a person, or leave it open.")
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
            await tell(interaction, str(error))
            return
        where = await self._announce(interaction, home, info, deliveries)
        await interaction.followup.send(
            f"Challenge #{info.id} posted in <#{where}>.", ephemeral=True
        )

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
            await tell(interaction, str(error))
            return
        title = games.get(info.game).title
        text = (
            f"{interaction.user.display_name} plays {title} against {computer.name} "
            f"(match #{info.id}, not rated)."
        )
        await self._play_computer(
            interaction, home, info, computer, text, f"Match #{info.id} against {computer.name}"
        )

    async def _play_computer(
        self,
        interaction: discord.Interaction,
        channel: discord.abc.Messageable,
        info: MatchInfo,
        computer: PlayerRef,
        text: str,
        what: str,
    ) -> None:
        """Post a match against the computer and start it at once: the computer never keeps
        anyone waiting, so there is no Accept button to press."""
        where = await self._post_challenge(channel, info, text, None, buttons=False)
        try:
            _, deliveries = await self.service.accept(info.id, computer)
        except ServiceError as error:
            await tell(interaction, str(error))
            return
        said = f"{what} started in <#{where}>."
        if not await self.bot.courier.send(deliveries, interaction, reply=said):
            await interaction.followup.send(said, ephemeral=True)

    async def _announce(
        self,
        interaction: discord.Interaction,
        channel: discord.abc.Messageable,
        info: MatchInfo,
        deliveries: list[Delivery],
    ) -> int:
        """Post a new challenge (its first notice, with Accept/Decline) and send the rest."""
        announce = next((d for d in deliveries if d.kind == "notice"), None)
        text = announce.text if announce else f"New {games.get(info.game).title} challenge."
        mention = announce.mention if announce is not None else None
        if mention is not None:
            text = f"<@{mention}> {text}"  # the challenged member is notified
        rest = [d for d in deliveries if d is not announce]
        where = await self._post_challenge(channel, info, text, mention)
        await self.bot.courier.send(rest, interaction)
        return where

    @polite
    async def rematch(self, interaction: discord.Interaction, match_id: int) -> None:
        """Ask the last opponent for another match on the same terms — or, if they asked
        first, accept theirs."""
        await defer(interaction)
        try:
            info, deliveries = await self.service.rematch(
                match_id, player_ref(interaction.user, interaction)
            )
        except ServiceError as error:
            await tell(interaction, str(error))
            return
        if info.status != "challenge":
            await self._answered(interaction, info, deliveries, "accepted")
            return
        channel = await self._channel(info.channel_id)
        if channel is None:
            await tell(interaction, "I can no longer post in that match's channel.")
            return
        computer = info.opponent
        if computer is not None and is_computer(computer.user_id):
            # The computer never keeps anyone waiting: it takes the rematch at once.
            text = (
                f"{interaction.user.display_name} plays {computer.name} again "
                f"(match #{info.id}, not rated)."
            )
            await self._play_computer(
                interaction, channel, info, computer, text, f"Rematch #{info.id}"
            )
            return
        where = await self._announce(interaction, channel, info, deliveries)
        await interaction.followup.send(f"Rematch #{info.id} asked in <#{where}>.", ephemeral=True)

    async def _channel(self, channel_id: int | None) -> discord.abc.Messageable | None:
        if channel_id is None:
            return None
        channel = self.bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(channel_id)
            except discord.HTTPException:
                return None
        return channel if isinstance(channel, discord.abc.Messageable) else None

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
        message = await channel.send(
            text[:2000],
            view=challenge_buttons(info.id) if buttons else discord.utils.MISSING,
            allowed_mentions=pings(mention),
        )
        if not isinstance(channel, discord.TextChannel):
            return message.channel.id
        title = games.get(info.game).title
        against = plain_name(info.opponent.name) if info.opponent else "anyone"
        name = f"{title} · {plain_name(info.challenger.name)} vs {against} · #{info.id}"[:100]
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
            await self.service.get_here(match_id, interaction.guild_id)
            info, deliveries = await self.service.accept(
                match_id, player_ref(interaction.user, interaction)
            )
        except ServiceError as error:
            await tell(interaction, str(error))
            return
        await self._answered(interaction, info, deliveries, "accepted")

    @polite
    async def decline(self, interaction: discord.Interaction, match_id: int | None) -> None:
        """Decline a challenge; the challenger declining their own withdraws it."""
        await defer(interaction)
        try:
            if match_id is None:
                match_id = await self._pending_challenge(interaction)
            current = await self.service.get(match_id)
            if current.challenger.user_id == interaction.user.id:
                info, deliveries = await self.service.cancel(match_id, interaction.user.id)
            else:
                info, deliveries = await self.service.decline(match_id, interaction.user.id)
        except ServiceError as error:
            await tell(interaction, str(error))
            return
        await self._answered(interaction, info, deliveries, "declined")

    async def _answered(
        self,
        interaction: discord.Interaction,
        info: MatchInfo,
        deliveries: list[Delivery],
        what: str,
    ) -> None:
        if interaction.type == discord.InteractionType.component:
            # The challenge's buttons go first: nobody else should press them meanwhile.
            await _strip_components(interaction)
            await self.bot.courier.send(deliveries, interaction)
        else:
            said = f"Challenge #{info.id} {what}."
            if not await self.bot.courier.send(deliveries, interaction, reply=said):
                await interaction.followup.send(said, ephemeral=True)

    async def _pending_challenge(self, interaction: discord.Interaction) -> int:
        if interaction.channel_id is not None:
            here = await self.service.match_in_thread(interaction.channel_id)
            if here is not None:
                logs.set_match(here.id)
                return int(here.id)
        mine = await self.service.matches_of(interaction.user.id, active_only=False)
        waiting = [
            m for m in mine if m.status == "challenge" and m.guild_id == interaction.guild_id
        ]
        if len(waiting) == 1:
            logs.set_match(waiting[0].id)
            return int(waiting[0].id)
        raise ServiceError(
            "Which challenge? Press its Accept or Decline button, or choose it in `match`."
        )

    # -- looking -----------------------------------------------------------------------------

    @polite
    async def hand(
        self, interaction: discord.Interaction, match_id: int | None, where: str | None
    ) -> None:
        await defer(interaction)
        courier = self.bot.courier
        try:
            match_id = await self.resolve(interaction, match_id)
            delivery = await self.service.hand_delivery(match_id, interaction.user.id)
        except ServiceError as error:
            await tell(interaction, str(error))
            return
        user_id = interaction.user.id
        picture = await courier.picture(delivery)
        legal = list((delivery.view or {}).get("legal_moves") or [])
        components = move_buttons(match_id, delivery.version, legal)
        text = courier.heading(delivery) + delivery.text
        closed = courier.dms_closed(user_id, delivery.dms_closed)
        if where == "dm" or (where is None and not closed):
            sent = await courier.dm(
                user_id, text, picture, components, closed=delivery.dms_closed, retry=where == "dm"
            )
            if sent:
                await interaction.followup.send(
                    "Your hand is in your DMs.", ephemeral=True, allowed_mentions=NO_PINGS
                )
                return
            text += "\n(Your DMs are closed to me, so here it is, visible to you alone.)"
        await interaction.followup.send(
            text[:2000],
            file=_file(picture),
            view=components or discord.utils.MISSING,
            ephemeral=True,
            allowed_mentions=NO_PINGS,
        )

    @polite
    async def board(self, interaction: discord.Interaction, match_id: int | None) -> None:
        """Post a match's table here: only a match of this server, and any other id is
        answered as unknown (whether it exists elsewhere is not this server's business)."""
        try:
            match_id = await self.resolve(interaction, match_id)
            await self.service.get_here(match_id, interaction.guild_id)
        except ServiceError as error:
            await tell(interaction, str(error))
            return
        await defer(interaction, ephemeral=False)
        try:
            delivery = await self.service.board_delivery(match_id)
        except ServiceError as error:
            await interaction.followup.send(str(error), allowed_mentions=NO_PINGS)
            return
        picture = await self.bot.courier.picture(delivery)
        await interaction.followup.send(
            delivery.text[:2000],
            file=_file(picture, "table"),
            allowed_mentions=discord.AllowedMentions.none(),
        )


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
