"""How a match's end is told: the result and the final board in public, and privately to
each player what the other did, or, with no public place left, to both."""

from __future__ import annotations

from dataclasses import replace

from bot.service import MatchService, endings
from games.words import ENGLISH
from tests.bot.conftest import ALICE, BOB, start_match


async def test_a_resignation_is_told_in_public_and_to_the_winner(service: MatchService) -> None:
    info = await start_match(service)
    row, people = await service.store.peek_with_people(info.id)
    assert row.seat_ids is not None and set(row.seat_ids) == {ALICE.user_id, BOB.user_id}
    over = replace(
        row, status="finished", result={"winner": 1, "scores": [3, 10], "how": "resignation"}
    )
    said = endings.resigned(over, people, 0, [], 0.0, "en")
    assert [d.kind for d in said] == ["notice", "board", "dm"]
    loser, winner = (people[uid].name for uid in row.seat_ids)
    assert f"{loser} resigned at 3 – 10: {winner} wins." in said[0].text
    assert said[2].to == row.seat_ids[1] and said[2].text.startswith(f"{loser} resigned ")


async def test_time_out_in_a_conversation_tells_the_winner_privately(
    service: MatchService,
) -> None:
    info = await start_match(service)
    row, people = await service.store.peek_with_people(info.id)
    assert row.seat_ids is not None
    over = replace(row, status="finished", result={"winner": 0, "scores": [5, 2], "how": "time"})
    assert [d.to for d in endings.timed_out(over, people, 1, [], 0.0, "en") if d.kind == "dm"] == [
        row.seat_ids[1]
    ]
    talked = endings.timed_out(replace(over, talk=True), people, 1, [], 0.0, "en")
    assert [d.to for d in talked if d.kind == "dm"] == [row.seat_ids[1], row.seat_ids[0]]
    assert talked[-1].text.endswith(": you win.")


async def test_a_match_called_off_is_not_rated(service: MatchService) -> None:
    info = await start_match(service)
    row, people = await service.store.peek_with_people(info.id)
    aborted = endings.aborted(replace(row, status="aborted"), people, 0, "en")
    assert [d.kind for d in aborted] == ["notice", "dm"]
    assert all(d.text.endswith("it is not rated.") for d in aborted)
    gone = endings.left_server(replace(row, status="aborted"), people, "en")
    assert [d.kind for d in gone] == ["dm", "dm"] and {d.to for d in gone} == set(
        row.seat_ids or ()
    )
    assert endings.rating_changes(row, ("Alice", "Bob"), [], ENGLISH) == ""
