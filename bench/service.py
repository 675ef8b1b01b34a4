"""Durable moves through the match service and SQLite, with 10,000 stored matches.

A move is timed from the call of ``MatchService.move`` to its return: the engine's check,
the move and the new state committed, and the deliveries (board, both hands) built. Moves
go to random matches among all those stored. Three measures, for the default
``synchronous=NORMAL`` (survives a killed process) and ``FULL`` (survives a power loss too):
- one player at a time: the latency of a lone move;
- 16 players moving as fast as they can: the most moves per second;
- moves arriving at a steady 2,000 per second (the target rate), whoever is ready: their
  latency from arrival to acknowledgement, waiting included.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from pathlib import Path

import games
from bot.service import MatchInfo, MatchService, PlayerRef

STORED_MATCHES = 10_000
CLIENTS = 16
OFFERED = 2_000  # moves per second


async def _fill(service: MatchService, count: int) -> list[MatchInfo]:
    """``count`` started matches of every game in turn, between 200 pairs of players."""
    names = games.names()
    infos = []
    for n in range(count):
        a = PlayerRef(1_000 + 2 * (n % 200), f"player {2 * (n % 200)}")
        b = PlayerRef(1_001 + 2 * (n % 200), f"player {2 * (n % 200) + 1}")
        info, _ = await service.challenge(
            a, b, names[n % len(names)], guild_id=1, channel_id=2, days_per_move=3
        )
        info, _ = await service.accept(info.id, b)
        infos.append(info)
    return infos


async def _client(
    service: MatchService,
    infos: dict[int, MatchInfo],
    rng: random.Random,
    until: float,
    latencies: list[float],
) -> None:
    ids = list(infos)  # this client's own matches: one player per match at a time
    while time.perf_counter() < until:
        match_id = rng.choice(ids)
        info = infos[match_id]
        if info.status != "active" or info.to_move is None:
            continue
        legal = await service.legal_moves(match_id, info.to_move)
        if not legal:
            continue
        move = rng.choice(legal)
        start = time.perf_counter()
        info, _ = await service.move(match_id, info.to_move, move)
        latencies.append(time.perf_counter() - start)
        infos[match_id] = info


async def _measure(
    service: MatchService, infos: dict[int, MatchInfo], clients: int, seconds: float
) -> tuple[float, float, float, int]:
    latencies: list[float] = []
    start = time.perf_counter()
    until = start + seconds
    shares: list[dict[int, MatchInfo]] = [{} for _ in range(clients)]
    for match_id, info in infos.items():
        shares[match_id % clients][match_id] = info
    await asyncio.gather(
        *(
            _client(service, share, random.Random(c), until, latencies)
            for c, share in enumerate(shares)
        )
    )
    for share in shares:
        infos.update(share)
    elapsed = time.perf_counter() - start
    count = len(latencies)
    return (count / elapsed, *_percentiles(latencies), count)


def _percentiles(latencies: list[float]) -> tuple[float, float]:
    latencies.sort()
    p50 = latencies[len(latencies) // 2] * 1000
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))] * 1000
    return p50, p99


async def _steady(
    service: MatchService, infos: dict[int, MatchInfo], rate: float, seconds: float
) -> tuple[float, float, float]:
    """Moves arriving at ``rate`` per second on idle matches: (achieved rate, p50, p99)."""
    rng = random.Random(99)
    idle = [match_id for match_id, info in infos.items() if info.status == "active"]
    latencies: list[float] = []
    tasks: set[asyncio.Task[None]] = set()

    async def one(match_id: int, arrival: float) -> None:
        info = infos[match_id]
        assert info.to_move is not None
        legal = await service.legal_moves(match_id, info.to_move)
        info, _ = await service.move(match_id, info.to_move, rng.choice(legal))
        latencies.append(time.perf_counter() - arrival)
        infos[match_id] = info
        if info.status == "active":
            idle.append(match_id)

    start = time.perf_counter()
    launched = 0
    while (now := time.perf_counter()) < start + seconds:
        while launched < int((now - start) * rate) and idle:
            index = rng.randrange(len(idle))
            idle[index], idle[-1] = idle[-1], idle[index]
            task = asyncio.create_task(one(idle.pop(), start + launched / rate))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
            launched += 1
        await asyncio.sleep(0.0005)
    await asyncio.gather(*tasks)
    elapsed = time.perf_counter() - start
    return (len(latencies) / elapsed, *_percentiles(latencies))


async def _bench(seconds: float) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.db"
        service = await MatchService.open(path)
        start = time.perf_counter()
        infos = {info.id: info for info in await _fill(service, STORED_MATCHES)}
        filled = time.perf_counter() - start
        await service.close()
        print(
            f"{STORED_MATCHES:,} matches stored ({', '.join(games.names())}) "
            f"in {filled:.1f} s; moves go to random ones"
        )
        print(f"{'synchronous':<12} {'load':<26} {'moves/s':>9} {'p50 ms':>8} {'p99 ms':>8}")
        for durable in (False, True):
            level = "FULL" if durable else "NORMAL"
            service = await MatchService.open(path, durable=durable)
            try:
                for clients in (1, CLIENTS):
                    rate, p50, p99, _ = await _measure(service, infos, clients, seconds)
                    load = (
                        "one player at a time" if clients == 1 else f"{clients} players, flat out"
                    )
                    print(f"{level:<12} {load:<26} {rate:>9,.0f} {p50:>8.2f} {p99:>8.2f}")
                rate, p50, p99 = await _steady(service, infos, OFFERED, seconds)
                load = f"{OFFERED:,} moves/s arriving"
                print(f"{level:<12} {load:<26} {rate:>9,.0f} {p50:>8.2f} {p99:>8.2f}")
            finally:
                await service.close()
        print(f"targets: >= {OFFERED:,} moves/s, p99 <= 10 ms")


def run(seconds: float) -> None:
    asyncio.run(_bench(seconds))
