"""Hints and reviews on the fake Discord: asked by command or by the hand's Hint button,
answered to the asker alone, refused where a result measures a player's own play."""

from __future__ import annotations

import random
import re

import ai.review
import games
from bot.discord.client import TapisBot
from games.words import ENGLISH
from tests.bot.discord.conftest import StartBot
from tests.bot.discord.driver import Table, latest_hand
from tests.fakediscord import FakeDiscord, FakeInteraction, FakeUser, Sent

CODE = re.compile(r"(?<![0-9A-Za-z])(10|[2-9JQKA])[SHDC](?![0-9A-Za-z])")
"""A card written as the engine's code ("QS"), which no player should have to read."""
COACHED = ("Tapis would play", "on average", "Reviewing match", "costliest", "strong level")
"""Words of a hint or a review: none may be read in public."""


def short(game: str) -> str:
    return " ".join(f"{name}={value}" for name, value in games.get(game).short_options().items())


def hint_button(sent: Sent, match_id: int) -> str | None:
    return next((c for c in sent.custom_ids() if c.startswith(f"tapis:hint:{match_id}:")), None)


async def answer_to(fake: FakeDiscord, handle: FakeInteraction, *marks: str) -> Sent:
    """The first private follow-up or edit of ``handle`` saying one of ``marks``."""
    said = await fake.wait_for(
        lambda s: (
            s.token == handle.token
            and s.kind in ("followup", "edit")
            and any(m in s.content for m in marks)
        ),
        since=handle.since,
        timeout=30,
    )
    assert not fake.is_public(said), said.content
    return said


async def hinted_move(bot: TapisBot, match_id: int, user_id: int) -> str:
    """The move the last hint given to ``user_id`` named, as kept with the match."""
    used = [h for h in await bot.service.coaching.hints_used(match_id) if h.user_id == user_id]
    assert used, "the hint was not kept with the match"
    return used[-1].move


def nothing_coached_in_public(fake: FakeDiscord) -> None:
    for sent in fake.log:
        if fake.is_public(sent):
            assert not any(word in sent.text() for word in COACHED), sent.text()


async def test_a_hint_against_the_computer_is_private_and_in_words(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser
) -> None:
    bot = await start_bot()
    assert bot.computer is not None
    handle = await fake.slash(
        alice, "challenge", game="piquet", opponent=fake.bot_user, level="easy",
        options=short("piquet"),
    )  # fmt: skip
    assert "started" in (await handle.finished()).content
    await bot.computer.idle()
    (info,) = await bot.service.matches_of(alice.id)
    assert info.to_move == alice.id and info.thread_id is not None
    # Against the computer hints are allowed: the hand offers one.
    hand = latest_hand(fake, alice, info.id)
    assert hand is not None and hint_button(hand, info.id) is not None

    asked = await fake.slash(alice, "hint", info.thread_id)
    said = await answer_to(fake, asked, "Tapis would play", "Play **")
    move = await hinted_move(bot, info.id, alice.id)
    assert move in await bot.service.legal_moves(info.id, alice.id)
    assert games.get("piquet").describe(move, ENGLISH) in said.content, said.content
    assert not CODE.search(said.content), f"a card code in the hint: {said.content}"
    nothing_coached_in_public(fake)


async def test_a_hint_is_refused_in_a_rated_match_and_a_duplicate_challenge(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser
) -> None:
    bot = await start_bot()
    table = await Table.open(fake, bot, "ecarte", short("ecarte"), alice, bob)
    info = await bot.service.get(table.match_id)
    mover = table.players[info.to_move or 0]
    hand = latest_hand(fake, mover, table.match_id)
    assert hand is not None and hint_button(hand, table.match_id) is None  # none offered
    asked = await fake.slash(mover, "hint", table.thread_id)
    said = await answer_to(fake, asked, "not allowed")
    assert "rated match" in said.content, said.content
    assert await bot.service.coaching.hints_used(table.match_id) == []
    # A duplicate match's legs are each player's own play: no hints there either.
    asked = await fake.slash(
        alice, "challenge", game="piquet", opponent=bob, duplicate=True, hints=True
    )
    said = await answer_to(fake, asked, "not allowed")
    assert "duplicate match" in said.content, said.content
    assert [m.id for m in await bot.service.matches_of(alice.id)] == [table.match_id]
    nothing_coached_in_public(fake)


