"""Tournaments on the fake Discord, driven through interactions as members would: a Swiss of
six over three rounds, a player leaving mid-tournament and a match lost on time across a
restart, and a duplicate match whose two legs count as one rated result in a season."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.discord.client import TapisBot
from bot.discord.tournaments import standings_rows
from bot.service import MatchService, queries
from rendering.standings import standings_png
from tests.bot.discord.conftest import StartBot
from tests.bot.discord.driver import PNG, Table, resign, same_picture
from tests.fakediscord import FakeDiscord, FakeUser, Sent
from tests.waiting import until


class Leg(Table):
    """A duplicate match's leg: both legs share one thread, so the thread's pictures are
    not all this leg's table; the text is still checked for hidden cards."""

    async def step(self, rng: random.Random, *, check_images: bool) -> bool:
        return await super().step(rng, check_images=False)


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


async def create(fake: FakeDiscord, user: FakeUser, **terms: object) -> int:
    answer = await (await fake.slash(user, "tournament create", **terms)).finished()
    found = re.search(r"Tournament #(\d+) is open", answer.content)
    assert found, answer.content
    return int(found.group(1))


async def join_all(fake: FakeDiscord, tournament: int, users: list[FakeUser]) -> None:
    for user in users:
        answer = await (await fake.slash(user, "tournament join", tournament=tournament)).finished()
        assert answer.content.startswith("You are in"), answer.content


async def round_matches(service: MatchService, tournament: int, number: int) -> list[int]:
    """The matches of a round once each has its thread (the task posts them)."""
    found: list[int] = []

    async def posted() -> bool:
        games = await service.database.fetchall(
            "SELECT g.match_id, g.posted, m.thread_id FROM tournament_games g LEFT JOIN"
            " matches m ON m.id = g.match_id WHERE g.tournament_id = ? AND g.round = ?",
            (tournament, number),
        )
        played = [g for g in games if g["match_id"] is not None]
        found[:] = [g["match_id"] for g in played]
        return bool(games) and all(g["posted"] and g["thread_id"] for g in played)

    await until(posted, f"round {number} of tournament #{tournament} to be posted")
    return found


async def thread_of(service: MatchService, tournament: int) -> int:
    stored = await service.database.fetchone(
        "SELECT thread_id FROM tournaments WHERE id = ?", (tournament,)
    )
    assert stored is not None and stored["thread_id"] is not None
    return int(stored["thread_id"])


def standings_post(fake: FakeDiscord, thread: int, words: str) -> object:
    return lambda s: s.channel_id == thread and words in s.content and bool(s.files)


async def test_a_swiss_of_six_over_three_rounds(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser
) -> None:
    bot: TapisBot = await start_bot()
    service = bot.service
    others = [fake.add_user(name) for name in ("Bob", "Carol", "Dan", "Erin", "Frank")]
    others[0] = fake.users[others[0].id] = replace(others[0], manager=False)
    users = [alice, *others]
    by_id = {u.id: u for u in users}
    tournament = await create(
        fake, alice, game="piquet", format="swiss", rounds=3, options="deals=1", name="Cup"
    )
    thread = await thread_of(service, tournament)
    await join_all(fake, tournament, users)
    again = await (
        await fake.slash(bob := others[0], "tournament join", tournament=tournament)
    ).finished()
    assert "already in" in again.content
    refused = await (await fake.slash(bob, "tournament start", tournament=tournament)).finished()
    assert "only the creator" in refused.content.lower()
    started = await (await fake.slash(alice, "tournament start", tournament=tournament)).finished()
    assert "starts" in started.content

    met: set[frozenset[int]] = set()
    for number in (1, 2, 3):
        await fake.wait_for(
            lambda s, n=number: s.channel_id == thread and f"round {n} of 3:" in s.content
        )
        matches = await round_matches(service, tournament, number)
        assert len(matches) == 3  # six players: everyone plays, no bye
        for match_id in matches:
            info = await service.get(match_id)
            assert info.status == "active" and info.seats is not None and info.thread_id
            pair = frozenset(p.user_id for p in info.seats)
            assert pair not in met, "a rematch in a Swiss of six over three rounds"
            met.add(pair)
            # The second seat resigns: results vary by seat, so the pairings must follow them.
            await resign(fake, by_id[info.seats[1].user_id], info.thread_id)
        if number < 3:
            post = await fake.wait_for(standings_post(fake, thread, f"after round {number} of 3"))
            assert post.files[0][1].startswith(PNG)
    final: Sent = await fake.wait_for(standings_post(fake, thread, "Final standings"))
    info = await service.tournaments.get(tournament, fake.guild_id)
    assert info.status == "finished" and info.round == 3
    lines = await service.tournaments.standings(tournament, fake.guild_id)
    assert sorted(line.wins + line.losses for line in lines) == [3] * 6
    assert sum(line.score for line in lines) == 9
    assert lines[0].name in final.content  # "Congratulations to …"
    picture = standings_png("Cup · round 3 of 3", standings_rows(lines))
    assert same_picture(final.files[0][1], picture)
    # Anyone may look at the table again, as a picture.
    shown = await (
        await fake.slash(carol := others[1], "tournament standings", tournament=tournament)
    ).finished()
    assert shown.files and shown.files[0][1].startswith(PNG)
    late = await (await fake.slash(carol, "tournament join", tournament=tournament)).finished()
    assert "can no longer be joined" in late.content


