"""How the bot behaves with people: private answers, strangers, closed DMs, restarts."""

from __future__ import annotations

import json
import random

import pytest

import games
import rendering
from bot.service import Delivery
from tests.bot.discord.conftest import StartBot
from tests.bot.discord.driver import PNG, Table, resign, same_picture
from tests.fakediscord import FakeDiscord, FakeUser, Sent


async def test_autocomplete_offers_only_the_invokers_legal_moves(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser
) -> None:
    bot = await start_bot()
    table = await Table.open(fake, bot, "piquet", "deals=1", alice, bob)
    info = await bot.service.get(table.match_id)
    mover = table.players[info.to_move]
    other = bob if mover is alice else alice
    legal = await bot.service.legal_moves(table.match_id, mover.id)
    choices = await fake.autocomplete(mover, "play", "move", table.thread_id, move="")
    assert 0 < len(choices) <= 25
    assert {c["value"] for c in choices} <= set(legal)
    # What is typed narrows the list: every choice holds the card typed.
    assert len(legal) > 25  # piquet's elder has hundreds of discards: the list must narrow
    card = next(m for m in legal if len(m.split()) > 2).split()[1]
    narrowed = await fake.autocomplete(mover, "play", "move", table.thread_id, move=card.lower())
    assert narrowed and all(card in c["value"] for c in narrowed)
    assert {c["value"] for c in narrowed} <= set(legal)
    # The player not to move is offered nothing, and never the mover's moves.
    assert await fake.autocomplete(other, "play", "move", table.thread_id, move="") == []


async def test_match_option_autocomplete_lists_the_invokers_matches(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser, carol: FakeUser
) -> None:
    bot = await start_bot()
    first = await Table.open(fake, bot, "ecarte", "", alice, bob)
    second = await Table.open(fake, bot, "cinq-as", "", alice, carol)
    choices = await fake.autocomplete(alice, "board", "match", match="")
    assert {c["value"] for c in choices} == {first.match_id, second.match_id}
    assert [c["value"] for c in await fake.autocomplete(carol, "board", "match", match="")] == [
        second.match_id
    ]
    # Outside the threads, with two matches and no `match`, the move list comes from the match
    # where it is Alice's turn, if only one; /play with the option reaches the right match.
    info = await bot.service.get(second.match_id)
    mover = second.players[info.to_move]
    legal = await bot.service.legal_moves(second.match_id, mover.id)
    handle = await fake.slash(mover, "play", move=legal[0], match=second.match_id)
    done = await handle.finished()
    # The answer is the new hand, naming the move once, seen by the mover alone.
    assert "\nYou: " in done.content and "Your move in" not in done.content and done.ephemeral
    assert done.files and done.files[0][1].startswith(PNG)
    assert (await bot.service.get(second.match_id)).version == info.version + 1


async def test_a_stranger_pressing_a_button_is_told_privately(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser, carol: FakeUser
) -> None:
    bot = await start_bot()
    table = await Table.open(fake, bot, "ecarte", "", alice, bob)
    info = await bot.service.get(table.match_id)
    mover = table.players[info.to_move]
    hand = table.latest_hand(mover)
    assert hand is not None
    button = next(c for c in hand.custom_ids() if c.startswith("tapis:move"))
    since = len(fake.log)
    handle = await fake.press(carol, hand, button)
    answer = await handle.finished()
    assert answer.ephemeral and not fake.is_public(answer)
    # Pressed where the match is not (the mover's DMs), by someone not in it: the answer an
    # unknown id gets, which tells nothing of the match.
    assert "no match" in answer.content.lower()
    assert (await bot.service.get(table.match_id)).version == info.version
    assert not [s for s in fake.log[since:] if fake.is_public(s)]
    # A stranger's /play is refused the same way.
    legal = await bot.service.legal_moves(table.match_id, mover.id)
    handle = await fake.slash(carol, "play", table.thread_id, move=legal[0], match=table.match_id)
    answer = await handle.finished()
    assert answer.ephemeral and (await bot.service.get(table.match_id)).version == info.version


