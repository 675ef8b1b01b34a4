"""What each delivery is to the courier, on its own: a board that stands for the boards it
replaced tells their moves once, in order, within Discord's length; a turn's urgency and
whether a hand can wait for its player's turn."""

from __future__ import annotations

import pytest

from bot import i18n
from bot.discord.queue import BOARD, NOTICE, REMINDER, TURN
from bot.discord.triage import board_text, nonce, priority, waits_for_turn
from bot.service import Delivery


def _board(version: int, *news: str, tail: str = "Score: 0 – 0.") -> Delivery:
    text = "\n".join(["**Le 5 As #7**", *news, tail])
    return Delivery("board", 7, None, text, version=version, news=news)


def test_a_board_names_the_moves_of_the_boards_it_replaced_once_in_order() -> None:
    w = i18n.words("en")
    first, second = _board(3, "Alice: plays 3♠."), _board(4, "Alice: draws.")
    last = _board(5, "Bob: plays 5♥.", "Round 1: Alice 12, Bob 4.", tail="Bob to play.")
    text = board_text(last, [first, second, _board(4, "Alice: draws.")], w)
    assert text.split("\n") == [
        "**Le 5 As #7**",
        "Alice: plays 3♠.",
        "Alice: draws.",
        "Bob: plays 5♥.",
        "Round 1: Alice 12, Bob 4.",
        "Bob to play.",
    ]
    assert board_text(last, [], w) == last.text  # nothing replaced: as the service made it


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "… and 1 earlier move"),
        ("fr", "… et 1 coup précédent"),
        ("sv", "… och 1 tidigare drag"),
    ],
)
def test_a_board_keeps_the_newest_moves_within_discords_length(lang: str, said: str) -> None:
    w = i18n.words(lang)
    earlier = [_board(v, f"Alice: move number {v} " + "·" * 80 + ".") for v in range(1, 60)]
    last = _board(60, "Bob: the last move.")
    text = board_text(last, earlier, w, room=1000)
    lines = text.split("\n")
    assert len(text) <= 1000
    assert lines[-2:] == ["Bob: the last move.", "Score: 0 – 0."]
    kept = [line for line in lines if line.startswith("Alice: move number")]
    numbers = [int(line.split()[3]) for line in kept]
    assert numbers == list(range(60 - len(numbers), 60)) and len(numbers) > 5  # the newest
    left_out = 59 - len(numbers)
    assert lines[1] == w.ngettext(
        "… and {count} earlier move", "… and {count} earlier moves", left_out
    ).format(count=left_out)
    one = board_text(last, earlier[-2:], w, room=len(last.text) + len(earlier[-1].news[0]) + 40)
    assert one.split("\n")[1] == said


def test_urgency_turns_first_then_notices_then_boards_then_reminders() -> None:
    hand = Delivery("hand", 7, 1, "", status="active")
    reminder = Delivery("dm", 7, 1, "", status="active")
    ending = Delivery("dm", 7, 1, "", status="finished")
    notice = Delivery("notice", 7, None, "", status="active")
    board = Delivery("board", 7, None, "", status="active")
    assert [priority(d) for d in (hand, ending, notice, board, reminder)] == [
        TURN, TURN, NOTICE, BOARD, REMINDER
    ]  # fmt: skip


def test_a_hand_waits_only_for_a_player_not_to_move_in_a_match_in_play() -> None:
    def hand(to_move: int, seat: int, status: str = "active") -> Delivery:
        view = {"to_move": to_move, "seat": seat}
        return Delivery("hand", 7, 2, "", status=status, view=view)

    assert waits_for_turn(hand(to_move=0, seat=1), acting=1)
    assert not waits_for_turn(hand(to_move=1, seat=1), acting=1)  # their turn
    assert not waits_for_turn(hand(to_move=0, seat=1), acting=2)  # the one who acted
    assert not waits_for_turn(hand(to_move=0, seat=1, status="finished"), acting=1)


def test_a_nonce_comes_only_from_the_outbox_and_names_its_row() -> None:
    assert nonce(Delivery("board", 7, None, "", outbox_id=41)) == "ob41"
    assert nonce(Delivery("board", 7, None, "", outbox_id=41), "b") == "ob41b"
    assert nonce(Delivery("hand", 7, 2, "")) is None
