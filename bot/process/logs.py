"""Logs as one line per record, with the match each line is about.

``python -m bot`` writes ``key=value`` lines by default, easy to read and to grep::

    2026-12-02T01:05:31.123Z level=warning logger=bot.service match=12 msg="clock of …"

and JSON lines with ``--log-format json`` (or ``TAPIS_LOG_FORMAT=json``) for log collectors.
A traceback stays on its record's line (escaped), so one event is always one line.

The match a line is about comes from a context variable, set where work on a match starts (a
Discord action once it knows its match, the courier for each delivery, the clock for each
match it checks): every line logged from there on, by any module, carries ``match=<id>``
without each log call naming it. asyncio copies the context into each task, so concurrent
matches never see each other's id.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import sys
from collections.abc import Iterator
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any, Final, TextIO

FORMATS: Final = ("text", "json")
ENV: Final = "TAPIS_LOG_FORMAT"

_MATCH: ContextVar[int | None] = ContextVar("tapis_match", default=None)


def set_match(match_id: int | None) -> None:
    """From here on in this task (and the tasks it starts), lines are about ``match_id``."""
    _MATCH.set(match_id)


def current_match() -> int | None:
    return _MATCH.get()


@contextlib.contextmanager
def about_match(match_id: int | None) -> Iterator[None]:
    """Lines logged inside the block are about ``match_id``; the previous one after it."""
    token = _MATCH.set(match_id)
    try:
        yield
    finally:
        _MATCH.reset(token)


class MatchFilter(logging.Filter):
    """Stamps each record with the current match (``record.match``), unless the call gave
    one itself (``extra={"match": id}``). On the handler, so it sees every library's lines."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "match", None) is None:
            record.match = _MATCH.get()
        return True


_STANDARD: Final = frozenset(logging.LogRecord("", 0, "", 0, "", None, None).__dict__) | {
    "message",
    "asctime",
    "match",
    "taskName",
}
"""A record's own attributes; any other was given by the call (``extra=``) and is a field."""


def _fields(record: logging.LogRecord, formatter: logging.Formatter) -> dict[str, Any]:
    stamp = datetime.fromtimestamp(record.created, UTC)
    fields: dict[str, Any] = {
        "ts": stamp.strftime("%Y-%m-%dT%H:%M:%S.") + f"{stamp.microsecond // 1000:03d}Z",
        "level": record.levelname.lower(),
        "logger": record.name,
    }
    match = getattr(record, "match", None)
    if match is not None:
        fields["match"] = match
    for key, value in record.__dict__.items():
        if key not in _STANDARD and not key.startswith("_"):
            fields[key] = value
    fields["msg"] = record.getMessage()
    if record.exc_info:
        fields["exc"] = formatter.formatException(record.exc_info)
    elif record.exc_text:
        fields["exc"] = record.exc_text
    if record.stack_info:
        fields["stack"] = formatter.formatStack(record.stack_info)
    return fields


def _value(value: Any) -> str:
    """A value for a key=value line: bare when it is one plain word, else quoted and escaped
    (JSON string rules), so no value can break the line or fake another key."""
    text = str(value)
    if text and all(ch.isalnum() or ch in "-_.:/#@+" for ch in text):
        return text
    return json.dumps(text, ensure_ascii=False)


class KeyValueFormatter(logging.Formatter):
    """``ts level=… logger=… match=… msg="…" exc="…"`` on one line."""

    def format(self, record: logging.LogRecord) -> str:
        fields = _fields(record, self)
        stamp = fields.pop("ts")
        return " ".join([stamp, *(f"{key}={_value(value)}" for key, value in fields.items())])


class JsonFormatter(logging.Formatter):
    """One JSON object per line: ts, level, logger, match (when about one), msg, exc."""

    def format(self, record: logging.LogRecord) -> str:
        return json.dumps(_fields(record, self), ensure_ascii=False, default=str)


def format_from_env(environ: dict[str, str] | None = None) -> str:
    """The log format ``TAPIS_LOG_FORMAT`` asks for ("text" when unset)."""
    environ = dict(os.environ) if environ is None else environ
    return environ.get(ENV, "").strip().lower() or "text"


def setup(
    log_format: str = "text", level: int = logging.INFO, stream: TextIO | None = None
) -> None:
    """Send every record at ``level`` and above, from any logger, to ``stream`` (stderr) in
    ``log_format``; replaces handlers set before, so each line is written once."""
    if log_format not in FORMATS:
        raise ValueError(f"the log format must be one of {', '.join(FORMATS)}, not {log_format!r}")
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter() if log_format == "json" else KeyValueFormatter())
    handler.addFilter(MatchFilter())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