async def test_a_challenge_with_hints_says_so_and_its_hint_button_answers_its_player(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser, carol: FakeUser
) -> None:
    bot = await start_bot()
    handle = await fake.slash(
        alice, "challenge", game="ecarte", opponent=bob, options=short("ecarte"), hints=True
    )
    posted = await handle.finished()
    assert "Hints allowed" in posted.content and "not rated" in posted.content  # the challenger
    card = await fake.wait_for(
        lambda s: any(c.startswith("tapis:accept") for c in s.custom_ids()), since=handle.since
    )
    assert fake.is_public(card) and "Hints allowed" in card.content, card.content  # bob reads it
    match_id = int(card.custom_ids()[0].split(":")[-1])
    press = await fake.press(bob, card, f"tapis:accept:{match_id}")
    accepted = await press.finished()  # the card, answered, keeps its terms
    assert fake.is_public(accepted) and "Hints allowed" in accepted.content, accepted.content
    await fake.wait_for(lambda s: s.token == press.token and s.kind == "followup")
    await bot.courier.settled()
    info = await bot.service.get(match_id)
    assert info.status == "active" and info.hints and info.thread_id is not None
    board = await fake.wait_for(lambda s: s.channel_id == info.thread_id and "to play" in s.content)
    assert "Hints allowed" in board.content, board.content
    assert await bot.service.leaderboard("ecarte", fake.guild_id) == []

    mover = {alice.id: alice, bob.id: bob}[info.to_move or 0]
    hand = latest_hand(fake, mover, match_id)
    assert hand is not None
    button = hint_button(hand, match_id)
    assert button is not None, hand.custom_ids()
    pressed = await fake.press(mover, hand, button)
    said = await answer_to(fake, pressed, "Tapis would play", "Play **")
    move = await hinted_move(bot, match_id, mover.id)
    assert games.get("ecarte").describe(move, ENGLISH) in said.content
    assert not CODE.search(said.content), said.content
    assert (await bot.service.get(match_id)).version == info.version  # a hint plays nothing

    # Someone else pressing it is told politely, and hears no hint.
    stranger = await fake.press(carol, hand, button)
    refused = await answer_to(fake, stranger, f"match #{match_id}")
    assert "Tapis would play" not in refused.content
    assert [h.user_id for h in await bot.service.coaching.hints_used(match_id)] == [mover.id]
    nothing_coached_in_public(fake)


async def test_a_review_is_worked_out_once_with_its_progress_then_read_back(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser
) -> None:
    bot = await start_bot()
    table = await Table.open(fake, bot, "piquet", short("piquet"), alice, bob)
    # Played out through the service: the review, not the playing, is what is looked at here.
    rng = random.Random(5)
    info = await bot.service.get(table.match_id)
    while info.status == "active" and info.to_move is not None:
        legal = await bot.service.legal_moves(info.id, info.to_move)
        info, _ = await bot.service.move(info.id, info.to_move, rng.choice(legal))
    assert info.status == "finished"

    asked = await fake.slash(alice, "review", table.thread_id, match=table.match_id)
    said = await answer_to(fake, asked, "strong level")
    progress = [
        s for s in fake.log[asked.since :]
        if s.token == asked.token and s.content.startswith(f"Reviewing match #{table.match_id}")
    ]  # fmt: skip
    assert progress and all(not fake.is_public(s) for s in progress)
    assert "Alice" in said.content and "Bob" in said.content
    assert not CODE.search(said.content), said.content
    assert await bot.service.coaching.stored_review(table.match_id) is not None
    # Then each player's costliest choices in pictures: the table and that player's hand
    # before each move the review names, privately, one message a player.
    review = ai.review.Review.from_json(await bot.service.coaching.stored_review(table.match_id))
    assert any(review.worst)  # random play: some choice cost something
    for seat, player in enumerate((alice, bob)):
        plies = [d.ply for d in review.worst[seat]]
        if not plies:
            continue
        shown = await fake.wait_for(
            lambda s, name=player.name: (
                s.token == asked.token
                and s.content.startswith(f"**{name}**: the table and their hand")
            )
        )
        assert not fake.is_public(shown) and shown.ephemeral
        assert [name for name, _ in shown.files] == [f"move-{ply}.png" for ply in plies]
        assert all(data.startswith(b"\x89PNG") for _, data in shown.files)
        embeds = shown.data["embeds"]
        assert [e["title"] for e in embeds] == [f"Before move {ply}" for ply in plies]
        assert [e["image"]["url"] for e in embeds] == [f"attachment://move-{p}.png" for p in plies]

    # Asked again (by the other player), it is read back: no progress, the same review.
    again = await fake.slash(bob, "review", table.thread_id, match=table.match_id)
    second = await answer_to(fake, again, "strong level")
    assert second.content == said.content
    assert not [s for s in fake.log[again.since :] if s.token == again.token
                and s.content.startswith("Reviewing")]  # fmt: skip
    nothing_coached_in_public(fake)
    assert fake.unexpected == []
