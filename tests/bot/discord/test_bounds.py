"""Boundaries seen from Discord: other servers' ids, names that try to ping, forged ids."""

from __future__ import annotations

from dataclasses import replace

from bot.discord.names import plain_name, safe_name
from bot.service import PlayerRef
from tests.bot.discord.conftest import StartBot
from tests.fakediscord import FakeDiscord, FakeUser, Sent

ELSEWHERE = 555_000_000_000_000_001  # a server this fake Discord knows nothing of


def _forged(sent: Sent, custom_id: str) -> Sent:
    """``sent`` as if its first button carried ``custom_id`` (what a modified client sends)."""
    rows = sent.data.get("components") or []
    first = {**rows[0]["components"][0], "custom_id": custom_id}
    components = [{**rows[0], "components": [first]}]
    if sent.kind == "callback":
        payload = {**sent.payload, "data": {**sent.data, "components": components}}
    else:
        payload = {**sent.payload, "components": components}
    message = None if sent.message is None else {**sent.message, "components": components}
    return replace(sent, payload=payload, message=message)


async def test_other_servers_ids_are_unknown_to_accept_and_board(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser
) -> None:
    bot = await start_bot()
    service = bot.service
    far = PlayerRef(alice.id, "Alice")
    open_there, _ = await service.challenge(far, None, "ecarte", guild_id=ELSEWHERE, channel_id=9)
    played, _ = await service.challenge(
        far, PlayerRef(bob.id, "Bob"), "ecarte", guild_id=ELSEWHERE, channel_id=9
    )
    played, _ = await service.accept(played.id, PlayerRef(bob.id, "Bob"))
    missing = played.id + 1000

    async def answer(command: str, match_id: int, who: FakeUser = bob) -> str:
        handle = await fake.slash(who, command, match=match_id)
        sent = await handle.reply()
        assert sent.ephemeral and not fake.is_public(sent)
        return sent.content.replace(f"#{match_id}", "#N")

    since = len(fake.log)
    assert await answer("accept", open_there.id) == await answer("accept", missing)
    carol = fake.add_user("Carol")  # in neither match
    assert await answer("board", played.id, carol) == await answer("board", missing, carol)
    assert "no match #N" in await answer("board", played.id, carol)
    # Bob plays that match: he sees its table from here, but privately (answer checks it).
    assert "no match" not in await answer("board", played.id)
    assert (await service.get(open_there.id)).status == "challenge"  # not accepted
    # /board defers for everyone before it looks the match up; the "thinking" it showed is
    # taken back when the answer is for the invoker alone.
    assert not [s for s in fake.log[since:] if fake.is_public(s) and not fake.withdrawn(s)]

    # A forged Accept button naming that challenge fares no better.
    handle = await fake.slash(alice, "challenge", game="ecarte", opponent=bob)
    await handle.finished()
    post = await fake.wait_for(
        lambda s: any(c.startswith("tapis:accept") for c in s.custom_ids()), since=handle.since
    )
    forged = _forged(post, f"tapis:accept:{open_there.id}")
    press = await fake.press(bob, forged, f"tapis:accept:{open_there.id}")
    sent = await press.reply()
    assert sent.ephemeral and f"no match #{open_there.id}" in sent.content
    assert (await service.get(open_there.id)).status == "challenge"


async def test_ids_beyond_64_bits_are_answered_as_unknown(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser
) -> None:
    bot = await start_bot()
    handle = await fake.slash(alice, "challenge", game="ecarte", opponent=bob)
    await handle.finished()
    post = await fake.wait_for(
        lambda s: any(c.startswith("tapis:accept") for c in s.custom_ids()), since=handle.since
    )
    for custom_id in (
        f"tapis:accept:{2**63}",
        f"tapis:move:{2**64}:1:pass",
        "tapis:rematch:" + "9" * 40,
    ):
        press = await fake.press(bob, _forged(post, custom_id), custom_id)
        sent = await press.reply()
        assert sent.ephemeral and "no match #" in sent.content, (custom_id, sent.content)
    assert (await bot.service.matches_of(bob.id, active_only=False))[0].status == "challenge"


async def test_a_name_holding_mentions_pings_no_one(
    fake: FakeDiscord, start_bot: StartBot, bob: FakeUser, carol: FakeUser
) -> None:
    sly = fake.add_user(f"<@{carol.id}> @everyone **Sly**")
    bot = await start_bot()
    since = len(fake.log)
    handle = await fake.slash(sly, "challenge", game="ecarte", opponent=bob)
    await handle.finished()
    post = await fake.wait_for(
        lambda s: any(c.startswith("tapis:accept") for c in s.custom_ids()), since=since
    )
    press = await fake.press(bob, post, post.custom_ids()[0])
    await press.finished()
    match = (await bot.service.matches_of(bob.id))[0]
    handle = await fake.slash(sly, "board", match=match.id)
    await handle.finished()
    sent = fake.log[since:]
    assert any(safe_name(sly.name) in s.content for s in sent)  # the name is shown, escaped
    for s in sent:
        if s.kind == "callback" and s.callback_type != 4:
            continue  # acknowledgements carry no text
        assert f"<@{carol.id}>" not in s.content
        mentions = s.data.get("allowed_mentions")
        assert mentions is not None, s.payload
        assert not set(mentions.get("parse", [])) & {"users", "everyone", "roles"}
        assert {int(u) for u in mentions.get("users", [])} <= {bob.id, sly.id}
    assert plain_name(safe_name(sly.name)) == sly.name
