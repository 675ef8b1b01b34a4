"""How much play one bot gets out of Discord's rate limits (``python -m bench discord``).

``--matches N`` matches are set up in the database first (as if they had been challenged and
accepted earlier), each with its thread; then the bot starts against the fake Discord, which
enforces Discord's limits (50 requests a second, 5 messages per 5 s in a channel, 429s as
documented), and moves are offered at ``--rate`` a second: each time, a match whose player has
been told it is their turn makes a legal move with ``/play``, as a person would (one in the
middle of their turn first: Le 5 As's draw follows its play at once). After
``--seconds``×10 seconds (at least 20) the moves stop and the queue drains.

Printed: moves served a second; the time from a move to the notification of the player who
must act next (the DM of the player whose turn it became, or the mover's own answer when the
turn stays theirs); 429s and invalid requests; the courier's queue depth over time; how long
turn notifications and boards waited in the queue; and the requests Discord limits per turn,
per game (goal ≤ 2). The pictures are a fixed stand-in here: drawing them is measured by
``bench rendering``, and this measures what Discord allows.

Everything runs in one process (the bot, the fake, the players), so on a loaded machine the
figures include the players' and the fake's own work; the limits, not the processor, are
what this bench is about.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import random
import re
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import games
from bot.discord.client import TapisBot
from bot.discord.config import Settings, point_at
from bot.discord.queue import BOARD, TURN, Item
from bot.service import ChallengeLimits, MatchService, PlayerRef
from tests.fakediscord import FakeDiscord, FakeUser, Sent

DEFAULT_MATCHES = 200
DEFAULT_RATE = 20.0
DRAIN_LIMIT = 60.0  # seconds allowed for the queue to drain once the moves stop
NOTIFY_TARGET = 2.0  # p99 seconds from a move to the next player's notification
MATCH = re.compile(r"match #(\d+)")
# A 1×1 PNG: what a picture weighs is not what this bench measures.
PICTURE = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("discord section (capacity)")
    group.add_argument("--rate", type=float, default=None, help="moves offered a second")
    group.add_argument(
        "--capacity-only", action="store_true", help="skip the 20-match latency part"
    )


class _Pictures:
    """The courier's painter, drawing nothing."""

    async def hand(
        self, view: Any, four_colour: bool, lang: str = "en", *, urgent: bool = True
    ) -> bytes:
        return PICTURE

    async def table(self, view: Any, names: Any, *, lang: str = "en", urgent: bool = True) -> bytes:
        return PICTURE

    def close(self) -> None:
        pass


def run(seconds: float, args: argparse.Namespace | None) -> None:
    matches = (args.matches if args is not None else None) or DEFAULT_MATCHES
    rate = (args.rate if args is not None else None) or DEFAULT_RATE
    duration = max(20.0, seconds * 10)
    print(
        f"capacity: {matches} matches in play, moves offered at {rate:g}/s for {duration:.0f} s, "
        "against a fake Discord enforcing 50 requests/s and 5 messages per 5 s per channel"
    )
    asyncio.run(_capacity(matches, rate, duration))


def _pct(values: list[float], pct: int) -> float:
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[pct - 1]


class _Match:
    def __init__(self, match_id: int, game: str, thread: int, users: tuple[FakeUser, FakeUser]):
        self.id, self.game, self.thread, self.users = match_id, game, thread, users
        self.busy = False
        self.over = False
        self.mid_turn = False  # its player moved and is still to move: they go on at once


class Tally:
    """Moves and turns per game. A turn is a player's moves until the turn passes (Le 5 As's
    play and draw, a trick won and led again) or the match ends: a turn counts once it is
    over, so the requests it cost (one DM to the next player, one board) are all in."""

    def __init__(self) -> None:
        self.moves: collections.Counter[str] = collections.Counter()
        self.turns: collections.Counter[str] = collections.Counter()
        self.refused = 0  # moves offered that did not go in

    def move(self, game: str, mover: int, to_move: int | None, active: bool) -> bool:
        """Count a move by ``mover``, after which ``to_move`` is to move (in a match still
        ``active`` or not); True when the turn goes on, the same player to move again."""
        self.moves[game] += 1
        if active and to_move == mover:
            return True
        self.turns[game] += 1
        return False

    def per_turn(self, game: str, requests: int) -> float:
        """Requests (of ``game``'s matches) per finished turn."""
        return requests / max(1, self.turns[game])


