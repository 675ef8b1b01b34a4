"""``/tapis privacy``: a player's own choices about their data, answered to them alone.

Three choices about the web site (hidden, as their servers chose, public) take effect at
once; *forget me* first asks, privately, with Forget and Cancel buttons, saying what it will
do — a match under way is resigned, an open challenge withdrawn — since it cannot be undone.
The buttons answer only the player who asked, and only while the question is fresh.
"""

from __future__ import annotations

import logging
import time
from typing import Any, Final

import discord

from bot import i18n
from bot.discord.components import Rebuilt, button, buttons, release
from bot.discord.host import Host, host_of
from bot.discord.names import NO_PINGS
from bot.service import ServiceError
from bot.service.privacy import AS_SERVERS, CHOICES, HIDDEN, PUBLIC
from games.words import N_, Words

log = logging.getLogger(__name__)

ASK_WINDOW: Final = 15 * 60  # seconds the question may be answered
CHOICE_NAMES: Final = {
    "hidden": N_("hidden from the web"),
    "servers": N_("as my servers chose"),
    "public": N_("public"),
    "forget": N_("forget me"),
}
SAID: Final = {
    HIDDEN: N_(
        "You are hidden from the web site: it has no page of yours, and its pages name you "
        "“a player”. Your opponents still see your matches in their own history."
    ),
    AS_SERVERS: N_(
        "The web site shows your matches of servers that turned their pages on "
        "(`/tapis web on`), and your profile there; never a match outside any server."
    ),
    PUBLIC: N_(
        "The web site shows your matches of servers that turned their pages on, and your "
        "matches outside any server whose opponent chose to be public too."
    ),
}


def _words(interaction: discord.Interaction) -> Words:
    return i18n.words(i18n.lang_of(interaction.locale))


async def choose(bot: Host, interaction: discord.Interaction, choice: str) -> None:
    """``/tapis privacy``: store a choice about the web, or ask before forgetting."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    w = _words(interaction)
    user = interaction.user
    if choice != "forget":
        value = CHOICES.get(choice, AS_SERVERS)
        await bot.service.privacy.choose(user.id, value, user.display_name)
        await interaction.followup.send(w.gettext(SAID[value]), ephemeral=True)
        return
    running, challenges = await bot.service.privacy.under_way(user.id)
    lines = [
        w.gettext(
            "Forget you? Your name, direct message channel, preferences and language are "
            "erased, and your ratings leave every leaderboard. Your matches stay in your "
            "opponents' histories, under a neutral name. This cannot be undone."
        )
    ]
    if running:
        lines.append(
            w.ngettext(
                "Your match under way is resigned first: it counts as a loss.",
                "Your {n} matches under way are resigned first: each counts as a loss.",
                len(running),
            ).format(n=w.number(len(running)))
        )
    if challenges:
        lines.append(
            w.ngettext(
                "Your open challenge is withdrawn.",
                "Your {n} open challenges are withdrawn.",
                len(challenges),
            ).format(n=w.number(len(challenges)))
        )
    components = buttons(
        ForgetButton(user.id, int(time.time()), "confirm", w),
        ForgetButton(user.id, int(time.time()), "cancel", w),
    )
    try:
        await interaction.followup.send(
            "\n".join(lines), view=components, ephemeral=True, allowed_mentions=NO_PINGS
        )
    finally:
        release(components)


class ForgetButton(
    Rebuilt,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"tapis:forget:(?P<answer>confirm|cancel):(?P<user_id>[0-9]+):(?P<asked>[0-9]+)",
):
    """Forget or Cancel, under the question ``/tapis privacy choice:forget me`` asked."""

    def __init__(self, user_id: int, asked: int, answer: str, w: Words | None = None) -> None:
        w = w or i18n.words(i18n.DEFAULT_LANG)
        confirm = answer == "confirm"
        label = w.gettext("Forget me") if confirm else w.gettext("Cancel")
        style = discord.ButtonStyle.danger if confirm else discord.ButtonStyle.secondary
        super().__init__(button(label, style, "forget", answer, user_id, asked))
        self.user_id = user_id
        self.asked = asked
        self.answer = answer

    async def pressed(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()
        w = _words(interaction)
        if interaction.user.id != self.user_id:
            await interaction.followup.send(
                w.gettext("Only the player who asked can answer this. Leave it."), ephemeral=True
            )
            return
        if self.answer != "confirm":
            await _replace(interaction, w.gettext("Nothing was forgotten."))
            return
        if time.time() - self.asked > ASK_WINDOW:
            await _replace(
                interaction,
                w.gettext("This question is too old. Ask again with `/tapis privacy`."),
            )
            return
        bot = host_of(interaction)
        try:
            done = await bot.service.privacy.forget(self.user_id)
        except ServiceError as error:
            await _replace(interaction, error.say(w))
            return
        # The resignations and withdrawals are told as any would be (from memory: their
        # outbox rows, which name the player, are gone with the rest).
        await bot.courier.send(done.deliveries)
        await _replace(
            interaction,
            w.gettext(
                "You are forgotten. Tapis keeps nothing that names you; should you play again, "
                "you start afresh."
            ),
        )


async def _replace(interaction: discord.Interaction, text: str) -> None:
    await interaction.edit_original_response(content=text, view=None, allowed_mentions=NO_PINGS)


DYNAMIC_ITEMS: Final = (ForgetButton,)