async def test_an_illegal_move_gets_a_private_explanation(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser
) -> None:
    bot = await start_bot()
    table = await Table.open(fake, bot, "ecarte", "", alice, bob)
    info = await bot.service.get(table.match_id)
    mover = table.players[info.to_move]
    since = len(fake.log)
    handle = await fake.slash(mover, "play", table.thread_id, move="play 2C")  # no 2 in Écarté
    answer = await handle.finished()
    assert answer.ephemeral and not fake.is_public(answer)
    assert len(answer.content) > 20  # says what is wrong and what would do
    assert (await bot.service.get(table.match_id)).version == info.version
    assert not [s for s in fake.log[since:] if fake.is_public(s)]
    # Out of turn is explained privately too.
    other = bob if mover is alice else alice
    handle = await fake.slash(other, "play", table.thread_id, move="propose")
    answer = await handle.finished()
    assert answer.ephemeral and "turn" in answer.content.lower()


async def test_closed_dms_fall_back_to_private_replies(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser
) -> None:
    fake.dms_closed.add(bob.id)
    bot = await start_bot()
    table = await Table.open(fake, bot, "cinq-as", "rounds=1", alice, bob)
    # Bob's hand comes in the answer to his own moves; the first time his turn comes by
    # Alice's move, the DM is refused and the thread tells him how to get it, without cards.
    rng = random.Random(3)

    def told(sent: Sent) -> bool:
        return sent.channel_id == table.thread_id and "direct messages" in sent.content

    for _ in range(8):
        if any(told(s) for s in fake.log):
            break
        await table.step(rng, check_images=False)
    notice = await fake.wait_for(told)
    assert f"<@{bob.id}>" in notice.content and not notice.files
    record = await bot.service.player(bob.id)
    assert record is not None and record.dms_closed
    refused_before = len([s for s in fake.log if fake.is_dm(s) and s.dm_to == bob.id])
    assert refused_before == 0
    # /hand shows it to him alone, as a picture with his moves.
    handle = await fake.slash(bob, "hand", table.thread_id)
    shown = await handle.finished()
    assert shown.ephemeral and shown.files and shown.files[0][1].startswith(PNG)
    # Playing on: when Bob moves, his next hand comes back as a private reply.
    for _ in range(12):
        info = await bot.service.get(table.match_id)
        if info.to_move == bob.id:
            legal = await bot.service.legal_moves(table.match_id, bob.id)
            handle = await fake.slash(bob, "play", table.thread_id, move=rng.choice(legal))
            await fake.wait_for(
                lambda s, token=handle.token: s.token == token and "\nYou: " in s.content,
                since=handle.since,
            )
            private = [s for s in fake.log[handle.since :] if s.token == handle.token and s.files]
            assert private and all(s.ephemeral for s in private)
            break
        await table.step(rng, check_images=False)
    else:
        raise AssertionError("Bob never had the turn")
    # No DM was attempted again after the first refusal (each one counts toward a ban).
    dm_channel = fake.dm_channels[bob.id]
    assert not [s for s in fake.log if s.channel_id == dm_channel]
    refused = [r for r in fake.requests if r.channel_id == dm_channel]
    assert [r.status for r in refused] == [403]
    # With DMs open again, /hand where:DM retries and remembers they are open.
    fake.dms_closed.discard(bob.id)
    handle = await fake.slash(bob, "hand", table.thread_id, where="dm")
    await handle.finished()
    dm = await fake.wait_for(lambda s: fake.is_dm(s) and s.dm_to == bob.id)
    assert dm.files and dm.files[0][1].startswith(PNG)
    record = await bot.service.player(bob.id)
    assert record is not None and not record.dms_closed


@pytest.mark.slow  # a whole match at Discord's pace, continued after a restart
async def test_the_bot_restarted_mid_match_continues_it(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser
) -> None:
    bot = await start_bot()
    assert bot.synced and len(fake.command_syncs) == 1
    table = await Table.open(fake, bot, "ecarte", "", alice, bob)
    rng = random.Random(5)
    for _ in range(3):
        await table.step(rng, check_images=False)
    info = await bot.service.get(table.match_id)
    mover = table.players[info.to_move]
    old_hand = table.latest_hand(mover)
    assert old_hand is not None
    # A new process: new client, same database, commands unchanged so not synced again.
    bot = await start_bot()
    table.bot = bot
    assert bot.synced is False and len(fake.command_syncs) == 1
    # A button sent before the restart still plays.
    button = next(c for c in old_hand.custom_ids() if c.startswith("tapis:move"))
    handle = await fake.press(mover, old_hand, button)
    await handle.finished()
    assert (await bot.service.get(table.match_id)).version == info.version + 1
    await table.play_out(seed=9)
    assert (await bot.service.get(table.match_id)).status == "finished"