async def test_leaving_mid_tournament_and_a_loss_on_time_across_a_restart(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser, carol: FakeUser,
    tmp_path: Path,
) -> None:  # fmt: skip
    clock = Clock()
    database = tmp_path / "tapis.db"
    service = await MatchService.open(database, now=clock)
    bot = await start_bot(service)
    dan = fake.add_user("Dan")
    users = [alice, bob, carol, dan]
    tournament = await create(
        fake, alice, game="piquet", format="swiss", rounds=2, options="deals=1", days=1
    )
    thread = await thread_of(service, tournament)
    await join_all(fake, tournament, users)
    await (await fake.slash(alice, "tournament start", tournament=tournament)).finished()
    first_round = await round_matches(service, tournament, 1)
    infos = [await service.get(m) for m in first_round]
    carols = next(i for i in infos if i.seat_of(carol.id) is not None)
    other = next(i for i in infos if i is not carols)

    # Carol leaves: her match is resigned for her, and she is paired no more.
    gone = await (await fake.slash(carol, "tournament leave", tournament=tournament)).finished()
    assert gone.content.startswith("You have left")
    await fake.wait_for(lambda s: s.channel_id == thread and "Carol leaves" in s.content)
    await fake.wait_for(lambda s: s.channel_id == carols.thread_id and "resigned" in s.content)
    assert (await service.get(carols.id)).result["how"] == "resignation"  # type: ignore[index]

    # The bot is down past the other match's deadline: the next start declares the loss on
    # time, and the round it closes gives way to the next, posted by the new process.
    await bot.close()
    await service.close()
    clock.now += timedelta(days=1, hours=1)
    service = await MatchService.open(database, now=clock)
    since = len(fake.log)
    bot = await start_bot(service)
    await fake.wait_for(
        lambda s: s.channel_id == other.thread_id and "ran out of time" in s.content, since=since
    )
    await fake.wait_for(standings_post(fake, thread, "after round 1 of 2"), since=since)
    await fake.wait_for(lambda s: s.channel_id == thread and "round 2 of 2:" in s.content)
    second_round = await round_matches(service, tournament, 2)
    assert len(second_round) == 1  # three still in: one match and a bye
    info = await service.get(second_round[0])
    assert info.seats is not None and carol.id not in {p.user_id for p in info.seats}
    loser = next(u for u in users if info.seats[1].user_id == u.id)
    assert info.thread_id is not None
    await resign(fake, loser, info.thread_id)
    await fake.wait_for(standings_post(fake, thread, "Final standings"))
    lines = await service.tournaments.standings(tournament, fake.guild_id)
    carol_line = next(line for line in lines if line.name == "Carol")
    assert carol_line.left and (carol_line.wins, carol_line.draws, carol_line.losses) == (0, 0, 1)
    assert sum(line.byes for line in lines) == 1
    # Leaving twice, or a finished tournament, is answered politely.
    again = await (await fake.slash(carol, "tournament leave", tournament=tournament)).finished()
    assert "not playing" in again.content
    # The service was handed to the bot, which does not close it: its threads must end here.
    await bot.close()
    await service.close()


