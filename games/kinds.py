"""The plain kinds every room of the rules speaks of: a seat at the table (0 or 1) and a
JSON object (a view, a stored state). They live apart so that the contract, the deals and
the state's fields can all name them without naming each other."""

from __future__ import annotations

from typing import Any

Json = dict[str, Any]
Seat = int
