"""The Discord bot under load, through the fake Discord (which enforces Discord's rate limits).

Part one: 20 matches played at once by a bot run as its own process.

Each move is a ``/play`` (or a button of the hand DM) dispatched on the gateway, as Discord
would. Two latencies are measured from that gateway event:
- acknowledgement: until the interaction callback (the defer) reaches the fake Discord —
  Discord's hard limit is 3 s;
- whole move: until every message the move caused (both hand DMs and the board in the
  thread) has reached it.
Targets on a small machine: acknowledgement p99 ≤ 50 ms, whole move p99 ≤ 300 ms.

Throughput is the moves answered per second of play, all matches together. The pictures the
bot drew come from its own count, logged as it stops: pictures drawn per move (the others were
found drawn already), and the mean milliseconds to encode one and its bytes.

Three measurements, each printed the same way:
- **no pause**, Discord's limits enforced: *Discord's ceiling*, not the bot's. Each player's
  DM channel takes 5 messages in 5 s and every move sends the next player's hand by DM, so
  players answering at once are held to about 2 moves a second a match (some 40 a second
  for 20 matches), and the whole move's p99 is mostly that wait;
- **paced**, Discord's limits enforced, each player taking about a second: what players see
  in ordinary play;
- **no pause, Discord's limits lifted** (the fake enforces none, and the bot's global budget,
  ``TAPIS_GLOBAL_REQUESTS_PER_SECOND``, raised out of the way): *the bot's own ceiling* on
  this machine, and the latency its own work adds (the event loop, the picture workers, the
  courier, the database).

A fourth measurement, **first answers**: the same twenty matches with no pause, while a
member uses every other command meanwhile (rules, tables, /board of a busy match, a
tournament's standings, a season's table, autocompletes, a challenge withdrawn by its
button, /resign then Cancel), and players sometimes use the card menus, /hand and /play. The
time to each interaction's first answer (defer, message, choices) is printed as a table by
command and component kind: Discord forgets an interaction not answered within 3 s. Target
p99 ≤ 500 ms, and none over 3 s.

Part two, capacity (``--matches N --rate R``, see :mod:`bench.capacity`): thousands of
matches in play, moves offered at R a second, the ceiling being Discord's limits.

At the ceiling (``--ceiling``, alone): the paced line only, for ``--seconds``, with enough
matches (``--matches``, 26 unless told) that Discord's limits, not the players, set the pace;
the bot's resident memory and its write-ahead log are sampled all along, to tell memory that
levels off from memory that grows. This is how a mechanism beyond the standard way shows
what it buys where it matters (docs/performance.md, "Bespoke mechanisms").
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import os
import random
import re
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import games
from bench import capacity
from bot.discord.components import card_of
from tests.fakediscord import FakeDiscord, FakeInteraction, FakeUser, Sent

MATCHES = int(os.environ.get("TAPIS_BENCH_MATCHES", "20"))
ACK_TARGET_MS = 50.0
MOVE_TARGET_MS = 300.0
FIRST_ANSWER_TARGET_MS = 500.0
DISCORD_WINDOW_MS = 3000.0
READY_WAIT = 2.5
PACED_THINK = 1.0
LIFTED_BUDGET = 100_000  # the bot's global budget with Discord's limits lifted: never reached
THREAD = 11  # Discord's channel type of a public thread
# A match's first posts wait for its first pictures: at the start, for the picture workers to
# come up, and for twenty matches' pictures at once.
START_WAIT = 60.0
# How long a player waits for their turn before taking the match as over.
TURN_WAIT = 10.0
# A refused challenge (too many too fast) is tried again after this long.
RETRY_WAIT = 5.0
# At the ceiling: matches paced at PACED_THINK that offer more turns than Discord lets through
# (about 23 a second for one bot), and how often the bot's memory and log are sampled.
CEILING_MATCHES = 26
SAMPLE_EVERY = 10.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    capacity.add_arguments(parser)
    parser.add_argument(
        "--ceiling", action="store_true",
        help="discord: only the paced line at Discord's ceiling, for --seconds, memory sampled",
    )  # fmt: skip


def run(seconds: float, args: argparse.Namespace | None = None) -> None:
    if args is not None and args.ceiling:
        _run_ceiling(seconds, args.matches or CEILING_MATCHES)
        return
    if args is None or not args.capacity_only:
        _run_latency(seconds)
        _run_first_answers(seconds)
    capacity.run(seconds, args)


FirstAnswers = dict[str, list[float]]  # a command or component kind -> milliseconds


def _run_first_answers(seconds: float) -> None:
    kinds: FirstAnswers = {}
    _, _, failures, _ = asyncio.run(_measure(max(seconds, 3.0) * 2, 0.0, kinds=kinds))
    print(
        f"{MATCHES} matches at once with no pause, a member using the other commands "
        "meanwhile — first answer of each interaction:"
    )
    for failure in sorted(set(failures)):
        print(f"  FAILED {failures.count(failure)}×: {failure}")
    print(f"  {'command or component':34} {'n':>5} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    worst = 0.0
    for kind in sorted(kinds):
        values = kinds[kind]
        worst = max(worst, max(values))
        print(
            f"  {kind:34} {len(values):5d} {_percentile(values, 50):8.1f} "
            f"{_percentile(values, 99):8.1f} {max(values):8.1f}"
        )
    p99s = [_percentile(v, 99) for v in kinds.values()]
    verdict = (
        "ok"
        if p99s and max(p99s) <= FIRST_ANSWER_TARGET_MS and worst <= DISCORD_WINDOW_MS
        else "over target"
    )
    print(
        f"  (target p99 ≤ {FIRST_ANSWER_TARGET_MS:.0f} ms for every kind and none over "
        f"{DISCORD_WINDOW_MS / 1000:.0f} s: {verdict})"
    )


def _run_latency(seconds: float) -> None:
    span = max(seconds, 3.0) * 2
    for label, think, lifted in (
        ("no pause: every player answers the instant their hand arrives", 0.0, False),
        (f"paced: each player takes about {PACED_THINK:.0f} s per move", PACED_THINK, False),
        (
            "no pause, Discord's limits lifted (the fake enforces none, the bot's global "
            "budget raised): the bot's own ceiling",
            0.0,
            True,
        ),
    ):
        acks, moves, failures, pictures = asyncio.run(_measure(span, think, lifted=lifted))
        steady = pictures.pop("steady_moves", 0)
        rate = steady / pictures.pop("steady_seconds", 1.0)
        print(
            f"{MATCHES} matches at once, {label} — {len(acks)} moves; "
            f"{rate:.1f} moves/s once under way"
        )
        main_cpu, helpers_cpu = pictures.pop("main_cpu", None), pictures.pop("helpers_cpu", None)
        if main_cpu is not None and helpers_cpu is not None and steady:
            print(
                f"  processor        {1000 * main_cpu / steady:.1f} ms per move in the bot's "
                f"process, {1000 * helpers_cpu / steady:.1f} ms in its workers (pictures, "
                "computer)"
            )
        if pictures:
            drawn, reused = pictures.get("drawn", 0), pictures.get("reused", 0)
            dropped = pictures.get("dropped", 0)
            print(
                f"  pictures         {drawn / max(1, len(acks)):.2f} drawn per move "
                f"({reused:.0f} more found drawn, {dropped:.0f} not drawn: replaced first)   "
                f"encode {pictures.get('encode_ms', 0):.1f} ms "
                f"(drawing {pictures.get('draw_ms', 0):.1f} ms)   "
                f"{pictures.get('png_bytes', 0):,.0f} bytes per picture"
            )
        for failure in sorted(set(failures)):
            print(f"  FAILED {failures.count(failure)}×: {failure}")
        for name, values, target in (
            ("acknowledgement", acks, ACK_TARGET_MS),
            ("whole move", moves, MOVE_TARGET_MS),
        ):
            p50, p99 = _percentile(values, 50), _percentile(values, 99)
            verdict = "ok" if p99 <= target else "over target"
            print(
                f"  {name:16} p50 {p50:7.1f} ms   p99 {p99:7.1f} ms   "
                f"(target p99 ≤ {target:.0f} ms: {verdict})"
            )


def _run_ceiling(seconds: float, matches: int) -> None:
    """The paced line at Discord's ceiling for ``seconds``, the bot's memory sampled."""
    samples: list[tuple[float, int, int]] = []
    acks, moves, failures, figures = asyncio.run(
        _measure(seconds, PACED_THINK, matches=matches, samples=samples)
    )
    steady = figures.get("steady_moves", 0)
    rate = steady / figures.get("steady_seconds", 1.0)
    print(
        f"{matches} matches paced at Discord's ceiling for {seconds:.0f} s — {len(acks)} moves; "
        f"{rate:.1f} moves/s once under way"
    )
    main_cpu = figures.get("main_cpu")
    if main_cpu is not None and steady:
        print(f"  processor        {1000 * main_cpu / steady:.1f} ms per move in the bot's process")
    helpers_cpu = figures.get("helpers_cpu")
    if helpers_cpu is not None and steady:
        print(f"  processor        {1000 * helpers_cpu / steady:.1f} ms per move in its workers")
    if "drawn" in figures:
        print(
            f"  pictures         {figures['drawn'] / max(1, len(acks)):.2f} drawn per move, "
            f"encode {figures.get('encode_ms', 0):.1f} ms, "
            f"{figures.get('png_bytes', 0):,.0f} bytes per picture"
        )
    for failure in sorted(set(failures)):
        print(f"  FAILED {failures.count(failure)}×: {failure}")
    for name, values in (("acknowledgement", acks), ("whole move", moves)):
        print(
            f"  {name:16} p50 {_percentile(values, 50):7.1f} ms   "
            f"p99 {_percentile(values, 99):7.1f} ms"
        )
    if samples:
        mb = 2**20
        thirds = [samples[min(len(samples) - 1, len(samples) * k // 3)] for k in range(3)]
        print(
            "  bot's memory     "
            + "   ".join(f"{at:.0f} s: {rss / mb:.0f} MB" for at, rss, _ in (*thirds, samples[-1]))
            + f"   (largest {max(rss for _, rss, _ in samples) / mb:.0f} MB)"
        )
        half = [(at, rss) for at, rss, _ in samples if at >= samples[-1][0] / 2]
        if len(half) >= 2 and half[-1][0] > half[0][0]:
            slope = (half[-1][1] - half[0][1]) / mb / (half[-1][0] - half[0][0]) * 60
            print(f"  bot's memory     {slope:+.1f} MB a minute over the second half")
        print(f"  write-ahead log  largest {max(wal for _, _, wal in samples) / mb:.1f} MB")


def _resident(pid: int) -> int | None:
    """The resident memory of process ``pid`` in bytes, from /proc; None where there is none."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


