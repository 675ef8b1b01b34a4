"""The slash commands: parse what Discord sends, hand it to :class:`Actions` or the service.

Playing commands sit at the top level (``/challenge``, ``/play`` …) because they are typed
often; looking-up commands are grouped under ``/tapis``. Autocomplete turns text into match
ids and legal moves at the edge; the service validates whatever finally arrives.
"""

from __future__ import annotations

import re

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

import games
from bot.discord import coaching, privacy
from bot.discord.actions import Actions
from bot.discord.answers import tell, words_of
from bot.discord.components import pretty
from bot.discord.host import Host
from bot.discord.installs import everywhere, server_and_dm
from bot.discord.locales import OPTIONS_HELP
from bot.discord.names import plain_name, safe_name
from bot.discord.privacy import CHOICE_NAMES as PRIVACY
from bot.discord.replay import export_match, finished_choices, switch_language, switch_web
from bot.discord.rules import send_rules
from bot.discord.seasons import season_table, start_season
from bot.service import MatchInfo, ServiceError, ratings, wording
from bot.service.computer import LEVEL_CHOICES as LEVEL_WORDS
from bot.service.computer import LEVELS
from games.words import N_, Words

# Where each command is offered: see installs.py.

MAX_CHOICES = 25
MAX_LABEL = 100  # Discord's limit on a choice's name and string value
GAME_CHOICES = [Choice(name=games.get(n).title, value=n) for n in games.names()]
LEVEL_CHOICES = [Choice(name=LEVEL_WORDS[level], value=level) for level in LEVELS]

LANGUAGE_CHOICES: list[Choice[str]] = [
    # Each language named in itself, as language menus do; "auto" is said in the reader's.
    Choice(name="English", value="en"),
    Choice(name="Français", value="fr"),
    Choice(name="Svenska", value="sv"),
    Choice(name=N_("the server's language in Discord"), value="auto"),
]


def _label(info: MatchInfo, user_id: int, w: Words, *, plain: bool = False) -> str:
    """One line naming a match for ``user_id``; ``plain`` for autocomplete choices, which
    Discord shows as typed (names are stored escaped for message text)."""
    title = wording.game_title(info.game, w)
    if info.seats is not None:
        others = [p.name for p in info.seats if p.user_id != user_id]
        against = others[0] if others else info.seats[1].name
    elif info.opponent is not None and info.opponent.user_id != user_id:
        against = info.opponent.name
    else:
        against = info.challenger.name
    if info.status == "challenge":
        state = w.gettext("challenge")
    elif info.status == "active" and info.to_move == user_id:
        state = w.gettext("your turn")
    elif info.status == "active":
        state = w.gettext("their turn")
    else:
        state = w.gettext("over")
    if plain:
        against = plain_name(against)
    return w.gettext("#{id} {game} vs {name} — {state}").format(
        id=info.id, game=title, name=against, state=state
    )[:100]


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
                N_(
                    "“{word}” is not an option of {game}. Write name=number, with the names "
                    "{names} (the list suggests them)."
                ),
                word=word,
                game=games.get(game).title,
                names=", ".join(known),
            )
        chosen[key] = int(value)
    return chosen


def option_label(game: str, typed: str, w: Words, seats: tuple[str, str]) -> str:
    """An options suggestion as the list shows it: what is typed, then what it means in the
    reader's words ('first_seat=1 — Bob deals first'); ``seats``: the challenger's name and
    the other player's."""
    try:
        said = games.get(game).options_text(parse_options(game, typed), w, seats)
    except ServiceError:
        return typed[:MAX_LABEL]
    return f"{typed} — {', '.join(said)}"[:MAX_LABEL] if said else typed[:MAX_LABEL]


def _opponent_name(interaction: discord.Interaction, w: Words) -> str:
    """Who the challenge is for, as far as the command typed so far tells."""
    opponent = getattr(interaction.namespace, "opponent", None)
    if opponent is None:
        return w.gettext("the other player")
    name = getattr(opponent, "display_name", None)
    return str(name) if name else w.gettext("your opponent")


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


