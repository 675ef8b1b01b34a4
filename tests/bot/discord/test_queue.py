"""The courier's queue and pacing, on their own: priorities, coalescing, waiting, the
global budget and the count of invalid requests."""

from __future__ import annotations

import gc
import logging
import weakref

import discord
import pytest

import games
from bot.discord.courier import Courier
from bot.discord.pacing import Gauge
from bot.discord.queue import BOARD, NOTICE, REMINDER, TURN, Item, Outgoing
from bot.service import Delivery, Place
from tests.waiting import until


def _drain(queue: Outgoing, now: float = 0.0) -> list[str]:
    taken = []
    while (item := queue.take(now)) is not None:
        taken.append(item.payload)
        queue.done(item)
    return taken


def test_turns_first_then_notices_then_boards_reminders_last() -> None:
    queue = Outgoing()
    queue.put(Item(("user", 1), REMINDER, "reminder"))
    queue.put(Item(("channel", 10), BOARD, "board"))
    queue.put(Item(("channel", 11), NOTICE, "notice"))
    queue.put(Item(("user", 2), TURN, "turn"))
    assert _drain(queue) == ["turn", "notice", "board", "reminder"]
    assert queue.depth == 0


def test_a_lane_keeps_its_order_and_sends_one_at_a_time() -> None:
    queue = Outgoing()
    queue.put(Item(("channel", 10), NOTICE, "result"))
    queue.put(Item(("channel", 10), BOARD, "final board"))
    first = queue.take(0.0)
    assert first is not None and first.payload == "result"
    assert queue.take(0.0) is None  # the thread's next message waits for the first
    queue.done(first)
    second = queue.take(0.0)
    assert second is not None and second.payload == "final board"


def test_a_waiting_board_is_replaced_by_the_newer_one_of_its_match() -> None:
    queue = Outgoing()
    old = Item(("channel", 10), BOARD, "board v1", ("board", 1))
    assert queue.put(old) == []
    queue.put(Item(("channel", 10), NOTICE, "notice"))
    assert queue.put(Item(("channel", 10), BOARD, "board v2", ("board", 1))) == [old]
    queue.put(Item(("channel", 10), BOARD, "other match", ("board", 2)))
    assert _drain(queue) == ["notice", "board v2", "other match"]


def test_a_held_message_and_a_blocked_lane_wait_their_time() -> None:
    blocked = {("channel", 11): 5.0}
    queue = Outgoing(lambda lane: blocked.get(lane, 0.0))
    queue.put(Item(("channel", 10), BOARD, "mid-turn", not_before=3.0))
    queue.put(Item(("channel", 11), TURN, "full channel"))
    queue.put(Item(("user", 2), BOARD, "free"))
    assert _drain(queue, 0.0) == ["free"]
    assert queue.next_time() == 3.0
    assert _drain(queue, 3.0) == ["mid-turn"]
    assert _drain(queue, 5.0) == ["full channel"]


