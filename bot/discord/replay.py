"""Finished matches in Discord: ``/replay`` (an animation, or pages with ◀ ▶ buttons),
``/tapis export`` (the notation file) and ``/tapis web on|off`` (a server's pages).

Everything is read through the site's own queries and replays (``bot.web``), so a replay in
Discord and one on the web are the same positions, and only a match that is over is shown
with its hands. Pictures are drawn in a worker thread, never on the event loop.
"""

from __future__ import annotations

import asyncio
import io
import os
from typing import Any, Final

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot import i18n
from bot.discord.components import Rebuilt, button, release
from bot.discord.host import Host, host_of
from bot.discord.installs import everywhere
from bot.service import queries, reachable, shown_here, wording
from bot.service.replays import Replays, composite, export
from games.words import N_, Words

MAX_ANIMATED_PLIES: Final = 60  # longer matches are paged: one picture a move, on demand
MAX_BYTES: Final = 8 * 1024 * 1024
ANIMATION_WIDTH: Final = 420
PAGE_WIDTH: Final = 640
REVIEW_WIDTH: Final = 480  # five of a player's positions in one message, read on a phone
HOLD_LAST_MS: Final = 3000  # the final position stays a moment before the loop restarts


def _replays(bot: Host) -> Replays:
    """One cache of replayed matches per bot (made on first use, over the bot's database)."""
    found: Replays | None = getattr(bot, "_replays", None)
    if found is None or found.db is not bot.service.reads:
        found = Replays(bot.service.reads)
        bot._replays = found  # type: ignore[attr-defined]
    return found


def web_url(path: str) -> str | None:
    """The public address of a page, when ``TAPIS_WEB_URL`` says where the site is."""
    base = os.environ.get("TAPIS_WEB_URL", "").strip().rstrip("/")
    return f"{base}{path}" if base else None


def _words(interaction: discord.Interaction) -> Words:
    return i18n.words(i18n.lang_of(interaction.locale))


async def _finished(
    bot: Host, match_id: int, w: Words, interaction: discord.Interaction
) -> queries.Match | str:
    """The match if it can be replayed by the one asking, where they ask (a match of this
    server, or one of their own), else the sentence that says why not: another server's
    match, or one outside any server, is as unknown as one that does not exist."""
    match = await queries.match(bot.service.reads, match_id)
    if match is None or not reachable(
        match.guild_id, match.seat_ids or (), interaction.user.id, interaction.guild_id
    ):
        return w.gettext("There is no match #{id} to show. `/matches` lists yours.").format(
            id=match_id
        )
    if not match.replayable:
        if match.status == "active":
            return w.gettext(
                "Match #{id} is still being played: its moves and hands are shown once it "
                "ends. `/board` shows its table now."
            ).format(id=match_id)
        return w.gettext(
            "Match #{id} was set aside and cannot be replayed. Choose another finished match."
        ).format(id=match_id)
    return match


def _animate(states: list[Any], names: tuple[str, str], fps: int, w: Words) -> bytes | None:
    """An animated GIF, one frame a move; None if it would exceed Discord's 8 MB."""
    frames = [composite(state, names, ANIMATION_WIDTH, w) for state in states]
    step = max(50, round(1000 / fps))
    durations = [step] * (len(frames) - 1) + [HOLD_LAST_MS]
    buffer = io.BytesIO()
    frames[0].save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        optimize=False,
    )
    data = buffer.getvalue()
    return data if len(data) <= MAX_BYTES else None


def _decision_pngs(
    states: list[Any], wanted: list[tuple[int, int]], names: tuple[str, str], w: Words
) -> list[bytes]:
    """The table and the chooser's hand before each (seat, ply) of ``wanted``."""
    pictures = []
    for seat, ply in wanted:
        buffer = io.BytesIO()
        kinds = ("table", f"hand{seat}")
        composite(states[ply - 1], names, REVIEW_WIDTH, w, kinds).save(buffer, format="PNG")
        pictures.append(buffer.getvalue())
    return pictures


