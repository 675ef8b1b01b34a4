"""The bot: discord.py's ``commands.Bot`` wired to the match service."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from pathlib import Path
from typing import Any

import discord
from discord.ext import commands

from bot.discord.actions import Actions
from bot.discord.commands import Info, Play
from bot.discord.components import DYNAMIC_ITEMS
from bot.discord.config import Settings
from bot.discord.courier import Courier
from bot.discord.locales import Translator
from bot.service import ChallengeLimits, MatchService

log = logging.getLogger(__name__)


class TapisBot(commands.Bot):
    """Slash commands and components only, so ``Intents.default()`` is all it needs."""

    def __init__(
        self, settings: Settings, *, service: MatchService | None = None, **options: Any
    ) -> None:
        # Every send that does not name whom it pings pings nobody: names typed by users end
        # up in messages, and a name must never notify a third person.
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            **options,
        )
        self.settings = settings
        self._owns_service = service is None
        self.service: MatchService = service  # type: ignore[assignment]  # opened in setup_hook
        self.courier = Courier(self, self._note_dms)
        self.actions = Actions(self)
        self._clocks: asyncio.Task[None] | None = None
        self.synced: bool | None = None  # whether setup_hook sent the commands to Discord

    async def setup_hook(self) -> None:
        if self.service is None:
            # The storage makes the folder itself, private (0700), if it is missing.
            self.service = await MatchService.open(
                self.settings.database,
                durable=self.settings.durable,
                limits=ChallengeLimits(hours=self.settings.challenge_hours),
            )
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        await self.add_cog(Play(self))
        await self.add_cog(Info(self))
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        await self.tree.set_translator(Translator())
        self.synced = await self.sync_commands()
        self._clocks = asyncio.create_task(self._run_clocks(), name="tapis-clocks")

    async def _note_dms(self, user_id: int, closed: bool) -> None:
        """The courier's one word back: a player's DMs turned out closed, or open again."""
        await self.service.set_dms_closed(user_id, closed)

    async def _run_clocks(self) -> None:
        await self.wait_until_ready()
        await self.service.run_clocks(self.courier.send)

    async def close(self) -> None:
        if self._clocks is not None:
            self._clocks.cancel()
            await asyncio.gather(self._clocks, return_exceptions=True)
        await super().close()
        self.courier.painter.close()
        if self._owns_service and self.service is not None:
            await self.service.close()

    # -- command sync ------------------------------------------------------------------------

    async def sync_commands(self) -> bool:
        """Send the commands to Discord only when they changed since the last sync.

        Discord allows 200 command creations a day per server, and a sync at every start would
        spend them; a hash of what was last sent, per scope, is kept next to the database.
        """
        guild = discord.Object(self.settings.dev_guild) if self.settings.dev_guild else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        translator = self.tree.translator
        assert translator is not None
        payload = [
            await c.get_translated_payload(self.tree, translator)
            for c in self.tree.get_commands(guild=guild)
        ]
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        scope = f"guild:{guild.id}" if guild else "global"
        hashes = self._sync_hashes()
        known = json.loads(hashes.read_text()) if hashes.is_file() else {}
        if known.get(scope) == digest:
            log.info("commands unchanged (%s): no sync", scope)
            return False
        await self.tree.sync(guild=guild)
        known[scope] = digest
        hashes.parent.mkdir(parents=True, exist_ok=True)
        hashes.write_text(json.dumps(known, indent=1))
        log.info("commands synced (%s)", scope)
        return True

    def _sync_hashes(self) -> Path:
        return self.settings.database.with_name(self.settings.database.name + ".commands.json")

    # -- errors ------------------------------------------------------------------------------

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: discord.app_commands.AppCommandError
    ) -> None:
        """Anything unforeseen: logged, and the invoker told privately, politely."""
        log.error("command %s failed", interaction.command, exc_info=error)
        text = "Something went wrong on my side; nothing was changed. Please try again."
        if isinstance(error, discord.app_commands.TransformerError):
            text = f"I could not read {error.value!r}: please pick from the list."
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            pass