async def test_the_gauge_keeps_the_courier_under_its_budget() -> None:
    now = [100.0]
    gauge = Gauge(per_second=3, clock=lambda: now[0])
    for _ in range(3):
        await gauge.slot()
    assert gauge.recent() == 3
    # Three more requests made outside the courier, answered now: the second is full.
    path = "/api/v10/channels/5/messages"
    for _ in range(3):
        gauge.release()
    for _ in range(3):
        await gauge._started(None, None, _params(path))
        empty = {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset-After": "4.5"}
        await gauge._ended(None, None, _params(path, 200, empty))
    assert gauge.recent() == 3
    assert gauge.free_at(5) == pytest.approx(104.5)  # the channel's bucket is empty
    now[0] += 1.01
    assert gauge.recent() == 0  # a second later, room again
    await gauge.slot()
    # An interaction's webhook is not counted.
    await gauge._started(None, None, _params("/api/v10/webhooks/1/token"))
    assert gauge.recent() == 1


async def test_a_hand_is_drawn_while_it_waits_to_go(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hand queued while the second is full is drawn meanwhile, so the worker that sends it
    holds its place in the second for the request alone; a board is drawn only as it goes
    (a newer one may replace it first)."""
    monkeypatch.setenv("TAPIS_RENDER_PROCESSES", "0")
    gauge = Gauge(per_second=1)
    await gauge.slot()  # taken by someone else, and never given back here: nothing goes

    async def nothing(*_: object) -> None:
        return None

    courier = Courier(discord.Client(intents=discord.Intents.none()), nothing, nothing, gauge=gauge)
    state = games.get("ecarte").new_match(seed=3)
    seat = state.to_move
    assert seat is not None
    place = Place(guild_id=1, channel_id=2)
    hand = Delivery(
        "hand", 1, 42, "your move", view=state.view(seat), game="ecarte", status="active",
        place=place,
    )  # fmt: skip
    board = Delivery(
        "board", 1, None, "**Écarté #1**", view=state.view(None), names=("A", "B"),
        game="ecarte", status="active", place=place,
    )  # fmt: skip
    try:
        await courier.send([board, hand])
        painter = courier.painter
        # Drawn, and nothing else being drawn: the board is drawn only once a worker has
        # a place in the second for it, which never comes here.
        await until(lambda: painter.stats.drawn and not painter._drawing, "the hand drawn")
        assert courier.painter.stats.drawn == 1  # the hand, not the board
        assert courier.queue.depth == 2  # neither has gone
    finally:
        await courier.close(drain=0)


async def test_a_hand_replaced_before_a_worker_was_free_is_never_drawn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Under load a player's hand is often replaced by a newer one before it goes: the older
    one, still waiting for a worker, is dropped; only the hand they will get is drawn."""
    monkeypatch.setenv("TAPIS_RENDER_PROCESSES", "0")
    gauge = Gauge(per_second=1)
    await gauge.slot()  # nothing goes: both hands wait in the queue

    async def nothing(*_: object) -> None:
        return None

    courier = Courier(discord.Client(intents=discord.Intents.none()), nothing, nothing, gauge=gauge)
    slots = courier.painter._slots
    busy = 0
    while slots._room(True):  # every worker busy with other pictures
        await slots.take(True)
        busy += 1
    place = Place(guild_id=1, channel_id=2)

    def hand(seed: int) -> Delivery:
        state = games.get("ecarte").new_match(seed=seed)
        seat = state.to_move
        assert seat is not None
        return Delivery(
            "hand", 1, 42, "your move", view=state.view(seat), game="ecarte", status="active",
            place=place,
        )  # fmt: skip

    try:
        painter = courier.painter
        await courier.send([hand(3)])
        await until(lambda: slots.waiting == 1, "the hand to wait for a worker")
        await courier.send([hand(4)])  # the same player's newer hand of the same match
        await until(lambda: painter.stats.dropped == 1, "the older hand dropped")
        for _ in range(busy):
            slots.give(True)
        await until(lambda: painter.stats.drawn and not painter._drawing, "the newer hand drawn")
        assert courier.painter.stats.drawn == 1  # the newer hand only
        assert courier.painter.stats.dropped == 1
        assert courier.queue.depth == 1  # the newer hand, waiting to go
    finally:
        await courier.close(drain=0)


async def test_invalid_requests_are_counted_and_warned_of_long_before_the_ban(
    caplog: pytest.LogCaptureFixture,
) -> None:
    gauge = Gauge()
    path = "/api/v10/channels/7/messages"
    with caplog.at_level(logging.WARNING, "bot.discord.pacing"):
        for _ in range(499):
            gauge.observe(path, 403, {})
        gauge.observe(path, 429, {"X-RateLimit-Scope": "shared", "Retry-After": "1"})
        assert not [r for r in caplog.records if "invalid requests" in r.message]
        gauge.observe(path, 401, {})
    assert gauge.invalid_recent() == 500  # the shared 429 does not count toward the ban
    warned = [r for r in caplog.records if "invalid requests" in r.message]
    assert len(warned) == 1 and "500" in warned[0].message and "10000" in warned[0].message


def _params(path: str, status: int = 200, headers: dict[str, str] | None = None) -> object:
    class Url:
        pass

    class Response:
        pass

    class Params:
        pass

    url, response, params = Url(), Response(), Params()
    url.path = path  # type: ignore[attr-defined]
    response.status, response.headers = status, headers or {}  # type: ignore[attr-defined]
    params.url, params.response = url, response  # type: ignore[attr-defined]
    return params


async def test_a_replaced_message_is_freed_at_once_not_left_to_the_collector() -> None:
    """A board replaced by a newer one while it waited is gone as soon as it leaves the queue:
    nothing it holds points back at it, so no cycle keeps it for the collector."""
    gauge = Gauge(per_second=1)
    await gauge.slot()  # nothing goes: both boards wait

    async def nothing(*_: object) -> None:
        return None

    courier = Courier(discord.Client(intents=discord.Intents.none()), nothing, nothing, gauge=gauge)
    place = Place(guild_id=1, channel_id=2)
    state = games.get("ecarte").new_match(seed=3)

    def board(text: str) -> Delivery:
        return Delivery(
            "board", 1, None, text, view=state.view(None), names=("A", "B"), game="ecarte",
            status="active", place=place,
        )  # fmt: skip

    gc.disable()
    try:
        await courier.send([board("first")])
        first = weakref.ref(courier.queue._lanes[("channel", 2)][0])
        await courier.send([board("second")])
        assert [item.payload[0].text for item in courier.queue._lanes[("channel", 2)]] == ["second"]
        assert first() is None
    finally:
        gc.enable()
        await courier.close(drain=0)
