"""Settings of the Discord bot, from the environment or a ``.env`` file, checked at start."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import discord
import yarl

from bot import config
from bot.discord.pacing import BUDGET_PER_SECOND

DEFAULT_API_BASE = "https://discord.com/api/v10"
# Plain http only to this machine (a local stand-in for Discord in tests and development):
# anywhere else the token would cross the network in clear.
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})


class ConfigError(Exception):
    """A setting is missing or wrong; the message says which and how to fix it."""


@dataclass(frozen=True)
class Settings:
    """The bot's settings. The token is kept out of ``repr`` (and so out of logs, tracebacks
    and error reports that print the settings): it is the bot's whole identity."""

    token: str = field(repr=False)
    api_base: str = DEFAULT_API_BASE
    gateway_url: str | None = None
    dev_guild: int | None = None
    database: Path = config.DEFAULT_PATH
    durable: bool = False
    computer_pause: float = 1.5
    """Seconds the computer waits before each move, as a person would think (0 in tests)."""
    computer_processes: int = 1
    """Worker processes for the computer's decisions; 0 decides in a thread (tests)."""
    challenge_hours: float = config.DEFAULT_CHALLENGE_HOURS
    database_url: str | None = field(default=None, repr=False)  # it may hold a password
    """A PostgreSQL address (``TAPIS_DB=postgresql://…``): the database, instead of the file."""
    shard_ids: tuple[int, ...] | None = None
    """The shards this process serves (``TAPIS_SHARD_IDS``); None: all of them."""
    shard_count: int | None = None
    """How many shards the bot has in all (``TAPIS_SHARD_COUNT``); None: not sharded."""
    requests_per_second: int = BUDGET_PER_SECOND
    """The courier's own budget of requests in any rolling second
    (``TAPIS_GLOBAL_REQUESTS_PER_SECOND``): a little under the global limit Discord grants
    the bot (50 unless it granted more), for the requests made outside the courier."""

    @property
    def sharded(self) -> bool:
        return self.shard_count is not None

    @property
    def database_target(self) -> Path | str:
        """What the match service opens: the PostgreSQL address, else the SQLite file."""
        return self.database_url or self.database

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Settings:
        # Quotes too: `docker run --env-file` passes them on literally; no token holds one.
        token = env.get("DISCORD_TOKEN", "").strip().strip("'\"")
        if not token:
            raise ConfigError(
                "DISCORD_TOKEN is not set. Copy the bot token from the Discord Developer Portal "
                "(your application → Bot → Reset Token) into the environment or into a .env "
                "file as DISCORD_TOKEN=…"
            )
        api_base = check_api_base(env.get("DISCORD_API_BASE", "").strip() or DEFAULT_API_BASE)
        gateway = env.get("DISCORD_GATEWAY_URL", "").strip() or None
        if gateway is not None and yarl.URL(gateway).scheme not in ("ws", "wss"):
            raise ConfigError(f"DISCORD_GATEWAY_URL must be a ws:// or wss:// URL, not {gateway!r}")
        guild_text = env.get("TAPIS_DEV_GUILD", "").strip()
        if guild_text and not guild_text.isdigit():
            raise ConfigError(f"TAPIS_DEV_GUILD must be a server id (digits), not {guild_text!r}")
        pause_text = env.get("TAPIS_COMPUTER_PAUSE", "").strip() or "1.5"
        try:
            pause = float(pause_text)
        except ValueError:
            pause = -1.0
        if not 0 <= pause <= 60:
            raise ConfigError(
                f"TAPIS_COMPUTER_PAUSE must be seconds from 0 to 60, not {pause_text!r}"
            )
        processes_text = env.get("TAPIS_COMPUTER_PROCESSES", "").strip() or "1"
        if not processes_text.isdigit() or int(processes_text) > 8:
            raise ConfigError(
                f"TAPIS_COMPUTER_PROCESSES must be a number from 0 to 8, not {processes_text!r}"
            )
        budget = requests_per_second(env)
        target = config.database(env)
        database_url = target if isinstance(target, str) else None
        shard_ids, shard_count = shards(env)
        if shard_ids is not None and len(shard_ids) < (shard_count or 0) and not database_url:
            raise ConfigError(
                "TAPIS_SHARD_IDS gives this process only some of the shards, so other processes "
                "serve the rest, and processes can share only a PostgreSQL database: set "
                "TAPIS_DB=postgresql://… (a SQLite file is one process's alone)"
            )
        return cls(
            database_url=database_url,
            shard_ids=shard_ids,
            shard_count=shard_count,
            token=token,
            api_base=api_base.rstrip("/"),
            gateway_url=gateway,
            dev_guild=int(guild_text) if guild_text else None,
            database=config.database_path(env),
            durable=config.durable(env),
            computer_pause=pause,
            computer_processes=int(processes_text),
            challenge_hours=_challenge_hours(env),
            requests_per_second=budget,
        )


MAX_REQUESTS_PER_SECOND = 100_000  # far beyond any limit Discord grants; more is a slip


