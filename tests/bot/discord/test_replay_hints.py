"""`/replay` shows the hints its players asked for, at their moves, against the fake Discord."""

from __future__ import annotations

from bot.service import MatchService, queries
from tests.bot.discord.conftest import StartBot
from tests.bot.discord.test_replay import _played_here
from tests.fakediscord import FakeDiscord, FakeUser


async def _hinted(service: MatchService, match_id: int, ply: int) -> str:
    """Keep a hint asked by the player of move ``ply``; their name."""
    match = await queries.match(service.database, match_id)
    assert match is not None and match.seat_ids is not None
    seat, move = (await queries.moves(service.database, match_id))[ply - 1]
    await service.coaching.record_hint(match_id, match.seat_ids[seat], ply - 1, move)
    return match.names[seat]


async def test_a_replay_marks_the_moves_a_hint_was_asked_for(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser
) -> None:
    bot = await start_bot()
    found = await _played_here(bot.service, 8, fake.guild_id, 3)
    plies = {i: len(await queries.moves(bot.service.database, i)) for i in found}
    ids = sorted(found, key=plies.__getitem__)[:2]  # the shortest: each is animated
    assert plies[ids[1]] <= 60
    match_id = ids[0]
    name = await _hinted(bot.service, match_id, 1)

    # Pages: the deal says nothing of it, the first move does.
    page = await (await fake.slash(alice, "replay", match=match_id, style="pages")).finished(60)
    assert "Move 0" not in page.content and "asked for a hint" not in page.content
    next_id = next(c for c in page.custom_ids() if c.endswith(":next"))
    edited = await (await fake.press(alice, page, next_id)).finished(60)
    assert "Move 1 of" in edited.content
    assert f"{name} asked for a hint." in edited.content
    next_id = next(c for c in edited.custom_ids() if c.endswith(":next"))
    edited = await (await fake.press(alice, edited, next_id)).finished(60)
    assert "Move 2 of" in edited.content and "asked for a hint" not in edited.content

    # The animation says who asked, and at which moves, in words.
    third = await _hinted(bot.service, match_id, 3)
    sent = await (await fake.slash(alice, "replay", match=match_id, fps=10)).finished(60)
    assert sent.files and sent.files[0][0].endswith(".gif")
    if third == name:
        assert f"{name} asked for hints at moves 1, 3." in sent.content
    else:
        assert f"{name} asked for a hint at move 1." in sent.content
        assert f"{third} asked for a hint at move 3." in sent.content

    # A match where no one asked says nothing of hints.
    sent = await (await fake.slash(alice, "replay", match=ids[1], fps=10)).finished(60)
    assert "hint" not in sent.content
