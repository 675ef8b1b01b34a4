"""What the courier says of its own, each once: the offer under a finished match (a rematch,
or a lesson's next steps) and, in the thread, how to see a hand that closed DMs refused;
neither in a conversation the bot is no member of."""

from __future__ import annotations

from typing import Any, cast

import pytest

from bot.discord.offers import Job, Offers
from bot.discord.queue import Lane
from bot.service import Delivery
from bot.service.values import Place

THREAD = Place(guild_id=1, channel_id=2, thread_id=3)


class Said:
    """A transport that keeps what it was asked to post, and a queue that sends at once."""

    def __init__(self) -> None:
        self.posts: list[tuple[str, list[str]]] = []
        self.jobs: list[tuple[Lane, int, Job]] = []

    async def public(self, place: Place, text: str, *_: Any, **extra: Any) -> None:
        components = extra.get("components")
        ids = (
            [str(getattr(item, "custom_id", "")) for item in components.children]
            if components
            else []
        )
        self.posts.append((text, ids))

    def queue(self, lane: Lane, level: int, match_id: int, job: Job) -> None:
        self.jobs.append((lane, level, job))

    async def run(self) -> None:
        for _lane, _level, job in self.jobs:
            await job()
        self.jobs.clear()


def _ending(match_id: int = 7, *, lesson: bool = False, place: Place = THREAD) -> Delivery:
    return Delivery(
        "notice", match_id, None, "Alice wins.", status="finished", names=("Alice", "Bob"),
        place=place, lesson=lesson,
    )  # fmt: skip


def _offers(said: Said) -> Offers:
    return Offers(cast(Any, said), said.queue)


async def test_a_finished_match_is_offered_a_rematch_once() -> None:
    said = Said()
    offers = _offers(said)
    offers.after_match(_ending())
    offers.after_match(_ending())  # the same ending again (a replayed batch): nothing more
    await said.run()
    ((text, ids),) = said.posts
    assert text == "Alice and Bob, another match?" and ids == ["tapis:rematch:7"]


async def test_a_lesson_offers_a_match_at_each_level_or_a_challenge() -> None:
    said = Said()
    _offers(said).after_match(_ending(8, lesson=True))
    await said.run()
    ((text, ids),) = said.posts
    assert text == "Alice, the lesson is over. What next?"
    assert ids == [f"tapis:learnt:{c}:8" for c in ("easy", "normal", "strong", "challenge")]


@pytest.mark.parametrize("lesson", [False, True])
async def test_nothing_is_offered_in_a_conversation(lesson: bool) -> None:
    said = Said()
    _offers(said).after_match(_ending(lesson=lesson, place=Place(channel_id=9, talk=True)))
    assert said.jobs == []


async def test_closed_dms_are_told_once_a_player_and_never_in_a_conversation() -> None:
    said = Said()
    offers = _offers(said)
    board = Delivery("board", 7, None, "…", place=THREAD)
    offers.dms_closed(board, 42)
    offers.dms_closed(board, 42)
    offers.dms_closed(board, 43)
    offers.dms_closed(Delivery("board", 9, None, "…", place=Place(channel_id=9, talk=True)), 42)
    await said.run()
    assert [text.split(",")[0] for text, _ in said.posts] == ["<@42>", "<@43>"]
