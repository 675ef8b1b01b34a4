"""The ``/tournament`` commands and the tournament task's Discord side.

A tournament lives in a thread of its own (its news, pairings and standings pictures); each
of its matches gets a thread like any match, opened by the task when it pairs a round. The
service decides everything; here we only parse, post, and hand the threads back.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
from datetime import UTC, datetime, timedelta

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

import rendering.standings
from bot import i18n
from bot.discord.answers import (
    ON_A_SERVER,
    THREAD_ARCHIVE_MINUTES,
    defer,
    home_of,
    player_ref,
    tell,
    tell_instead,
    words_of,
)
from bot.discord.commands import GAME_CHOICES, parse_options
from bot.discord.host import Host, channel_of
from bot.discord.installs import server_only
from bot.discord.locales import OPTIONS_HELP, START_HELP
from bot.discord.names import NO_PINGS, pings, plain_name, safe_name
from bot.service import Delivery, ServiceError
from bot.service.tournament_posts import Posting, Report
from bot.service.tournament_values import StandingLine, TournamentInfo
from bot.service.tournament_words import created
from bot.service.values import Phrase
from games.words import ENGLISH, N_, Words

log = logging.getLogger(__name__)

FORMAT_CHOICES = [
    Choice(name=N_("Swiss"), value="swiss"),
    Choice(name=N_("round-robin"), value="round-robin"),
]
RELATIVE = re.compile(r"^in\s+(\d{1,3})\s*(m|min|minutes?|h|hours?|d|days?)$", re.IGNORECASE)
MAX_AHEAD = timedelta(days=60)
THREAD_ALREADY_OPEN = 160004
"""Discord's code for a thread asked on a message that has one already."""


def parse_start(text: str | None, now: datetime) -> float | None:
    """A start time as typed → unix seconds; ServiceError saying what is accepted."""
    if text is None or not text.strip():
        return None
    typed = text.strip()
    relative = RELATIVE.match(typed)
    if relative:
        count, unit = int(relative.group(1)), relative.group(2).lower()[0]
        step = {"m": timedelta(minutes=1), "h": timedelta(hours=1), "d": timedelta(days=1)}[unit]
        when = now + count * step
    else:
        try:
            when = datetime.strptime(typed, "%Y-%m-%d %H:%M").replace(tzinfo=UTC)
        except ValueError:
            raise ServiceError(
                N_(
                    "I could not read the start time “{typed}”: write a date and time in UTC "
                    "such as 2026-12-24 18:00, or a delay such as in 3h or in 2d."
                ),
                typed=typed,
            ) from None
    if when <= now:
        raise ServiceError(N_("That start time has passed: give a time to come, or none."))
    if when - now > MAX_AHEAD:
        raise ServiceError(N_("A tournament starts within 60 days: choose a sooner time."))
    return when.timestamp()


def standings_rows(lines: list[StandingLine] | tuple[StandingLine, ...]) -> list[dict[str, object]]:
    """The standings as the picture takes them (names shown as typed, not escaped)."""
    return [
        {
            "rank": line.rank,
            "name": plain_name(line.name),
            "score": line.score,
            "buchholz": line.buchholz,
            "sonneborn_berger": line.sonneborn_berger,
            "wins": line.wins,
            "draws": line.draws,
            "losses": line.losses,
            "left": line.left,
        }
        for line in lines
    ]


async def standings_png(
    title: str, lines: list[StandingLine] | tuple[StandingLine, ...], words: Words = ENGLISH
) -> bytes:
    """The standings picture, drawn off the event loop (a picture takes some milliseconds)."""
    return await asyncio.to_thread(
        rendering.standings.standings_png, title, standings_rows(lines), words
    )


async def standings_file(
    title: str, lines: list[StandingLine] | tuple[StandingLine, ...], words: Words = ENGLISH
) -> discord.File:
    """The standings picture as a file for an answer to a command."""
    data = await standings_png(title, lines, words)
    return discord.File(io.BytesIO(data), filename="standings.png")