def requests_per_second(env: Mapping[str, str]) -> int:
    """``TAPIS_GLOBAL_REQUESTS_PER_SECOND``: the requests the courier allows itself in any
    second (default 47, under Discord's usual global limit of 50). A bot Discord granted a
    higher global limit sets a few under it: the rest is headroom for the requests made
    outside the courier (a challenge posted, a thread opened)."""
    text = env.get("TAPIS_GLOBAL_REQUESTS_PER_SECOND", "").strip()
    if not text:
        return BUDGET_PER_SECOND
    if not text.isdigit() or not 0 < int(text) <= MAX_REQUESTS_PER_SECOND:
        raise ConfigError(
            "TAPIS_GLOBAL_REQUESTS_PER_SECOND must be a number of requests a second from 1 "
            f"to {MAX_REQUESTS_PER_SECOND}, a few under the global limit Discord grants the "
            f"bot (such as {BUDGET_PER_SECOND} for the usual 50), not {text!r}"
        )
    return int(text)


MAX_SHARDS = 4096  # far beyond any bot's need; a bigger number is a typing slip


def shards(env: Mapping[str, str]) -> tuple[tuple[int, ...] | None, int | None]:
    """``TAPIS_SHARD_IDS`` and ``TAPIS_SHARD_COUNT``: the shards this process serves and how
    many the bot has in all, as discord.py takes them.

    ``TAPIS_SHARD_COUNT=4`` alone: this process serves all four. With
    ``TAPIS_SHARD_IDS=0,1`` (or a range, ``0-1``), only those; another process serves the
    rest. Neither set: no sharding (one connection, discord.py's default).
    """
    ids_text = env.get("TAPIS_SHARD_IDS", "").strip()
    count_text = env.get("TAPIS_SHARD_COUNT", "").strip()
    if not count_text:
        if ids_text:
            raise ConfigError(
                "TAPIS_SHARD_IDS needs TAPIS_SHARD_COUNT too: how many shards the bot has in "
                "all, across every process (such as TAPIS_SHARD_COUNT=4)"
            )
        return None, None
    if not count_text.isdigit() or not 0 < int(count_text) <= MAX_SHARDS:
        raise ConfigError(
            f"TAPIS_SHARD_COUNT must be a number of shards from 1 to {MAX_SHARDS}, "
            f"not {count_text!r}"
        )
    count = int(count_text)
    if not ids_text:
        return tuple(range(count)), count
    ids: list[int] = []
    for part in ids_text.split(","):
        first, dash, last = part.strip().partition("-")
        if not first.isdigit() or (dash and not last.isdigit()):
            raise ConfigError(
                "TAPIS_SHARD_IDS must list shard numbers and ranges, such as 0,1 or 0-3 or "
                f"0-1,4, not {ids_text!r}"
            )
        span = range(int(first), int(last if dash else first) + 1)
        if not span:
            raise ConfigError(f"TAPIS_SHARD_IDS has a range that runs backwards: {part.strip()!r}")
        ids += span
    if len(set(ids)) != len(ids):
        raise ConfigError(f"TAPIS_SHARD_IDS names a shard twice: {ids_text!r}")
    beyond = [shard for shard in ids if shard >= count]
    if beyond:
        raise ConfigError(
            f"TAPIS_SHARD_IDS names shard {beyond[0]}, but shards are numbered from 0 to "
            f"{count - 1} when TAPIS_SHARD_COUNT is {count}"
        )
    return tuple(sorted(ids)), count


def _challenge_hours(env: Mapping[str, str]) -> float:
    try:
        return config.challenge_hours(env)
    except ValueError as error:
        raise ConfigError(str(error)) from None


def check_api_base(api_base: str) -> str:
    """``api_base`` if it is safe to send the token to: https, or http to this machine."""
    try:
        url = yarl.URL(api_base)
        host = url.host
    except (ValueError, TypeError):
        url, host = None, None
    if url is None or url.scheme not in ("http", "https") or not host:
        raise ConfigError(
            f"DISCORD_API_BASE must be an https URL including the API version, such as "
            f"{DEFAULT_API_BASE}, not {api_base!r}"
        )
    if url.scheme == "http" and host not in LOCAL_HOSTS:
        raise ConfigError(
            f"DISCORD_API_BASE must use https (the bot token is sent with every request); "
            f"plain http is allowed only to 127.0.0.1 or localhost, not {host!r}"
        )
    return api_base


def read_dotenv(path: Path) -> dict[str, str]:
    """``KEY=value`` lines of a ``.env`` file (comments, blank lines and quotes allowed)."""
    if not path.is_file():
        return {}
    values: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.removeprefix("export ").partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key.strip()] = value
    return values


def environment(dotenv: Path = Path(".env")) -> dict[str, str]:
    """The ``.env`` file's values, overridden by the real environment's."""
    return {**read_dotenv(dotenv), **os.environ}


def point_at(settings: Settings) -> None:
    """Send discord.py's REST calls (webhooks included) and its gateway where settings say.

    discord.py reads both from class attributes, so this affects every client in the process.
    """
    discord.http.Route.BASE = settings.api_base
    if settings.gateway_url is not None:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)
