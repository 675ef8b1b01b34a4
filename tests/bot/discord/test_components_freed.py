"""What the bot's components leave behind: a discord.py view and its items point at each
other, so a view dropped whole waits for the cycle collector, whose pass over the oldest objects
a long-running bot makes rarely. Each test runs with the collector off: what it checks is freed at
once or not at all."""

from __future__ import annotations

import gc
import weakref
from typing import Any

import discord

import games
from bot.discord.components import MoveButton, move_buttons, release
from bot.discord.courier import Courier
from bot.service import Delivery, Place


async def test_a_hand_s_buttons_are_freed_once_sent_not_left_to_the_collector() -> None:
    """A view and its buttons point at each other: once a hand is sent (or found
    undeliverable), its buttons are let go of at once, not left for the collector — after
    every move, for each hand sent."""

    async def nothing(*_: object) -> None:
        return None

    courier = Courier(discord.Client(intents=discord.Intents.none()), nothing, nothing)
    state = games.get("ecarte").new_match(seed=3)
    seat = state.to_move
    assert seat is not None
    hand = Delivery(
        "hand", 1, 5, "Your hand.", view=state.view(seat), names=("A", "B"), game="ecarte",
        status="active", place=Place(guild_id=1, channel_id=2),
    )  # fmt: skip
    seen: list[weakref.ref[discord.ui.View]] = []

    def dm_answering(opened: bool) -> object:
        async def dm(
            user_id: int, text: str, picture: object, components: object, **_: object
        ) -> bool:
            assert isinstance(components, discord.ui.View) and components.children
            seen.append(weakref.ref(components))
            return opened

        return dm

    gc.disable()
    try:
        for opened in (True, False):  # sent, or their DMs closed
            courier.transport.dm = dm_answering(opened)  # type: ignore[method-assign]
            assert await courier.hand(hand, None) is opened
            assert seen[-1]() is None
    finally:
        gc.enable()
        await courier.close(drain=0)


def test_only_components_discord_py_forgets_are_released() -> None:
    """Buttons rebuilt from their ids (``DynamicItem``) are nothing to discord.py once sent,
    and are emptied out; a view with a plain button is kept by discord.py to dispatch its
    presses to, and stays whole."""
    gc.disable()
    try:
        made = move_buttons(1, 4, ["play 7S", "play KH"])
        assert made is not None
        freed = weakref.ref(made)
        release(made)
        assert made.children == []
        del made
        assert freed() is None
    finally:
        gc.enable()
    kept = discord.ui.View(timeout=None)
    kept.add_item(discord.ui.Button(label="Go", custom_id="plain"))
    release(kept)
    assert len(kept.children) == 1


async def test_the_view_built_for_a_press_is_emptied_once_the_press_is_handled() -> None:
    """discord.py rebuilds a pressed component inside a view made from the pressed message,
    for that press alone: once handled, it is emptied, so it goes with its last reference."""
    made = move_buttons(1, 4, ["play 7S", "play KH"])
    assert made is not None
    pressed: list[Any] = []
    item = made.children[0]
    assert isinstance(item, MoveButton)

    async def handled(interaction: Any) -> None:
        pressed.append(interaction)

    item.pressed = handled  # type: ignore[method-assign]
    gc.disable()
    try:
        freed = weakref.ref(made)
        await item.callback(discord.utils.MISSING)
        assert pressed == [discord.utils.MISSING]
        assert made.children == []
        del made, item
        assert freed() is None
    finally:
        gc.enable()
