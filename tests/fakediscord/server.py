"""A small fake Discord on 127.0.0.1: enough REST and gateway for discord.py 2.7 to run.

The real client connects to it unchanged (only ``Route.BASE`` and the gateway URL differ), so
the tests exercise discord.py's own parsing, command tree, views and webhooks. Everything the
bot sends is recorded as a :class:`Sent`; tests dispatch interactions as Discord would and
await what comes back.

It refuses what Discord refuses (:mod:`tests.fakediscord.limits`), answering as Discord does:
a body beyond a documented limit, an interaction answered too late, a channel the bot cannot
see. Each refusal is noted in ``refused``; a test of the bot expects none. Its clock
(:meth:`FakeDiscord.advance`) can be moved on, so that the windows are tested without waiting.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from aiohttp import WSMsgType, web

from tests.fakediscord import limits

Json = dict[str, Any]
API = "/api/v10"
EPHEMERAL = 1 << 6
_ids = itertools.count(1_300_000_000_000_000_000)


def snowflake() -> int:
    return next(_ids)


MANAGE_GUILD = 1 << 5
USE_EXTERNAL_APPS = 1 << 50
ALL_PERMISSIONS = ((1 << 41) - 1) | USE_EXTERNAL_APPS
# Interaction contexts and integration types, as Discord numbers them.
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2
GUILD_INSTALL, USER_INSTALL = "0", "1"


def _now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass(frozen=True)
class FakeUser:
    id: int
    name: str
    bot: bool = False
    manager: bool = True  # may manage the server (every permission); False: all but that
    locale: str = "en-US"  # the language of their Discord client

    def payload(self) -> Json:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
        }

    def member(self) -> Json:
        return {
            "user": self.payload(),
            "roles": [],
            "joined_at": _now(),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "nick": None,
            "permissions": str(ALL_PERMISSIONS & ~(0 if self.manager else MANAGE_GUILD)),
        }


GLOBAL_LIMIT = 50  # requests a second for a whole bot, interactions' webhooks apart
CHANNEL_LIMIT = (5, 5.0)  # messages per channel: 5 in a window of 5 seconds
VIA = "1.1 google"  # discord.py takes a 429 without it for a Cloudflare ban


@dataclass(frozen=True)
class Request:
    """One REST request as the fake answered it."""

    at: float  # time.monotonic()
    method: str
    route: str  # the path with ids replaced by their names: "/channels/{channel}/messages"
    channel_id: int | None
    status: int
    limited: bool  # bound by the global limit (not an interaction's webhook)
    scope: str | None = None  # a 429's X-RateLimit-Scope
    user_id: int | None = None  # whose DM channel a ``/users/@me/channels`` opened

    @property
    def invalid(self) -> bool:
        """Counted toward Discord's ban: 401, 403, and 429 not of scope shared."""
        return self.status in (401, 403) or (self.status == 429 and self.scope != "shared")


@dataclass
class Sent:
    """One thing the bot sent: a channel message, an interaction callback, a follow-up, an edit."""

    kind: str  # "message" | "callback" | "followup" | "edit" | "channel" (a rename)
    payload: Json
    files: list[tuple[str, bytes]] = field(default_factory=list)
    channel_id: int | None = None
    dm_to: int | None = None  # the recipient when sent in a DM channel
    reader: int | None = None  # who alone reads it: a DM's recipient, a private reply's user
    interaction_id: int | None = None
    token: str | None = None
    message: Json | None = None  # the message object the fake answered with
    at: float = field(default_factory=time.perf_counter)

    def __post_init__(self) -> None:
        if self.reader is None:
            self.reader = self.dm_to

    @property
    def content(self) -> str:
        return str(self.data.get("content") or "")

    @property
    def data(self) -> Json:
        """A callback's ``data`` (its message or choices), else the payload itself."""
        if self.kind == "callback":
            return dict(self.payload.get("data") or {})
        return self.payload

    @property
    def callback_type(self) -> int | None:
        return int(self.payload["type"]) if self.kind == "callback" else None

    @property
    def ephemeral(self) -> bool:
        return bool(int(self.data.get("flags") or 0) & EPHEMERAL)

    def custom_ids(self) -> list[str]:
        """Every component custom_id of the message, rows walked in order."""
        found: list[str] = []
        for row in self.data.get("components") or []:
            for item in row.get("components", []):
                if "custom_id" in item:
                    found.append(item["custom_id"])
        return found

    def components(self) -> list[Json]:
        return [item for row in self.data.get("components") or [] for item in row["components"]]

    def text(self) -> str:
        """Content, embeds and component labels: everything a reader sees as text."""
        parts = [str(self.data.get("content") or "")]
        for embed in self.data.get("embeds") or []:
            parts.append(json.dumps(embed, ensure_ascii=False))
        for item in self.components():
            parts.append(str(item.get("label") or ""))
            parts.extend(
                str(o.get("label")) + " " + str(o.get("value")) for o in item.get("options", [])
            )
        return "\n".join(parts)


