"""Page latency of the web site with 10,000 finished matches in the database.

The matches are real: random playouts of every game (short options, so building the database
takes seconds) stored as the service stores them — the match row with its seed, options and
final state, every move, the result, both players' ratings — so each replays through its
engine exactly. Pages are fetched over HTTP from the site running in this process, one at a
time; the figures are p50 and p99 of the time from request to the last byte:
- leaderboards (global, page 1 and a deep page; a server's),
- match pages of random finished matches (the move list and replay data included),
- a replay frame not yet cached (the match played again to that ply and the picture drawn),
- a player's profile (record, rating chart, latest matches).
Goals: p99 ≤ 50 ms for leaderboards and match pages, ≤ 150 ms for an uncached frame.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import games
from bot.service import ratings
from bot.storage.backends import open_database
from bot.storage.sql import Connection, Database

STORED_MATCHES = 10_000
PLAYERS = 400
GUILDS = (900_000_000_000_000_001, 900_000_000_000_000_002)
FIRST_USER = 300_000_000_000_000_000


def playout(game: str, seed: int, options: dict[str, int]) -> tuple[Any, list[tuple[int, str]]]:
    """A whole match of random legal moves: the final state and the log (seat, move)."""
    state = games.get(game).new_match(seed=seed, options=options)
    chooser = random.Random(seed)
    log = []
    while state.to_move is not None:
        seat = state.to_move
        move = chooser.choice(state.legal_moves())
        state = state.apply(move)
        log.append((seat, move))
    return state, log


def _store(
    conn: Connection,
    game: str,
    seed: int,
    options: dict[str, int],
    seats: tuple[int, int],
    guild_id: int,
    state: Any,
    log: list[tuple[int, str]],
    at: float,
) -> int:
    """Store one finished match; its id (numbered by the database, as the service's are, so
    that matches made afterwards, on either database, take the next ids)."""
    result = {**(state.result or {}), "how": "play"}
    winner = result.get("winner")
    match_id = conn.execute(
        "INSERT INTO matches (game, guild_id, channel_id, challenger_id, opponent_id,"
        " seat0_id, seat1_id, options, seed, status, version, state, result, rated,"
        " created_at, updated_at) VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, 'finished', ?, ?, ?,"
        " 1, ?, ?)",
        (game, guild_id, seats[0], seats[1], seats[0], seats[1], json.dumps(options),
         seed, len(log), state.to_json(), json.dumps(result), at - 600, at),
    ).lastrowid  # fmt: skip
    assert match_id is not None
    conn.executemany(
        "INSERT INTO moves (match_id, ply, seat, user_id, move, at) VALUES (?, ?, ?, ?, ?, ?)",
        [(match_id, ply, seat, seats[seat], move, at) for ply, (seat, move) in enumerate(log, 1)],
    )
    conn.execute(
        "INSERT INTO results (match_id, game, guild_id, seat0_id, seat1_id, winner_seat, how,"
        " scores, finished_at) VALUES (?, ?, ?, ?, ?, ?, 'play', ?, ?)",
        (match_id, game, guild_id, seats[0], seats[1], winner if winner in (0, 1) else None,
         json.dumps(result.get("scores", list(state.scores))), at),
    )  # fmt: skip
    ratings.rate_match(
        conn, game, guild_id, seats, winner if winner in (0, 1) else None, "play", at
    )
    return match_id


async def populate(db: Database, count: int, *, seed: int = 1, players: int = PLAYERS) -> list[int]:
    """Store ``count`` finished matches (every game in turn) between ``players`` players, on
    two servers, in SQLite or PostgreSQL; their ids, in order."""
    chooser = random.Random(seed)
    names = games.names()
    start = time.time() - count * 60
    plans: list[Any] = []
    ids: list[int] = []
    for n in range(count):
        game = names[n % len(names)]
        a, b = chooser.sample(range(players), 2)
        seats = (FIRST_USER + a, FIRST_USER + b)
        match_seed = chooser.randrange(2**62)
        # Short matches: a database of thousands fills in seconds, and each replays fully.
        options = games.get(game).short_options()
        state, log = playout(game, match_seed, options)
        plans.append(
            (game, match_seed, options, seats, GUILDS[n % 2], state, log,
             start + n * 60)
        )  # fmt: skip

    people = [(FIRST_USER + p, f"Player {p}", start, start) for p in range(players)]
    for first in range(0, len(plans), 500):  # commits of a bounded size
        chunk = plans[first : first + 500]

        def write(conn: Connection, chunk: list[Any] = chunk) -> list[int]:
            conn.executemany(
                "INSERT INTO players (user_id, name, created_at, updated_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (user_id) DO NOTHING",
                people,
            )
            return [_store(conn, *args) for args in chunk]

        ids += await db.transact(write)
    return ids


def _percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def _measure(seconds: float) -> None:
    from aiohttp import ClientSession, web

    from bot.service.replays import warm_up
    from bot.service.settings import set_web
    from bot.web.app import create_app

    with tempfile.TemporaryDirectory() as folder:
        db = await open_database(Path(folder) / "web.db")
        began = time.perf_counter()
        ids = await populate(db, STORED_MATCHES)
        moves = await db.fetchone("SELECT COUNT(*) FROM moves")
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(f"  machine load (1 min average) at start: {load:.1f} on {os.cpu_count()} cores")
        print(
            f"  database: {STORED_MATCHES:,} finished matches, {moves[0] if moves else 0:,} "
            f"moves, built in {time.perf_counter() - began:.1f} s"
        )
        for guild in GUILDS:  # every match public: the site reads them all
            await set_web(db, guild, True)
        app = create_app(db, rate=None)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = runner.addresses[0][1]
        base = f"http://127.0.0.1:{port}"
        chooser = random.Random(2)
        try:
            async with ClientSession() as http:

                async def timed(path: str) -> float:
                    began = time.perf_counter()
                    async with http.get(base + path) as response:
                        await response.read()
                        if response.status != 200:
                            raise RuntimeError(f"{path}: HTTP {response.status}")
                    return (time.perf_counter() - began) * 1000

                boards = [f"/games/{name}" for name in games.names()]
                boards += [f"/games/{name}?page=4" for name in games.names()]
                boards += [f"/servers/{GUILDS[0]}/{name}" for name in games.names()]
                cases: dict[str, Any] = {
                    "leaderboard": lambda: chooser.choice(boards),
                    "match page": lambda: f"/matches/{chooser.choice(ids)}",
                    "profile": lambda: f"/players/{FIRST_USER + chooser.randrange(PLAYERS)}",
                }
                # As the site does when it starts: card faces drawn once, in the background.
                await asyncio.to_thread(warm_up)
                for label, pick in cases.items():
                    samples: list[float] = []
                    deadline = time.perf_counter() + seconds
                    while time.perf_counter() < deadline or len(samples) < 20:
                        samples.append(await timed(pick()))
                    _report(label, samples)
                # Uncached frames: each (match, ply) asked once, in matches not seen before.
                fresh = chooser.sample(ids[1:], min(len(ids) - 1, 400))
                samples = []
                deadline = time.perf_counter() + seconds
                for match_id in fresh:
                    if time.perf_counter() > deadline and len(samples) >= 20:
                        break
                    row = await db.fetchone("SELECT version FROM matches WHERE id = ?", (match_id,))
                    ply = chooser.randrange(int(row[0]) + 1) if row else 0
                    kind = chooser.choice(("table", "hand0", "hand1"))
                    samples.append(await timed(f"/matches/{match_id}/frames/{ply}/{kind}.png"))
                _report("replay frame, not cached", samples)
        finally:
            await runner.cleanup()
            await db.close()


def _report(label: str, samples: list[float]) -> None:
    print(
        f"  {label:<26} p50 {_percentile(samples, 0.5):6.1f} ms   "
        f"p99 {_percentile(samples, 0.99):6.1f} ms   ({len(samples)} requests)"
    )


def run(seconds: float) -> None:
    asyncio.run(_measure(seconds))