async def test_commands_are_grouped_and_described(fake: FakeDiscord, start_bot: StartBot) -> None:
    await start_bot()
    synced = fake.commands[fake.guild_id]
    names = {c["name"] for c in synced}
    assert {
        "challenge", "accept", "decline", "play", "hand", "board", "resign", "matches", "replay",
        "tournament",
    } <= names  # fmt: skip
    tapis = next(c for c in synced if c["name"] == "tapis")
    assert {o["name"] for o in tapis["options"]} == {
        "help",
        "rules",
        "leaderboard",
        "stats",
        "cards",
        "export",
        "web",
        "season",
        "language",
        "privacy",
    }
    tournament = next(c for c in synced if c["name"] == "tournament")
    assert {o["name"] for o in tournament["options"]} == {
        "create",
        "join",
        "leave",
        "remove",
        "start",
        "standings",
    }
    for command in synced:
        assert 1 <= len(command["description"]) <= 100
        # Descriptions in French and Swedish too, within Discord's length.
        localized = command.get("description_localizations") or {}
        assert {"fr", "sv-SE"} <= set(localized), command["name"]
        assert all(1 <= len(text) <= 100 for text in localized.values())
    challenge = next(c for c in synced if c["name"] == "challenge")
    game = next(o for o in challenge["options"] if o["name"] == "game")
    assert {c["value"] for c in game["choices"]} == set(games.names())


async def test_rules_help_leaderboard_stats_and_challenge_decline(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser
) -> None:
    await start_bot()
    rules = await (await fake.slash(alice, "tapis rules", game="ecarte")).reply()
    assert "Écarté" in rules.content or "ecarte" in rules.content.lower()
    assert "target" in rules.content
    help_text = await (await fake.slash(alice, "tapis help")).reply()
    assert "/challenge" in help_text.content
    options = await fake.autocomplete(alice, "challenge", "options", game="ecarte", options="tar")
    assert {c["value"] for c in options} == {"target=11", "target=17"}
    # Each suggestion says what it means, in the reader's words; who deals first by name.
    assert {c["name"] for c in options} == {"target=11 — to 11 points", "target=17 — to 17 points"}
    seats = await fake.autocomplete(
        alice, "challenge", "options", game="piquet", opponent=bob, options="first"
    )
    assert {c["name"] for c in seats} == {
        f"first_seat=0 — {alice.name} deals first",
        f"first_seat=1 — {bob.name} deals first",
    }
    # A long text typed is never repeated into a suggestion longer than Discord takes (it
    # would refuse the whole list): the fake refuses such an answer, and the test fails.
    typed = "first_seat=0 " + "x" * 80 + " "
    long = await fake.autocomplete(alice, "challenge", "options", game="ecarte", options=typed)
    assert long == []
    typed = "x" * 85 + " tar"
    short = await fake.autocomplete(alice, "challenge", "options", game="ecarte", options=typed)
    assert {c["value"] for c in short} == {"x" * 85 + " target=11", "x" * 85 + " target=17"}
    assert all(0 < len(c["name"]) <= 100 for c in short)
    # A bad option is refused privately, before anything is posted.
    bad = await (
        await fake.slash(alice, "challenge", game="ecarte", options="target=12")
    ).finished()
    assert bad.ephemeral and "target" in bad.content
    # Bob declines Alice's challenge with the button.
    handle = await fake.slash(alice, "challenge", game="piquet", opponent=bob)
    await handle.finished()
    post = await fake.wait_for(lambda s: "tapis:decline" in " ".join(s.custom_ids()))
    match_id = int(post.custom_ids()[1].split(":")[-1])
    await (await fake.press(bob, post, f"tapis:decline:{match_id}")).finished()
    board = await (await fake.slash(alice, "tapis leaderboard", game="piquet")).reply()
    assert "Piquet" in board.content
    stats = await (await fake.slash(alice, "tapis stats", member=bob)).reply()
    assert "Bob" in stats.content


