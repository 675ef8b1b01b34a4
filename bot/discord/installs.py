"""Where each command is offered, as Discord reads it from the synced commands.

Tapis is installed to a server (integration type 0) or to a person's account (type 1, then
offered in their DMs and group DMs and in servers without the bot). Discord reads both
fields on top-level commands and groups only (a subcommand's are ignored), so a group whose
subcommands are partly server-only stays a server's group.

- :func:`everywhere`: playing and reading commands that work in any conversation, by either
  install (a match there lives in the answers to its interactions: see ``talk.py``).
- :func:`server_and_dm`: looking-up and settings commands of a server's install, offered in
  its channels and in the bot's DM (``/tapis``).
- :func:`server_only`: what needs a server that has the bot (``/tournament``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from discord import app_commands

T = TypeVar("T")


def _both(installs: Callable[[T], T], contexts: Callable[[T], T]) -> Callable[[T], T]:
    def decorate(command: T) -> T:
        return installs(contexts(command))

    return decorate


everywhere = _both(
    app_commands.allowed_installs(guilds=True, users=True),
    app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True),
)
server_and_dm = _both(
    app_commands.allowed_installs(guilds=True, users=False),
    app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False),
)
server_only = _both(
    app_commands.allowed_installs(guilds=True, users=False),
    app_commands.allowed_contexts(guilds=True, dms=False, private_channels=False),
)