def matches_filter(move: str, typed: str, shown: str = "") -> bool:
    """Every word typed appears in the move (any order, any case, symbols allowed), as
    written or as shown in the reader's words."""
    text = move.lower()
    pretty_text = (shown or pretty(move)).lower()
    return all(w in text or w in pretty_text for w in typed.lower().split())


class Play(commands.Cog):
    """Challenging, playing, and looking at one's own matches."""

    def __init__(self, bot: Host, actions: Actions) -> None:
        self.bot = bot
        self.actions = actions

    # -- autocomplete ------------------------------------------------------------------------

    async def match_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[int]]:
        mine = await self.bot.service.matches_of(interaction.user.id)
        found = []
        w = words_of(interaction)
        for info in mine:
            label = _label(info, interaction.user.id, w, plain=True)
            if current.strip().lower().lstrip("#") in label.lower():
                found.append(Choice(name=label, value=int(info.id)))
        return found[:MAX_CHOICES]

    async def challenge_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[int]]:
        mine = await self.bot.service.matches_of(interaction.user.id, active_only=False)
        w = words_of(interaction)
        return [
            Choice(name=_label(m, interaction.user.id, w, plain=True), value=int(m.id))
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
            game = (await self.bot.service.get(match_id)).game
        except ServiceError:
            return []
        w = words_of(interaction)
        shown = {m: wording.move_text(game, m, w) for m in legal}
        chosen = [m for m in legal if matches_filter(m, current, shown[m])][:MAX_CHOICES]
        return [Choice(name=shown[m][:100], value=m) for m in chosen if len(m) <= 100]

    async def options_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[str]]:
        game = getattr(interaction.namespace, "game", None)
        if game is None:
            return []
        w = words_of(interaction)
        seats = (interaction.user.display_name, _opponent_name(interaction, w))
        # Discord refuses the whole answer if one value is longer than a choice holds: a
        # suggestion that repeats a long text typed is left out (the text stays as typed).
        return [
            Choice(name=option_label(game, s, w, seats)[:MAX_LABEL], value=s)
            for s in option_suggestions(game, current)
            if len(s) <= MAX_LABEL
        ]

    # -- commands ----------------------------------------------------------------------------

    @app_commands.command(description=N_("Challenge a member (or anyone) to a card game"))
    @app_commands.describe(
        game=N_("Which game to play"),
        opponent=N_("Who you challenge; leave empty to let anyone accept"),
        options=OPTIONS_HELP,
        days=N_("Days each player has per move before losing on time (default: no clock)"),
        level=N_("The computer's level, when you challenge Tapis itself (default: normal)"),
        duplicate=N_("Play the same deals twice, seats swapped: the difference of scores decides"),
        hints=N_("Both players may ask for hints (/hint); such a match is not rated"),
    )
    @app_commands.choices(game=GAME_CHOICES, level=LEVEL_CHOICES)
    @everywhere
    async def challenge(
        self,
        interaction: discord.Interaction,
        game: str,
        opponent: discord.User | None = None,
        options: str | None = None,
        days: app_commands.Range[int, 1, 30] | None = None,
        level: str | None = None,
        duplicate: bool = False,
        hints: bool = False,
    ) -> None:
        try:
            chosen = parse_options(game, options)
        except ServiceError as error:
            await tell(interaction, error)
            return
        await self.actions.challenge(
            interaction, game, opponent, chosen, days, level, duplicate=duplicate, hints=hints
        )

    challenge.autocomplete("options")(options_choices)

    @app_commands.command(description=N_("Accept a challenge (or press Accept on it)"))
    @app_commands.describe(match=N_("The challenge to accept"))
    @everywhere
    async def accept(self, interaction: discord.Interaction, match: int | None = None) -> None:
        await self.actions.accept(interaction, match)

    accept.autocomplete("match")(challenge_choices)

    @app_commands.command(description=N_("Decline a challenge, or withdraw your own"))
    @app_commands.describe(match=N_("The challenge to decline"))
    @everywhere
    async def decline(self, interaction: discord.Interaction, match: int | None = None) -> None:
        await self.actions.decline(interaction, match)

    decline.autocomplete("match")(challenge_choices)

    @app_commands.command(description=N_("Make your move: the list shows your legal moves"))
    @app_commands.describe(
        move=N_("Your move, e.g. play QS or discard 7H 9C (pick from the list)"),
        match=N_("Which match, when you are not in its thread"),
    )
    @everywhere
    async def play(
        self, interaction: discord.Interaction, move: str, match: int | None = None
    ) -> None:
        await self.actions.play(interaction, match, move)

    play.autocomplete("move")(move_choices)
    play.autocomplete("match")(match_choices)

    @app_commands.command(description=N_("See your cards again, privately"))
    @app_commands.describe(
        match=N_("Which match, when you are not in its thread"),
        where=N_("Send it by DM, or show it here to you alone"),
    )
    @app_commands.choices(
        where=[Choice(name=N_("DM"), value="dm"), Choice(name=N_("here"), value="here")]
    )
    @everywhere
    async def hand(
        self, interaction: discord.Interaction, match: int | None = None, where: str | None = None
    ) -> None:
        await self.actions.hand(interaction, match, where)

    hand.autocomplete("match")(match_choices)

    @app_commands.command(description=N_("Show the table of a match to everyone here"))
    @app_commands.describe(match=N_("Which match, when you are not in its thread"))
    @everywhere
    async def board(self, interaction: discord.Interaction, match: int | None = None) -> None:
        await self.actions.board(interaction, match)

    board.autocomplete("match")(match_choices)

    @app_commands.command(description=N_("Give up a match: your opponent wins it"))
    @app_commands.describe(match=N_("Which match, when you are not in its thread"))
    @everywhere
    async def resign(self, interaction: discord.Interaction, match: int | None = None) -> None:
        await self.actions.resign(interaction, match)

    resign.autocomplete("match")(match_choices)

    @app_commands.command(description=N_("The move the strong computer would make, and why"))
    @app_commands.describe(match=N_("Which match, when you are not in its thread"))
    @everywhere
    async def hint(self, interaction: discord.Interaction, match: int | None = None) -> None:
        await self.actions.hint(interaction, match)

    hint.autocomplete("match")(match_choices)

    @app_commands.command(description=N_("Your finished match's costliest choices, privately"))
    @app_commands.describe(match=N_("The finished match to review"))
    @everywhere
    async def review(self, interaction: discord.Interaction, match: int) -> None:
        await coaching.review(interaction, self.actions, getattr(self.bot, "coach", None), match)

    @app_commands.command(description=N_("A guided first deal against the computer, explained"))
    @app_commands.describe(game=N_("Which game to learn"))
    @app_commands.choices(game=GAME_CHOICES)
    @everywhere
    async def learn(self, interaction: discord.Interaction, game: str) -> None:
        await self.actions.learn(interaction, game)

    @app_commands.command(
        name="rules", description=N_("The rules of a game, in short, and how to write its moves")
    )
    @app_commands.describe(game=N_("Which game"))
    @app_commands.choices(game=GAME_CHOICES)
    @everywhere
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        """``/tapis rules`` wherever Tapis is offered (``/tapis`` is a server's group)."""
        await send_rules(interaction, game)

    @app_commands.command(description=N_("List your matches and challenges"))
    @everywhere
    async def matches(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        mine = await self.bot.service.matches_of(interaction.user.id, active_only=False)
        current = [m for m in mine if m.status in ("challenge", "active")]
        w = words_of(interaction)
        if not current:
            await interaction.followup.send(
                w.gettext("You have no match going on. Start one with `/challenge`."),
                ephemeral=True,
            )
            return
        lines = []
        for info in current[:40]:
            place = info.thread_id or info.channel_id
            label = _label(info, interaction.user.id, w)
            lines.append(label + (f" · <#{place}>" if place else ""))
        await interaction.followup.send("\n".join(lines)[:2000], ephemeral=True)


@server_and_dm  # server settings among its subcommands: a server's install alone
class Info(commands.GroupCog, group_name="tapis", group_description=N_("Rules, rankings and help")):
    """Looking things up: rules, leaderboard, stats, help."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(description=N_("How to play with Tapis: the commands, in short"))
    async def help(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(help_text(words_of(interaction)), ephemeral=True)

    @app_commands.command(
        description=N_("Card colours in your hand pictures: two or four suits' colours")
    )
    @app_commands.describe(colours=N_("Four colours tell ♦ from ♥ and ♣ from ♠ at a glance"))
    @app_commands.choices(
        colours=[Choice(name=N_("two colours"), value=2), Choice(name=N_("four colours"), value=4)]
    )
    async def cards(self, interaction: discord.Interaction, colours: int) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self.bot.service.set_preferences(interaction.user.id, four_colour=colours == 4)
        w = words_of(interaction)
        said = (
            w.gettext("Your hands will be drawn in four colours from now on.")
            if colours == 4
            else w.gettext("Your hands will be drawn in two colours from now on.")
        )
        await interaction.followup.send(said, ephemeral=True)

    @app_commands.command(
        description=N_("The rules of a game, in short, and how to write its moves")
    )
    @app_commands.describe(game=N_("Which game"))
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        await send_rules(interaction, game)

    @app_commands.command(description=N_("The best players of a game, here or everywhere"))
    @app_commands.describe(
        game=N_("Which game"),
        scope=N_("This server only, or every server"),
        season=N_("A season's table of this server (its points), current or past"),
    )
    @app_commands.choices(
        game=GAME_CHOICES,
        scope=[
            Choice(name=N_("this server"), value="server"),
            Choice(name=N_("global"), value="global"),
        ],
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
        w = words_of(interaction)
        title = wording.game_title(game, w)
        if not rows:
            text = (
                w.gettext("No rated {game} match on this server yet.")
                if guild
                else w.gettext("No rated {game} match yet.")
            ).format(game=title)
        else:
            where = w.gettext("this server") if guild else w.gettext("all servers")
            text = f"**{title}** — {where}\n" + "\n".join(
                w.gettext("{rank}. {name} — {rating} ({record})").format(
                    rank=r.rank,
                    name=r.name,
                    rating=w.number(ratings.displayed(r.rating)),
                    record=record(r.wins, r.losses, r.draws, w),
                )
                for r in rows
            )
        await interaction.followup.send(
            text[:2000], allowed_mentions=discord.AllowedMentions.none()
        )

    @app_commands.command(description=N_("A member's record: rating, wins, losses, streak"))
    @app_commands.describe(member=N_("Whose record (default: yours)"), game=N_("One game, or all"))
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
            await interaction.followup.send(error.say(words_of(interaction)))
            return
        w = words_of(interaction)
        which = wording.game_title(game, w) if game else w.gettext("all games")
        lines = [f"**{safe_name(who.display_name)}** — {which}"]
        if stats.rating is not None:
            rating = w.number(ratings.displayed(stats.rating))
            lines.append(
                w.gettext("Rating {rating}, rank {rank}.").format(rating=rating, rank=stats.rank)
                if stats.rank
                else w.gettext("Rating {rating}.").format(rating=rating)
            )
        played = w.ngettext("{n} match played", "{n} matches played", stats.games)
        lines.append(
            w.gettext("{played}: {record}.").format(
                played=played.format(n=w.number(stats.games)),
                record=record(stats.wins, stats.losses, stats.draws, w),
            )
        )
        if stats.streak > 0:
            streak = w.ngettext("{n} win in a row", "{n} wins in a row", stats.streak)
        elif stats.streak < 0:
            streak = w.ngettext("{n} loss in a row", "{n} losses in a row", -stats.streak)
        if stats.streak:
            n = w.number(abs(stats.streak))
            lines.append(w.gettext("Streak: {streak}.").format(streak=streak.format(n=n)))
        lines.append(
            w.gettext("Lost on time: {lost}. Resigned: {resigned}.").format(
                lost=w.number(stats.losses_on_time), resigned=w.number(stats.resignations)
            )
        )
        await interaction.followup.send(
            "\n".join(lines), allowed_mentions=discord.AllowedMentions.none()
        )

    @app_commands.command(description=N_("A finished match's moves as a file, to keep or check"))
    @app_commands.describe(match=N_("The finished match to export"))
    async def export(self, interaction: discord.Interaction, match: int) -> None:
        await export_match(self.bot, interaction, match)

    @export.autocomplete("match")
    async def export_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[int]]:
        return await finished_choices(self.bot, interaction, current)

    @app_commands.command(description=N_("What the web shows of you, or forget you altogether"))
    @app_commands.describe(choice=N_("Hidden from the web site, public, or forget me"))
    @app_commands.choices(choice=[Choice(name=text, value=key) for key, text in PRIVACY.items()])
    async def privacy(self, interaction: discord.Interaction, choice: str) -> None:
        await privacy.choose(self.bot, interaction, choice)

    season = app_commands.Group(name="season", description=N_("Seasons of this server's tables"))

    @season.command(name="new", description=N_("Close this season's tables and start the next"))
    async def new_season(self, interaction: discord.Interaction) -> None:
        await start_season(self.bot, interaction)

    @app_commands.command(
        description=N_("Show this server's leaderboards, matches and players on the web, or stop")
    )
    @app_commands.describe(state=N_("on: anyone may see them on the site; off: hidden (default)"))
    @app_commands.choices(
        state=[Choice(name=N_("on"), value="on"), Choice(name=N_("off"), value="off")]
    )
    async def web(self, interaction: discord.Interaction, state: str) -> None:
        await switch_web(self.bot, interaction, state == "on")

    @app_commands.command(
        description=N_("The language of this server's posts (managers only; replies follow yours)")
    )
    @app_commands.describe(language=N_("A language, or the server's language in Discord"))
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(self, interaction: discord.Interaction, language: str) -> None:
        await switch_language(self.bot, interaction, language)


def _titles(w: Words) -> str:
    """The games' titles as a sentence lists them: "A, B and C"."""
    titles = [wording.game_title(game.name, w) for game in games.registered()]
    if len(titles) == 1:
        return titles[0]
    return w.gettext("{some} and {last}").format(some=", ".join(titles[:-1]), last=titles[-1])


def record(wins: int, losses: int, draws: int, w: Words) -> str:
    """'3 wins, 1 loss, 0 draws'."""
    return ", ".join(
        [
            w.ngettext("{n} win", "{n} wins", wins).format(n=w.number(wins)),
            w.ngettext("{n} loss", "{n} losses", losses).format(n=w.number(losses)),
            w.ngettext("{n} draw", "{n} draws", draws).format(n=w.number(draws)),
        ]
    )


def help_text(w: Words) -> str:
    """``/tapis help``: the commands, in short."""
    return (
        w.gettext(
            """**Tapis**: {games}, two players, turn by turn.
• `/challenge` a member (or anyone): pick the game, options, days per move.
• `/challenge` Tapis itself to play the computer, with a `level` (easy, normal, strong); \
such matches are not rated.
• They press **Accept** (or use `/accept`). The match gets its own thread.
• Your cards come by direct message with buttons for your moves; or use `/play` \
(the list shows only the moves open to you).
• `/hand` shows your cards again, `/board` shows the table, `/resign` gives up (after you confirm).
• `/matches` lists yours; `/tapis rules`, `/tapis leaderboard` and `/tapis stats` tell the rest.
• `/replay` a finished match move by move; `/tapis export` gives its moves as a file.
Allow direct messages from this server so that I can send you your hand."""
        ).format(games=_titles(w))
        + "\n"
        + w.gettext(
            "• `/tournament create`, `join`, `start`, `standings`: Swiss or round-robin "
            "tournaments; `/tapis leaderboard season:` shows a season's table."
        )
    )
