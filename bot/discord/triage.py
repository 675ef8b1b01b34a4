"""What each delivery is to the courier: how urgent, whether it can wait for its player's
turn, its nonce, and a board's text once it stands for the boards it replaced."""

from __future__ import annotations

from collections.abc import Sequence

from bot.discord.queue import BOARD, NOTICE, REMINDER, TURN
from bot.discord.transport import LIMIT
from bot.service import Delivery
from games.words import Words


def nonce(delivery: Delivery, suffix: str = "") -> str | None:
    """The message's nonce, from its outbox row: Discord keeps one message per nonce for a
    few minutes (``enforce_nonce``), so a resend after a crash between sending and marking
    is not shown twice. None for what is not from the outbox (a hand asked for)."""
    return None if delivery.outbox_id is None else f"ob{delivery.outbox_id}{suffix}"


def priority(delivery: Delivery) -> int:
    """How urgent a delivery is to the people waiting on it."""
    if delivery.kind == "hand":
        return TURN
    if delivery.kind == "dm":
        # A DM about a match still in play is a clock reminder; the others tell its end.
        return REMINDER if delivery.status == "active" else TURN
    return BOARD if delivery.kind == "board" else NOTICE


def mid_turn(delivery: Delivery) -> bool:
    """A board made while the player who just moved is still to move."""
    view = delivery.view or {}
    last = view.get("last_move")
    return (
        delivery.kind == "board"
        and delivery.status == "active"
        and isinstance(last, dict)
        and last.get("seat") is not None
        and last.get("seat") == view.get("to_move")
    )


def board_text(board: Delivery, earlier: Sequence[Delivery], w: Words, room: int = LIMIT) -> str:
    """``board``'s text naming, before its own news, the news of the ``earlier`` boards it
    replaced while they waited (oldest first): every move since the last board posted.

    A board's news is its lines after the title (``Delivery.news``); a board met twice (the
    same version) is told once. Within ``room`` characters: when the moves do not all fit,
    the newest are kept and a line says how many earlier ones are left out."""
    lines = board.text.split("\n")
    own = len(board.news)
    if not earlier or tuple(lines[1 : 1 + own]) != board.news:
        return board.text[:room]  # nothing to add, or not shaped as a board: as it is
    chapters: list[tuple[str, ...]] = []
    seen: set[int] = set()
    for one in (*earlier, board):
        if one.news and one.version not in seen:
            seen.add(one.version)
            chapters.append(one.news)
    head, tail = lines[0], lines[1 + own :]

    def left_out_line(count: int) -> str:
        said = w.ngettext("… and {count} earlier move", "… and {count} earlier moves", count)
        return said.format(count=w.number(count))

    # From the newest back, as many moves as fit with the line about the rest; the newest
    # always (its own board's text fits, as the service made it).
    size, kept = len(head) + sum(len(line) + 1 for line in tail), 0
    for chapter in reversed(chapters):
        grown = size + sum(len(line) + 1 for line in chapter)
        left_out = len(chapters) - kept - 1
        if kept and grown + (len(left_out_line(left_out)) + 1 if left_out else 0) > room:
            break
        size, kept = grown, kept + 1
    left_out = len(chapters) - kept
    said = [head] + ([left_out_line(left_out)] if left_out else [])
    said += [line for chapter in chapters[left_out:] for line in chapter]
    return "\n".join(said + tail)[:room]


def waits_for_turn(delivery: Delivery, acting: int | None) -> bool:
    """A hand for a player who is not to move, in a match still in play: nothing for them to
    do with it yet (and the one who acted gets theirs in the interaction's answer)."""
    if delivery.kind != "hand" or delivery.to == acting or delivery.status != "active":
        return False
    view = delivery.view or {}
    return view.get("to_move") is not None and view.get("to_move") != view.get("seat")


def board_words(w: Words, board: Delivery, earlier: list[Delivery], room: int) -> str:
    return board_text(board, earlier, w, room)
