"""Settings of the Discord bot, from the environment or a ``.env`` file, checked at start."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import discord
import yarl

from bot import config

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
        return cls(
            token=token,
            api_base=api_base.rstrip("/"),
            gateway_url=gateway,
            dev_guild=int(guild_text) if guild_text else None,
            database=config.database_path(env),
            durable=config.durable(env),
            computer_pause=pause,
            computer_processes=int(processes_text),
            challenge_hours=_challenge_hours(env),
        )


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