@pytest.mark.slow  # two whole legs at Discord's pace
async def test_a_duplicate_match_two_legs_one_rated_result_and_seasons(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser
) -> None:
    bot = await start_bot()
    service = bot.service
    tournament = await create(
        fake, alice, game="piquet", format="round-robin", duplicate=True, options="deals=1"
    )
    thread = await thread_of(service, tournament)
    await join_all(fake, tournament, [alice, bob])
    await (await fake.slash(alice, "tournament start", tournament=tournament)).finished()
    (first_leg,) = await round_matches(service, tournament, 1)
    first = await service.get(first_leg)
    assert first.thread_id is not None and first.seats is not None
    players = {alice.id: alice, bob.id: bob}
    await Leg(fake, bot, players, first_leg, first.thread_id).play_out(seed=3)

    # The second leg: same thread, same deals, seats swapped, unrated on its own.
    told = await fake.wait_for(
        lambda s: s.channel_id == first.thread_id and "Second leg" in s.content
    )
    legs = await service.duplicates.legs(first_leg)
    assert legs is not None and legs[1] is not None and f"#{legs[1]}" in told.content
    second = await service.get(legs[1])
    assert second.thread_id == first.thread_id and second.seats is not None
    assert [p.user_id for p in second.seats] == [p.user_id for p in reversed(first.seats)]
    seeds = await service.database.fetchall(
        "SELECT seed, rated FROM matches WHERE id IN (?, ?) ORDER BY id", (first_leg, legs[1])
    )
    assert seeds[0]["seed"] == seeds[1]["seed"] and [s["rated"] for s in seeds] == [0, 0]
    await Leg(fake, bot, players, legs[1], first.thread_id).play_out(seed=4)

    over = await fake.wait_for(
        lambda s: s.channel_id == first.thread_id and "over both legs" in s.content
    )
    one = (await service.get(first_leg)).result or {}
    two = (await service.get(legs[1])).result or {}
    net = one["scores"][0] + two["scores"][1], one["scores"][1] + two["scores"][0]
    assert f"{first.seats[0].name} {net[0]} – {net[1]} {first.seats[1].name}" in over.content
    await fake.wait_for(standings_post(fake, thread, "Final standings"))
    # No rematch under either leg: one, under the pair's result, for the pair.
    await bot.courier.settled()
    offers = [c for s in fake.log if s.channel_id == first.thread_id
              for c in s.custom_ids() if c.startswith("tapis:rematch:")]  # fmt: skip
    assert offers == [f"tapis:rematch:{legs[1]}"], offers
    # Rated once, as one match, on the server and everywhere.
    for user in (alice, bob):
        stats = await service.stats(user.id, "piquet", fake.guild_id)
        assert stats.games == 1
    # The history shows the two legs as one duplicate match.
    recent = await queries.recent_of(service.database, alice.id)
    assert {(m.match_id, m.leg, m.duplicate) for m in recent} == {
        (first_leg, 1, first_leg),
        (legs[1], 2, first_leg),
    }
    # The season table counts it once; a new season starts empty and the old one stays.
    board = await (await fake.slash(alice, "tapis leaderboard", game="piquet", season=1)).reply()
    assert "season 1 (current season)" in board.content and "Alice" in board.content
    plain = await (await fake.slash(bob, "tapis season new")).reply()
    assert "Season 1 is closed and season 2 begins" in plain.content
    empty = await (await fake.slash(alice, "tapis leaderboard", game="piquet", season=2)).reply()
    assert "No rated" in empty.content
    past = await (await fake.slash(alice, "tapis leaderboard", game="piquet", season=1)).reply()
    assert "(closed)" in past.content and ("1 won" in past.content or "1 drawn" in past.content)
    unknown = await (await fake.slash(alice, "tapis leaderboard", game="piquet", season=3)).reply()
    assert "no season 3" in unknown.content


