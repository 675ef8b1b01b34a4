"""Deliveries as outbox rows: their text, made before a change's transaction, and their
insert in it, so that a change and what it owes the players are committed together."""

from __future__ import annotations

import orjson

from bot.service.values import Delivery
from bot.storage.sql import Connection


def outbox_text(delivery: Delivery) -> str:
    """An outbox row's text: ``delivery.to_json()`` as JSON, written by orjson straight from
    the dataclass, with no copy of its views made first. Rows are only read back, never
    compared, so keys are not sorted; keys that are not strings are written as strings, as
    the standard encoder writes them."""
    if delivery.owed is not None:  # a hand not worded yet: what to word it from
        return orjson.dumps(delivery.owed_json(), option=orjson.OPT_NON_STR_KEYS).decode()
    return orjson.dumps(delivery, option=orjson.OPT_NON_STR_KEYS).decode()


# A delivery ready for the outbox: its JSON made before the transaction, so that the
# writer (the one thread every change waits for) only inserts text.
Encoded = tuple[int, str]


def encode(deliveries: list[Delivery]) -> list[Encoded]:
    """The outbox rows of ``deliveries``: made off the writer's thread."""
    return [(delivery.match_id, outbox_text(delivery)) for delivery in deliveries]


def post(conn: Connection, rows: list[Encoded], now: float) -> list[int]:
    """In a plan: store encoded deliveries in the outbox; their row ids, in order."""
    ids = []
    for match_id, text in rows:
        cursor = conn.execute(
            "INSERT INTO outbox (match_id, delivery, created_at) VALUES (?, ?, ?)",
            (match_id, text, now),
        )
        assert cursor.lastrowid is not None
        ids.append(cursor.lastrowid)
    return ids


def posted(deliveries: list[Delivery], ids: list[int]) -> list[Delivery]:
    """After the commit: each delivery with its outbox row id."""
    return [delivery.posted(outbox_id) for delivery, outbox_id in zip(deliveries, ids, strict=True)]