class FakeDiscord:
    """One application, one bot user, one guild with text channels, users who act."""

    def __init__(self, *, token: str = "fake-token", heartbeat_ms: int = 41250) -> None:
        self.token = token
        self.heartbeat_ms = heartbeat_ms
        self.heartbeats = 0
        self.app_id = snowflake()
        self.bot_user = FakeUser(self.app_id, "Tapis", bot=True)
        # (channel, nonce) -> (when, message): a message sent with ``enforce_nonce`` whose nonce
        # was seen in this channel in the last few minutes is not created again, as on Discord.
        self.nonces: dict[tuple[int, str], tuple[float, Json]] = {}
        self.guild_id = snowflake()
        self.channels: dict[int, Json] = {}
        self.channel_id = self.add_channel("cartes")
        self.users: dict[int, FakeUser] = {}
        self.dm_channels: dict[int, int] = {}  # user id -> DM channel id
        self.dms_closed: set[int] = set()
        self.threads_forbidden: set[int] = set()  # channels where creating threads fails
        self.log: list[Sent] = []
        self.listeners: list[Callable[[Sent], None]] = []  # told of each thing sent
        # Discord's rate limits, enforced (tests may turn them off or lower them).
        self.limits = True
        self.global_limit = GLOBAL_LIMIT
        self.channel_limit = CHANNEL_LIMIT
        self.shared_busy: set[int] = set()  # channels that answer 429 of scope "shared"
        self.requests: list[Request] = []  # every REST request the bot made, answered
        self._global: deque[float] = deque()  # start times of the last second's requests
        self._buckets: dict[int, list[float]] = {}  # channel -> [window start, count]
        self.commands: dict[int | None, list[Json]] = {}  # guild id (None: global) -> commands
        self.command_syncs: list[int | None] = []
        self.unexpected: list[str] = []
        # Requests refused for breaking one of Discord's limits (tests/fakediscord/limits.py):
        # what each was and why. A test of the bot expects none.
        self.refused: list[str] = []
        self.no_access: set[int] = set()  # channels the bot cannot see (not a member there)
        # Tapis installed to a person's account: users who did, and the places where the bot
        # is no member (group DMs, servers without it: guild id -> whether their members may
        # use external apps; without, every answer there is forced private).
        self.installed: set[int] = set()
        self.outside_guilds: dict[int, bool] = {}
        self._owners: dict[str, Json] = {}  # message id -> who installed the app for it
        self.clock_offset = 0.0  # seconds the tests moved the fake's clock on (advance)
        self.guild_locale = "en-US"  # the server's language in Discord
        self.identified = asyncio.Event()
        self._sockets: list[tuple[web.WebSocketResponse, itertools.count[int]]] = []
        # Each connection's shard, [id, count], as it identified (none said: [0, 1]).
        self._shards: dict[int, tuple[int, int]] = {}
        self._waiters: list[tuple[Callable[[Sent], bool], asyncio.Future[Sent]]] = []
        self._originals: dict[str, Json] = {}
        self._runner: web.AppRunner | None = None
        self.port = 0

    # -- setup -------------------------------------------------------------------------------

    def add_user(self, name: str) -> FakeUser:
        user = FakeUser(snowflake(), name)
        self.users[user.id] = user
        return user

    def move_guild(self, shard: int, count: int) -> None:
        """Give the server an id that shard ``shard`` of ``count`` serves (before anyone
        connects): its channels go with it."""
        while (self.guild_id >> 22) % count != shard:
            self.guild_id += 1 << 22
        for channel in self.channels.values():
            if "guild_id" in channel:
                channel["guild_id"] = str(self.guild_id)

    def add_channel(self, name: str) -> int:
        channel_id = snowflake()
        self.channels[channel_id] = {
            "id": str(channel_id),
            "type": 0,
            "guild_id": str(self.guild_id),
            "name": name,
            "position": len(self.channels),
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
        }
        return channel_id

    def add_thread(self, parent_id: int, name: str) -> int:
        """A public thread under ``parent_id``, as if the bot had opened it earlier."""
        thread_id = snowflake()
        parent = self.channels[parent_id]
        self.channels[thread_id] = {
            "id": str(thread_id), "type": 11, "guild_id": parent["guild_id"],
            "parent_id": str(parent_id), "name": name, "owner_id": str(self.app_id),
            "last_message_id": None, "rate_limit_per_user": 0, "message_count": 0,
            "member_count": 1, "flags": 0,
            "thread_metadata": {"archived": False, "auto_archive_duration": 10080,
                                "archive_timestamp": _now(), "locked": False},
        }  # fmt: skip
        return thread_id

    def add_group_dm(self, *users: FakeUser) -> int:
        """A group DM between ``users`` (or a DM between two of them): the bot is no member
        there, so it may only answer interactions made there."""
        channel_id = snowflake()
        self.channels[channel_id] = {
            "id": str(channel_id), "type": 3, "name": None, "icon": None,
            "owner_id": str(users[0].id), "last_message_id": None,
            "recipients": [u.payload() for u in users],
        }  # fmt: skip
        self.no_access.add(channel_id)
        return channel_id

    def add_outside_server(self, name: str = "ailleurs", *, external_apps: bool = True) -> int:
        """A channel of another server, which never invited the bot: reached only through a
        member's own install. ``external_apps``: whether its members may use external apps
        (if not, Discord makes every answer there private)."""
        guild_id = snowflake()
        self.outside_guilds[guild_id] = external_apps
        channel_id = snowflake()
        self.channels[channel_id] = {
            "id": str(channel_id), "type": 0, "guild_id": str(guild_id), "name": name,
            "position": 0, "permission_overwrites": [], "nsfw": False, "parent_id": None,
            "topic": None, "last_message_id": None, "rate_limit_per_user": 0,
        }  # fmt: skip
        self.no_access.add(channel_id)
        return channel_id

    def now(self) -> float:
        """The fake's clock, by which interactions' windows are measured: the machine's,
        moved on by :meth:`advance`."""
        return time.monotonic() + self.clock_offset

    def advance(self, seconds: float) -> None:
        """Move the fake's clock on, as if ``seconds`` had passed (no test sleeps through a
        window)."""
        self.clock_offset += seconds

    def _refuse(self, what: str, problems: list[limits.Problem]) -> None:
        """Answer as Discord does a body breaking its limits: 400, code 50035."""
        if problems:
            self.refused.append(f"{what}: " + "; ".join(map(str, problems)))
            raise _Reply(400, limits.form_error(problems))

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}{API}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", API + "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])

    async def stop(self) -> None:
        for ws, _ in list(self._sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    # -- waiting for what the bot sends ------------------------------------------------------

    def _record(self, sent: Sent) -> None:
        self.log.append(sent)
        for listener in self.listeners:
            listener(sent)
        for predicate, future in list(self._waiters):
            if not future.done() and predicate(sent):
                future.set_result(sent)

    async def wait_for(
        self, predicate: Callable[[Sent], bool], *, since: int = 0, timeout: float = 10.0
    ) -> Sent:
        """The first thing sent (from ``log[since]`` on) that matches, waiting if need be."""
        for sent in self.log[since:]:
            if predicate(sent):
                return sent
        future: asyncio.Future[Sent] = asyncio.get_running_loop().create_future()
        entry = (predicate, future)
        self._waiters.append(entry)
        try:
            return await asyncio.wait_for(future, timeout)
        finally:
            self._waiters.remove(entry)

    def is_dm(self, sent: Sent) -> bool:
        return sent.kind == "message" and sent.dm_to is not None

    def is_public(self, sent: Sent) -> bool:
        """Seen by anyone in the server: channel/thread messages and non-ephemeral replies."""
        if sent.kind == "message":
            return sent.dm_to is None
        if sent.kind == "callback" and sent.callback_type == 8:
            return False  # autocomplete choices are shown to the typist alone
        return not self._private_reply(sent)

    def withdrawn(self, sent: Sent) -> bool:
        """A deferred answer's "thinking" taken back (its response deleted): shown for a
        moment, with nothing in it."""
        origin = self._originals.get(sent.token or "", {})
        return sent.callback_type == 5 and bool(origin.get("deleted"))

    def _private_reply(self, sent: Sent) -> bool:
        if sent.ephemeral:
            return True
        if sent.token is not None:
            origin = self._originals.get(sent.token)
            if origin is not None and origin.get("dm"):
                return True
            # An edit of (or a deferred update to) a private message stays private.
            if sent.kind in ("edit", "callback") and origin is not None and origin.get("ephemeral"):
                return True
        return False

    # -- gateway -----------------------------------------------------------------------------

    def serves(self, ws: web.WebSocketResponse, guild_id: int | None) -> bool:
        """Whether the connection ``ws`` gets the events of ``guild_id``, as Discord routes
        them: a guild's go to shard ``(guild_id >> 22) % shard_count``, DMs to shard 0."""
        shard, count = self._shards.get(id(ws), (0, 1))
        return shard == (0 if guild_id is None else (guild_id >> 22) % count)

    async def dispatch(self, event: str, data: Json) -> None:
        """Send a dispatch (op 0) to every connected client serving its guild (see
        :meth:`serves`), as text frames."""
        guild = data.get("guild_id")
        for ws, seq in list(self._sockets):
            if not ws.closed and self.serves(ws, None if guild is None else int(guild)):
                await ws.send_str(json.dumps({"op": 0, "t": event, "s": next(seq), "d": data}))

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        seq = itertools.count(1)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": self.heartbeat_ms}}))
        async for frame in ws:
            if frame.type != WSMsgType.TEXT:
                continue
            message = json.loads(frame.data)
            op = message.get("op")
            if op == 1:
                self.heartbeats += 1
                await ws.send_str(json.dumps({"op": 11}))
            elif op == 2:
                if message["d"].get("token") != self.token:
                    await ws.close(code=4004, message=b"Authentication failed.")
                    break
                shard = message["d"].get("shard") or [0, 1]
                self._shards[id(ws)] = (int(shard[0]), int(shard[1]))
                await self._ready(ws, seq)
            elif op == 6:  # no resume here: ask for a new session
                await ws.send_str(json.dumps({"op": 9, "d": False}))
        self._sockets = [(s, q) for s, q in self._sockets if s is not ws]
        self._shards.pop(id(ws), None)
        return ws

    async def _ready(self, ws: web.WebSocketResponse, seq: itertools.count[int]) -> None:
        mine = self.serves(ws, self.guild_id)
        ready = {
            "v": 10,
            "user": self.bot_user.payload(),
            "guilds": [{"id": str(self.guild_id), "unavailable": True}] if mine else [],
            "session_id": f"session-{snowflake()}",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.app_id), "flags": 0},
            "shard": list(self._shards.get(id(ws), (0, 1))),
            "private_channels": [],
        }
        await ws.send_str(json.dumps({"op": 0, "t": "READY", "s": next(seq), "d": ready}))
        if mine:
            guild = self.guild_payload()
            event = {"op": 0, "t": "GUILD_CREATE", "s": next(seq), "d": guild}
            await ws.send_str(json.dumps(event))
        self._sockets.append((ws, seq))
        self.identified.set()

    def guild_payload(self) -> Json:
        return {
            "id": str(self.guild_id),
            "name": "Le Salon",
            "icon": None,
            "owner_id": str(next(iter(self.users), self.app_id)),
            "roles": [
                {
                    "id": str(self.guild_id),
                    "name": "@everyone",
                    "permissions": str((1 << 41) - 1),
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "emojis": [],
            "stickers": [],
            "features": [],
            "member_count": len(self.users) + 1,
            "members": [self.bot_user.member()],
            "channels": [c for c in self.channels.values() if c["type"] == 0],
            "threads": [c for c in self.channels.values() if c["type"] == 11],
            "presences": [],
            "voice_states": [],
            "unavailable": False,
            "joined_at": _now(),
            "large": False,
            "premium_tier": 0,
            "mfa_level": 0,
            "verification_level": 0,
            "explicit_content_filter": 0,
            "default_message_notifications": 0,
            "system_channel_flags": 0,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
        }

    # -- interactions, as users cause them ---------------------------------------------------

    def _interaction(
        self, kind: int, user: FakeUser, data: Json, channel_id: int, message: Json | None = None
    ) -> Json:
        channel = self.channels[channel_id]
        guild_id = int(channel["guild_id"]) if channel.get("guild_id") else None
        outside = channel["type"] == 3 or (guild_id is not None and guild_id != self.guild_id)
        owners: Json = {}
        if not outside:
            owners[GUILD_INSTALL] = str(self.guild_id)
        if user.id in self.installed:
            owners[USER_INSTALL] = str(user.id)
        if message is not None and str(message.get("id")) in self._owners:
            owners = dict(self._owners[str(message["id"])])  # whoever made the message's
        if outside and not owners:
            raise AssertionError(
                f"{user.name} cannot use Tapis there: nobody installed it for that interaction"
            )
        forced = guild_id is not None and outside and not self.outside_guilds.get(guild_id, True)
        payload: Json = {
            "id": str(snowflake()),
            "application_id": str(self.app_id),
            "type": kind,
            "data": data,
            "channel": channel,
            "channel_id": str(channel_id),
            "token": f"itoken-{snowflake()}",
            "version": 1,
            "locale": user.locale,
            "app_permissions": str((1 << 41) - 1),
            "entitlements": [],
            "authorizing_integration_owners": owners,
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if channel["type"] in (1, 3):
            payload["user"] = user.payload()
            payload["context"] = BOT_DM if channel["type"] == 1 else PRIVATE_CHANNEL
        else:
            assert guild_id is not None
            payload["guild_id"] = str(guild_id)
            payload["guild"] = {
                "id": str(guild_id),
                "locale": self.guild_locale,
                "features": [],
            }
            payload["guild_locale"] = self.guild_locale
            member = user.member()
            if forced:
                member["permissions"] = str(int(member["permissions"]) & ~USE_EXTERNAL_APPS)
            payload["member"] = member
            payload["context"] = GUILD
        if message is not None:
            payload["message"] = message
        dm = channel["type"] == 1
        self._originals[payload["token"]] = {
            "dm": dm,
            "ephemeral": bool(message and int(message.get("flags") or 0) & EPHEMERAL),
            "message": message,  # a component's message is the one its edits change
            "channel_id": channel_id,
            "user_id": user.id,
            "kind": kind,
            "created": self.now(),  # the event: both windows are measured from it
            "outside": outside,  # the bot is no member: at most FOLLOWUPS follow-ups
            "forced": forced,  # every answer private (no Use External Apps)
            "owners": owners,
            "followups": 0,
        }
        return payload

    def _find_command(self, name: str) -> Json | None:
        for scope in (self.guild_id, None):
            for command in self.commands.get(scope, []):
                if command["name"] == name:
                    return command
        return None

    def _options(self, spec: list[Json], values: dict[str, Any], focused: str | None) -> Any:
        """Typed option payloads for ``values``, checked against the synced definitions."""
        out: list[Json] = []
        resolved: Json = {}
        by_name = {o["name"]: o for o in spec}
        for name, value in values.items():
            if name not in by_name:
                raise AssertionError(f"no option {name!r}: the command has {sorted(by_name)}")
            kind = int(by_name[name]["type"])
            option: Json = {"name": name, "type": kind}
            if isinstance(value, FakeUser):
                option["value"] = str(value.id)
                resolved.setdefault("users", {})[str(value.id)] = value.payload()
                member = value.member()
                member.pop("user")
                resolved.setdefault("members", {})[str(value.id)] = member
            else:
                option["value"] = value
            if name == focused:
                option["focused"] = True
            out.append(option)
        return out, resolved

    def _command_data(self, path: str, values: dict[str, Any], focused: str | None = None) -> Json:
        names = path.split()
        command = self._find_command(names[0])
        if command is None:
            raise AssertionError(f"/{names[0]} was never synced; synced: {self.command_names()}")
        data: Json = {"id": command["id"], "name": names[0], "type": 1}
        if command.get("guild_id"):
            data["guild_id"] = command["guild_id"]
        spec = command.get("options", [])
        container = data
        for sub in names[1:]:
            match = next((o for o in spec if o["name"] == sub), None)
            if match is None:
                raise AssertionError(f"/{path}: no subcommand {sub!r}")
            inner: Json = {"name": sub, "type": match["type"]}
            container["options"] = [inner]
            container = inner
            spec = match.get("options", [])
        options, resolved = self._options(spec, values, focused)
        container["options"] = options
        if resolved:
            data["resolved"] = resolved
        return data

    def command_names(self) -> list[str]:
        return sorted({c["name"] for cs in self.commands.values() for c in cs})

    async def slash(
        self, user: FakeUser, path: str, channel_id: int | None = None, **values: Any
    ) -> FakeInteraction:
        """``user`` runs ``/path`` (``"challenge"`` or ``"tapis rules"``) with these options."""
        data = self._command_data(path, values)
        where = channel_id or self.channel_id
        self._offered(user, path.split()[0], where)
        return await self._send_interaction(2, user, data, where)

    def _offered(self, user: FakeUser, name: str, channel_id: int) -> None:
        """Whether Discord offers ``/name`` to ``user`` in that channel, by the command's
        ``contexts`` and ``integration_types`` as synced; a client shows nothing else."""
        command = self._find_command(name)
        assert command is not None
        channel = self.channels[channel_id]
        guild = int(channel["guild_id"]) if channel.get("guild_id") else None
        context = {1: BOT_DM, 3: PRIVATE_CHANNEL}.get(channel["type"], GUILD)
        if command.get("guild_id") and (context != GUILD or guild != self.guild_id):
            raise AssertionError(f"/{name} is a command of one server only, not offered there")
        contexts = command.get("contexts")
        if contexts is not None and context not in contexts:
            raise AssertionError(f"/{name} is not offered in context {context}")
        installs = {int(t) for t in command.get("integration_types") or [0]}
        by_server = context == GUILD and guild == self.guild_id and 0 in installs
        by_user = user.id in self.installed and 1 in installs
        by_dm = context == BOT_DM and 0 in installs
        if not (by_server or by_user or by_dm):
            raise AssertionError(f"/{name} is not offered to {user.name} there")

    async def autocomplete(
        self,
        user: FakeUser,
        path: str,
        focused: str,
        channel_id: int | None = None,
        **values: Any,
    ) -> list[Json]:
        """The choices the bot offers ``user`` while typing option ``focused``."""
        data = self._command_data(path, values, focused)
        handle = await self._send_interaction(4, user, data, channel_id or self.channel_id)
        sent = await handle.callback()
        assert sent.callback_type == 8, sent.payload
        return list(sent.data.get("choices", []))

    async def press(self, user: FakeUser, sent: Sent, custom_id: str) -> FakeInteraction:
        """``user`` presses the button ``custom_id`` on the message ``sent``."""
        return await self._component(user, sent, custom_id, 2, None)

    async def choose(
        self, user: FakeUser, sent: Sent, custom_id: str, values: list[str]
    ) -> FakeInteraction:
        """``user`` picks ``values`` in the select menu ``custom_id`` on the message ``sent``."""
        return await self._component(user, sent, custom_id, 3, values)

    async def _component(
        self, user: FakeUser, sent: Sent, custom_id: str, kind: int, values: list[str] | None
    ) -> FakeInteraction:
        if custom_id not in sent.custom_ids():
            raise AssertionError(f"{custom_id!r} is not on that message: {sent.custom_ids()}")
        message = sent.message
        assert message is not None, "that message has no message object"
        data: Json = {"custom_id": custom_id, "component_type": kind}
        if values is not None:
            item = next(c for c in sent.components() if c.get("custom_id") == custom_id)
            why = limits.selected(item, values)
            if why is not None:
                raise AssertionError(f"no client can send that from {custom_id!r}: {why}")
            data["values"] = values
        channel_id = int(message["channel_id"])
        return await self._send_interaction(3, user, data, channel_id, message)

    async def _send_interaction(
        self, kind: int, user: FakeUser, data: Json, channel_id: int, message: Json | None = None
    ) -> FakeInteraction:
        payload = self._interaction(kind, user, data, channel_id, message)
        handle = FakeInteraction(self, int(payload["id"]), payload["token"], len(self.log))
        await self.dispatch("INTERACTION_CREATE", payload)
        return handle

    # -- REST --------------------------------------------------------------------------------

    async def _rest(self, request: web.Request) -> web.Response:
        path = request.path[len(API) :]
        parts = [p for p in path.split("/") if p]
        body, files = await self._body(request)
        is_webhook = parts[:1] in (["interactions"], ["webhooks"])
        channel = _message_channel(request.method, parts)
        headers: dict[str, str] = {"Via": VIA}
        scope = None
        try:
            if not is_webhook and request.headers.get("Authorization") != f"Bot {self.token}":
                raise _Reply(401, {"message": "401: Unauthorized", "code": 0})
            if not is_webhook and self.limits:
                self._rate_limit(channel, headers)
            result = await self._route(request.method, parts, body, files, request)
        except _Reply as reply:
            scope = reply.scope
            status, response = reply.status, _json(reply.body, reply.status, headers)
        else:
            status = 204 if result is None else 200
            response = (
                web.Response(status=204, headers=headers)
                if result is None
                else _json(result, 200, headers)
            )
        self.requests.append(
            Request(
                time.monotonic(), request.method, _route_name(parts), channel, status,
                not is_webhook, scope if status == 429 else None,
                int(body["recipient_id"]) if parts == ["users", "@me", "channels"] else None,
            )
        )  # fmt: skip
        return response

    def _rate_limit(self, channel: int | None, headers: dict[str, str]) -> None:
        """Discord's limits as documented: 429 with ``retry_after`` in the body and the
        ``X-RateLimit-*`` headers, scope ``global`` past 50 requests in a second, ``user``
        past a channel's 5 messages in 5 s, ``shared`` where the resource itself is busy.
        Every message post or edit answers with its bucket's headers."""
        now = time.monotonic()
        while self._global and self._global[0] <= now - 1.0:
            self._global.popleft()
        if len(self._global) >= self.global_limit:
            retry = round(self._global[0] + 1.0 - now, 3)
            headers.update(
                {
                    "Retry-After": str(max(1, round(retry))),
                    "X-RateLimit-Global": "true",
                    "X-RateLimit-Scope": "global",
                }
            )
            raise _Reply(429, _limited(retry, True), "global")
        self._global.append(now)
        if channel is None:
            return
        limit, window = self.channel_limit
        bucket = self._buckets.setdefault(channel, [now, 0])
        if now >= bucket[0] + window:
            bucket[0], bucket[1] = now, 0
        reset_after = round(bucket[0] + window - now, 3)
        headers.update(
            {
                "X-RateLimit-Limit": str(limit),
                "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
                "X-RateLimit-Reset-After": f"{reset_after:.3f}",
                "X-RateLimit-Bucket": "f4c3d1sc0rdm3ss4g3s",
            }
        )
        if channel in self.shared_busy or bucket[1] >= limit:
            scope = "shared" if channel in self.shared_busy else "user"
            headers.update(
                {
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Scope": scope,
                    "Retry-After": str(max(1, round(reset_after))),
                }
            )
            raise _Reply(429, _limited(reset_after, False), scope)
        bucket[1] += 1
        headers["X-RateLimit-Remaining"] = str(limit - bucket[1])

    async def _body(self, request: web.Request) -> tuple[Json, list[tuple[str, bytes]]]:
        if not request.can_read_body:
            return {}, []
        if request.content_type.startswith("multipart/"):
            return _multipart(await request.read(), request.headers["Content-Type"])
        text = await request.text()
        return (json.loads(text) if text else {}), []

    async def _route(
        self,
        method: str,
        parts: list[str],
        body: Json,
        files: list[tuple[str, bytes]],
        request: web.Request,
    ) -> Any:
        match (method, parts):
            case ("GET", ["users", "@me"]):
                return self.bot_user.payload()
            case ("GET", ["users", user_id]):
                return self._user(int(user_id)).payload()
            case ("GET", ["oauth2", "applications", "@me"]):
                return self._application()
            case ("GET", ["gateway", *_]):
                return {"url": self.gateway_url, "shards": 1, "session_start_limit": {}}
            case ("PUT", ["applications", _, "commands"]):
                return self._sync(None, body)
            case ("PUT", ["applications", _, "guilds", guild_id, "commands"]):
                return self._sync(int(guild_id), body)
            case ("GET", ["applications", _, "commands"]):
                return self.commands.get(None, [])
            case ("GET", ["applications", _, "guilds", guild_id, "commands"]):
                return self.commands.get(int(guild_id), [])
            case ("POST", ["users", "@me", "channels"]):
                return self._dm_channel(int(body["recipient_id"]))
            case ("GET", ["channels", channel_id]):
                return self._channel(int(channel_id))
            case ("POST", ["channels", channel_id, "messages"]):
                return self._post_message(int(channel_id), body, files)
            case ("PATCH", ["channels", channel_id, "messages", _]):
                return self._edit(int(channel_id), body, files, None)
            case ("PATCH", ["channels", channel_id]):
                return await self._edit_channel(int(channel_id), body)
            case ("POST", ["channels", channel_id, "threads"]):
                return await self._thread(int(channel_id), body)
            case ("POST", ["channels", channel_id, "messages", _, "threads"]):
                return await self._thread(int(channel_id), body)
            case ("PUT", ["channels", _, "thread-members", _]):
                return None
            case ("POST", ["interactions", interaction_id, token, "callback"]):
                return self._callback(int(interaction_id), token, body, files, request)
            case ("POST", ["webhooks", _, token]):
                return self._followup(token, body, files)
            case ("PATCH", ["webhooks", _, token, "messages", _]):
                return self._edit(None, body, files, token)
            case ("GET", ["webhooks", _, token, "messages", "@original"]):
                original = self._token(token).get("message")
                if original is None:
                    raise _Reply(404, {"message": "Unknown Message", "code": 10008})
                return original
            case ("DELETE", ["webhooks", _, token, "messages", _]):
                self._token(token)["deleted"] = True
                return None
        self.unexpected.append(f"{method} /{'/'.join(parts)}")
        raise _Reply(404, {"message": "404: Not Found", "code": 0})

    def _user(self, user_id: int) -> FakeUser:
        if user_id == self.app_id:
            return self.bot_user
        if user_id not in self.users:
            raise _Reply(404, {"message": "Unknown User", "code": 10013})
        return self.users[user_id]

    def _channel(self, channel_id: int) -> Json:
        if channel_id in self.no_access:
            self.refused.append(f"channel {channel_id}: the bot is not a member there")
            raise _Reply(403, {"message": "Missing Access", "code": limits.MISSING_ACCESS})
        if channel_id not in self.channels:
            raise _Reply(404, {"message": "Unknown Channel", "code": 10003})
        return self.channels[channel_id]

    def _application(self) -> Json:
        return {
            "id": str(self.app_id),
            "name": "Tapis",
            "description": "Card games",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": {**self.bot_user.payload(), "bot": False},
            "verify_key": "0" * 64,
            "flags": 0,
            "summary": "",
        }

    def _sync(self, guild_id: int | None, body: Any) -> list[Json]:
        self._refuse("command sync", limits.commands(list(body)))
        self.command_syncs.append(guild_id)
        commands = []
        for command in body:
            stored = dict(command)
            stored.update(
                id=str(snowflake()),
                application_id=str(self.app_id),
                version=str(snowflake()),
                type=command.get("type", 1),
                description=command.get("description", ""),
            )
            if guild_id is not None:
                stored["guild_id"] = str(guild_id)
            commands.append(stored)
        self.commands[guild_id] = commands
        return commands

    def _dm_channel(self, user_id: int) -> Json:
        user = self._user(user_id)
        channel_id = self.dm_channels.get(user_id)
        if channel_id is None:
            channel_id = snowflake()
            self.dm_channels[user_id] = channel_id
            self.channels[channel_id] = {
                "id": str(channel_id),
                "type": 1,
                "recipients": [user.payload()],
                "last_message_id": None,
            }
        return self.channels[channel_id]

    def dm_recipient(self, channel_id: int) -> int | None:
        channel = self.channels.get(channel_id)
        if channel is None or channel["type"] != 1:
            return None
        return int(channel["recipients"][0]["id"])

    def _message(self, channel_id: int, body: Json, files: list[tuple[str, bytes]]) -> Json:
        attachments = []
        for index, (name, content) in enumerate(files):
            attachments.append(
                {
                    "id": str(snowflake()),
                    "filename": name,
                    "size": len(content),
                    "url": f"https://cdn.invalid/{index}/{name}",
                    "proxy_url": f"https://media.invalid/{index}/{name}",
                    "content_type": "image/png" if name.endswith(".png") else None,
                }
            )
        channel = self.channels.get(channel_id, {})
        message: Json = {
            "id": str(snowflake()),
            "channel_id": str(channel_id),
            "author": self.bot_user.payload(),
            "content": body.get("content") or "",
            "timestamp": _now(),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": attachments,
            "embeds": body.get("embeds") or [],
            "components": body.get("components") or [],
            "pinned": False,
            "type": 0,
            "flags": int(body.get("flags") or 0),
        }
        if channel.get("guild_id"):
            message["guild_id"] = channel["guild_id"]
        return message

    def _check_message(
        self, what: str, body: Json, files: list[tuple[str, bytes]], flags: int
    ) -> None:
        """A message's body and files, as Discord checks them before anything is made."""
        if not limits.upload(files):
            self.refused.append(f"{what}: files over {limits.UPLOAD_BYTES} bytes")
            raise _Reply(413, {"message": "Request entity too large", "code": limits.TOO_LARGE})
        problems = limits.message(body, flags_allowed=flags)
        if len(files) > limits.ATTACHMENTS:
            problems.append(limits.Problem(("files",), "BASE_TYPE_MAX_LENGTH", "Too many files."))
        self._refuse(what, problems)

    def _token(self, token: str | None) -> Json:
        """An interaction's webhook, usable for 15 minutes from its event."""
        origin = self._originals.get(token or "", {})
        created = origin.get("created")
        if created is not None and self.now() - created > limits.FOLLOWUP_WINDOW:
            self.refused.append("a follow-up or edit after the interaction's token expired")
            raise _Reply(
                401, {"message": "Invalid Webhook Token", "code": limits.INVALID_WEBHOOK_TOKEN}
            )
        return origin

    def _post_message(self, channel_id: int, body: Json, files: list[tuple[str, bytes]]) -> Json:
        self._channel(channel_id)
        self._check_message("message", body, files, limits.CHANNEL_FLAGS)
        recipient = self.dm_recipient(channel_id)
        if recipient is not None and recipient in self.dms_closed:
            raise _Reply(403, {"message": "Cannot send messages to this user", "code": 50007})
        key = (channel_id, str(body.get("nonce")))
        if body.get("enforce_nonce") and body.get("nonce") is not None:
            seen = self.nonces.get(key)
            if seen is not None and time.monotonic() - seen[0] < NONCE_WINDOW:
                return seen[1]  # the message already made for this nonce; nothing new
        message = self._message(channel_id, body, files)
        self._record(Sent("message", body, files, channel_id, dm_to=recipient, message=message))
        if body.get("enforce_nonce") and body.get("nonce") is not None:
            self.nonces[key] = (time.monotonic(), message)
        return message

    def _edit(
        self, channel_id: int | None, body: Json, files: list[tuple[str, bytes]], token: str | None
    ) -> Json:
        origin = self._token(token)
        if channel_id is not None:
            self._channel(channel_id)
        self._check_message("edit", body, files, limits.CHANNEL_FLAGS)
        previous = origin.get("message")
        if channel_id is None:
            channel_id = int(previous["channel_id"] if previous else origin["channel_id"])
        message = self._message(channel_id, body, files)
        if previous is not None:
            message["id"] = previous["id"]
        recipient = self.dm_recipient(channel_id)
        reader = recipient
        if reader is None and token is not None and origin.get("ephemeral"):
            reader = origin.get("user_id")
        self._record(
            Sent("edit", body, files, channel_id, recipient, reader, token=token, message=message)
        )
        return message

    async def _thread(self, parent_id: int, body: Json) -> Json:
        parent = self._channel(parent_id)
        if parent_id in self.threads_forbidden:
            raise _Reply(403, {"message": "Missing Permissions", "code": 50013})
        thread_id = snowflake()
        thread = {
            "id": str(thread_id),
            "type": int(body.get("type") or 11),
            "guild_id": parent["guild_id"],
            "parent_id": str(parent_id),
            "name": body["name"],
            "owner_id": str(self.app_id),
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "message_count": 0,
            "member_count": 1,
            "flags": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": int(body.get("auto_archive_duration") or 10080),
                "archive_timestamp": _now(),
                "locked": False,
            },
        }
        self.channels[thread_id] = thread
        await self.dispatch("THREAD_CREATE", {**thread, "newly_created": True})
        return thread

    async def _edit_channel(self, channel_id: int, body: Json) -> Json:
        """A channel (a thread) renamed: the new name kept, and told as Discord tells it."""
        channel = self._channel(channel_id)
        if "name" in body:
            channel["name"] = body["name"]
        self._record(Sent("channel", body, [], channel_id, None))
        if channel["type"] == 11:
            await self.dispatch("THREAD_UPDATE", channel)
        return channel

    def _callback(
        self,
        interaction_id: int,
        token: str,
        body: Json,
        files: list[tuple[str, bytes]],
        request: web.Request,
    ) -> Json:
        if request.query.get("with_response") not in ("1", "true", "True"):
            self.unexpected.append("interaction callback without with_response")
        origin = self._originals.setdefault(token, {"dm": False, "ephemeral": False})
        created = origin.get("created")
        if created is not None and self.now() - created > limits.CALLBACK_WINDOW:
            self.refused.append("an interaction's first answer after its window")
            raise _Reply(
                404, {"message": "Unknown interaction", "code": limits.UNKNOWN_INTERACTION}
            )
        if "kind" in origin:
            if not limits.upload(files):
                raise _Reply(413, {"message": "Request entity too large", "code": limits.TOO_LARGE})
            self._refuse("interaction callback", limits.callback(int(origin["kind"]), body))
        if origin.get("answered"):
            raise _Reply(
                400, {"message": "Interaction has already been acknowledged.", "code": 40060}
            )
        origin["answered"] = True
        kind = int(body["type"])
        data = body.get("data") or {}
        if origin.get("forced") and kind in (4, 5):
            data = {**data, "flags": int(data.get("flags") or 0) | EPHEMERAL}
            body = {**body, "data": data}
        if kind in (4, 5):
            # A new reply is ephemeral by its own flags; an update (6, 7) changes the
            # component's message, which stays as private or public as it was.
            origin["ephemeral"] = bool(int(data.get("flags") or 0) & EPHEMERAL)
        resource: Json = {"type": kind}
        message = None
        if kind in (4, 7):
            message = self._message(int(origin.get("channel_id") or 0), data, files)
            origin["message"] = message
            resource["message"] = message
            if origin.get("owners"):
                self._owners[message["id"]] = origin["owners"]
        self._record(
            Sent(
                "callback",
                body,
                files,
                interaction_id=interaction_id,
                token=token,
                message=message,
            )
        )
        return {
            "interaction": {
                "id": str(interaction_id),
                "type": kind,
                "response_message_id": message["id"] if message else None,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": origin["ephemeral"],
            },
            "resource": resource,
        }

    @staticmethod
    def _private_origin(origin: Json, body: Json) -> bool:
        """A follow-up only its interaction's user reads: in their DMs, or ephemeral."""
        return bool(origin.get("dm")) or bool(int(body.get("flags") or 0) & EPHEMERAL)

    def _followup(self, token: str, body: Json, files: list[tuple[str, bytes]]) -> Json:
        origin = self._originals.get(token)
        if origin is None:
            raise _Reply(404, {"message": "Unknown Webhook", "code": 10015})
        self._token(token)
        self._check_message("follow-up", body, files, limits.REPLY_FLAGS)
        if origin.get("outside"):
            if origin["followups"] >= limits.FOLLOWUPS:
                self.refused.append("a follow-up past an interaction's limit (no member there)")
                raise _Reply(400, {"message": MAX_FOLLOWUPS, "code": limits.MAX_FOLLOWUPS})
            origin["followups"] += 1
        if origin.get("forced"):
            body = {**body, "flags": int(body.get("flags") or 0) | EPHEMERAL}
        message = self._message(int(origin.get("channel_id") or 0), body, files)
        if origin.get("owners"):
            self._owners[message["id"]] = origin["owners"]
        self._record(
            Sent(
                "followup", body, files, origin.get("channel_id"), token=token, message=message,
                reader=origin.get("user_id") if self._private_origin(origin, body) else None,
            )
        )  # fmt: skip
        return message


class FakeInteraction:
    """An interaction a test dispatched; await what the bot answered to it."""

    def __init__(self, fake: FakeDiscord, interaction_id: int, token: str, since: int) -> None:
        self.fake = fake
        self.id = interaction_id
        self.token = token
        self.since = since
        self.sent_at = time.perf_counter()

    async def callback(self, timeout: float = 10.0) -> Sent:
        """The first response (defer, message, update or autocomplete choices)."""
        return await self.fake.wait_for(
            lambda s: s.kind == "callback" and s.interaction_id == self.id,
            since=self.since,
            timeout=timeout,
        )

    async def finished(self, timeout: float = 10.0) -> Sent:
        """The bot's last word: the first follow-up or edit after the callback (a command's
        confirmation or error, a pressed button's message changed)."""
        await self.callback(timeout)
        return await self.fake.wait_for(
            lambda s: s.kind in ("followup", "edit") and s.token == self.token,
            since=self.since,
            timeout=timeout,
        )

    async def reply(self, timeout: float = 10.0) -> Sent:
        """What the invoker reads: the callback's own message, else the first follow-up/edit."""
        first = await self.callback(timeout)
        if first.callback_type in (4, 7, 8):
            return first
        return await self.fake.wait_for(
            lambda s: s.kind in ("followup", "edit") and s.token == self.token and bool(s.content),
            since=self.since,
            timeout=timeout,
        )


class _Reply(Exception):
    def __init__(self, status: int, body: Json, scope: str | None = None) -> None:
        super().__init__(status)
        self.status = status
        self.body = body
        self.scope = scope


def _limited(retry_after: float, is_global: bool) -> Json:
    return {"message": "You are being rate limited.", "retry_after": retry_after,
            "global": is_global}  # fmt: skip


def _message_channel(method: str, parts: list[str]) -> int | None:
    """The channel of a message post or edit: the bucket Discord keeps per channel."""
    if method not in ("POST", "PATCH") or len(parts) < 3 or parts[0] != "channels":
        return None
    return int(parts[1]) if parts[2] == "messages" and parts[1].isdigit() else None


def _route_name(parts: list[str]) -> str:
    names = {"channels": "{channel}", "users": "{user}", "messages": "{message}"}
    out = []
    for index, part in enumerate(parts):
        before = parts[index - 1] if index else ""
        out.append(names.get(before, "{id}") if part.isdigit() else part)
    if parts[:1] in (["interactions"], ["webhooks"]):
        out = [*out[:1], "…"]
    return "/" + "/".join(out)


MAX_FOLLOWUPS = "This interaction has hit the maximum number of follow up messages"
NONCE_WINDOW = 300.0  # seconds a nonce is remembered ("a few minutes")


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    # discord.py parses a body only when Content-Type is exactly application/json.
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={**(headers or {}), "Content-Type": "application/json"},
    )


_BOUNDARY = re.compile(r'boundary="?([^";]+)"?')
_NAME = re.compile(rb'[; ]name="([^"]*)"')
_FILENAME = re.compile(rb'filename="([^"]*)"')


def _multipart(raw: bytes, content_type: str) -> tuple[Json, list[tuple[str, bytes]]]:
    """``payload_json`` and the files of a multipart upload.

    Split by hand rather than with aiohttp's reader, whose header parsing (the standard
    library's e-mail parser) made the fake, not the bot, the slow side of a benchmark.
    Each part is CRLF, headers, a blank line, the content, CRLF, then the next boundary.
    """
    found = _BOUNDARY.search(content_type)
    if found is None:
        raise web.HTTPBadRequest(text="multipart without a boundary")
    body: Json = {}
    files: list[tuple[str, bytes]] = []
    for part in raw.split(b"--" + found.group(1).encode())[1:-1]:
        head_end = part.index(b"\r\n\r\n")
        head, content = part[2:head_end], part[head_end + 4 : -2]
        name = _NAME.search(head)
        if name is not None and name.group(1) == b"payload_json":
            body = json.loads(content)
        else:
            filename = _FILENAME.search(head)
            files.append((filename.group(1).decode() if filename else "", content))
    return body, files