async def test_board_is_public_and_resign_ends_the_match_with_a_summary(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser
) -> None:
    bot = await start_bot()
    table = await Table.open(fake, bot, "cinq-as", "rounds=1", alice, bob)
    listed = await (await fake.slash(alice, "matches")).finished()
    assert listed.ephemeral and f"#{table.match_id}" in listed.content
    board = await (await fake.slash(bob, "board", table.thread_id)).finished()
    assert not board.ephemeral and board.files
    public = await bot.service.view_for(table.match_id, None)
    assert same_picture(board.files[0][1], rendering.table_png(public, ("Alice", "Bob")))
    since = len(fake.log)
    done = await resign(fake, bob, table.thread_id)
    assert not fake.is_public(done) and "You resigned" in done.content and not done.custom_ids()
    info = await bot.service.get(table.match_id)
    assert info.status == "finished" and info.result is not None
    assert info.result["winner"] == info.seat_of(alice.id)
    summary = await fake.wait_for(
        lambda s: (
            s.channel_id == table.thread_id and fake.is_public(s) and "resign" in s.content.lower()
        ),
        since=since,
    )
    assert "Bob" in summary.content


async def test_an_open_challenge_is_taken_by_whoever_accepts(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, carol: FakeUser
) -> None:
    bot = await start_bot()
    handle = await fake.slash(alice, "challenge", game="ecarte", options="target=17")
    await handle.finished()
    post = await fake.wait_for(lambda s: "tapis:accept" in " ".join(s.custom_ids()))
    match_id = int(post.custom_ids()[0].split(":")[-1])
    # The challenger cannot accept their own challenge: told privately.
    own = await (await fake.press(alice, post, f"tapis:accept:{match_id}")).finished()
    assert own.ephemeral and (await bot.service.get(match_id)).status == "challenge"
    taken = await fake.press(carol, post, f"tapis:accept:{match_id}")
    cleared = await taken.finished()
    assert cleared.kind == "edit" and cleared.custom_ids() == []  # the buttons are gone
    info = await bot.service.get(match_id)
    assert info.status == "active" and info.seat_of(carol.id) is not None
    assert info.options.get("target") == 17


async def test_where_threads_are_not_allowed_the_match_lives_in_the_channel(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser
) -> None:
    fake.threads_forbidden.add(fake.channel_id)
    bot = await start_bot()
    handle = await fake.slash(alice, "challenge", game="piquet", opponent=bob)
    await handle.finished()
    post = await fake.wait_for(lambda s: "tapis:accept" in " ".join(s.custom_ids()))
    match_id = int(post.custom_ids()[0].split(":")[-1])
    await (await fake.press(bob, post, f"tapis:accept:{match_id}")).finished()
    info = await bot.service.get(match_id)
    assert info.thread_id is None and info.status == "active"
    board = await fake.wait_for(lambda s: s.channel_id == fake.channel_id and bool(s.files))
    assert board.files[0][1].startswith(PNG)
    # /play in the channel finds the match (the players' only one).
    mover = alice if info.to_move == alice.id else bob
    legal = await bot.service.legal_moves(match_id, mover.id)
    done = await (await fake.slash(mover, "play", move=legal[0])).finished()
    assert f"match #{match_id}" in done.content and "\nYou: " in done.content


async def test_four_colour_hands_on_request(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser
) -> None:
    bot = await start_bot()
    table = await Table.open(fake, bot, "ecarte", "", alice, bob)
    done = await (await fake.slash(alice, "tapis cards", colours=4)).finished()
    assert done.ephemeral and "four colours" in done.content
    since = len(fake.log)
    await (await fake.slash(alice, "hand", table.thread_id, where="dm")).finished()
    dm = await fake.wait_for(lambda s: s.dm_to == alice.id and bool(s.files), since=since)
    view = await bot.service.view_for(table.match_id, alice.id)
    assert same_picture(dm.files[0][1], rendering.hand_png(view, four_colour=True))
    # Only diamonds and clubs change colour: a hand of spades and hearts looks the same.
    recoloured = any(card[-1] in "DC" for card in view["hand"])
    assert (not same_picture(dm.files[0][1], rendering.hand_png(view))) == recoloured


