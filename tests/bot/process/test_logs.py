"""Log lines: one per record, key=value or JSON, with the match they are about."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Iterator

import pytest

from bot.process import logs


@pytest.fixture
def captured() -> Iterator[tuple[io.StringIO, logging.Logger]]:
    root = logging.getLogger()
    before = (list(root.handlers), root.level)
    stream = io.StringIO()
    yield stream, logging.getLogger("tapis.test")
    root.handlers[:] = before[0]
    root.setLevel(before[1])


def test_text_lines_carry_the_match_and_stay_one_line(
    captured: tuple[io.StringIO, logging.Logger],
) -> None:
    stream, log = captured
    logs.setup("text", stream=stream)
    log.info("started")
    with logs.about_match(12):
        log.warning('two\nlines and "quotes"', extra={"user": 5})
        try:
            raise ValueError("bad")
        except ValueError:
            log.exception("failed")
    log.info("after")
    lines = stream.getvalue().splitlines()
    assert len(lines) == 4
    assert "match=" not in lines[0] and "level=info" in lines[0] and "msg=started" in lines[0]
    assert " match=12 " in lines[1] and " user=5 " in lines[1]
    assert 'msg="two\\nlines and \\"quotes\\""' in lines[1]
    assert " match=12 " in lines[2] and "exc=" in lines[2] and "ValueError: bad" in lines[2]
    assert "match=" not in lines[3]  # the block's match does not leak past it


def test_json_lines_parse_and_carry_the_match(
    captured: tuple[io.StringIO, logging.Logger],
) -> None:
    stream, log = captured
    logs.setup("json", stream=stream)
    with logs.about_match(3):
        log.error("oops")
    log.info("plain")
    first, second = (json.loads(line) for line in stream.getvalue().splitlines())
    assert first["match"] == 3 and first["level"] == "error" and first["msg"] == "oops"
    assert first["ts"].endswith("Z") and first["logger"] == "tapis.test"
    assert "match" not in second


async def test_concurrent_tasks_keep_their_own_match(
    captured: tuple[io.StringIO, logging.Logger],
) -> None:
    stream, log = captured
    logs.setup("json", stream=stream)

    async def work(match_id: int) -> None:
        logs.set_match(match_id)
        for _ in range(3):
            await asyncio.sleep(0)
            log.info("step", extra={"expect": match_id})

    await asyncio.gather(*(work(i) for i in (1, 2, 3)))
    records = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert len(records) == 9
    assert all(r["match"] == r["expect"] for r in records)
    assert logs.current_match() is None  # the tasks' settings stayed in the tasks


def test_the_format_comes_from_the_environment_and_is_checked() -> None:
    assert logs.format_from_env({}) == "text"
    assert logs.format_from_env({"TAPIS_LOG_FORMAT": " JSON "}) == "json"
    with pytest.raises(ValueError, match="text, json"):
        logs.setup("xml")


def test_an_unknown_log_format_stops_the_bot_with_a_sentence(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.discord import run

    monkeypatch.setenv("TAPIS_LOG_FORMAT", "xml")
    assert run() == 2
    assert "TAPIS_LOG_FORMAT must be one of text, json" in capsys.readouterr().err


def test_the_command_line_format_reaches_the_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    import types

    from bot import __main__ as entry

    monkeypatch.setenv("DISCORD_TOKEN", "secret")
    given: list[str | None] = []
    adapter = types.ModuleType("bot.discord")
    adapter.run = lambda log_format=None, beside=None: given.append(log_format) or 0  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bot.discord", adapter)
    assert entry.main(["--log-format", "json"]) == 0 and given == ["json"]
    assert entry.main([]) == 0 and given == ["json", None]  # None: TAPIS_LOG_FORMAT decides