async def _setup(
    fake: FakeDiscord, service: MatchService, count: int
) -> tuple[dict[int, _Match], dict[int, int]]:
    """``count`` matches, started and told, each in its own thread, players all different."""
    names = games.names()
    found: dict[int, _Match] = {}
    user_match: dict[int, int] = {}
    for index in range(count):
        game = names[index % len(names)]
        one, two = fake.add_user(f"North{index}"), fake.add_user(f"South{index}")
        a, b = PlayerRef(one.id, one.name), PlayerRef(two.id, two.name)
        info, told = await service.challenge(
            a, b, game, guild_id=fake.guild_id, channel_id=fake.channel_id
        )
        info, more = await service.accept(info.id, b)
        await service.delivered(told + more)
        thread = fake.add_thread(fake.channel_id, f"match {info.id}")
        await service.set_thread(info.id, thread)
        found[info.id] = _Match(info.id, game, thread, (one, two))
        user_match[one.id] = user_match[two.id] = info.id
    return found, user_match


async def _capacity(count: int, rate: float, duration: float) -> None:
    fake = FakeDiscord()
    await fake.start()
    with tempfile.TemporaryDirectory() as folder:
        limits = ChallengeLimits(per_user=count, per_channel=count * 2, burst=count * 2)
        service = await MatchService.open(Path(folder) / "bench.db", limits=limits)
        started = time.perf_counter()
        matches, user_match = await _setup(fake, service, count)
        print(f"  set up {count} matches in {time.perf_counter() - started:.1f} s")
        settings = Settings(
            token=fake.token,
            api_base=fake.api_base,
            gateway_url=fake.gateway_url,
            dev_guild=fake.guild_id,
            database=Path(folder) / "bench.db",
            computer_pause=0.0,
            computer_processes=0,
        )
        point_at(settings)
        bot = TapisBot(settings, service=service, guild_ready_timeout=0.05)
        bot.courier.painter = _Pictures()  # type: ignore[assignment]
        await bot.login(settings.token)
        runner = asyncio.create_task(bot.connect(reconnect=False))
        try:
            await asyncio.wait_for(bot.wait_until_ready(), 30)
            await _drive(fake, bot, service, matches, user_match, rate, duration)
        finally:
            await bot.close()
            await asyncio.gather(runner, return_exceptions=True)
            await service.close()
            await fake.stop()


