"""A challenge's ``hints`` term through the service: refused where a result measures a
player's own play, kept with the match (its card, its board, its rematch say so), and a hand
marked for a Hint button exactly where hints may be asked."""

from __future__ import annotations

import pytest

from bot.service import MatchService, Refused
from bot.service.computer import computer_player
from bot.service.values import Delivery
from tests.bot.conftest import ALICE, BOB, CHANNEL, GUILD

HINTS = "Hints allowed"


def of_kind(deliveries: list[Delivery], kind: str) -> list[Delivery]:
    return [d for d in deliveries if d.kind == kind]


async def test_hints_are_refused_with_a_rated_or_duplicate_challenge(
    service: MatchService,
) -> None:
    with pytest.raises(Refused, match="rated match") as rated:
        await service.challenge(
            ALICE, BOB, "ecarte", guild_id=GUILD, channel_id=CHANNEL, hints=True
        )
    assert "must be unrated" in rated.value.say()
    with pytest.raises(Refused, match="duplicate match"):
        await service.challenge(
            ALICE, BOB, "ecarte", guild_id=GUILD, channel_id=CHANNEL, rated=False,
            duplicate=True, hints=True,
        )  # fmt: skip
    assert await service.matches_of(ALICE.user_id, active_only=False) == []


async def test_a_challenge_with_hints_keeps_them_from_its_card_to_its_rematch(
    service: MatchService,
) -> None:
    info, said = await service.challenge(
        ALICE, BOB, "ecarte", guild_id=GUILD, channel_id=CHANNEL, rated=False, hints=True
    )
    assert info.hints and await service.coaching.hints_allowed(info.id)
    (card,) = of_kind(said, "notice")
    assert HINTS in card.text and "not rated" in card.text
    info, said = await service.accept(info.id, BOB)
    (board,) = of_kind(said, "board")
    assert HINTS in board.text
    hands = of_kind(said, "hand")
    assert len(hands) == 2 and all(hand.hints for hand in hands)  # both may ask
    assert HINTS in (await service.board_delivery(info.id)).text  # read again, still said
    assert await service.coaching.refusal(await service.store.peek(info.id)) is None
    info, _ = await service.resign(info.id, ALICE.user_id)
    again, said = await service.rematch(info.id, BOB)
    assert again.hints and HINTS in of_kind(said, "notice")[0].text


async def test_only_hands_where_hints_may_be_asked_offer_one(service: MatchService) -> None:
    rated, _ = await service.challenge(ALICE, BOB, "ecarte", guild_id=GUILD, channel_id=CHANNEL)
    rated, said = await service.accept(rated.id, BOB)
    assert not rated.hints and not any(d.hints for d in said)
    assert not any(HINTS in d.text for d in of_kind(said, "board"))
    computer = computer_player("easy")
    played, _ = await service.challenge(
        ALICE, computer, "ecarte", guild_id=GUILD, channel_id=CHANNEL, rated=False
    )
    played, said = await service.accept(played.id, computer)
    (mine,) = [d for d in of_kind(said, "hand") if d.to == ALICE.user_id]
    assert mine.hints  # against the computer, hints are allowed without the term...
    assert not any(HINTS in d.text for d in of_kind(said, "board"))  # ...and not announced
