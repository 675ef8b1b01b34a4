from __future__ import annotations

from tests.fakediscord import FakeDiscord, FakeUser


async def test_challenge_accept(fake: FakeDiscord, start_bot, alice: FakeUser, bob: FakeUser) -> None:
    bot = await start_bot()
    handle = await fake.slash(alice, "challenge", game="ecarte", opponent=bob, options="target=11")
    reply = await handle.reply()
    print(reply.content)
    post = await fake.wait_for(lambda s: s.kind == "message" and any("accept" in c for c in s.custom_ids()))
    print(post.content, post.custom_ids())
    h2 = await fake.press(bob, post, post.custom_ids()[0])
    print((await h2.callback()).payload)
    dm = await fake.wait_for(lambda s: fake.is_dm(s) and s.dm_to == alice.id)
    print(dm.content, dm.custom_ids(), [f[0] for f in dm.files])
    for s in fake.log:
        print(s.kind, s.channel_id, s.dm_to, s.content[:100], s.custom_ids()[:5])
    print(fake.unexpected)
