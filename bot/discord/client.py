"""The bot: discord.py's ``commands.Bot`` wired to the match service."""

from __future__ import annotations

import asyncio
import gc
import hashlib
import json
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import discord
from discord.ext import commands

from bot.discord.actions import Actions
from bot.discord.answers import SORRY, words_of
from bot.discord.commands import Info, Play
from bot.discord.components import DYNAMIC_ITEMS
from bot.discord.config import Settings
from bot.discord.courier import Courier, workers_for
from bot.discord.locales import Translator
from bot.discord.pacing import Gauge
from bot.discord.privacy import DYNAMIC_ITEMS as PRIVACY_ITEMS
from bot.discord.replay import DYNAMIC_ITEMS as REPLAY_ITEMS
from bot.discord.replay import Replay
from bot.discord.tournaments import TournamentCommands, TournamentPoster
from bot.process import health, metrics
from bot.service import ChallengeLimits, Delivery, MatchService
from bot.service.coach import Coach
from bot.service.computer import Computer, computer_turns
from bot.service.queries import Reads

log = logging.getLogger(__name__)

# What else the process serves beside the bot, over the same reads (``bot.web.beside_bot``):
# started with the bot, and its ``cleanup()`` awaited when the bot stops. The entry point
# (``python -m bot``) hands it in, so the Discord side never imports the web's.
Beside = Callable[[Reads], Awaitable[Any]]
# Seconds between two looks for messages another process left unsent (see _sweep_outbox):
# well inside the outbox's lease, so a dead process's messages go out within minutes.
OUTBOX_SWEEP = 30.0