def stage(info: TournamentInfo, w: Words) -> str:
    """A tournament's name and where it stands, as the standings picture's title."""
    if info.status == "open":
        said = w.ngettext(
            "{name} · not started yet, {n} player in",
            "{name} · not started yet, {n} players in",
            len(info.players),
        )
    elif info.status == "running":
        said = w.gettext("{name} · round {round} of {rounds}")
    elif info.status == "finished":
        said = w.gettext("{name} · final")
    else:
        said = w.gettext("{name} · cancelled")
    return said.format(
        name=info.name,
        n=w.number(len(info.players)),
        round=w.number(info.round),
        rounds=w.number(info.rounds or 0),
    )


@server_only
class TournamentCommands(
    commands.GroupCog, group_name="tournament", group_description=N_("Tournaments on this server")
):
    """Create, join, leave, start a tournament, and see its standings."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        super().__init__()

    async def tournament_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[int]]:
        if interaction.guild_id is None:
            return []
        found = await self.bot.service.tournaments.of_server(interaction.guild_id, current=False)
        typed = current.strip().lstrip("#").lower()
        return [
            Choice(name=f"#{t.id} {plain_name(t.name)} ({t.status})"[:100], value=t.id)
            for t in found
            if typed in f"{t.id} {t.name}".lower()
        ][:25]

    async def _which(self, interaction: discord.Interaction, given: int | None) -> int:
        """The tournament meant: the one named, else this thread's, else the server's only
        open or running one."""
        if given is not None:
            return given
        if interaction.guild_id is None:
            raise ServiceError(ON_A_SERVER)
        found = await self.bot.service.tournaments.of_server(interaction.guild_id)
        here = [t for t in found if t.thread_id == interaction.channel_id]
        if here:
            return here[0].id
        if len(found) == 1:
            return found[0].id
        if not found:
            raise ServiceError(N_("There is no tournament open or running on this server."))
        raise ServiceError(N_("There are several tournaments here: choose one in `tournament`."))

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Before every /tournament command: what Discord says the server speaks, as every
        command notes it, so that the tournament's posts speak it too. Discord offers
        /tournament on servers only; should one come from elsewhere, it is told where."""
        if interaction.guild_id is None:
            await tell(interaction, Phrase(ON_A_SERVER))
            return False
        await self.bot.service.languages.seen(interaction.guild_id, interaction.guild_locale)
        return True

    def _public(self, guild_id: int | None) -> Words:
        """The words of a post on ``guild_id``: its server's language."""
        return i18n.words(self.bot.service.languages.of(guild_id))

    @app_commands.command(description=N_("Open a tournament for members to join"))
    @app_commands.describe(
        game=N_("Which game"),
        format=N_("Swiss (paired by score) or round-robin (everyone meets everyone)"),
        duplicate=N_("Each pairing plays the same deals twice with seats swapped"),
        rounds=N_("Swiss rounds (default: enough to find a winner)"),
        options=OPTIONS_HELP,
        days=N_("Days each player has per move before losing on time (default: no clock)"),
        start=START_HELP,
        name=N_("The tournament's name"),
    )
    @app_commands.choices(game=GAME_CHOICES, format=FORMAT_CHOICES)
    async def create(
        self,
        interaction: discord.Interaction,
        game: str,
        format: str = "swiss",
        duplicate: bool = False,
        rounds: app_commands.Range[int, 1, 20] | None = None,
        options: str | None = None,
        days: app_commands.Range[int, 1, 30] | None = None,
        start: str | None = None,
        name: str | None = None,
    ) -> None:
        await defer(interaction)
        home = home_of(interaction)
        if interaction.guild_id is None or home is None:
            await tell(interaction, Phrase(ON_A_SERVER))
            return
        try:
            chosen = parse_options(game, options)
            starts_at = parse_start(start, datetime.now(UTC))
            info = await self.bot.service.tournaments.create(
                player_ref(interaction.user, interaction),
                guild_id=interaction.guild_id,
                channel_id=home.id,
                # Stored escaped, like players' names: it is shown in messages.
                name=None if name is None else safe_name(name),
                game=game,
                options=chosen or None,
                format_=format,
                duplicate=duplicate,
                rounds=rounds,
                days_per_move=days,
                starts_at=starts_at,
            )
        except ServiceError as error:
            await tell(interaction, error)
            return
        public = self._public(interaction.guild_id)
        message = await self.bot.courier.post(
            home.id, created(info.id, info.terms(public), public), guild_id=interaction.guild_id
        )
        where = home.id
        if message is not None and isinstance(home, discord.TextChannel):
            name = f"{plain_name(info.name)} · #{info.id}"
            thread_id = await thread_on(message, name)
            if thread_id is None:
                log.info("no thread for tournament %s: news in the channel", info.id)
            else:
                await self.bot.service.tournaments.set_thread(info.id, thread_id)
                where = thread_id
        said = words_of(interaction).gettext("Tournament #{id} is open in {where}.")
        await interaction.followup.send(
            said.format(id=info.id, where=f"<#{where}>"), ephemeral=True
        )

    @app_commands.command(description=N_("Join a tournament before it starts"))
    @app_commands.describe(tournament=N_("Which tournament"))
    async def join(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        await defer(interaction)
        try:
            which = await self._which(interaction, tournament)
            info, news = await self.bot.service.tournaments.join(
                which, player_ref(interaction.user, interaction), interaction.guild_id
            )
        except ServiceError as error:
            await tell(interaction, error)
            return
        await self.bot.courier.send([news])
        said = words_of(interaction).gettext("You are in {name}.").format(name=info.name)
        await interaction.followup.send(said, ephemeral=True)

    join.autocomplete("tournament")(tournament_choices)

    @app_commands.command(description=N_("Leave a tournament (during it, your match is resigned)"))
    @app_commands.describe(tournament=N_("Which tournament"))
    async def leave(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        await defer(interaction)
        try:
            which = await self._which(interaction, tournament)
            info, news, deliveries = await self.bot.service.tournaments.leave(
                which, interaction.user.id, interaction.guild_id
            )
        except ServiceError as error:
            await tell(interaction, error)
            return
        await self.bot.courier.send([news, *deliveries], interaction)
        said = words_of(interaction).gettext("You have left {name}.").format(name=info.name)
        await interaction.followup.send(said, ephemeral=True)

    leave.autocomplete("tournament")(tournament_choices)

    @app_commands.command(
        description=N_("Take a player off a tournament (its creator or a manager)")
    )
    @app_commands.describe(
        player=N_("Who to take off (during it, their match is resigned)"),
        tournament=N_("Which tournament"),
    )
    @app_commands.guild_only()
    async def remove(
        self, interaction: discord.Interaction, player: discord.User, tournament: int | None = None
    ) -> None:
        await defer(interaction)
        manager = bool(interaction.permissions.manage_guild)
        try:
            which = await self._which(interaction, tournament)
            info, news, deliveries = await self.bot.service.tournaments.leave(
                which, player.id, interaction.guild_id, by=interaction.user.id, manager=manager
            )
        except ServiceError as error:
            await tell(interaction, error)
            return
        await self.bot.courier.send([news, *deliveries])
        said = words_of(interaction).gettext("{player} is off {name}.")
        await interaction.followup.send(
            said.format(player=safe_name(player.display_name), name=info.name), ephemeral=True
        )

    remove.autocomplete("tournament")(tournament_choices)

    @app_commands.command(description=N_("Start a tournament now (its creator or a manager)"))
    @app_commands.describe(tournament=N_("Which tournament"))
    async def start(self, interaction: discord.Interaction, tournament: int | None = None) -> None:
        await defer(interaction)
        manager = bool(interaction.permissions.manage_guild)
        try:
            which = await self._which(interaction, tournament)
            info = await self.bot.service.tournaments.start(
                which, interaction.user.id, interaction.guild_id, manager=manager
            )
        except ServiceError as error:
            await tell(interaction, error)
            return
        where = info.thread_id or info.channel_id
        said = words_of(interaction).gettext(
            "{name} starts: the pairings of round 1 are posted in {where}."
        )
        await interaction.followup.send(
            said.format(name=info.name, where=f"<#{where}>"), ephemeral=True
        )

    start.autocomplete("tournament")(tournament_choices)

    @app_commands.command(description=N_("A tournament's standings, as a picture"))
    @app_commands.describe(tournament=N_("Which tournament"))
    async def standings(
        self, interaction: discord.Interaction, tournament: int | None = None
    ) -> None:
        await defer(interaction, ephemeral=False)
        try:
            which = await self._which(interaction, tournament)
            info = await self.bot.service.tournaments.get(which, interaction.guild_id)
            lines = await self.bot.service.tournaments.standings(which, interaction.guild_id)
        except ServiceError as error:
            await tell_instead(interaction, error)
            return
        # Posted in the channel for all to see: in the server's language.
        public = self._public(interaction.guild_id)
        title = plain_name(stage(info, public))
        await interaction.followup.send(
            info.terms(public)[:2000],
            file=await standings_file(title, lines, public),
            allowed_mentions=NO_PINGS,
        )

    standings.autocomplete("tournament")(tournament_choices)


class TournamentPoster:
    """What the tournament task owes Discord after each pass: deliveries (second legs,
    duplicate results), reports (pairings, standings pictures) and new matches' threads.

    Every post goes through the courier, within the rate limits. A report or a new match is
    owed as long as its mark (``reported``, ``announced``, ``posted``) is not set, and is
    posted with a nonce of its own: a stop between posting and marking posts it again at
    the next start, and Discord shows it once."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot

    async def act(self, deliveries: list[Delivery]) -> None:
        await self.bot.courier.send(deliveries)
        posts = self.bot.service.tournaments.posts
        for report in await posts.reports():
            await self._report(report)
            await posts.mark_reported(report)
        for posting in await posts.postings():
            await self._post(posting)

    async def _report(self, report: Report) -> None:
        picture = None
        if report.kind == "standings":
            picture = await standings_png(
                plain_name(report.title), report.lines, i18n.words(report.lang)
            )
        message = await self.bot.courier.post(
            report.place,
            report.text,
            picture=picture,
            filename="standings",
            nonce=report_nonce(report),
        )
        if message is None:
            log.info("tournament #%s: its thread is gone, report dropped", report.tournament_id)

    async def _post(self, posting: Posting) -> None:
        """A new tournament match: a message naming both players (they are pinged: it is
        their turn to play) and the match's thread on it, then its board and hands."""
        posts = self.bot.service.tournaments.posts
        channel = await channel_of(self.bot, posting.channel_id)
        thread_id = None
        if channel is not None:
            info = await self.bot.service.get(posting.match_id)
            users = [p.user_id for p in info.seats or ()]
            mentions = " ".join(f"<@{u}>" for u in users)
            message = await self.bot.courier.post(
                posting.channel_id,
                f"{mentions} {posting.text}",
                mentions=pings(*users),
                nonce=f"tp{posting.match_id}",
            )
            if message is not None and isinstance(channel, discord.TextChannel):
                thread_id = await thread_on(message, posting.thread_name)
                if thread_id is None:
                    log.info("no thread for match %s", posting.match_id)
        deliveries = await posts.opening(posting, thread_id)
        await self.bot.courier.send(deliveries)


def report_nonce(report: Report) -> str:
    """A report's nonce: its tournament, kind and round, so the same report posted again
    after a stop carries the same one."""
    return f"tr{report.tournament_id}{report.kind[0]}{report.round}"


async def thread_on(message: discord.Message, name: str) -> int | None:
    """Open a thread on ``message``; its id, or None where threads cannot be made. A message
    posted again after a stop (the same nonce: Discord gave back the first one) may have its
    thread already, which is then the one: a thread opened on a message bears its id."""
    try:
        thread = await message.create_thread(
            name=plain_name(name)[:100], auto_archive_duration=THREAD_ARCHIVE_MINUTES
        )
    except discord.HTTPException as error:
        if error.code == THREAD_ALREADY_OPEN:
            return message.id
        log.info("no thread on message %s (%s)", message.id, error)
        return None
    return thread.id