async def test_accept_by_command_with_the_challenge_listed(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser
) -> None:
    bot = await start_bot()
    await (await fake.slash(alice, "challenge", game="cinq-as", opponent=bob)).finished()
    post = await fake.wait_for(lambda s: "tapis:accept" in " ".join(s.custom_ids()))
    assert f"<@{bob.id}>" in post.content  # the challenged member is notified
    match_id = int(post.custom_ids()[0].split(":")[-1])
    choices = await fake.autocomplete(bob, "accept", "match", match="")
    assert [c["value"] for c in choices] == [match_id]
    done = await (await fake.slash(bob, "accept", match=match_id)).finished()
    assert done.ephemeral and "accepted" in done.content
    assert (await bot.service.get(match_id)).status == "active"


async def test_a_finished_match_offers_a_rematch_on_the_same_terms(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser
) -> None:
    bot = await start_bot()
    table = await Table.open(fake, bot, "ecarte", "target=17", alice, bob)
    await resign(fake, alice, table.thread_id)
    offer = await fake.wait_for(
        lambda s: s.channel_id == table.thread_id and "tapis:rematch" in " ".join(s.custom_ids())
    )
    button = f"tapis:rematch:{table.match_id}"
    since = len(fake.log)
    asked = await (await fake.press(bob, offer, button)).finished()
    assert asked.ephemeral and "Rematch" in asked.content
    post = await fake.wait_for(lambda s: "tapis:accept" in " ".join(s.custom_ids()), since=since)
    new_id = int(post.custom_ids()[0].split(":")[-1])
    assert new_id != table.match_id and f"<@{alice.id}>" in post.content
    # Alice answers with the same Rematch button: that accepts Bob's.
    await (await fake.press(alice, offer, button)).finished()
    info = await bot.service.get(new_id)
    assert info.status == "active" and info.options.get("target") == 17
    assert info.thread_id not in (None, table.thread_id)
    # A stranger's press is refused privately.
    carol = fake.add_user("Carol")
    refused = await (await fake.press(carol, offer, button)).finished()
    assert refused.ephemeral


async def test_a_button_from_an_older_hand_does_not_play(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser
) -> None:
    """The position moved on since that hand was drawn: the press is refused privately, even
    when the same move happens to be legal again."""
    bot = await start_bot()
    table = await Table.open(fake, bot, "cinq-as", "rounds=1", alice, bob)
    info = await bot.service.get(table.match_id)
    mover = table.players[info.to_move]
    old = table.latest_hand(mover)
    assert old is not None
    # Moves made with /play until the same player is to move again: the old hand keeps its
    # buttons.
    start = info.version
    while info.version == start or info.to_move != mover.id:
        legal = await bot.service.legal_moves(table.match_id, info.to_move)
        player = table.players[info.to_move]
        await (await fake.slash(player, "play", table.thread_id, move=legal[-1])).finished()
        info = await bot.service.get(table.match_id)
    stale = next(c for c in old.custom_ids() if c.startswith("tapis:move"))
    refused = await (await fake.press(mover, old, stale)).finished()
    assert refused.ephemeral and "moved on" in refused.content
    assert (await bot.service.get(table.match_id)).version == info.version


async def test_a_challenge_from_a_match_thread_gets_its_own_thread(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser
) -> None:
    bot = await start_bot()
    first = await Table.open(fake, bot, "piquet", "deals=1", alice, bob)
    since = len(fake.log)
    await (
        await fake.slash(alice, "challenge", first.thread_id, game="ecarte", opponent=bob)
    ).finished()
    post = await fake.wait_for(lambda s: "tapis:accept" in " ".join(s.custom_ids()), since=since)
    assert post.channel_id == fake.channel_id
    info = await bot.service.get(int(post.custom_ids()[0].split(":")[-1]))
    assert info.channel_id == fake.channel_id
    assert info.thread_id not in (None, first.thread_id)


