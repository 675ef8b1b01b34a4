"""Durable moves per second and their p99, with 1, 2 and 4 bot processes: PostgreSQL and SQLite.

Each measure fills one database with started matches, then starts that many processes (each
a ``MatchService`` of its own, as a bot process has) on it. Every process plays on its own
share of the matches with ``CLIENTS`` players moving as fast as they can; a move is timed
from the call of ``MatchService.move`` to its return, that is once it is committed and
durable: on PostgreSQL its commit is flushed before the server acknowledges it
(``synchronous_commit`` on, its default), on SQLite ``TAPIS_DURABLE``'s ``synchronous=FULL``.
The matches are of every registered game in turn (match *n* of ``games.names()[n % len]``),
so the rows are as varied as a bot's. A match that ends is replaced by a new one of the same
game between the same players. The moves counted are
those acknowledged in the same window of ``--seconds`` in every process.

SQLite is one process's by design (the bot refuses a second one on a file); its 2 and 4
process lines show what sharing the file's one write lock would cost, for comparison.

The PostgreSQL server is ``TAPIS_BENCH_POSTGRES`` (a ``postgresql://`` address of a scratch
database: it is emptied) or else one started here from the ``pgserver`` wheel (``pip install
-e '.[dev]'``), with its default, durable settings.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import os
import random
import shutil
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import games
from bot.service import MatchInfo, MatchService, PlayerRef

PROCESSES = (1, 2, 4)
CLIENTS = 8  # players moving at once in each process
MATCHES_PER_CLIENT = 4
WARM_UP = 1.0  # seconds every process plays before the measured window opens


def run(seconds: float) -> None:
    postgres, stop = _postgres()
    results: dict[str, dict[int, tuple[float, float] | str]] = {"SQLite": {}, "PostgreSQL": {}}
    folder = Path(tempfile.mkdtemp(prefix="tapis-bench-"))
    try:
        for processes in PROCESSES:
            file = folder / f"bench-{processes}.db"
            results["SQLite"][processes] = _measure(str(file), processes, seconds)
            if postgres is None:
                results["PostgreSQL"][processes] = "no server"
            else:
                _empty(postgres)
                results["PostgreSQL"][processes] = _measure(postgres, processes, seconds)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        stop()
    print(
        f"{CLIENTS} players per process, every game in turn, every move durable; "
        f"moves/s (all processes together) and p99 of a move"
    )
    print(f"{'processes':>9} | {'PostgreSQL':^24} | {'SQLite':^24}")
    for processes in PROCESSES:
        cells = [_cell(results[name][processes]) for name in ("PostgreSQL", "SQLite")]
        print(f"{processes:>9} | {cells[0]:^24} | {cells[1]:^24}")


def _cell(result: tuple[float, float] | str) -> str:
    if isinstance(result, str):
        return result
    rate, p99 = result
    return f"{rate:7.0f} /s  p99 {p99 * 1000:6.1f} ms"


def _measure(target: str, processes: int, seconds: float) -> tuple[float, float] | str:
    """Moves per second over all processes, and the p99 of a move, on ``target``."""
    players = [PlayerRef(10**17 + n, f"Player {n}") for n in range(2 * CLIENTS * processes)]
    share = CLIENTS * MATCHES_PER_CLIENT
    ids = asyncio.run(_fill(target, players, share * processes))
    start = time.time() + WARM_UP + 2.0  # time for every process to start and open
    context = multiprocessing.get_context("spawn")
    try:
        with concurrent.futures.ProcessPoolExecutor(processes, mp_context=context) as pool:
            jobs = [
                pool.submit(_worker, target, ids[n * share : (n + 1) * share], start, seconds)
                for n in range(processes)
            ]
            outcomes = [job.result() for job in jobs]
    except Exception as error:  # a measure that fails is said, the others go on
        return f"failed: {type(error).__name__}"
    latencies = sorted(t for outcome in outcomes for t in outcome)
    if not latencies:
        return "no move"
    return len(latencies) / seconds, latencies[int(0.99 * (len(latencies) - 1))]


async def _fill(target: str, players: Sequence[PlayerRef], count: int) -> list[int]:
    service = await MatchService.open(target, durable=True)
    try:
        infos = await asyncio.gather(
            *(
                _start(service, players[2 * (n % (len(players) // 2)) :][:2], _game(n))
                for n in range(count)
            )
        )
        return [info.id for info in infos]
    finally:
        await service.close()


def _game(n: int) -> str:
    names = games.names()
    return names[n % len(names)]


async def _start(service: MatchService, pair: Sequence[PlayerRef], game: str) -> MatchInfo:
    info, _ = await service.challenge(pair[0], pair[1], game, guild_id=1, channel_id=1)
    info, _ = await service.accept(info.id, pair[1])
    return info


def _worker(target: str, ids: list[int], start: float, seconds: float) -> list[float]:
    """In a process of its own: play until the window closes; the window's move times."""
    return asyncio.run(_play(target, ids, start, seconds))


async def _play(target: str, ids: list[int], start: float, seconds: float) -> list[float]:
    service = await MatchService.open(target, durable=True)
    end = start + seconds
    timed: list[float] = []
    rng = random.Random(os.getpid())

    async def player(mine: list[int]) -> None:
        infos = [await service.get(match_id) for match_id in mine]
        await asyncio.sleep(max(0.0, start - WARM_UP - time.time()))
        while time.time() < end:
            for n, info in enumerate(infos):
                if info.status != "active" or info.to_move is None:
                    assert info.seats is not None
                    info = infos[n] = await _start(service, info.seats, info.game)
                assert info.to_move is not None
                move = rng.choice(await service.legal_moves(info.id, info.to_move))
                began = time.time()
                infos[n], _ = await service.move(info.id, info.to_move, move)
                done = time.time()
                if start <= began and done <= end:
                    timed.append(done - began)

    try:
        await asyncio.gather(
            *(
                player(ids[n * MATCHES_PER_CLIENT : (n + 1) * MATCHES_PER_CLIENT])
                for n in range(CLIENTS)
            )
        )
    finally:
        await service.close()
    return timed


# -- the PostgreSQL server ------------------------------------------------------------------


def _postgres() -> tuple[str | None, Any]:
    """The server to measure on, and how to stop it (if started here)."""
    own = os.environ.get("TAPIS_BENCH_POSTGRES", "").strip()
    if own:
        return own, lambda: None
    try:
        import pgserver
    except ImportError:
        print("No PostgreSQL: set TAPIS_BENCH_POSTGRES, or install pgserver (the dev extras).")
        return None, lambda: None
    folder = Path(tempfile.mkdtemp(prefix="tapis-pg-", dir="/tmp"))
    os.chmod(folder, 0o755)  # pgserver run as root serves from a user of its own
    server = pgserver.get_server(folder, cleanup_mode="stop")  # type: ignore[attr-defined]

    def stop() -> None:
        server.cleanup()
        shutil.rmtree(folder, ignore_errors=True)

    return str(server.get_uri()), stop


def _empty(url: str) -> None:
    async def empty() -> None:
        import asyncpg

        conn = await asyncpg.connect(url)
        try:
            await conn.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
        finally:
            await conn.close()

    asyncio.run(empty())