async def _drive(
    fake: FakeDiscord,
    bot: TapisBot,
    service: MatchService,
    matches: dict[int, _Match],
    user_match: dict[int, int],
    rate: float,
    duration: float,
) -> None:
    rng = random.Random(7)
    first_request = len(fake.requests)
    # (match, user) -> when the move that made them the one to act was offered
    waiting: dict[tuple[int, int], float] = {}
    latencies: list[float] = []
    ready: set[int] = set(matches)  # matches whose player to move has been told
    served = 0
    tally = Tally()
    queued: dict[int, list[float]] = {TURN: [], BOARD: []}

    def told(sent: Sent) -> None:
        if sent.reader is None or not sent.files:
            return
        found = MATCH.search(sent.content)
        if found is None:
            return
        key = (int(found.group(1)), sent.reader)
        offered = waiting.pop(key, None)
        if offered is not None:
            latencies.append(time.perf_counter() - offered)
            ready.add(key[0])

    def left_queue(item: Item) -> None:
        if item.priority in queued:
            queued[item.priority].append(time.monotonic() - item.enqueued)

    fake.listeners.append(told)
    # Each message's time in the queue, told as it leaves: the courier's own delivery,
    # wrapped here so that the bot carries no clock of the bench's.
    deliver = bot.courier._deliver

    async def timed(item: Item) -> None:
        left_queue(item)
        await deliver(item)

    bot.courier._deliver = timed  # type: ignore[method-assign]

    async def one_move(match: _Match) -> None:
        nonlocal served
        try:
            info = await service.get(match.id)
            if info.status != "active" or info.to_move is None:
                match.over = True
                return
            mover = next(u for u in match.users if u.id == info.to_move)
            legal = await service.legal_moves(match.id, mover.id)
            handle = await fake.slash(
                mover, "play", match.thread, move=rng.choice(legal), match=match.id
            )
            offered = handle.sent_at
            after = await service.get(match.id)  # read once the move is in
            await handle.callback(timeout=30)
            deadline = time.perf_counter() + 30
            while after.version == info.version and time.perf_counter() < deadline:
                await asyncio.sleep(0.02)
                after = await service.get(match.id)
            if after.version == info.version:
                # Not made (refused, or not in after 30 s): no move, no turn; they try again.
                tally.refused += 1
                ready.add(match.id)
                return
            served += 1
            active = after.status == "active" and after.to_move is not None
            match.mid_turn = tally.move(match.game, mover.id, after.to_move, active)
            if not active:
                match.over = True
                return
            assert after.to_move is not None
            key = (match.id, after.to_move)
            waiting[key] = offered
            # Told already (the mover's answer can beat this read): count it now.
            for sent in reversed(fake.log[handle.since :]):
                if sent.reader == after.to_move and sent.files and sent.at >= offered:
                    told_at = waiting.pop(key, None) if f"#{match.id}" in sent.content else None
                    if told_at is not None:
                        latencies.append(sent.at - offered)
                        ready.add(match.id)
                    break
        finally:
            match.busy = False

    depth: list[tuple[float, int, int, int]] = []
    start = time.perf_counter()
    tasks: set[asyncio.Task[None]] = set()
    next_at = start
    next_sample = start
    while time.perf_counter() - start < duration:
        now = time.perf_counter()
        if now >= next_sample:
            by = bot.courier.queue.by_priority
            depth.append((now - start, bot.courier.queue.depth, by[TURN], by[BOARD]))
            next_sample += 1.0
        if now < next_at:
            await asyncio.sleep(min(next_at, next_sample) - now)
            continue
        next_at += rng.expovariate(rate)
        idle = [m for m in ready if not matches[m].busy and not matches[m].over]
        # A player in the middle of their turn goes on first, as a person would (Le 5 As's
        # draw right after the play): a turn left half-made for minutes is no one's way of
        # playing, and its board, held for the turn's end, would go out alone.
        idle = [m for m in idle if matches[m].mid_turn] or idle
        if not idle:
            continue  # every player is still waiting to be told: the move is not offered
        match = matches[rng.choice(idle)]
        ready.discard(match.id)
        match.busy = True
        task = asyncio.create_task(one_move(match))
        tasks.add(task)
        task.add_done_callback(tasks.discard)
    elapsed = time.perf_counter() - start
    offered_until = len(fake.requests)
    await asyncio.gather(*tasks, return_exceptions=True)
    drain_start = time.perf_counter()
    drained = True
    try:
        await bot.courier.settled(timeout=DRAIN_LIMIT)
    except TimeoutError:
        drained = False
    drain_time = time.perf_counter() - drain_start
    unsent = [d for d in await service.unsent() if d.kind != "board"]
    _report(
        fake, bot, matches, user_match, first_request, offered_until, elapsed, served,
        latencies, len(waiting), depth, queued, tally, drained, drain_time, unsent,
    )  # fmt: skip


