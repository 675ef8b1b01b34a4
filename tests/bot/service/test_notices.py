"""What a challenge's life says, and to whom: the one challenged is called, the start is
followed by the table, a reminder goes privately to the player to move."""

from __future__ import annotations

from dataclasses import replace

from bot.service import MatchService, notices
from games.words import ENGLISH
from tests.bot.conftest import ALICE, BOB, start_match


async def test_a_challenge_calls_whom_it_names(service: MatchService) -> None:
    info = await start_match(service)
    row, people = await service.store.peek_with_people(info.id)
    challenge = replace(row, status="challenge", seat_ids=None, state=None)
    [named] = notices.challenged(challenge, people, "en")
    assert named.kind == "notice" and named.to is None and named.mention == BOB.user_id
    assert "Alice challenges Bob to " in named.text and "press Accept or Decline" in named.text
    [anyone] = notices.challenged(replace(challenge, opponent_id=None), people, "en")
    assert anyone.mention is None and "offers a game of" in anyone.text
    assert notices.terms(row.game, {}, 3, ENGLISH) == "Le 5 As (3 days per move)"
    assert notices.terms(row.game, {}, None, ENGLISH) == "Le 5 As (no clock)"


async def test_a_start_is_told_then_the_table_follows(service: MatchService) -> None:
    info = await start_match(service)
    row, people = await service.store.peek_with_people(info.id)
    said = notices.accepted(row, people, 0.0, "en")
    assert [d.kind for d in said] == ["notice", "board", "hand", "hand"]
    assert said[0].mention == ALICE.user_id and said[0].text.startswith("Bob accepts: ")
    assert {d.to for d in said[2:]} == {ALICE.user_id, BOB.user_id}


async def test_a_reminder_goes_to_the_player_to_move_alone(service: MatchService) -> None:
    info = await start_match(service, days=1)
    row, people = await service.store.peek_with_people(info.id)
    assert row.state is not None and row.state.to_move is not None and row.deadline
    seat = row.state.to_move
    [dm] = notices.reminder(row, people, seat, row.deadline - 3600)
    assert row.seat_ids is not None and dm.kind == "dm" and dm.to == row.seat_ids[seat]
    assert dm.text.startswith("Reminder: it is your turn in ") and "1 hour" in dm.text
