"""The fake refuses what Discord refuses: one request breaking each documented limit, sent
straight to the fake's REST API, and the answer Discord would give (status, code, the
``errors`` tree naming the field)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from tests.fakediscord import FakeDiscord, limits
from tests.fakediscord.server import Json

Body = dict[str, Any]


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    server.limits = False  # rate limits apart: these tests send many requests at once
    yield server
    await server.stop()


@pytest.fixture
async def http(fake: FakeDiscord) -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {fake.token}"}) as session:
        yield session


async def _post(http: aiohttp.ClientSession, url: str, body: Any) -> tuple[int, Json]:
    async with http.post(url, json=body) as reply:
        return reply.status, (await reply.json() if reply.status != 204 else {})


def _errors_at(answer: Json, *path: str | int) -> list[str]:
    """The codes of the errors Discord's answer lists at ``path``."""
    node = answer["errors"]
    for key in path:
        node = node[str(key)]
    return [error["code"] for error in node["_errors"]]


def row(*items: Body) -> Body:
    return {"type": 1, "components": list(items)}


def button(custom_id: str, label: str = "Go") -> Body:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def select(custom_id: str, values: list[str], low: int = 1, high: int = 1) -> Body:
    return {
        "type": 3,
        "custom_id": custom_id,
        "options": [{"label": v, "value": v} for v in values],
        "min_values": low,
        "max_values": high,
    }


GOOD = {"content": "hello", "components": [row(button("a"), button("b")), row(select("c", ["x"]))]}

# Each: a message body breaking one rule, and where Discord's answer points.
BAD_MESSAGES: dict[str, tuple[Body, tuple[str | int, ...]]] = {
    "content over 2,000": ({"content": "x" * 2001}, ("content",)),
    "more than 10 embeds": ({"embeds": [{"title": "t"}] * 11}, ("embeds",)),
    "an embed title over 256": ({"embeds": [{"title": "t" * 257}]}, ("embeds", 0, "title")),
    "nonce over 25": ({"content": "x", "nonce": "n" * 26}, ("nonce",)),
    "parse users with user ids": (
        {"content": "x", "allowed_mentions": {"parse": ["users"], "users": ["1"]}},
        ("allowed_mentions",),
    ),
    "ephemeral in a channel": ({"content": "x", "flags": limits.EPHEMERAL}, ("flags",)),
    "six rows": ({"components": [row(button(f"b{i}")) for i in range(6)]}, ("components",)),
    "six buttons in a row": (
        {"components": [row(*[button(f"b{i}") for i in range(6)])]},
        ("components", 0, "components"),
    ),
    "a select beside a button": (
        {"components": [row(button("a"), select("s", ["x"]))]},
        ("components", 0, "components"),
    ),
    "an empty custom_id": (
        {"components": [row(button(""))]},
        ("components", 0, "components", 0, "custom_id"),
    ),
    "a custom_id over 100": (
        {"components": [row(button("c" * 101))]},
        ("components", 0, "components", 0, "custom_id"),
    ),
    "a custom_id twice": (
        {"components": [row(button("a")), row(button("a"))]},
        ("components", 1, "components", 0, "custom_id"),
    ),
    "a label over 80": (
        {"components": [row(button("a", "l" * 81))]},
        ("components", 0, "components", 0, "label"),
    ),
    "26 options": (
        {"components": [row(select("s", [str(i) for i in range(26)]))]},
        ("components", 0, "components", 0, "options"),
    ),
    "no option": (
        {"components": [row(select("s", []))]},
        ("components", 0, "components", 0, "options"),
    ),
    "an option value twice": (
        {"components": [row(select("s", ["QS", "QS"], 1, 2))]},
        ("components", 0, "components", 0, "options", 1, "value"),
    ),
    "more values than options": (
        {"components": [row(select("s", ["QS", "JD", "JC"], 4, 4))]},
        ("components", 0, "components", 0, "max_values"),
    ),
    "min_values over max_values": (
        {"components": [row(select("s", ["QS", "JD", "JC"], 3, 2))]},
        ("components", 0, "components", 0, "min_values"),
    ),
    "max_values of 0": (
        {"components": [row(select("s", ["QS"], 0, 0))]},
        ("components", 0, "components", 0, "max_values"),
    ),
}


