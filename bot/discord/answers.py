"""What every interaction's flow shares: its first answer within Discord's 3 s, its private
replies, its manners when something fails, and finding the match it is about.

Each flow is the same: acknowledge at once, ask the service, send its deliveries, answer the
invoker privately. Errors from the service are polite sentences already (they say what would
be accepted); they go back privately, never into the match thread.
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
from bot.discord.courier import Courier
from bot.discord.host import Host
from bot.discord.names import NO_PINGS, safe_name
from bot.process import logs, metrics
from bot.service import (
    Delivery,
    MatchInfo,
    MatchService,
    PlayerRef,
    ServiceError,
)
from bot.service.values import Phrase, Sayable
from games.words import N_, Words

log = logging.getLogger(__name__)
THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080  # a week: matches go on for days
SORRY = N_("Something went wrong on my side; nothing more was changed. Please try again.")
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


Home = (
    discord.TextChannel
    | discord.VoiceChannel
    | discord.StageChannel
    | discord.Thread
    | discord.DMChannel
    | discord.GroupChannel
    | discord.PartialMessageable
)
"""A channel a match can be posted in: one that takes messages and has an id."""


def home_of(interaction: discord.Interaction) -> Home | None:
    """The channel a new match asked for here goes in: from inside a thread (another match's,
    say) the channel that thread belongs to, so that the new match gets a thread of its own."""
    home = interaction.channel
    if isinstance(home, discord.Thread) and home.parent is not None:
        home = home.parent
    return home if isinstance(home, Home) else None


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
    async def wrapper(self: Desk, interaction: discord.Interaction, *args: Any, **kw: Any) -> None:
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


class Desk:
    """The part of every flow that is no flow itself: the bot, its courier and service, and
    which match an interaction means."""

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


def picture_file(picture: bytes | None, name: str = "hand") -> discord.File:
    """A picture as Discord takes it; none at all when there is no picture."""
    if picture is None:
        return discord.utils.MISSING  # type: ignore[no-any-return]
    return discord.File(io.BytesIO(picture), filename=f"{name}.png")


async def replace_answer(interaction: discord.Interaction, text: str) -> None:
    """Replace a pressed component's message with ``text``, without its buttons."""
    await interaction.edit_original_response(
        content=text[:2000], view=None, allowed_mentions=discord.AllowedMentions.none()
    )


async def strip_components(interaction: discord.Interaction) -> None:
    """A pressed message's buttons go: they belong to a turn already played."""
    try:
        await interaction.edit_original_response(view=None)
    except discord.HTTPException:
        log.debug("could not remove the buttons of an old message", exc_info=True)
