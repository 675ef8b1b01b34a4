"""Moves through the match service and SQLite, at 100, 1,000 and 10,000 live matches.

A database of 10,000 started matches is filled first. Each measure then plays on a number of
*live* matches taken from it; a match that ends is replaced at once by a new one between the
same players, so the number of live matches stays what the line says. Two loads, for the
default ``synchronous=NORMAL`` (a move survives a killed process) and for ``TAPIS_DURABLE``'s
``FULL`` (it survives a power loss too):
- 16 players moving as fast as they can, each on its own share of the matches: the most
  moves per second, each move timed from the call of ``MatchService.move`` to its return
  (the engine's check, the move and the new state committed, the deliveries built);
- moves arriving at a steady 250 per second (the floor: ten times what one bot may send
  through Discord's limits) on whichever live matches are idle: their latency from arrival
  to acknowledgement, reading the legal moves and any wait for the writer included.
Each line is measured in three windows of ``--seconds``, the lines taking turns (100, 1,000,
10,000, 100, …), and its figures are those of its three windows together: on a shared machine
whose speed drifts, measuring each line in one block would credit the drift to the number of
live matches.
Last, a sustained run at the target rate on 1,000 live matches, sampling the write-ahead log's
size: it must stay bounded however long the bot runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import random
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import games
from bot.service import MatchInfo, MatchService, PlayerRef

STORED_MATCHES = 10_000
LIVE = (100, 1_000, 10_000)
CLIENTS = 16
OFFERED = 250  # moves per second: the floor, ten times one bot's ceiling at Discord's limits
TARGET_P99_MS = 50.0
SUSTAINED_LIVE = 1_000
# Each line is measured in this many windows of ``--seconds``, taken in turn with the other
# lines' (100, 1,000, 10,000, 100, …), so that the lines are compared side by side.
ROUNDS = 3
# The sustained run lasts this many times ``--seconds``: 60 s at the default 3 s.
SUSTAIN_FACTOR = 20
FILL_AT_ONCE = 64  # challenges in flight while filling, so they share commits


class _Live:
    """A fixed number of live matches, each replaced by a fresh one when it ends."""

    def __init__(self, service: MatchService, infos: Sequence[MatchInfo]) -> None:
        self.service = service
        self.infos = {info.id: info for info in infos}
        self.replaced = 0

    async def played(self, info: MatchInfo) -> MatchInfo:
        """Record a match after a move; if it ended, the new match that takes its place."""
        del self.infos[info.id]
        if info.status != "active" or info.to_move is None:
            assert info.seats is not None
            info = await _start(self.service, info.seats[0], info.seats[1], info.game)
            self.replaced += 1
        self.infos[info.id] = info
        return info


async def _start(service: MatchService, a: PlayerRef, b: PlayerRef, game: str) -> MatchInfo:
    info, _ = await service.challenge(a, b, game, guild_id=1, channel_id=2, days_per_move=3)
    info, _ = await service.accept(info.id, b)
    return info


async def _fill(service: MatchService, count: int) -> list[MatchInfo]:
    """``count`` started matches of every game in turn, between 200 pairs of players."""
    names = games.names()

    async def one(n: int) -> MatchInfo:
        a = PlayerRef(1_000 + 2 * (n % 200), f"player {2 * (n % 200)}")
        b = PlayerRef(1_001 + 2 * (n % 200), f"player {2 * (n % 200) + 1}")
        return await _start(service, a, b, names[n % len(names)])

    infos: list[MatchInfo] = []
    for first in range(0, count, FILL_AT_ONCE):
        chunk = range(first, min(count, first + FILL_AT_ONCE))
        infos.extend(await asyncio.gather(*(one(n) for n in chunk)))
    return infos


async def _client(
    live: _Live, ids: list[int], rng: random.Random, until: float, latencies: list[float]
) -> None:
    """One player moving flat out on its own matches (``ids``, kept up to date).

    Every pass awaits the service, so a client never spins on the event loop without
    yielding; a match that ends is replaced, so the client always has somewhere to move.
    """
    while ids and time.perf_counter() < until:
        index = rng.randrange(len(ids))
        info = live.infos[ids[index]]
        assert info.to_move is not None
        legal = await live.service.legal_moves(info.id, info.to_move)
        start = time.perf_counter()
        info, _ = await live.service.move(info.id, info.to_move, rng.choice(legal))
        latencies.append(time.perf_counter() - start)
        ids[index] = (await live.played(info)).id


def _written() -> int | None:
    """Bytes the process has written to files so far (Linux), None where it cannot tell."""
    try:
        with open("/proc/self/io") as io:
            return next(int(line.split()[1]) for line in io if line.startswith("wchar"))
    except (OSError, StopIteration, ValueError):
        return None


@dataclass
class _Tally:
    """What the windows of one line measured, added up: a line's figures come from windows
    spread over the whole run, so a machine that changes speed meanwhile (a shared host
    does, by a fifth from one minute to the next) weighs on every line alike."""

    moves: int = 0
    seconds: float = 0.0
    cpu: float = 0.0
    written: int | None = 0
    latencies: list[float] = field(default_factory=list)

    def figures(self) -> tuple[float, float, float, float, float | None]:
        """(moves/s, p50 ms, p99 ms, CPU µs a move, KB written a move)."""
        moves = max(1, self.moves)
        kb = None if self.written is None else self.written / moves / 1024
        rate = self.moves / self.seconds if self.seconds else 0.0
        return (rate, *_percentiles(self.latencies), self.cpu / moves * 1e6, kb)


async def _flat_out(live: _Live, clients: int, seconds: float, tally: _Tally) -> None:
    """``clients`` players moving as fast as they can for ``seconds``, added to ``tally``:
    the moves and their latencies, the process's CPU time (every thread's, which a busy
    machine changes less than the rate) and the bytes written to the log and, by
    checkpoints, the database (what a machine's speed does not change at all)."""
    latencies: list[float] = []
    shares: list[list[int]] = [[] for _ in range(clients)]
    for n, match_id in enumerate(live.infos):
        shares[n % clients].append(match_id)
    start, cpu, written = time.perf_counter(), time.process_time(), _written()
    await asyncio.gather(
        *(
            _client(live, share, random.Random(c), start + seconds, latencies)
            for c, share in enumerate(shares)
        )
    )
    tally.seconds += time.perf_counter() - start
    tally.cpu += time.process_time() - cpu
    tally.moves += len(latencies)
    tally.latencies.extend(latencies)
    now_written = _written()
    if written is None or now_written is None or tally.written is None:
        tally.written = None
    else:
        tally.written += now_written - written


def _percentiles(latencies: list[float]) -> tuple[float, float]:
    if not latencies:
        return float("nan"), float("nan")
    latencies.sort()
    p50 = latencies[len(latencies) // 2] * 1000
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000
    return p50, p99


async def _steady(
    live: _Live,
    rate: float,
    seconds: float,
    *,
    wal: Path | None = None,
    tally: _Tally | None = None,
) -> tuple[float, float, float, int]:
    """Moves arriving at ``rate`` per second on idle live matches.

    (achieved moves/s, p50 ms, p99 ms, largest WAL file seen in bytes, sampled every 50 ms);
    the moves and their latencies are added to ``tally`` too, if given.
    """
    rng = random.Random(99)
    idle = list(live.infos)
    latencies: list[float] = []
    tasks: set[asyncio.Task[None]] = set()
    largest = 0

    async def one(match_id: int, arrival: float) -> None:
        info = live.infos[match_id]
        assert info.to_move is not None
        legal = await live.service.legal_moves(match_id, info.to_move)
        info, _ = await live.service.move(match_id, info.to_move, rng.choice(legal))
        latencies.append(time.perf_counter() - arrival)
        idle.append((await live.played(info)).id)

    start = time.perf_counter()
    launched = 0
    sampled = start
    while (now := time.perf_counter()) < start + seconds:
        while launched < int((now - start) * rate) and idle:
            index = rng.randrange(len(idle))
            idle[index], idle[-1] = idle[-1], idle[index]
            task = asyncio.create_task(one(idle.pop(), start + launched / rate))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
            launched += 1
        if wal is not None and now - sampled >= 0.05:
            sampled = now
            largest = max(largest, _size(wal))
        await asyncio.sleep(0.0005)
    await asyncio.gather(*tasks)
    elapsed = time.perf_counter() - start
    if tally is not None:
        tally.moves += len(latencies)
        tally.seconds += elapsed
        tally.latencies.extend(latencies)
    return (len(latencies) / elapsed, *_percentiles(latencies), largest)


@contextlib.asynccontextmanager
async def _warmed(service: MatchService) -> AsyncIterator[None]:
    """Read the live matches ahead, then freeze what is alive for the collector, as the bot
    does from its start (``MatchService.warm``, bot/discord/client.py)."""
    start = time.perf_counter()
    count = await service.warm()
    gc.collect()
    gc.freeze()
    print(f"{'':<12} {count:>7,}  live matches read ahead in {time.perf_counter() - start:.1f} s")
    try:
        yield
    finally:
        gc.unfreeze()


def _line(
    level: str,
    live: int,
    load: str,
    rate: float,
    p50: float,
    p99: float,
    cpu: float | None,
    kb: float | None = None,
) -> None:
    per_move = "" if cpu is None else f" {cpu:>11,.0f}"
    written = "" if kb is None else f" {kb:>10.1f}"
    line = f"{level:<12} {live:>7,}  {load:<24} {rate:>9,.0f} {p50:>8.2f} {p99:>8.2f}"
    print(f"{line}{per_move}{written}")


def _size(path: Path) -> int:
    try:
        return os.path.getsize(path)
    except FileNotFoundError:
        return 0


async def _bench(seconds: float) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.db"
        wal = Path(f"{path}-wal")
        service = await MatchService.open(path)
        start = time.perf_counter()
        stored = await _fill(service, STORED_MATCHES)
        filled = time.perf_counter() - start
        await service.close()
        print(
            f"{STORED_MATCHES:,} matches stored ({', '.join(games.names())}) in {filled:.1f} s; "
            f"each line plays on some of them, a match that ends replaced by a new one"
        )
        header = f"{'synchronous':<12} {'live':>7}  {'load':<24} {'moves/s':>9} {'p50 ms':>8}"
        print(f"{header} {'p99 ms':>8} {'CPU µs/move':>11} {'KB written/move':>10}")
        for durable in (False, True):
            level = "FULL" if durable else "NORMAL"
            service = await MatchService.open(path, durable=durable)
            flat = {count: _Tally() for count in LIVE}
            steady = {count: _Tally() for count in LIVE}
            try:
                async with _warmed(service):
                    for _ in range(ROUNDS):
                        for count in LIVE:
                            live = _Live(service, stored[:count])
                            await _flat_out(live, CLIENTS, seconds, flat[count])
                            await _steady(live, OFFERED, seconds, tally=steady[count])
                            stored[:count] = live.infos.values()
            finally:
                await service.close()
            for count in LIVE:
                _line(level, count, f"{CLIENTS} players, flat out", *flat[count].figures())
                rate, p50, p99, _, _ = steady[count].figures()
                _line(level, count, f"{OFFERED:,} moves/s arriving", rate, p50, p99, None)
        print(
            f"targets: >= {OFFERED:,} moves/s, p99 <= {TARGET_P99_MS:.0f} ms; load average "
            f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (figures need a quiet machine)"
        )

        sustain = seconds * SUSTAIN_FACTOR
        service = await MatchService.open(path)
        try:
            async with _warmed(service):
                live = _Live(service, stored[:SUSTAINED_LIVE])
                rate, p50, p99, largest = await _steady(live, OFFERED, sustain, wal=wal)
                at_end = _size(wal)
        finally:
            await service.close()
        print(
            f"sustained: {OFFERED:,} moves/s arriving on {SUSTAINED_LIVE:,} live matches for "
            f"{sustain:.0f} s (NORMAL): {rate:,.0f} moves/s, p50 {p50:.2f} ms, p99 {p99:.2f} ms; "
            f"WAL {at_end / 2**20:.1f} MB at the end, {largest / 2**20:.1f} MB at most"
        )


def run(seconds: float) -> None:
    asyncio.run(_bench(seconds))