async def decisions(
    bot: Host, match_id: int, plies: tuple[tuple[int, ...], tuple[int, ...]], w: Words
) -> tuple[list[tuple[int, discord.File]], list[tuple[int, discord.File]]]:
    """Per seat, (ply, picture) for each position a review's costly choice was made from (``plies``:
    the moves that made them), the table and that player's hand before the move; none for a
    match that cannot be replayed. Drawn in a worker thread."""
    match = await queries.match(bot.service.reads, match_id)
    if match is None or not match.replayable:
        return [], []
    states = await _replays(bot).states(match)
    wanted = [(seat, ply) for seat in (0, 1) for ply in plies[seat] if 1 <= ply < len(states)]
    pictures = await asyncio.to_thread(_decision_pngs, states, wanted, match.names, w)
    files: tuple[list[tuple[int, discord.File]], list[tuple[int, discord.File]]] = ([], [])
    for (seat, ply), data in zip(wanted, pictures, strict=True):
        files[seat].append((ply, discord.File(io.BytesIO(data), filename=f"move-{ply}.png")))
    return files


def _page_png(state: Any, names: tuple[str, str], w: Words) -> bytes:
    """One move's picture, its cards and labels as the reader's language writes them."""
    buffer = io.BytesIO()
    composite(state, names, PAGE_WIDTH, w).save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


async def _page(
    bot: Host, match: queries.Match, ply: int, w: Words
) -> tuple[str, discord.File, Pager]:
    """The text, picture and buttons of a replay page at ``ply``."""
    replays = _replays(bot)
    lines = await replays.lines(match)
    ply = max(0, min(ply, len(lines) - 1))
    states = await replays.states(match)
    picture = await asyncio.to_thread(_page_png, states[ply], match.names, w)
    line = lines[ply]
    scores = states[ply].scores
    last = w.number(len(lines) - 1)
    if line.move:
        said = w.gettext("Move {ply} of {last}, {name}: {move}.").format(
            ply=w.number(ply),
            last=last,
            name=match.names[line.seat or 0],
            move=wording.move_text(match.game, line.move, w),
        )
    else:
        said = w.gettext("The deal (move 0 of {last}).").format(last=last)
    hints = await queries.hints(bot.service.reads, match.id, match.version)
    if line.move and any(mark.ply == ply and mark.seat == line.seat for mark in hints):
        said += " " + w.gettext("{name} asked for a hint.").format(name=match.names[line.seat or 0])
    text = "\n".join(
        [
            w.gettext("**{title}**: {first} vs {second}").format(
                title=w.gettext("{game} #{id}").format(
                    game=wording.game_title(match.game, w), id=match.id
                ),
                first=match.names[0],
                second=match.names[1],
            ),
            said,
            w.gettext("Score: {first} {score} {second}.").format(
                first=match.names[0],
                score=wording.score(scores[0], scores[1], w),
                second=match.names[1],
            ),
        ]
    )
    file = discord.File(io.BytesIO(picture), filename=f"tapis-{match.id}-{ply}.png")
    return text[:2000], file, Pager(match.id, ply, len(lines) - 1)


def _hints_told(hints: list[queries.HintMark], names: tuple[str, str], w: Words) -> str:
    """Who asked for hints in an animated replay, and at which moves (its frames say no
    words): "Alice asked for a hint at move 3." one line a player; "" if no one did."""
    told = ""
    for seat in (0, 1):
        plies = [mark.ply for mark in hints if mark.seat == seat]
        if plies:
            told += "\n" + w.ngettext(
                "{name} asked for a hint at move {moves}.",
                "{name} asked for hints at moves {moves}.",
                len(plies),
            ).format(name=names[seat], moves=", ".join(w.number(ply) for ply in plies))
    return told


class Pager(discord.ui.View):
    """⏮ ◀ ▶ ⏭ under a replay page; each button knows its target ply (see ``PageButton``)."""

    def __init__(self, match_id: int, ply: int, last: int) -> None:
        super().__init__(timeout=None)
        for target, tag in ((0, "first"), (ply - 1, "prev"), (ply + 1, "next"), (last, "last")):
            page = PageButton(match_id, max(0, min(target, last)), tag)
            page.item.disabled = target < 0 or target > last or target == ply
            self.add_item(page)


