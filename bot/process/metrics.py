"""The bot's figures for an operator to graph and alert on, in Prometheus's text format.

Served at ``/metrics`` on a port of its own, ``TAPIS_METRICS_PORT`` (unset: not served), on
``TAPIS_METRICS_HOST`` — 127.0.0.1 unless the operator opens it wider: the figures say how
busy each server's matches are, which is nobody's business but the operator's.

Every figure carries a ``shard`` label: the shards this process serves ("0,1"), or "all" for
a bot that is not sharded, so that the processes of a sharded bot add up in one graph.
What counts, where:

- moves made (by game), in the service, whoever made them (a player, the computer);
- interactions (by kind) and the time to their first answer, from Discord's own clock (the
  interaction's id) to the moment it was answered or deferred;
- messages the courier sent and those waiting, by priority (turn, notice, board, reminder);
- Discord requests, 429s and invalid requests (401/403/429), as the pacing gauge sees them;
- worker processes given up and started afresh, matches set aside as unreadable, the clock's
  reminders and timeouts, tournament rounds paired.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from typing import Final
from wsgiref.simple_server import WSGIServer

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server

log = logging.getLogger(__name__)

REGISTRY: Final = CollectorRegistry(auto_describe=True)
"""This process's figures alone (not the library's default registry and its process
figures: those belong to whatever runs the bot)."""
PRIORITIES: Final = ("turn", "notice", "board", "reminder")
"""The courier's priorities (bot.discord.queue), most urgent first, as labels."""

_shard = "all"

MOVES: Final = Counter(
    "tapis_moves", "Moves made", ["shard", "game"], registry=REGISTRY
)  # fmt: skip
INTERACTIONS: Final = Counter(
    "tapis_interactions", "Interactions answered", ["shard", "kind"], registry=REGISTRY
)
FIRST_ANSWER: Final = Histogram(
    "tapis_first_answer_seconds",
    "Time from an interaction's creation to its first answer (Discord allows 3 s)",
    ["shard"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0),
    registry=REGISTRY,
)
SENT: Final = Counter(
    "tapis_deliveries_sent", "Messages the courier sent", ["shard", "priority"], registry=REGISTRY
)
WAITING: Final = Gauge(
    "tapis_deliveries_waiting",
    "Messages waiting in the courier's queue",
    ["shard", "priority"],
    registry=REGISTRY,
)
REQUESTS: Final = Counter(
    "tapis_discord_requests", "Requests answered by Discord's REST API", ["shard"],
    registry=REGISTRY,
)  # fmt: skip
RATE_LIMITED: Final = Counter(
    "tapis_discord_rate_limited", "Requests answered 429 (any scope)", ["shard"],
    registry=REGISTRY,
)  # fmt: skip
INVALID: Final = Counter(
    "tapis_discord_invalid_requests",
    "Invalid requests (401, 403, 429 not shared): 10,000 in 10 minutes get a bot banned",
    ["shard"],
    registry=REGISTRY,
)
WORKER_RESTARTS: Final = Counter(
    "tapis_worker_restarts", "Worker process pools given up and started afresh",
    ["shard", "what"], registry=REGISTRY,
)  # fmt: skip
SET_ASIDE: Final = Counter(
    "tapis_matches_set_aside", "Matches set aside as unreadable", ["shard"], registry=REGISTRY
)
CLOCK_EVENTS: Final = Counter(
    "tapis_clock_events", "Turn clock events (reminders, timeouts, expiries)", ["shard", "kind"],
    registry=REGISTRY,
)  # fmt: skip
TOURNAMENT_ROUNDS: Final = Counter(
    "tapis_tournament_rounds", "Tournament rounds paired", ["shard"], registry=REGISTRY
)


def set_shard(shard_ids: tuple[int, ...] | None) -> None:
    """Label every figure from now on with the shards this process serves."""
    global _shard
    _shard = "all" if shard_ids is None else ",".join(str(s) for s in shard_ids)


def shard() -> str:
    return _shard


def moved(game: str) -> None:
    MOVES.labels(_shard, game).inc()


def answered(kind: str, seconds: float | None) -> None:
    """An interaction answered, ``seconds`` after Discord made it (None: not known)."""
    INTERACTIONS.labels(_shard, kind).inc()
    if seconds is not None:
        FIRST_ANSWER.labels(_shard).observe(max(0.0, seconds))


def sent(priority: int) -> None:
    SENT.labels(_shard, PRIORITIES[priority]).inc()


def watch_waiting(by_priority: Callable[[], list[int]]) -> None:
    """Read the courier's waiting messages at each scrape (the latest courier's)."""
    for index, name in enumerate(PRIORITIES):
        WAITING.labels(_shard, name).set_function(
            lambda index=index: float(by_priority()[index])  # type: ignore[misc]
        )


def requested(status: int, *, invalid: bool) -> None:
    REQUESTS.labels(_shard).inc()
    if status == 429:
        RATE_LIMITED.labels(_shard).inc()
    if invalid:
        INVALID.labels(_shard).inc()


def worker_restarted(what: str) -> None:
    WORKER_RESTARTS.labels(_shard, what).inc()


def set_aside() -> None:
    SET_ASIDE.labels(_shard).inc()


def clock_event(kind: str) -> None:
    CLOCK_EVENTS.labels(_shard, kind).inc()


def tournament_round() -> None:
    TOURNAMENT_ROUNDS.labels(_shard).inc()


def host_from_env() -> str:
    return os.environ.get("TAPIS_METRICS_HOST", "").strip() or "127.0.0.1"


def port_from_env() -> int | None:
    """``TAPIS_METRICS_PORT`` as a port number (0: any free one), None if unset; ValueError
    if it is not one."""
    text = os.environ.get("TAPIS_METRICS_PORT", "").strip()
    if not text:
        return None
    if not text.isdigit() or int(text) > 65535:
        raise ValueError(f"TAPIS_METRICS_PORT must be a port number (1-65535), not {text!r}")
    return int(text)


class Served:
    """The figures served over HTTP, from a thread of the library's; :meth:`close` stops it."""

    def __init__(self, host: str, port: int) -> None:
        server, thread = start_http_server(port, host, registry=REGISTRY)
        self._server: WSGIServer = server
        self._thread: threading.Thread = thread
        self.port: int = server.server_port

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(5)


def serve_from_env() -> Served | None:
    """Serve ``/metrics`` where the settings say; None (logged) if unset or impossible."""
    try:
        port = port_from_env()
    except ValueError as error:
        log.error("metrics not served: %s", error)
        return None
    if port is None:
        return None
    host = host_from_env()
    try:
        served = Served(host, port)
    except OSError as error:
        log.error("metrics not served on %s:%d: %s", host, port, error)
        return None
    log.info("metrics served at http://%s:%d/metrics", host, served.port)
    return served
