"""The service as a state machine: moves by both players and by strangers, double presses,
clock passes, restarts and crashes between a commit and its delivery, on every game, in
any order hypothesis finds; after each step, the promises hold:

- no public delivery holds a hand, and a hand goes only to the player it belongs to;
- every committed move is announced, and every stored message sent exactly once (outbox);
- each match's move log replays to its stored state;
- a finished match has exactly one result, and a match not finished none.

``make test`` runs a few short examples; ``make soak`` (TAPIS_SOAK=1) runs many long ones.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import tempfile
from collections import Counter
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    Bundle,
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

import games
from bot.service import (
    Conflict,
    Delivery,
    MatchInfo,
    MatchOver,
    MatchService,
    NotAPlayer,
    NotYourTurn,
    ServiceError,
)
from tests.bot.conftest import ALICE, BOB, CAROL, CHANNEL, GUILD, FakeClock

T = TypeVar("T")
SOAK = os.environ.get("TAPIS_SOAK") == "1"
MAX_MATCHES = 6


class ServiceMachine(RuleBasedStateMachine):
    """One database, one service at a time over it, and what the players were told."""

    matches = Bundle("matches")

    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.folder = Path(tempfile.mkdtemp(prefix="tapis-machine-"))
        self.path = self.folder / "tapis.db"
        self.clock = FakeClock()
        self.service = self.run(MatchService.open(self.path, now=self.clock))
        self.infos: dict[int, MatchInfo] = {}
        self.sent: Counter[int] = Counter()  # outbox id -> times announced
        self.told: set[tuple[int, int]] = set()  # (match, version) announced on a board
        self.hands: dict[tuple[int, int], set[int]] = {}  # (match, version) -> hands sent to
        self.moved: set[tuple[int, int]] = set()  # (match, version) a move committed
        self.playing: set[tuple[int, int]] = set()  # ... and left the match still to play
        self.lost: list[Delivery] = []  # committed, not delivered: a crash came between

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        return self.loop.run_until_complete(coroutine)

    def teardown(self) -> None:
        try:
            self.run(self.service.close())
        finally:
            self.loop.close()
            shutil.rmtree(self.folder, ignore_errors=True)

    # -- delivering -------------------------------------------------------------------------
    def deliver(self, deliveries: list[Delivery]) -> None:
        """What the adapter does after a change: send each message, then mark it sent."""
        for delivery in deliveries:
            if delivery.outbox_id is not None:
                self.sent[delivery.outbox_id] += 1
            at = (delivery.match_id, delivery.version)
            if delivery.kind == "board":
                self.told.add(at)
            elif delivery.kind == "hand" and delivery.to is not None:
                self.hands.setdefault(at, set()).add(delivery.to)
            self.check_secrecy(delivery)
        self.run(self.service.delivered(deliveries))

    def check_secrecy(self, delivery: Delivery) -> None:
        info = self.infos.get(delivery.match_id)
        if delivery.private:
            if delivery.kind == "hand":
                assert info is not None and info.seats is not None
                assert delivery.view is not None
                seat = delivery.view["seat"]
                assert info.seats[seat].user_id == delivery.to, "a hand went to someone else"
            return
        assert delivery.to is None
        if delivery.view is not None:
            assert delivery.view["seat"] is None and delivery.view["hand"] == [], (
                "a public delivery holds a hand"
            )
            assert delivery.view["legal_moves"] == []

    def changed(self, info: MatchInfo, deliveries: list[Delivery], *, moved: bool) -> None:
        self.infos[info.id] = info
        if moved:
            self.committed(info)
        self.deliver(deliveries)

    def committed(self, info: MatchInfo) -> None:
        self.moved.add((info.id, info.version))
        if info.status == "active":
            self.playing.add((info.id, info.version))

    # -- rules ------------------------------------------------------------------------------
    @initialize()
    def nothing_unsent_at_first(self) -> None:
        assert self.run(self.service.unsent()) == []

    @precondition(lambda self: len(self.infos) < MAX_MATCHES)
    @rule(
        target=matches,
        game=st.sampled_from(games.names()),
        days=st.sampled_from([None, 1, 3]),
    )
    def start(self, game: str, days: int | None) -> int:
        info, deliveries = self.run(
            self.service.challenge(
                ALICE, BOB, game, guild_id=GUILD, channel_id=CHANNEL, days_per_move=days
            )
        )
        self.changed(info, deliveries, moved=False)
        info, deliveries = self.run(self.service.accept(info.id, BOB))
        self.changed(info, deliveries, moved=False)
        return info.id

    def mover(self, match_id: int) -> int | None:
        info = self.infos[match_id]
        return info.to_move if info.status == "active" else None

    @rule(match_id=matches, pick=st.integers(0, 1_000))
    def move(self, match_id: int, pick: int) -> None:
        self.play(match_id, pick, deliver=True)

    def play(self, match_id: int, pick: int, *, deliver: bool) -> None:
        mover = self.mover(match_id)
        if mover is None:
            return
        legal = self.run(self.service.legal_moves(match_id, mover))
        try:
            info, deliveries = self.run(
                self.service.move(match_id, mover, legal[pick % len(legal)])
            )
        except MatchOver as over:  # too late: lost on time then and there
            self.infos[match_id] = self.run(self.service.get(match_id))
            deliveries, info = over.deliveries, self.infos[match_id]
            assert info.status == "finished"
            if deliver:
                self.deliver(deliveries)
            else:
                self.lost += deliveries
            return
        self.infos[match_id] = info
        self.committed(info)
        if deliver:
            self.deliver(deliveries)
        else:
            self.lost += deliveries

    @rule(match_id=matches)
    def out_of_turn_and_strangers(self, match_id: int) -> None:
        """The player not to move, and someone not in the match: refused, nothing written."""
        info = self.infos[match_id]
        mover = self.mover(match_id)
        assert info.seats is not None
        others = [p.user_id for p in info.seats if p.user_id != mover] + [CAROL.user_id]
        for user_id in others:
            try:
                self.run(self.service.move(match_id, user_id, "x"))
            except (NotYourTurn, NotAPlayer, MatchOver) as refused:
                if refused.deliveries:  # past the deadline: the match is lost on time
                    self.infos[match_id] = self.run(self.service.get(match_id))
                    self.deliver(refused.deliveries)
            else:
                raise AssertionError("a move out of turn was accepted")
        assert self.run(self.service.get(match_id)).version == info.version

    @rule(match_id=matches, pick=st.integers(0, 1_000))
    def double_press(self, match_id: int, pick: int) -> None:
        """One button pressed twice at once: the move is applied once."""
        mover = self.mover(match_id)
        if mover is None:
            return
        info = self.infos[match_id]
        legal = self.run(self.service.legal_moves(match_id, mover))
        move = legal[pick % len(legal)]

        async def both() -> list[Any]:
            press = self.service.move(match_id, mover, move, expected_version=info.version)
            again = self.service.move(match_id, mover, move, expected_version=info.version)
            return await asyncio.gather(press, again, return_exceptions=True)

        outcomes = self.run(both())
        done = [o for o in outcomes if not isinstance(o, BaseException)]
        refused = [o for o in outcomes if isinstance(o, BaseException)]
        for error in refused:
            assert isinstance(error, ServiceError), repr(error)
            if isinstance(error, MatchOver) and error.deliveries:  # lost on time
                self.infos[match_id] = self.run(self.service.get(match_id))
                self.deliver(error.deliveries)
        assert len(done) <= 1
        for later in refused:
            assert isinstance(later, (Conflict, NotYourTurn, MatchOver)), repr(later)
        if done:
            moved, deliveries = done[0]
            self.changed(moved, deliveries, moved=True)
            assert moved.version == info.version + 1

    @rule(hours=st.sampled_from([1, 13, 30, 80]))
    def clock_pass(self, hours: int) -> None:
        self.clock.advance(hours=hours)
        deliveries = self.run(self.service.check_clocks())
        for delivery in deliveries:
            self.infos[delivery.match_id] = self.run(self.service.get(delivery.match_id))
        self.deliver(deliveries)

    @rule()
    def restart(self) -> None:
        """A new service on the same database; what an earlier one left unsent goes now."""
        self.run(self.service.close())
        self.service = self.run(MatchService.open(self.path, now=self.clock))
        unsent = self.run(self.service.unsent())
        assert sorted(d.outbox_id or 0 for d in unsent) == sorted(
            d.outbox_id or 0 for d in self.lost
        ), "the outbox lost or invented a message"
        self.lost = []
        self.deliver(unsent)

    @rule(match_id=matches, pick=st.integers(0, 1_000))
    def crash_after_commit(self, match_id: int, pick: int) -> None:
        """A move committed, then the process dies before sending what it owes."""
        self.play(match_id, pick, deliver=False)
        self.restart()

    # -- invariants -------------------------------------------------------------------------
    @invariant()
    def each_message_sent_once_and_each_move_told(self) -> None:
        assert all(times == 1 for times in self.sent.values()), "a message was sent twice"
        if not self.lost:
            assert self.moved <= self.told, "a committed move was never announced"
            for match_id, version in self.playing:
                seats = self.infos[match_id].seats
                assert seats is not None
                assert self.hands.get((match_id, version)) == {p.user_id for p in seats}, (
                    "a player was not sent their hand after a move"
                )
            conn = sqlite3.connect(self.path)
            try:
                unsent = conn.execute("SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL")
                assert unsent.fetchone()[0] == 0
            finally:
                conn.close()

    @invariant()
    def logs_replay_and_results_are_single(self) -> None:
        for match_id in self.infos:
            assert self.run(self.service.verify(match_id)), f"match #{match_id} does not replay"
        conn = sqlite3.connect(self.path)
        try:
            results = dict(conn.execute("SELECT match_id, COUNT(*) FROM results GROUP BY match_id"))
            finished = {
                row[0] for row in conn.execute("SELECT id FROM matches WHERE status = 'finished'")
            }
        finally:
            conn.close()
        assert set(results) == finished
        assert all(count == 1 for count in results.values())


ServiceMachine.TestCase.settings = settings(
    max_examples=200 if SOAK else 4,
    stateful_step_count=60 if SOAK else 12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    derandomize=not SOAK,
)
TestServiceMachine = ServiceMachine.TestCase
