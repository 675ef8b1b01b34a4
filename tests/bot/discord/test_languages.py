"""Languages on Discord: replies in the member's, posts in the server's (or the one its
managers chose), hands and DMs in each player's own."""

from __future__ import annotations

from dataclasses import replace

from tests.bot.discord.conftest import StartBot
from tests.bot.discord.driver import Table
from tests.fakediscord import FakeDiscord, FakeUser


async def test_each_reader_is_spoken_to_in_their_language(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser
) -> None:
    fake.guild_locale = "fr"
    alice = replace(alice, locale="fr")
    bob = replace(bob, locale="sv-SE")
    fake.users[alice.id], fake.users[bob.id] = alice, bob
    bot = await start_bot()
    table = await Table.open(fake, bot, "piquet", "deals=1", alice, bob)
    public = [s for s in fake.log if fake.is_public(s) and s.content]
    # The server speaks French: the challenge, its answer and the board.
    assert any("défie Bob" in s.content or "contre Bob" in s.content for s in public)
    assert any("Marque" in s.content for s in public if s.channel_id == table.thread_id)
    thread = fake.channels[table.thread_id]
    assert "contre" in thread["name"] and f"n°\N{NO-BREAK SPACE}{table.match_id}" in thread["name"]
    # Each hand in its player's language (a hand goes to the player to move: by DM, or in the
    # answer to the accepter's press when the lot makes them first).
    hands = {
        user.id: [s.content for s in fake.log if s.reader == user.id and s.files]
        for user in (alice, bob)
    }
    assert hands[alice.id] or hands[bob.id]
    assert all("partie Piquet" in text for text in hands[alice.id])
    assert all("Pikett, parti nr" in text for text in hands[bob.id])
    # A reply speaks the member's language.
    reply = await (await fake.slash(bob, "matches")).reply()
    assert "mot Alice" in reply.content
    # A manager chooses Swedish for the server's posts: the next board is Swedish.
    chose = await (await fake.slash(alice, "tapis language", language="sv")).finished()
    assert "suédois" in chose.content
    since = len(fake.log)
    await (await fake.slash(alice, "board", match=table.match_id)).finished()
    board = [s for s in fake.log[since:] if fake.is_public(s) and s.content]
    assert board and "Ställning" in board[-1].content