def _report(
    fake: FakeDiscord,
    bot: TapisBot,
    matches: dict[int, _Match],
    user_match: dict[int, int],
    first_request: int,
    offered_until: int,
    elapsed: float,
    served: int,
    latencies: list[float],
    never_told: int,
    depth: list[tuple[float, int, int, int]],
    queued: dict[int, list[float]],
    tally: Tally,
    drained: bool,
    drain_time: float,
    unsent: list[Any],
) -> None:
    requests = fake.requests[first_request:]
    limited = [r for r in requests if r.limited]
    too_many = [r for r in requests if r.status == 429]
    invalid = [r for r in requests if r.invalid]
    print(
        f"  moves served: {served} in {elapsed:.0f} s = {served / elapsed:.1f}/s"
        f" ({tally.refused} offered but not made)"
    )
    p50, p99 = _pct(latencies, 50), _pct(latencies, 99)
    verdict = "ok" if p99 <= NOTIFY_TARGET else "over target (load beyond the limits?)"
    print(
        f"  move → next player told: p50 {p50:.2f} s, p99 {p99:.2f} s "
        f"(target p99 ≤ {NOTIFY_TARGET:g} s while the load fits: {verdict}); "
        f"{never_told} not told by the end"
    )
    window = max(1e-9, elapsed)
    offered_limited = len([r for r in fake.requests[first_request:offered_until] if r.limited])
    print(
        f"  limited requests: {len(limited)} ({offered_limited / window:.1f}/s while moves came); "
        f"429s: {len(too_many)}; invalid (401/403/429): {len(invalid)}; "
        f"courier's own count of invalid: {bot.courier.gauge.invalid_total}"
    )
    for name, values in (("turn notifications", queued[TURN]), ("boards", queued[BOARD])):
        if values:
            print(
                f"  time in queue, {name}: p50 {_pct(values, 50):.2f} s, "
                f"p99 {_pct(values, 99):.2f} s ({len(values)} sent)"
            )
    step = max(1, len(depth) // 12)
    shown = ", ".join(f"{t:.0f}s:{d}({n}/{b})" for t, d, n, b in depth[::step])
    print(f"  queue depth over time, t:depth(turns/boards): {shown}")
    state = "drained" if drained else "NOT drained"
    print(
        f"  after the moves stopped: {state} in {drain_time:.1f} s; "
        f"messages still owed in the outbox (boards held mid-turn aside): {len(unsent)}"
    )
    _per_turn(fake, matches, user_match, limited, tally)


def _per_turn(
    fake: FakeDiscord,
    matches: dict[int, _Match],
    user_match: dict[int, int],
    limited: list[Any],
    tally: Tally,
) -> None:
    """Requests Discord limits, per turn of each game: thread posts, DMs, DM channels
    opened — every limited request the fake saw, put down to the match it served."""
    thread_match = {m.thread: m.id for m in matches.values()}
    per_game: collections.Counter[str] = collections.Counter()
    opened: collections.Counter[str] = collections.Counter()
    unplaced = 0
    for request in limited:
        match_id = None
        if request.user_id is not None:
            match_id = user_match.get(request.user_id)
            if match_id is not None:
                opened[matches[match_id].game] += 1
        elif request.channel_id is not None:
            match_id = thread_match.get(request.channel_id)
            if match_id is None:
                match_id = user_match.get(fake.dm_recipient(request.channel_id) or 0)
        if match_id is None:
            unplaced += 1
        else:
            per_game[matches[match_id].game] += 1
    print(
        "  limited requests per turn (goal ≤ 2), per game; a player's DM channel is opened "
        "once (then stored), counted apart:"
    )
    for game in sorted(tally.moves):
        title = games.get(game).title
        steady = per_game[game] - opened[game]
        per_turn = tally.per_turn(game, steady)
        per_move = steady / max(1, tally.moves[game])
        verdict = "ok" if per_turn <= 2 else "over goal"
        print(
            f"    {title:8} {per_turn:4.2f} per turn, {per_move:4.2f} per move "
            f"({tally.turns[game]} turns, {tally.moves[game]} moves; +{opened[game]} DM "
            f"channels opened, {tally.per_turn(game, per_game[game]):.2f} per turn with them): "
            f"{verdict}"
        )
    if unplaced:
        print(f"    (and {unplaced} requests about no match: start-up, commands)")