class _Unreachable:
    """Stands for the service while the courier sends: any question is a failure; the one
    word back allowed is that deliveries went out (to mark them in the outbox)."""

    def __init__(self) -> None:
        self.marked: list[Delivery] = []

    async def delivered(self, deliveries: list[Delivery]) -> None:
        self.marked += deliveries

    def __getattr__(self, name: str) -> None:
        raise AssertionError(f"the courier asked the service for {name!r}")


async def test_deliveries_carry_all_the_courier_needs(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser
) -> None:
    """Stored as JSON and read back (as an outbox would), a resignation's deliveries are
    sent with no service to ask: the result and the board in the thread, the rematch offer,
    and the winner's DM headed with the match."""
    bot = await start_bot()
    table = await Table.open(fake, bot, "cinq-as", "rounds=1", alice, bob)
    _, deliveries = await bot.service.resign(table.match_id, alice.id)
    stored = [json.dumps(d.to_json()) for d in deliveries]
    service, since = bot.service, len(fake.log)
    unreachable = _Unreachable()
    bot.service = unreachable  # type: ignore[assignment]
    try:
        await bot.courier.send([Delivery.from_json(json.loads(text)) for text in stored])
        await bot.courier.settled()
    finally:
        bot.service = service
    # Each marked sent, once (lanes go at once: in any order).
    assert sorted(d.outbox_id or 0 for d in unreachable.marked) == [d.outbox_id for d in deliveries]
    assert [Delivery.from_json(json.loads(text)) for text in stored] == deliveries
    sent = fake.log[since:]
    public = [s for s in sent if s.channel_id == table.thread_id]
    assert "resigned" in public[0].content and public[1].files
    assert any(c.startswith("tapis:rematch:") for s in public for c in s.custom_ids())
    (dm,) = [s for s in sent if fake.is_dm(s)]
    assert dm.dm_to == bob.id and f"match #{table.match_id}" in dm.content


async def test_a_button_move_turns_the_pressed_hand_into_the_next_one(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser
) -> None:
    """The hand a move was made from is spent: the answer replaces it (confirmation, picture
    and the next buttons in the same message) rather than leaving it buttonless above a new
    one. One request instead of two, and one hand in the conversation."""
    bot = await start_bot()
    table = await Table.open(fake, bot, "cinq-as", "rounds=1", alice, bob)
    info = await bot.service.get(table.match_id)
    mover = table.players[info.to_move]
    hand = table.latest_hand(mover)
    assert hand is not None and hand.message is not None
    button = next(c for c in hand.custom_ids() if c.startswith("tapis:move"))
    press = await fake.press(mover, hand, button)
    answer = await fake.wait_for(
        lambda s: s.token == press.token and s.kind in ("followup", "edit"), since=press.since
    )
    await bot.courier.settled()
    assert answer.kind == "edit" and answer.message is not None
    assert answer.message["id"] == hand.message["id"]  # the same message, now the next hand
    # The move said once, by the hand itself: "You: 4♠ on the expedition."
    assert "Your move in" not in answer.content
    assert sum(line.startswith("You: ") for line in answer.content.split("\n")) == 1
    assert answer.files and answer.files[0][1].startswith(PNG)
    # Le 5 As: a card played, the same player draws next, from the buttons of that message.
    assert any(c.startswith("tapis:move") for c in answer.custom_ids())
    assert not [
        s for s in fake.log[press.since :] if s.token == press.token and s.kind == "followup"
    ]
    assert (await bot.service.get(table.match_id)).version == info.version + 1
    # The replaced hand plays on: its new buttons are the current position's.
    draw = next(c for c in answer.custom_ids() if c.startswith("tapis:move"))
    again = await fake.press(mover, answer, draw)
    second = await fake.wait_for(
        lambda s: s.token == again.token and s.kind in ("followup", "edit"), since=again.since
    )
    await bot.courier.settled()
    assert second.kind == "edit" and (await bot.service.get(table.match_id)).version == (
        info.version + 2
    )
    # The turn passed: the hand stays, without buttons, until the next turn's hand comes.
    assert second.files and not any(c.startswith("tapis:move") for c in second.custom_ids())
