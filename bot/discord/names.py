"""Names and mentions in Discord text: who a message may ping, and names that ping no one.

Display names are chosen by users and end up inside the bot's sentences, so a name holding
``<@id>`` or ``@everyone`` or markdown must stay mere text; and each send says exactly whom it
means to ping, so nothing else in it ever notifies anybody.
"""

from __future__ import annotations

import re

import discord

# Nobody is pinged unless a send names them in its own allowed mentions.
NO_PINGS = discord.AllowedMentions.none()


def safe_name(name: str) -> str:
    """A display name as Discord text may show it: no mention inside it pings anyone
    (``<@id>``, ``@everyone``) and no markdown in it changes the message around it."""
    return discord.utils.escape_markdown(discord.utils.escape_mentions(name))


def plain_name(name: str) -> str:
    """A name made by :func:`safe_name` as a person reads it (pictures, thread titles,
    autocomplete labels: places where neither markdown nor mentions are read)."""
    return re.sub(r"\\(.)", r"\1", name).replace("@\u200b", "@")


def pings(*user_ids: int | None) -> discord.AllowedMentions:
    """Allowed mentions for a send meant to ping exactly these users (and no one else)."""
    chosen = [discord.Object(u) for u in user_ids if u is not None]
    return discord.AllowedMentions(everyone=False, roles=False, users=chosen or False)