async def test_only_a_manager_starts_a_season(fake: FakeDiscord, start_bot: StartBot) -> None:
    await start_bot()
    member = fake.add_user("Member")
    member = fake.users[member.id] = replace(member, manager=False)
    answer = await (await fake.slash(member, "tapis season new")).reply()
    assert "Only members who may manage this server" in answer.content


async def test_a_duplicate_challenge_is_lost_by_resigning_a_leg(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser
) -> None:
    bot = await start_bot()
    handle = await fake.slash(
        alice, "challenge", game="piquet", opponent=bob, options="deals=1", duplicate=True
    )
    await handle.finished()
    post = await fake.wait_for(
        lambda s: any(c.startswith("tapis:accept") for c in s.custom_ids()), since=handle.since
    )
    assert "duplicate match" in post.content
    match_id = int(post.custom_ids()[0].split(":")[-1])
    await (await fake.press(bob, post, f"tapis:accept:{match_id}")).finished()
    info = await bot.service.get(match_id)
    assert info.thread_id is not None
    await resign(fake, bob, info.thread_id)
    over = await fake.wait_for(
        lambda s: s.channel_id == info.thread_id and "Duplicate match" in s.content
    )
    assert "Alice wins by resignation" in over.content
    assert await bot.service.duplicates.legs(match_id) == (match_id, None)
    for user in (alice, bob):  # the leg is unrated; the pair is rated once
        assert (await bot.service.stats(user.id, "piquet", fake.guild_id)).games == 1


async def test_a_swedish_server_hears_its_tournament_in_swedish(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser
) -> None:
    """Posts speak the server's language; replies, the asker's client's (here French)."""
    fake.guild_locale = "sv-SE"
    bob = fake.users[bob.id] = replace(bob, locale="fr")
    await start_bot()
    tournament = await create(fake, alice, game="piquet", name="Cup")
    await fake.wait_for(lambda s: s.content.startswith(f"Turnering nr {tournament} är öppen."))
    answer = await (await fake.slash(bob, "tournament join", tournament=tournament)).finished()
    assert answer.content == "Vous êtes inscrit à Cup."
    await fake.wait_for(lambda s: "Bob går med i Cup: 1 spelare hittills." in s.content)
    again = await (await fake.slash(bob, "tournament join", tournament=tournament)).finished()
    assert again.content == "Vous êtes déjà inscrit à Cup."


async def test_the_organiser_takes_a_player_off_a_running_tournament(
    fake: FakeDiscord, start_bot: StartBot, alice: FakeUser, bob: FakeUser, carol: FakeUser
) -> None:
    bot = await start_bot()
    service = bot.service
    dan = fake.add_user("Dan")
    tournament = await create(
        fake, alice, game="piquet", format="swiss", rounds=2, options="deals=1"
    )
    thread = await thread_of(service, tournament)
    await join_all(fake, tournament, [alice, bob, carol, dan])
    await (await fake.slash(alice, "tournament start", tournament=tournament)).finished()
    first_round = await round_matches(service, tournament, 1)
    carols = next(
        i for i in [await service.get(m) for m in first_round] if i.seat_of(carol.id) is not None
    )
    # Only its creator (or a manager) may take someone off.
    member = fake.users[bob.id] = replace(bob, manager=False)
    refused = await (
        await fake.slash(member, "tournament remove", player=carol, tournament=tournament)
    ).finished()
    assert "Only the creator" in refused.content
    done = await (
        await fake.slash(alice, "tournament remove", player=carol, tournament=tournament)
    ).finished()
    assert done.content == "Carol is off Piquet tournament.", done.content
    await fake.wait_for(
        lambda s: (
            s.channel_id == thread and "Carol is taken off" in s.content and "round 1" in s.content
        )
    )
    await fake.wait_for(lambda s: s.channel_id == carols.thread_id and "resigned" in s.content)
    assert (await service.get(carols.id)).result["how"] == "resignation"  # type: ignore[index]
    again = await (
        await fake.slash(alice, "tournament remove", player=carol, tournament=tournament)
    ).finished()
    assert "not playing" in again.content
    lines = await service.tournaments.standings(tournament, fake.guild_id)
    assert next(line for line in lines if line.name == "Carol").left