async def _sample(pid: int, wal: Path, samples: list[tuple[float, int, int]]) -> None:
    """Every SAMPLE_EVERY seconds until cancelled: seconds since the start, the bot's resident
    memory and its log's size."""
    start = time.perf_counter()
    while True:
        rss = _resident(pid)
        if rss is not None:
            size = wal.stat().st_size if wal.exists() else 0
            samples.append((time.perf_counter() - start, rss, size))
        await asyncio.sleep(SAMPLE_EVERY)


def _percentile(values: list[float], pct: int) -> float:
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[pct - 1]


def _answers(token: str, sent: Sent) -> bool:
    """The private answer to the interaction with ``token``."""
    return sent.token == token and sent.kind in ("followup", "edit")


Measured = tuple[list[float], list[float], list[str], dict[str, float]]


async def _measure(
    duration: float,
    think: float,
    *,
    lifted: bool = False,
    matches: int = MATCHES,
    samples: list[tuple[float, int, int]] | None = None,
    kinds: FirstAnswers | None = None,
) -> Measured:
    """Run ``python -m bot`` as its own process against the fake Discord, which lives here
    with the players: the bot's work is not mixed with the fake's, as with the real Discord.
    Also returns the figures of the bot's line about its pictures (none if it logged none).
    ``lifted``: the fake enforces no rate limit, and the bot's own global budget is raised
    far beyond what it could send. ``samples``: filled with the bot's memory along the way
    (see :func:`_sample`). ``kinds``: where to note each interaction's first answer by its
    kind, with a member using the other commands meanwhile."""
    fake = FakeDiscord()
    fake.limits = not lifted
    # A channel for each pair, as on a busy server: Discord lets a channel take 5 messages
    # every 5 s, so twenty challenges in one channel would wait on each other, not on the bot.
    tables = [fake.add_channel(f"table-{i}") for i in range(matches)]
    await fake.start()
    with tempfile.TemporaryDirectory() as folder:
        env = {
            **os.environ,
            "DISCORD_TOKEN": fake.token,
            "DISCORD_API_BASE": fake.api_base,
            "DISCORD_GATEWAY_URL": fake.gateway_url,
            "TAPIS_DEV_GUILD": str(fake.guild_id),
            "TAPIS_DB": str(Path(folder) / "bench.db"),
        }
        if lifted:
            env["TAPIS_GLOBAL_REQUESTS_PER_SECOND"] = str(LIFTED_BUDGET)
        log_path = os.environ.get("TAPIS_BENCH_BOT_LOG") or str(Path(folder) / "bot.log")
        log = open(log_path, "ab")  # noqa: SIM115
        bot = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", env=env, cwd=folder,
            stdout=asyncio.subprocess.DEVNULL, stderr=log,
        )  # fmt: skip
        try:
            await asyncio.wait_for(fake.identified.wait(), 30)
            await asyncio.sleep(READY_WAIT)  # discord.py waits this long for more guilds
            acks: list[float] = []
            moves: list[float] = []
            failures: list[str] = []
            done: list[float] = []
            start = time.perf_counter()
            deadline = start + duration
            names = games.names()
            # Once under way (a third in: matches started, workers up, caches warm), the
            # processor time used and the moves answered are counted until the end.
            under_way = asyncio.create_task(_sample_later(bot.pid, duration / 3))
            sampling = None
            if samples is not None:
                wal = Path(env["TAPIS_DB"] + "-wal")
                sampling = asyncio.create_task(_sample(bot.pid, wal, samples))
            probes = []
            if kinds is not None:
                probes.append(_member(fake, deadline, kinds, failures))
            await asyncio.gather(
                *probes,
                *(
                    _player_pair(
                        fake,
                        names[i % len(names)],
                        i,
                        tables[i],
                        deadline,
                        think,
                        acks,
                        moves,
                        failures,
                        done,
                        kinds,
                    )
                    for i in range(matches)
                ),
            )
            after, end = _processor(bot.pid), time.perf_counter()
            if sampling is not None:
                sampling.cancel()
            before, since = await under_way
        finally:
            bot.send_signal(signal.SIGINT)
            try:
                await asyncio.wait_for(bot.wait(), 10)
            except TimeoutError:
                bot.kill()
            log.close()
            await fake.stop()
        figures = _pictures(Path(log_path))
        figures["steady_moves"] = sum(1 for at in done if at >= since)
        figures["steady_seconds"] = max(1e-3, end - since)
        if before is not None and after is not None:
            figures["main_cpu"] = after[0] - before[0]
            figures["helpers_cpu"] = after[1] - before[1]
        return acks, moves, failures, figures