@pytest.mark.parametrize("rule", list(BAD_MESSAGES))
async def test_a_message_breaking_a_rule_is_refused_with_the_field_named(
    rule: str, fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    body, path = BAD_MESSAGES[rule]
    status, answer = await _post(http, f"{fake.api_base}/channels/{fake.channel_id}/messages", body)
    assert status == 400 and answer["code"] == 50035 and answer["message"] == "Invalid Form Body"
    assert _errors_at(answer, *path), answer
    assert fake.log == [] and len(fake.refused) == 1  # nothing was posted


async def test_a_message_within_every_limit_is_posted(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    status, _ = await _post(http, f"{fake.api_base}/channels/{fake.channel_id}/messages", GOOD)
    assert status == 200 and len(fake.log) == 1 and fake.refused == []
    # Two copies of a card read alike (labels) and differ by value: accepted.
    twice = {"label": "Q♠", "value": "QS"}, {"label": "Q♠", "value": "QS.2"}
    menu = {**select("m", [], 1, 2), "options": list(twice)}
    status, _ = await _post(
        http, f"{fake.api_base}/channels/{fake.channel_id}/messages", {"components": [row(menu)]}
    )
    assert status == 200 and fake.refused == []


async def test_files_over_the_size_limit_are_refused(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    form = aiohttp.FormData()
    form.add_field("payload_json", '{"content": "big"}', content_type="application/json")
    form.add_field("files[0]", b"\0" * (limits.UPLOAD_BYTES + 1), filename="big.png")
    async with http.post(
        f"{fake.api_base}/channels/{fake.channel_id}/messages", data=form
    ) as reply:
        assert reply.status == 413 and (await reply.json())["code"] == 40005


async def test_a_channel_where_the_bot_is_no_member_answers_missing_access(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    elsewhere = fake.add_channel("ailleurs")
    fake.no_access.add(elsewhere)
    status, answer = await _post(http, f"{fake.api_base}/channels/{elsewhere}/messages", GOOD)
    assert status == 403 and answer == {"message": "Missing Access", "code": 50001}


def _interaction(fake: FakeDiscord, kind: int, data: Json | None = None) -> tuple[str, str]:
    """An interaction as if dispatched now (no client needed): its id and token."""
    user = fake.add_user("Alice")
    payload = fake._interaction(kind, user, data or {"custom_id": "a"}, fake.channel_id)
    return payload["id"], payload["token"]


def _callback_url(fake: FakeDiscord, interaction_id: str, token: str) -> str:
    return f"{fake.api_base}/interactions/{interaction_id}/{token}/callback?with_response=true"


async def test_the_first_answer_after_three_seconds_is_an_unknown_interaction(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    interaction_id, token = _interaction(fake, limits.COMMAND)
    fake.advance(limits.CALLBACK_WINDOW + 0.01)
    status, answer = await _post(http, _callback_url(fake, interaction_id, token), {"type": 5})
    assert status == 404 and answer == {"message": "Unknown interaction", "code": 10062}
    # Within the window, the same answer is taken.
    interaction_id, token = _interaction(fake, limits.COMMAND)
    fake.advance(limits.CALLBACK_WINDOW - 0.5)
    status, _ = await _post(http, _callback_url(fake, interaction_id, token), {"type": 5})
    assert status == 200


async def test_a_follow_up_after_fifteen_minutes_has_an_invalid_token(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    interaction_id, token = _interaction(fake, limits.COMMAND)
    status, _ = await _post(http, _callback_url(fake, interaction_id, token), {"type": 5})
    assert status == 200
    url = f"{fake.api_base}/webhooks/{fake.app_id}/{token}"
    fake.advance(limits.FOLLOWUP_WINDOW - 1)
    assert (await _post(http, url, {"content": "still in time"}))[0] == 200
    fake.advance(2)
    status, answer = await _post(http, url, {"content": "too late"})
    assert status == 401 and answer == {"message": "Invalid Webhook Token", "code": 50027}
    async with http.patch(f"{url}/messages/@original", json={"content": "late"}) as reply:
        assert reply.status == 401 and (await reply.json())["code"] == 50027


BAD_CALLBACKS: dict[str, tuple[int, Body, tuple[str | int, ...]]] = {
    "an update answering a command": (limits.COMMAND, {"type": 7, "data": {}}, ("type",)),
    "choices answering a command": (limits.COMMAND, {"type": 8, "data": {}}, ("type",)),
    "a message answering autocomplete": (
        limits.AUTOCOMPLETE, {"type": 4, "data": {"content": "x"}}, ("type",)
    ),
    "26 choices": (
        limits.AUTOCOMPLETE,
        {"type": 8, "data": {"choices": [{"name": str(i), "value": str(i)} for i in range(26)]}},
        ("data", "choices"),
    ),
    "a choice value over 100": (
        limits.AUTOCOMPLETE,
        {"type": 8, "data": {"choices": [{"name": "n", "value": "v" * 101}]}},
        ("data", "choices", 0, "value"),
    ),
    "a choice name over 100": (
        limits.AUTOCOMPLETE,
        {"type": 8, "data": {"choices": [{"name": "n" * 101, "value": "v"}]}},
        ("data", "choices", 0, "name"),
    ),
    "an empty choice name": (
        limits.AUTOCOMPLETE,
        {"type": 8, "data": {"choices": [{"name": "", "value": "v"}]}},
        ("data", "choices", 0, "name"),
    ),
    "an update made ephemeral": (
        limits.COMPONENT, {"type": 7, "data": {"content": "x", "flags": 64}}, ("data", "flags")
    ),
    "a reply over 2,000": (
        limits.COMMAND, {"type": 4, "data": {"content": "x" * 2001}}, ("data", "content")
    ),
}  # fmt: skip


@pytest.mark.parametrize("rule", list(BAD_CALLBACKS))
async def test_an_answer_breaking_a_rule_is_refused(
    rule: str, fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    kind, body, path = BAD_CALLBACKS[rule]
    interaction_id, token = _interaction(fake, kind)
    status, answer = await _post(http, _callback_url(fake, interaction_id, token), body)
    assert status == 400 and answer["code"] == 50035
    assert _errors_at(answer, *path), answer
    # The refused answer did not count: a good one is still taken.
    good = {"type": 8, "data": {"choices": []}} if kind == limits.AUTOCOMPLETE else {"type": 5}
    assert (await _post(http, _callback_url(fake, interaction_id, token), good))[0] == 200


async def test_an_ephemeral_reply_and_follow_up_are_allowed(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    interaction_id, token = _interaction(fake, limits.COMMAND)
    body = {"type": 4, "data": {"content": "only you", "flags": limits.EPHEMERAL}}
    assert (await _post(http, _callback_url(fake, interaction_id, token), body))[0] == 200
    url = f"{fake.api_base}/webhooks/{fake.app_id}/{token}"
    body = {"content": "you again", "flags": limits.EPHEMERAL}
    assert (await _post(http, url, body))[0] == 200
    assert fake.refused == []


async def test_a_client_cannot_pick_what_a_menu_does_not_offer(fake: FakeDiscord) -> None:
    """``choose`` acts as Discord's client: only offered values, each once, within bounds."""
    from tests.fakediscord.server import Sent

    alice = fake.add_user("Alice")
    menu = select("m", ["QS", "QS.2", "JD"], 1, 2)
    message = fake._message(fake.channel_id, {"components": [row(menu)]}, [])
    sent = Sent("message", {"components": [row(menu)]}, channel_id=fake.channel_id, message=message)
    for values, why in (
        (["QS", "QS"], "picked twice"),
        (["KS"], "not among the options"),
        (["QS", "QS.2", "JD"], "3 values picked"),
        ([], "0 values picked"),
    ):
        with pytest.raises(AssertionError, match=why):
            await fake.choose(alice, sent, "m", values)
    await fake.choose(alice, sent, "m", ["QS", "QS.2"])  # the two copies: a client can


def command(name: str = "play", **fields: Any) -> Body:
    return {"name": name, "description": "Make your move", "type": 1, **fields}


BAD_SYNCS: dict[str, tuple[list[Body], tuple[str | int, ...]]] = {
    "101 commands": ([command(f"c{i}") for i in range(101)], ()),
    "an upper-case name": ([command("Play")], (0, "name")),
    "a name with a space": ([command("my play")], (0, "name")),
    "a name over 32": ([command("p" * 33)], (0, "name")),
    "an empty description": ([command(description="")], (0, "description")),
    "a description over 100": ([command(description="d" * 101)], (0, "description")),
    "a translated description over 100": (
        [command(description_localizations={"fr": "d" * 101})],
        (0, "description_localizations", "fr"),
    ),
    "a locale Discord lacks": (
        [command(description_localizations={"fr-FR": "Jouer"})],
        (0, "description_localizations", "fr-FR"),
    ),
    "a translated name in upper case": (
        [command(name_localizations={"sv-SE": "Spela"})],
        (0, "name_localizations", "sv-SE"),
    ),
    "26 options": (
        [command(options=[{"type": 3, "name": f"o{i}", "description": "d"} for i in range(26)])],
        (0, "options"),
    ),
    "26 fixed choices": (
        [command(options=[{"type": 3, "name": "o", "description": "d",
                           "choices": [{"name": str(i), "value": str(i)} for i in range(26)]}])],
        (0, "options", 0, "choices"),
    ),
    "over 8,000 characters at the longest wordings": (
        [command(options=[{"type": 3, "name": f"o{i}", "description": "d",
                           "description_localizations": {"fr": "d" * 100, "sv-SE": "é" * 99},
                           "choices": [{"name": "n" * 90, "value": "v" * 90}] * 3}
                          for i in range(13)])],
        (0,),
    ),
}  # fmt: skip


@pytest.mark.parametrize("rule", list(BAD_SYNCS))
async def test_a_command_sync_breaking_a_rule_is_refused(
    rule: str, fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    body, path = BAD_SYNCS[rule]
    async with http.put(f"{fake.api_base}/applications/{fake.app_id}/commands", json=body) as reply:
        answer = await reply.json()
        assert reply.status == 400 and answer["code"] == 50035
    assert _errors_at(answer, *path), answer
    assert fake.commands == {}  # nothing synced


async def test_a_sync_with_contexts_translations_and_integration_types_is_taken(
    fake: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    body = [
        command(
            contexts=[0, 1, 2],
            integration_types=[0, 1],
            name_localizations={"fr": "jouer", "sv-SE": "spela"},
            description_localizations={"fr": "Jouez votre coup", "sv-SE": "Gör ditt drag"},
            options=[{"type": 3, "name": "move", "description": "The move", "autocomplete": True}],
        )
    ]
    async with http.put(f"{fake.api_base}/applications/{fake.app_id}/commands", json=body) as reply:
        assert reply.status == 200
    assert fake.command_names() == ["play"] and fake.refused == []