class TapisBot(commands.Bot):
    """Slash commands and components only, so ``Intents.default()`` is all it needs."""

    def __init__(
        self,
        settings: Settings,
        *,
        service: MatchService | None = None,
        settle_heap: bool = False,
        beside: Beside | None = None,
        **options: Any,
    ) -> None:
        # Every send that does not name whom it pings pings nobody: names typed by users end
        # up in messages, and a name must never notify a third person.
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        # Every REST answer goes past the gauge, which paces the courier by Discord's limits.
        gauge = Gauge(settings.requests_per_second)
        options.setdefault("http_trace", gauge.trace)
        # No cache of recent messages: the bot answers commands and buttons, whose events
        # carry what they need, and never looks a message up. discord.py keeps the last 1,000
        # otherwise, each holding itself in a cycle with its parts, left for the collector.
        options.setdefault("max_messages", None)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            **options,
        )
        self.settings = settings
        metrics.set_shard(settings.shard_ids if settings.sharded else None)
        # Only a bot that is the whole process tells the collector what stays (``_warm``):
        # one started inside another program (a test) leaves that program's collector be.
        self._settle_heap = settle_heap
        self._beside = beside
        self._owns_service = service is None
        self.service: MatchService = service  # type: ignore[assignment]  # opened in setup_hook
        self.courier = Courier(
            self,
            self._note_dms,
            self._sent,
            on_batch=self._computer_turns,
            dm_opened=self._dm_opened,
            gauge=gauge,
            workers=workers_for(settings.requests_per_second),
        )
        self.actions = Actions(self, self.courier)
        self._clocks: asyncio.Task[None] | None = None
        self._tournaments: asyncio.Task[None] | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._closing: asyncio.Future[None] | None = None  # set by the first close()
        self._web: Any = None  # what ``beside`` started (the web site's runner), if anything
        self.metrics: metrics.Served | None = None  # /metrics, when TAPIS_METRICS_PORT asks
        self._heartbeat: asyncio.Task[None] | None = None
        self._warming: asyncio.Task[None] | None = None
        self.computer: Computer | None = None  # made in setup_hook, over the service
        self.coach: Coach | None = None  # hints and reviews, in the computer's workers
        self._unsent: list[Delivery] = []
        self.synced: bool | None = None  # whether setup_hook sent the commands to Discord

    async def setup_hook(self) -> None:
        if self.service is None:
            # The storage makes the folder itself, private (0700), if it is missing.
            self.service = await MatchService.open(
                self.settings.database_target,
                durable=self.settings.durable,
                limits=ChallengeLimits(hours=self.settings.challenge_hours),
            )
        self.add_dynamic_items(*DYNAMIC_ITEMS, *REPLAY_ITEMS, *PRIVACY_ITEMS)
        await self.add_cog(Play(self, self.actions))
        await self.add_cog(Info(self))
        await self.add_cog(Replay(self))
        await self.add_cog(TournamentCommands(self))
        if self._beside is not None:
            self._web = await self._beside(self.service.reads)
        self.metrics = metrics.serve_from_env()
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]
        await self.tree.set_translator(Translator())
        self.synced = await self.sync_commands()
        self.computer = Computer(
            self.service,
            pause=self.settings.computer_pause,
            processes=self.settings.computer_processes,
        )
        self.coach = Coach(self.service, self.computer.workers)
        # Read before the gateway connects, so only what an earlier process left unsent:
        # a move made here from now on is sent by whoever made it, never by the replay too.
        self._unsent = await self.service.unsent()
        self._clocks = asyncio.create_task(self._run_clocks(), name="tapis-clocks")
        self._heartbeat = asyncio.create_task(self._beat(), name="tapis-heartbeat")
        # The live matches read back while the gateway connects: no first move waits for it.
        self._warming = asyncio.create_task(self._warm(), name="tapis-warm")
        self._tournaments = asyncio.create_task(self._run_tournaments(), name="tapis-tournaments")
        self._sweeper = asyncio.create_task(self._sweep_outbox(), name="tapis-outbox")

    async def _warm(self) -> None:
        """The live matches read ahead; then the collector is told they stay: what is alive
        once they are read (the matches, the modules, discord.py's state) lives as long as
        the process, and frozen it is never walked again by the collector's passes, which
        then only see what moves make."""
        await self.service.warm()
        if self._settle_heap:
            gc.collect()
            gc.freeze()

    def _computer_turns(self, deliveries: list[Delivery]) -> None:
        """Whatever put the computer to move (a move, an acceptance, a rematch), its turn is
        played in the background once this batch is out."""
        if self.computer is not None:
            for match_id in computer_turns(deliveries):
                self.computer.schedule(match_id, self.courier.deliver)

    async def _note_dms(self, user_id: int, closed: bool) -> None:
        """The courier's one word back: a player's DMs turned out closed, or open again."""
        await self.service.set_dms_closed(user_id, closed)

    async def _dm_opened(self, user_id: int, channel_id: int) -> None:
        """A DM channel the courier opened: stored, so no later start opens it again."""
        await self.service.set_dm_channel(user_id, channel_id)

    async def _sent(self, deliveries: list[Delivery]) -> None:
        """The courier's other word back: these went out; never send them again."""
        await self.service.delivered(deliveries)

    async def _run_clocks(self) -> None:
        await self.wait_until_ready()
        await self.replay_outbox()
        if self.computer is not None:
            # Matches where the computer was to move when the bot stopped go on now.
            await self.computer.resume(self.courier.deliver)
        await self.service.run_clocks(self.courier.deliver)

    async def _run_tournaments(self) -> None:
        """The tournament task: second legs, rounds, standings; after the outbox replay, so
        that what a crash left unsent goes out before anything new."""
        await self.wait_until_ready()
        while self._unsent:
            await asyncio.sleep(0.05)
        await self.service.tournaments.run(TournamentPoster(self).act)

    async def _sweep_outbox(self) -> None:
        """Now and then, send what another process left unsent: one that stopped for good
        (its shards moved here, say) or died while replaying its own, once its claim ran
        out. After the start's replay, which takes what this process's last run left."""
        await self.wait_until_ready()
        while self._unsent:
            await asyncio.sleep(0.05)
        while True:
            await asyncio.sleep(OUTBOX_SWEEP)
            try:
                left = await self.service.left_unsent()
                if left:
                    log.info("sending %d message(s) another process left unsent", len(left))
                    await self.courier.send(left)
            except Exception:  # tried again at the next sweep
                log.exception("sending what was left unsent failed")

    async def _beat(self) -> None:
        """Touch the heartbeat file while connected to the gateway (``bot.process.health``)."""
        path = health.heartbeat_path(self.settings.database)
        await self.wait_until_ready()
        while True:
            # The gateway's socket open, not just the process alive: a bot that lost Discord
            # for good and keeps failing to reconnect is not healthy.
            connected = self.gateway_open()
            if self.is_ready() and not self.is_closed() and connected:
                try:
                    health.beat(path)
                except OSError:
                    log.warning("cannot write the heartbeat file %s", path)
            await asyncio.sleep(health.BEAT_EVERY)

    def gateway_open(self) -> bool:
        """Whether the connection to Discord's gateway is open."""
        return self.ws is not None and self.ws.open

    async def replay_outbox(self) -> None:
        """Send what was committed but not sent before the last stop (a crash between a
        move's commit and its messages), each once: what was sent but not yet marked goes
        with the same nonce, and Discord does not show it twice."""
        unsent, self._unsent = self._unsent, []
        try:
            await self.service.prune_outbox()
            if unsent:
                log.info("sending %d message(s) left unsent at the last stop", len(unsent))
                await self.courier.send(unsent)
        except Exception:  # the clocks must start all the same
            log.exception("replaying the outbox failed")

    async def close(self) -> None:
        """Stop everything, in an order where nothing still running needs what is already
        gone; safe to call again (a second caller waits for the first close to finish):

        1. the web site, then the background tasks (clocks, tournaments, outbox sweep,
           warming, heartbeat) and the computer: each reads and writes the database, and
           each is stopped at an ``await``, so no transaction is left half-way;
        2. the courier sends what it was handed, while Discord can still be reached, and
           marks it delivered in the database (what it cannot send stays in the outbox);
        3. Discord's gateway and HTTP session;
        4. the database last, since all of the above use it: on PostgreSQL its listening
           connection, then the writer threads, each closing its own connection on its own
           event loop before it is joined, then the read pool (``PgDatabase.close``).
        """
        if self._closing is None:
            self._closing = asyncio.ensure_future(self._close())
        # Shielded: a caller cancelled while waiting does not cut the close short.
        await asyncio.shield(self._closing)

    async def _close(self) -> None:
        # Each step is taken even if one before failed: above all the database is closed,
        # so that its threads and connections never outlive the bot.
        try:
            try:
                await self._stop_work()
                await self.courier.close()  # while Discord can still be reached
            finally:
                await super().close()
        finally:
            if self._owns_service and self.service is not None:
                await self.service.close()

    async def _stop_work(self) -> None:
        if self._web is not None:
            await self._web.cleanup()
            self._web = None
        if self.metrics is not None:
            await asyncio.to_thread(self.metrics.close)
            self.metrics = None
        for task in (
            self._clocks,
            self._heartbeat,
            self._warming,
            self._tournaments,
            self._sweeper,
        ):
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        health.stop(health.heartbeat_path(self.settings.database))
        if self.computer is not None:
            await self.computer.close()

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

    # -- servers -----------------------------------------------------------------------------

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """Tapis was removed from a server, or the server deleted (not a mere outage, which
        discord.py tells apart): the server's web consent ends at once, its open challenges
        are withdrawn and its matches under way called off, each player told by DM."""
        deliveries = await self.service.privacy.left_server(guild.id)
        await self.courier.send(deliveries)

    # -- errors ------------------------------------------------------------------------------

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: discord.app_commands.AppCommandError
    ) -> None:
        """Anything unforeseen: logged, and the invoker told privately, politely."""
        log.error("command %s failed", interaction.command, exc_info=error)
        w = words_of(interaction)
        text = w.gettext(SORRY)
        if isinstance(error, discord.app_commands.TransformerError):
            text = w.gettext("I could not read “{value}”. Please pick from the list.").format(
                value=error.value
            )
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            pass


class ShardedTapisBot(TapisBot, commands.AutoShardedBot):
    """The bot over several gateway connections (shards), all or some of them (see
    ``Settings.shard_ids``): the same bot, with discord.py's sharded client beneath it."""

    def gateway_open(self) -> bool:
        """Every shard's connection open (a sharded client has no one ``ws``)."""
        return bool(self.shards) and not any(shard.is_closed() for shard in self.shards.values())


def make_bot(settings: Settings, **options: Any) -> TapisBot:
    """The bot the settings ask for: sharded when ``TAPIS_SHARD_COUNT`` is set."""
    if settings.sharded:
        assert settings.shard_ids is not None
        return ShardedTapisBot(
            settings,
            shard_ids=list(settings.shard_ids),
            shard_count=settings.shard_count,
            **options,
        )
    return TapisBot(settings, **options)