async def _sample_later(pid: int, delay: float) -> tuple[tuple[float, float] | None, float]:
    await asyncio.sleep(delay)
    return _processor(pid), time.perf_counter()


def _processor(pid: int) -> tuple[float, float] | None:
    """Processor seconds used so far by the bot's process and by its child processes (the
    picture workers, the computer's), read from /proc; None where there is no /proc."""

    def seconds(process: int) -> float:
        fields = Path(f"/proc/{process}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        return seconds(pid), sum(seconds(int(child)) for child in children)
    except (OSError, ValueError, IndexError):
        return None


def _pictures(log: Path) -> dict[str, float]:
    """The fields of the painter's last "pictures" line in the bot's log."""
    found: dict[str, float] = {}
    for line in log.read_text(errors="replace").splitlines():
        if "logger=bot.discord.painter" in line and "msg=pictures" in line:
            found = {k: float(v) for k, v in re.findall(r"(\w+)=([0-9.]+)(?=\s|$)", line)}
    return found


async def _player_pair(
    fake: FakeDiscord,
    game: str,
    index: int,
    table: int,
    deadline: float,
    think: float,
    acks: list[float],
    moves: list[float],
    failures: list[str],
    finished: list[float],
    kinds: FirstAnswers | None = None,
) -> None:
    """Two users playing one match after another of ``game`` until the deadline, as people
    do: a button of their hand DM, or ``/play`` from its move list when the hand offers only
    a card menu."""
    rng = random.Random(index)
    one, two = fake.add_user(f"North{index}"), fake.add_user(f"South{index}")
    players = {one.id: one, two.id: two}
    noted = kinds if kinds is not None else {}
    while time.perf_counter() < deadline:
        try:
            match_id, thread_id, accept = await _start(fake, game, table, one, two, noted)
        except (RuntimeError, TimeoutError) as error:
            failures.append(f"no match started: {error}")
            await asyncio.sleep(RETRY_WAIT)
            continue
        accepted_by = two
        # The next match is the other's challenge, as players take turns asking: one player
        # alone would soon meet the limit on challenges made in a row (ChallengeLimits).
        one, two = two, one
        turn = await _next_turn(fake, match_id, players, {accept.token: accepted_by}, accept.since)
        while turn is not None and time.perf_counter() < deadline:
            mover, hand = turn
            if think:
                await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
            if kinds is not None and rng.random() < 0.1:
                await _aside(fake, mover, hand, thread_id, match_id, kinds, rng)
            buttons = [c for c in hand.custom_ids() if c.startswith("tapis:move:")]
            if buttons and not (kinds is not None and rng.random() < 0.2):
                kind = "button: a move"
                handle = await fake.press(mover, hand, rng.choice(buttons))
            else:
                asked = time.perf_counter()
                choices = await fake.autocomplete(
                    mover, "play", "move", thread_id, move="", match=match_id
                )
                noted.setdefault("autocomplete: /play move", []).append(
                    (time.perf_counter() - asked) * 1000
                )
                move = rng.choice(choices)["value"] if choices else ""
                menu = _menu_for(hand, move) if move else None
                if not move and buttons:  # the list was empty: the hand's buttons, then
                    kind = "button: a move"
                    handle = await fake.press(mover, hand, rng.choice(buttons))
                elif not move:
                    failures.append(f"no move offered to the player to move in #{match_id}")
                    break
                elif menu is not None:
                    kind = "card menu"
                    handle = await fake.choose(mover, hand, *menu)
                else:
                    kind = "/play"
                    handle = await fake.slash(mover, "play", thread_id, move=move, match=match_id)
            try:
                ack = await handle.callback()
                noted.setdefault(kind, []).append((ack.at - handle.sent_at) * 1000)
                await fake.wait_for(functools.partial(_answers, handle.token), since=handle.since)
            except TimeoutError:
                failures.append(f"a move in match #{match_id} was never answered")
                break
            acks.append((ack.at - handle.sent_at) * 1000)
            finished.append(time.perf_counter())
            # The move is over for its player once whoever is to move next has their hand: the
            # mover in their answer (a turn of two moves), the other player by DM.
            turn = await _next_turn(fake, match_id, players, {handle.token: mover}, handle.since)
            if turn is not None:
                moves.append((turn[1].at - handle.sent_at) * 1000)


async def _next_turn(
    fake: FakeDiscord,
    match_id: int,
    players: dict[int, FakeUser],
    answers: dict[str, FakeUser],
    since: int,
) -> tuple[FakeUser, Sent] | None:
    """Who is to move in ``match_id`` and the hand they move from: the first hand with moves
    on it sent from ``log[since]`` on, by DM or in the answer to one of ``answers``' own
    interactions; None when none comes (the match is over, or the move was refused)."""

    def is_turn(sent: Sent) -> bool:
        return (
            bool(sent.files)
            and bool(sent.custom_ids())
            and f"match #{match_id}" in sent.content
            and (sent.dm_to in players or sent.token in answers)
        )

    try:
        hand = await fake.wait_for(is_turn, since=since, timeout=TURN_WAIT)
    except TimeoutError:
        return None
    if hand.dm_to is not None:
        return players[hand.dm_to], hand
    assert hand.token is not None
    return answers[hand.token], hand


def _menu_for(hand: Sent, move: str) -> tuple[str, list[str]] | None:
    """The card menu of ``hand`` that makes ``move`` and the options to pick, if any."""
    cards = move.split()[1:]
    for item in hand.components():
        custom_id = str(item.get("custom_id", ""))
        if len(cards) < 2 or not custom_id.endswith(":" + move.split()[0]) or "options" not in item:
            continue
        left = [str(option["value"]) for option in item["options"]]
        picked = []
        for card in cards:
            value = next((v for v in left if card_of(v) == card), None)
            if value is None:
                return None
            left.remove(value)
            picked.append(value)
        return custom_id, picked
    return None


async def _first_answer(handle: FakeInteraction, kinds: FirstAnswers, kind: str) -> Sent | None:
    """Note how long ``handle``'s first answer took; None if it never came."""
    try:
        first = await handle.callback()
    except TimeoutError:
        kinds.setdefault(kind, []).append(float("inf"))
        return None
    kinds.setdefault(kind, []).append((first.at - handle.sent_at) * 1000)
    return first


async def _aside(
    fake: FakeDiscord,
    player: FakeUser,
    hand: Sent,
    thread_id: int,
    match_id: int,
    kinds: FirstAnswers,
    rng: random.Random,
) -> None:
    """What a player does besides moving, now and then: their hand again, the board, or
    /resign then Cancel."""
    which = rng.randrange(3)
    if which == 0:
        await _first_answer(await fake.slash(player, "hand", thread_id), kinds, "/hand")
    elif which == 1:
        await _first_answer(await fake.slash(player, "board", thread_id), kinds, "/board")
    else:
        asked = await fake.slash(player, "resign", thread_id)
        await _first_answer(asked, kinds, "/resign")
        question = await asked.finished()
        cancel = next((c for c in question.custom_ids() if ":cancel:" in c), None)
        if cancel is not None:
            await _first_answer(await fake.press(player, question, cancel), kinds, "button: resign")


async def _member(
    fake: FakeDiscord, deadline: float, kinds: FirstAnswers, failures: list[str]
) -> None:
    """A member using every other command while the matches are played, one at a time."""
    member, other = fake.add_user("Watcher"), fake.add_user("Passerby")
    game = games.names()[0]
    created = await fake.slash(member, "tournament create", game=game, name="Bench cup")
    await _first_answer(created, kinds, "/tournament create")
    await created.finished()
    # The tournament is the server's only one: /tournament standings finds it alone.
    steps: list[tuple[str, Callable[[], Awaitable[FakeInteraction]]]] = [
        ("/tapis help", lambda: fake.slash(member, "tapis help")),
        ("/tapis rules", lambda: fake.slash(member, "tapis rules", game=game)),
        ("/tapis leaderboard", lambda: fake.slash(member, "tapis leaderboard", game=game)),
        (
            "/tapis leaderboard season",
            lambda: fake.slash(member, "tapis leaderboard", game=game, season=1),
        ),
        ("/tapis stats", lambda: fake.slash(member, "tapis stats")),
        ("/matches", lambda: fake.slash(member, "matches")),
        ("/tournament standings", lambda: fake.slash(member, "tournament standings")),
        ("/board (another's match)", lambda: fake.slash(member, "board", match=_busy(fake))),
    ]
    while time.perf_counter() < deadline:
        for kind, send in steps:
            await _first_answer(await send(), kinds, kind)
        asked = time.perf_counter()
        await fake.autocomplete(member, "challenge", "options", game=game, options="t")
        kinds.setdefault("autocomplete: /challenge options", []).append(
            (time.perf_counter() - asked) * 1000
        )
        asked = time.perf_counter()
        await fake.autocomplete(member, "board", "match", match="")
        kinds.setdefault("autocomplete: /board match", []).append(
            (time.perf_counter() - asked) * 1000
        )
        challenge = await fake.slash(member, "challenge", game=game, opponent=other)
        if await _first_answer(challenge, kinds, "/challenge") is None:
            failures.append("a challenge was never answered")
            continue
        await challenge.finished()
        try:
            post = await fake.wait_for(
                lambda s: f"<@{other.id}>" in s.content and bool(s.custom_ids()),
                since=challenge.since,
                timeout=TURN_WAIT,
            )
        except TimeoutError:
            continue  # refused (too many challenges in a row): the next round tries again
        decline = next(c for c in post.custom_ids() if c.startswith("tapis:decline:"))
        await _first_answer(await fake.press(other, post, decline), kinds, "button: decline")


def _busy(fake: FakeDiscord) -> int:
    """The id of a match being played, read from its latest hand message."""
    for sent in reversed(fake.log):
        for custom_id in sent.custom_ids():
            if custom_id.startswith("tapis:move:"):
                return int(custom_id.split(":")[2])
    return 1


async def _start(
    fake: FakeDiscord,
    game: str,
    table: int,
    one: FakeUser,
    two: FakeUser,
    kinds: FirstAnswers | None = None,
) -> tuple[int, int, FakeInteraction]:
    noted = kinds if kinds is not None else {}
    handle = await fake.slash(one, "challenge", channel_id=table, game=game, opponent=two)
    await _first_answer(handle, noted, "/challenge")
    done = await handle.finished()
    if not done.content.startswith("Challenge #"):
        raise RuntimeError(f"the challenge was refused: {done.content}")
    post = await fake.wait_for(
        lambda s: (
            any(c.startswith("tapis:accept") for c in s.custom_ids())
            and f"<@{two.id}>" in s.content
        ),
        since=handle.since,
    )
    match_id = int(post.custom_ids()[0].split(":")[-1])
    accept = await fake.press(two, post, f"tapis:accept:{match_id}")
    await _first_answer(accept, noted, "button: accept")
    await accept.finished()
    # The match's first post in its thread (the acceptance) says where it is played; the
    # board with its picture may follow some seconds later, paced by the thread's limit.
    board = await fake.wait_for(
        lambda s: (
            s.kind == "message"
            and fake.channels.get(s.channel_id or 0, {}).get("type") == THREAD
            and re.search(rf"#{match_id}\b", s.content) is not None
        ),
        since=handle.since,
        timeout=START_WAIT,
    )
    assert board.channel_id is not None
    return match_id, board.channel_id, accept
