"""The slash commands: parse what Discord sends, hand it to :class:`Actions` or the service.

Playing commands sit at the top level (``/challenge``, ``/play`` …) because they are typed
often; looking-up commands are grouped under ``/tapis``. Autocomplete turns text into match
ids and legal moves at the edge; the service validates whatever finally arrives.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

import ai
import games
from bot.discord.actions import Actions, tell
from bot.discord.components import pretty
from bot.discord.locales import OPTIONS_HELP
from bot.discord.names import plain_name, safe_name
from bot.discord.replay import export_match, finished_choices, switch_web
from bot.discord.seasons import season_table, start_season
from bot.service import MatchInfo, ServiceError

if TYPE_CHECKING:
    from bot.discord.client import TapisBot

MAX_CHOICES = 25
GAME_CHOICES = [Choice(name=games.get(n).title, value=n) for n in games.names()]
LEVEL_CHOICES = [Choice(name=level, value=level) for level in ai.LEVELS]


def _label(info: MatchInfo, user_id: int, *, plain: bool = False) -> str:
    """One line naming a match for ``user_id``; ``plain`` for autocomplete choices, which
    Discord shows as typed (names are stored escaped for message text)."""
    title = games.get(info.game).title
    if info.seats is not None:
        others = [p.name for p in info.seats if p.user_id != user_id]
        against = others[0] if others else info.seats[1].name
    elif info.opponent is not None and info.opponent.user_id != user_id:
        against = info.opponent.name
    else:
        against = info.challenger.name
    state = {
        "challenge": "challenge",
        "active": "your turn" if info.to_move == user_id else "their turn",
    }.get(info.status, info.status)
    if plain:
        against = plain_name(against)
    return f"#{info.id} {title} vs {against} — {state}"[:100]


def parse_options(game: str, text: str | None) -> dict[str, int]:
    """``"target=17 rounds=1"`` → ``{"target": 17, "rounds": 1}``, checked against the game."""
    if not text or not text.strip():
        return {}
    known = {o.name: o for o in games.get(game).options}
    chosen: dict[str, int] = {}
    for word in re.split(r"[\s,;]+", text.strip()):
        key, sep, value = word.partition("=")
        if not sep or key not in known or not re.fullmatch(r"-?\d+", value):
            raise ServiceError(
                f"{word!r} is not an option of {games.get(game).title}: write name=number, "
                f"with names {', '.join(known)} (the autocomplete shows them)."
            )
        chosen[key] = int(value)
    return chosen


def option_suggestions(game: str, typed: str) -> list[str]:
    """Completions of the options text: the pairs already typed, plus one more."""
    words = typed.split()
    done = words[:-1] if words and not typed.endswith(" ") else words
    partial = "" if typed.endswith(" ") or not words else words[-1]
    used = {w.partition("=")[0] for w in done}
    prefix = " ".join(done)
    found: list[str] = []
    for option in games.get(game).options:
        if option.name in used:
            continue
        if option.choices is not None:
            values = list(option.choices)
        else:
            low = option.minimum if option.minimum is not None else 1
            high = option.maximum if option.maximum is not None else low + 9
            values = list(range(low, min(high, low + 11) + 1))
        for value in values:
            pair = f"{option.name}={value}"
            if pair.startswith(partial.lower()):
                found.append(f"{prefix} {pair}".strip())
    return found[:MAX_CHOICES]


def matches_filter(move: str, typed: str) -> bool:
    """Every word typed appears in the move (any order, any case, symbols allowed)."""
    text = move.lower()
    pretty_text = pretty(move).lower()
    return all(w in text or w in pretty_text for w in typed.lower().split())


class Play(commands.Cog):
    """Challenging, playing, and looking at one's own matches."""

    def __init__(self, bot: TapisBot) -> None:
        self.bot = bot

    @property
    def actions(self) -> Actions:
        return self.bot.actions

    # -- autocomplete ------------------------------------------------------------------------

    async def match_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[int]]:
        mine = await self.bot.service.matches_of(interaction.user.id)
        found = []
        for info in mine:
            label = _label(info, interaction.user.id, plain=True)
            if current.strip().lower().lstrip("#") in label.lower():
                found.append(Choice(name=label, value=int(info.id)))
        return found[:MAX_CHOICES]

    async def challenge_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[int]]:
        mine = await self.bot.service.matches_of(interaction.user.id, active_only=False)
        return [
            Choice(name=_label(m, interaction.user.id, plain=True), value=int(m.id))
            for m in mine
            if m.status == "challenge"
            and m.guild_id == interaction.guild_id  # a challenge belongs to its server
            and current.strip().lstrip("#") in str(m.id)
        ][:MAX_CHOICES]

    async def move_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        """Only the invoker's own legal moves, in the match at hand, filtered by the text."""
        given = getattr(interaction.namespace, "match", None)
        try:
            match_id = await self.actions.resolve(interaction, given)
            legal = await self.bot.service.legal_moves(match_id, interaction.user.id)
        except ServiceError:
            return []
        chosen = [m for m in legal if matches_filter(m, current)][:MAX_CHOICES]
        return [Choice(name=pretty(m)[:100], value=m) for m in chosen if len(m) <= 100]

    async def options_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        game = getattr(interaction.namespace, "game", None)
        if game is None:
            return []
        return [Choice(name=s, value=s) for s in option_suggestions(game, current)]

    # -- commands ----------------------------------------------------------------------------

    @app_commands.command(description="Challenge a member (or anyone) to a card game")
    @app_commands.describe(
        game="Which game to play",
        opponent="Who you challenge; leave empty to let anyone accept",
        options=OPTIONS_HELP,
        days="Days each player has per move before losing on time (default: no clock)",
        level="The computer's level, when you challenge Tapis itself (default: normal)",
        duplicate="Play the same deals twice, seats swapped: the difference of scores decides",
    )
    @app_commands.choices(game=GAME_CHOICES, level=LEVEL_CHOICES)
    @app_commands.guild_only()
    async def challenge(
        self,
        interaction: discord.Interaction,
        game: str,
        opponent: discord.User | None = None,
        options: str | None = None,
        days: app_commands.Range[int, 1, 30] | None = None,
        level: str | None = None,
        duplicate: bool = False,
    ) -> None:
        try:
            chosen = parse_options(game, options)
        except ServiceError as error:
            await tell(interaction, str(error))
            return
        await self.actions.challenge(
            interaction, game, opponent, chosen, days, level, duplicate=duplicate
        )

    challenge.autocomplete("options")(options_choices)

    @app_commands.command(description="Accept a challenge (or press Accept on it)")
    @app_commands.describe(match="The challenge to accept")
    @app_commands.guild_only()
    async def accept(self, interaction: discord.Interaction, match: int | None = None) -> None:
        await self.actions.accept(interaction, match)

    accept.autocomplete("match")(challenge_choices)

    @app_commands.command(description="Decline a challenge, or withdraw your own")
    @app_commands.describe(match="The challenge to decline")
    async def decline(self, interaction: discord.Interaction, match: int | None = None) -> None:
        await self.actions.decline(interaction, match)

    decline.autocomplete("match")(challenge_choices)

    @app_commands.command(description="Make your move: the list shows your legal moves")
    @app_commands.describe(
        move="Your move, e.g. play QS or discard 7H 9C (pick from the list)",
        match="Which match, when you are not in its thread",
    )
    async def play(
        self, interaction: discord.Interaction, move: str, match: int | None = None
    ) -> None:
        await self.actions.play(interaction, match, move)

    play.autocomplete("move")(move_choices)
    play.autocomplete("match")(match_choices)

    @app_commands.command(description="See your cards again, privately")
    @app_commands.describe(
        match="Which match, when you are not in its thread",
        where="Send it by DM, or show it here to you alone",
    )
    @app_commands.choices(where=[Choice(name="DM", value="dm"), Choice(name="here", value="here")])
    async def hand(
        self, interaction: discord.Interaction, match: int | None = None, where: str | None = None
    ) -> None:
        await self.actions.hand(interaction, match, where)

    hand.autocomplete("match")(match_choices)

    @app_commands.command(description="Show the table of a match to everyone here")
    @app_commands.describe(match="Which match, when you are not in its thread")
    @app_commands.guild_only()
    async def board(self, interaction: discord.Interaction, match: int | None = None) -> None:
        await self.actions.board(interaction, match)

    board.autocomplete("match")(match_choices)

    @app_commands.command(description="Give up a match: your opponent wins it")
    @app_commands.describe(match="Which match, when you are not in its thread")
    async def resign(self, interaction: discord.Interaction, match: int | None = None) -> None:
        await self.actions.resign(interaction, match)

    resign.autocomplete("match")(match_choices)

    @app_commands.command(description="List your matches and challenges")
    async def matches(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        mine = await self.bot.service.matches_of(interaction.user.id, active_only=False)
        current = [m for m in mine if m.status in ("challenge", "active")]
        if not current:
            await interaction.followup.send(
                "You have no match going on. Start one with `/challenge`.", ephemeral=True
            )
            return
        lines = []
        for info in current[:40]:
            place = info.thread_id or info.channel_id
            lines.append(_label(info, interaction.user.id) + (f" · <#{place}>" if place else ""))
        await interaction.followup.send("\n".join(lines)[:2000], ephemeral=True)


class Info(commands.GroupCog, group_name="tapis", group_description="Rules, rankings and help"):
    """Looking things up: rules, leaderboard, stats, help."""

    def __init__(self, bot: TapisBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(description="How to play with Tapis: the commands, in short")
    async def help(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(HELP, ephemeral=True)

    @app_commands.command(
        description="Card colours in your hand pictures: two or four suits' colours"
    )
    @app_commands.describe(colours="Four colours tell ♦ from ♥ and ♣ from ♠ at a glance")
    @app_commands.choices(
        colours=[Choice(name="two colours", value=2), Choice(name="four colours", value=4)]
    )
    async def cards(self, interaction: discord.Interaction, colours: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.service.set_preferences(interaction.user.id, four_colour=colours == 4)
        await interaction.followup.send(
            f"Your hands will be drawn in {colours} colours from now on.", ephemeral=True
        )

    @app_commands.command(description="The rules of a game, in short, and how to write its moves")
    @app_commands.describe(game="Which game")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        await interaction.response.send_message(rules_text(game)[:2000], ephemeral=True)

    @app_commands.command(description="The best players of a game, here or everywhere")
    @app_commands.describe(
        game="Which game",
        scope="This server only, or every server",
        season="A season's table of this server (its points), current or past",
    )
    @app_commands.choices(
        game=GAME_CHOICES,
        scope=[Choice(name="this server", value="server"), Choice(name="global", value="global")],
    )
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: str,
        scope: str = "server",
        season: app_commands.Range[int, 1, 10_000] | None = None,
    ) -> None:
        if season is not None:
            await season_table(self.bot, interaction, game, season)
            return
        await interaction.response.defer(thinking=True)
        guild = interaction.guild_id if scope == "server" else None
        rows = await self.bot.service.leaderboard(game, guild)
        title = games.get(game).title
        if not rows:
            text = f"No rated {title} match yet{' on this server' if guild else ''}."
        else:
            text = f"**{title}** — {'this server' if guild else 'all servers'}\n" + "\n".join(
                f"{r.rank}. {r.name} — {r.rating:.0f} ({r.wins} won, {r.losses} lost, "
                f"{r.draws} drawn)"
                for r in rows
            )
        await interaction.followup.send(
            text[:2000], allowed_mentions=discord.AllowedMentions.none()
        )

    @app_commands.command(description="A member's record: rating, wins, losses, streak")
    @app_commands.describe(member="Whose record (default: yours)", game="One game, or all")
    @app_commands.choices(game=GAME_CHOICES)
    async def stats(
        self,
        interaction: discord.Interaction,
        member: discord.User | None = None,
        game: str | None = None,
    ) -> None:
        await interaction.response.defer(thinking=True)
        who = member or interaction.user
        try:
            stats = await self.bot.service.stats(who.id, game, interaction.guild_id)
        except ServiceError as error:
            await interaction.followup.send(str(error))
            return
        which = games.get(game).title if game else "all games"
        lines = [f"**{safe_name(who.display_name)}** — {which}"]
        if stats.rating is not None:
            rank = f", rank {stats.rank}" if stats.rank else ""
            lines.append(f"Rating {stats.rating:.0f}{rank}")
        lines.append(
            f"{stats.games} played: {stats.wins} won, {stats.losses} lost, {stats.draws} drawn"
        )
        if stats.streak:
            kind = "wins" if stats.streak > 0 else "losses"
            lines.append(f"Streak: {abs(stats.streak)} {kind} in a row")
        lines.append(f"Lost on time {stats.losses_on_time}, resigned {stats.resignations}")
        await interaction.followup.send(
            "\n".join(lines), allowed_mentions=discord.AllowedMentions.none()
        )

    @app_commands.command(description="A finished match's moves as a file, to keep or check")
    @app_commands.describe(match="The finished match to export")
    async def export(self, interaction: discord.Interaction, match: int) -> None:
        await export_match(self.bot, interaction, match)

    @export.autocomplete("match")
    async def export_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[int]]:
        return await finished_choices(self.bot, interaction, current)

    season = app_commands.Group(
        name="season", description="Seasons of this server's tables", guild_only=True
    )

    @season.command(name="new", description="Close this season's tables and start the next")
    async def new_season(self, interaction: discord.Interaction) -> None:
        await start_season(self.bot, interaction)

    @app_commands.command(description="Show this server's leaderboards on the web, or stop")
    @app_commands.describe(state="on: anyone may see them on the site; off: hidden (default)")
    @app_commands.choices(state=[Choice(name="on", value="on"), Choice(name="off", value="off")])
    @app_commands.guild_only()
    async def web(self, interaction: discord.Interaction, state: str) -> None:
        await switch_web(self.bot, interaction, state == "on")


def _titles() -> str:
    """The games' titles as a sentence lists them: "A, B and C"."""
    titles = [game.title for game in games.registered()]
    return ", ".join(titles[:-1]) + " and " + titles[-1] if len(titles) > 1 else titles[0]


HELP = f"""**Tapis** — {_titles()}, two players, turn by turn.
• `/challenge` a member (or anyone): pick the game, options, days per move.
• `/challenge` Tapis itself to play the computer, with a `level` (easy, normal, strong); unrated.
• They press **Accept** (or use `/accept`). The match gets its own thread.
• Your cards come by DM with buttons for your legal moves; or use `/play` \
(the list shows only your legal moves).
• `/hand` shows your cards again, `/board` shows the table, `/resign` gives up (after you confirm).
• `/matches` lists yours; `/tapis rules`, `/tapis leaderboard`, `/tapis stats` tell the rest.
• `/replay` a finished match move by move; `/tapis export` gives its moves as a file.
• `/tournament create`, `join`, `start`, `standings`: Swiss or round-robin tournaments; \
`/tapis leaderboard season:` shows a season's table.
Allow direct messages from this server so I can send you your hand."""


def rules_text(game: str) -> str:
    """What the game says of itself (its summary, move words, example moves and options):
    generic, so a new game documents itself."""
    rules = games.get(game)
    state = rules.new_match(seed=0)
    moves = ", ".join(f"`{verb}`" for verb in sorted(state.syntax))
    examples = ", ".join(f"`{move}`" for move in rules.example_moves)
    options = "; ".join(
        f"`{o.name}` (default {o.default if o.default is not None else 'drawn by lot'}"
        + (f"; {o.help}" if o.help else "")
        + ")"
        for o in rules.options
    )
    return "\n\n".join(
        [f"**{rules.title}** — {rules.summary}",
         f"Moves: {moves}, e.g. {examples}. Cards are written rank then suit: QS, 10H, 21T.",
         f"Options: {options}, e.g. `{rules.example_options}`."]
    )  # fmt: skip