class PageButton(
    Rebuilt,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tapis:replay:(?P<match_id>[0-9]+):(?P<ply>[0-9]+):(?P<tag>first|prev|next|last)",
):
    """Shows ply ``ply`` of a finished match in place of the page; rebuilt from its
    ``custom_id`` after a restart, so old replays keep paging."""

    def __init__(self, match_id: int, ply: int, tag: str) -> None:
        labels = {"first": "⏮", "prev": "◀", "next": "▶", "last": "⏭"}
        style = discord.ButtonStyle.secondary
        super().__init__(button(labels[tag], style, "replay", match_id, ply, tag))
        self.match_id = match_id
        self.ply = ply

    async def pressed(self, interaction: discord.Interaction) -> None:
        bot = host_of(interaction)
        await interaction.response.defer()
        w = _words(interaction)
        found = await _finished(bot, self.match_id, w, interaction)
        if isinstance(found, str):
            await interaction.followup.send(found, ephemeral=True)
            return
        text, file, view = await _page(bot, found, self.ply, w)
        try:
            await interaction.edit_original_response(
                content=text,
                attachments=[file],
                view=view,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        finally:
            release(view)


DYNAMIC_ITEMS: Final = (PageButton,)


class Replay(commands.Cog):
    """``/replay``: a finished match, move by move."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot

    async def finished_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[Choice[int]]:
        return await finished_choices(self.bot, interaction, current)

    @app_commands.command(description=N_("Replay a finished match, move by move, with every hand"))
    @app_commands.describe(
        match=N_("The finished match to replay"),
        fps=N_("Moves a second in the animation (from 1 to 10, default 2)"),
        style=N_("An animation, or pages with buttons (long matches are always paged)"),
    )
    @app_commands.choices(
        style=[
            Choice(name=N_("animation"), value="animation"),
            Choice(name=N_("pages"), value="pages"),
        ]
    )
    @everywhere
    async def replay(
        self,
        interaction: discord.Interaction,
        match: int,
        fps: app_commands.Range[int, 1, 10] = 2,
        style: str = "animation",
    ) -> None:
        w = _words(interaction)
        # One indexed read before the first answer: it decides whether the answer is public
        # (a match of this server) or the asker's alone (their own match of elsewhere, or
        # the unknown answer).
        found = await _finished(self.bot, match, w, interaction)
        public = not isinstance(found, str) and shown_here(found.guild_id, interaction.guild_id)
        await interaction.response.defer(thinking=True, ephemeral=not public)
        if isinstance(found, str):
            await interaction.followup.send(found, ephemeral=True)
            return
        replays = _replays(self.bot)
        states = await replays.states(found)
        link = web_url(f"/matches/{found.id}")
        if style == "animation" and len(states) - 1 <= MAX_ANIMATED_PLIES:
            data = await asyncio.to_thread(_animate, states, found.names, fps, w)
            if data is not None:
                moves = len(states) - 1
                said = w.ngettext(
                    "**{title}**: {first} vs {second}, {n} move at {fps} a second.",
                    "**{title}**: {first} vs {second}, {n} moves at {fps} a second.",
                    moves,
                ).format(
                    title=w.gettext("{game} #{id}").format(
                        game=wording.game_title(found.game, w), id=found.id
                    ),
                    first=found.names[0],
                    second=found.names[1],
                    n=w.number(moves),
                    fps=w.number(fps),
                )
                if link:
                    said += " " + w.gettext("Step through it here: {link}").format(link=link)
                said += _hints_told(
                    await queries.hints(self.bot.service.reads, found.id, found.version),
                    found.names,
                    w,
                )
                await interaction.followup.send(
                    said[:2000],
                    file=discord.File(io.BytesIO(data), filename=f"tapis-{found.id}.gif"),
                    ephemeral=not public,
                    allowed_mentions=discord.AllowedMentions.none(),
                )
                return
        text, file, view = await _page(self.bot, found, 0, w)
        try:
            await interaction.followup.send(
                text,
                file=file,
                view=view,
                ephemeral=not public,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        finally:
            release(view)

    replay.autocomplete("match")(finished_choices)


async def finished_choices(
    bot: Host, interaction: discord.Interaction, current: str
) -> list[Choice[int]]:
    """The invoker's finished matches, newest first, filtered by what is typed."""
    mine = await queries.recent_of(bot.service.reads, interaction.user.id, 25)
    typed = current.strip().lower().lstrip("#")
    found = []
    for m in mine:
        w = _words(interaction)
        label = f"#{m.match_id} {wording.game_title(m.game, w)}: {m.names[0]} vs {m.names[1]}"
        if m.leg is not None:
            label += " " + w.gettext("(leg {leg} of duplicate match #{id})").format(
                leg=m.leg, id=m.duplicate
            )
        if typed in label.lower():
            found.append(Choice(name=label[:100], value=m.match_id))
    return found


async def export_match(bot: Host, interaction: discord.Interaction, match_id: int) -> None:
    """``/tapis export``: the match's moves as a notation file, privately."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    w = _words(interaction)
    found = await _finished(bot, match_id, w, interaction)
    if isinstance(found, str):
        await interaction.followup.send(found, ephemeral=True)
        return
    log = await queries.moves(bot.service.reads, found.id, found.version)
    text = export(found, log)
    await interaction.followup.send(
        w.gettext(
            "Match #{id} in the Tapis notation; `python -m bot verify` plays it again."
        ).format(id=found.id),
        file=discord.File(io.BytesIO(text.encode()), filename=f"tapis-{found.id}.tpn"),
        ephemeral=True,
    )


async def _manager(interaction: discord.Interaction, what: str) -> bool:
    """Whether the invoker may change a server's setting; if not, they are told why."""
    w = _words(interaction)
    if interaction.guild_id is None:
        await interaction.response.send_message(
            w.gettext("This setting belongs to a server. Use it there."), ephemeral=True
        )
        return False
    if not interaction.permissions.manage_guild:
        await interaction.response.send_message(what, ephemeral=True)
        return False
    return True


async def switch_web(bot: Host, interaction: discord.Interaction, on: bool) -> None:
    """``/tapis web on|off``: only on a server, only by someone who may manage it."""
    w = _words(interaction)
    refused = w.gettext(
        "Only members who may manage this server can turn its web pages on or off. Ask one of them."
    )
    if not await _manager(interaction, refused) or interaction.guild_id is None:
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    await bot.service.set_web(interaction.guild_id, on)
    if on:
        link = web_url(f"/servers/{interaction.guild_id}")
        text = (
            w.gettext(
                "This server's leaderboards, matches and players are now on the web: {link}. "
                "`/tapis web off` hides them all again at once."
            ).format(link=link)
            if link
            else w.gettext(
                "This server's leaderboards, matches and players are now on the web (the site's "
                "address is set by TAPIS_WEB_URL). `/tapis web off` hides them all again at once."
            )
        )
    else:
        text = w.gettext(
            "This server's leaderboards, matches and players are no longer on the web."
        )
    await interaction.followup.send(text, ephemeral=True)


LANGUAGE_NAMES: Final = {"en": N_("English"), "fr": N_("French"), "sv": N_("Swedish")}


async def switch_language(bot: Host, interaction: discord.Interaction, lang: str) -> None:
    """``/tapis language``: the language of this server's public posts; ``auto`` follows
    the server's language in Discord. Replies and DMs keep each reader's own language."""
    w = _words(interaction)
    refused = w.gettext(
        "Only members who may manage this server can choose its language. Ask one of them."
    )
    if not await _manager(interaction, refused) or interaction.guild_id is None:
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    chosen = lang if lang in i18n.LANGS else None
    await bot.service.languages.choose(interaction.guild_id, chosen)
    if chosen is None:
        shown = bot.service.languages.of(interaction.guild_id)
        text = w.gettext(
            "This server's posts now follow its language in Discord (today: {language}). "
            "Replies and direct messages speak each member's own language."
        ).format(language=w.gettext(LANGUAGE_NAMES[shown]))
    else:
        text = w.gettext(
            "This server's posts are now in {language}. Replies and direct messages speak each "
            "member's own language."
        ).format(language=w.gettext(LANGUAGE_NAMES[chosen]))
    await interaction.followup.send(text, ephemeral=True)
