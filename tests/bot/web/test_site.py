"""The site over HTTP: pages, bad input, secrecy of live matches, caching, rate limit."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

import games
from bench.web import GUILDS
from bot.service import queries
from bot.service.replays import Hidden, Replays
from bot.service.settings import set_web
from bot.web.app import RateLimiter, create_app
from games import notation
from tests.bot.web.conftest import World


async def text(client: TestClient, path: str, status: int = 200) -> str:
    response = await client.get(path)
    body = await response.text()
    assert response.status == status, (path, body[:300])
    return body


async def test_every_page_answers(client: TestClient, world: World) -> None:
    player = (await world.service.database.fetchone("SELECT seat0_id FROM results"))[0]
    for path in (
        "/",
        *(f"/games/{name}" for name in games.names()),
        f"/servers/{world.guild_on}",
        f"/servers/{world.guild_on}/piquet",
        f"/players/{player}",
        f"/matches/{world.finished[0]}",
        f"/matches/{world.finished[1]}?ply=0",
        f"/matches/{world.live}",
    ):
        page = await text(client, path)
        assert "<title>" in page and "Traceback" not in page


BAD_PATHS = (
    "/games/chess",
    "/games/piquet?page=0",
    "/games/piquet?page=2",
    "/games/piquet?page=99999999999999999999",
    "/games/piquet?page=two",
    "/players/0",
    "/players/abc",
    "/players/99999999999999999999999",
    "/players/123",
    "/matches/-1",
    "/matches/x1",
    "/matches/999999",
    "/matches/1?ply=9999",
    "/matches/1?ply=-1",
    "/matches/1/frames/999/table.png",
    "/matches/1/frames/0/hand2.png",
    "/matches/1/frames/a/table.png",
    "/servers/123",
    "/servers/abc/piquet",
    "/nowhere",
)


async def test_bad_input_is_a_plain_404(client: TestClient) -> None:
    # One test over every path: the database of matches is built once, not twenty times.
    for path in BAD_PATHS:
        page = await text(client, path, 404)
        assert "There is no such page here." in page, path
        assert "Traceback" not in page


async def test_a_server_shows_nothing_until_it_turns_its_pages_on(
    client: TestClient, world: World
) -> None:
    assert "There is no such page" in await text(client, f"/servers/{world.guild_off}", 404)
    await set_web(world.service.database, world.guild_off, True)
    assert "leaderboards" in await text(client, f"/servers/{world.guild_off}")
    await set_web(world.service.database, world.guild_off, False)
    await text(client, f"/servers/{world.guild_off}/piquet", 404)


async def test_leaderboard_lists_the_database_in_order(client: TestClient, world: World) -> None:
    rows = await world.service.database.fetchall(
        "SELECT user_id FROM ratings WHERE game = 'ecarte' AND scope = 0"
        " ORDER BY rating DESC, games DESC, user_id"
    )
    page = await text(client, "/games/ecarte")
    assert [int(u) for u in re.findall(r'data-user="(\d+)"', page)] == [r[0] for r in rows]


async def test_live_match_shows_no_hand_and_no_moves(client: TestClient, world: World) -> None:
    match = await queries.match(world.service.database, world.live)
    assert match is not None and match.status == "active"
    state = games.get(match.game).from_json(match.state or "")
    page = await text(client, f"/matches/{world.live}")
    hands = [*state.view(0)["hand"], *state.view(1)["hand"]]
    assert hands
    for card in hands:
        assert not re.search(rf"\b{card}\b", page), card
    assert "hand0.png" not in page and "export.tpn" not in page
    # Nor can the hands' pictures or the move log be had by asking for them.
    await text(client, f"/matches/{world.live}/frames/0/hand0.png", 404)
    await text(client, f"/matches/{world.live}/frames/{match.version}/hand1.png", 404)
    await text(client, f"/matches/{world.live}/export.tpn", 404)
    await text(client, f"/matches/{world.live}/plies/0.json", 404)
    await text(client, f"/matches/{world.live}/frames/{match.version + 1}/table.png", 404)
    table = await client.get(f"/matches/{world.live}/frames/{match.version}/table.png")
    assert table.status == 200 and (await table.read())[:4] == b"\x89PNG"


async def test_replays_refuse_live_hands_even_when_asked_directly(world: World) -> None:
    replays = Replays(world.service.database)
    match = await queries.match(world.service.database, world.live)
    assert match is not None
    with pytest.raises(Hidden):
        await replays.lines(match)
    with pytest.raises(Hidden):
        await replays.frame(match, 0, "hand0")


async def test_a_finished_match_replays_with_both_hands(client: TestClient, world: World) -> None:
    match = await queries.match(world.service.database, world.finished[2])
    assert match is not None
    state = games.get(match.game).new_match(seed=match.seed or 0, options=match.options)
    page = await text(client, f"/matches/{match.id}?ply=0")
    first = games.get(match.game).title
    assert first in page
    said = games.get(match.game).options_text(match.options, seats=match.names)
    assert said and f"Options: {', '.join(said)}." in page  # as players say them, not as typed
    assert not any(f"{name}=" in page for name in match.options)
    hand = " ".join(f"{c[:-1]}{'♠♥♦♣'['SHDC'.index(c[-1])]}" for c in state.view(0)["hand"])
    assert hand in page  # seat 0's hand at the deal, in the picture's alt text
    position = await (await client.get(f"/matches/{match.id}/plies/0.json")).json()
    assert position == {
        "hands": [hand, position["hands"][1]],
        "scores": [0, 0],
        "said": "scores 0 – 0",
    }
    picture = await client.get(f"/matches/{match.id}/frames/0/hand0.png")
    assert picture.status == 200
    assert picture.headers["Cache-Control"] == "no-cache"  # it stops being public with its match
    again = await client.get(
        f"/matches/{match.id}/frames/0/hand0.png",
        headers={"If-None-Match": picture.headers["ETag"]},
    )
    assert again.status == 304  # asking again is cheap while the match stays public


async def test_the_export_replays_through_the_engine(client: TestClient, world: World) -> None:
    for match_id in world.finished[:4]:
        response = await client.get(f"/matches/{match_id}/export.tpn")
        assert response.status == 200
        assert "attachment" in response.headers["Content-Disposition"]
        record = notation.read(await response.text())
        found = notation.replay(record)
        assert found.ok, found.error
        assert found.state.result is not None
        stored = await world.service.database.fetchone(
            "SELECT version FROM matches WHERE id = ?", (match_id,)
        )
        assert found.plies == stored[0]


async def test_headers_cache_and_keep_everything_local(client: TestClient, world: World) -> None:
    response = await client.get("/games/piquet")
    assert response.headers["Cache-Control"] == "no-cache"  # a server may turn its pages off
    assert "default-src 'none'" in response.headers["Content-Security-Policy"]
    page = await response.text()
    assert not re.search(r'(src|href)="(https?:)?//', page)  # nothing from elsewhere
    static = re.search(r'href="(/static/site\.css\?v=\w+)"', page)
    assert static is not None
    css = await client.get(static[1])
    assert css.status == 200 and "immutable" in css.headers["Cache-Control"]
    live = await client.get(f"/matches/{world.live}")
    assert live.headers["Cache-Control"] == "no-cache"


async def test_rate_limit_per_client(world: World) -> None:
    app = create_app(world.service.database, rate=1.0, burst=3)
    async with TestClient(TestServer(app)) as client:
        statuses = [(await client.get("/games/piquet")).status for _ in range(5)]
        assert statuses[:3] == [200, 200, 200] and statuses[3:] == [429, 429]
        response = await client.get("/games/piquet")
        assert int(response.headers["Retry-After"]) >= 1
        assert (await client.get("/static/site.css")).status == 200  # files are not counted


async def test_behind_a_proxy_each_forwarded_client_has_its_own_limit(world: World) -> None:
    app = create_app(world.service.database, rate=1.0, burst=1, forwarded=True)
    async with TestClient(TestServer(app)) as client:
        one = {"X-Forwarded-For": "203.0.113.1, 10.0.0.1"}
        two = {"X-Forwarded-For": "203.0.113.2"}
        assert (await client.get("/games/piquet", headers=one)).status == 200
        assert (await client.get("/games/piquet", headers=one)).status == 429
        assert (await client.get("/games/piquet", headers=two)).status == 200


def test_rate_limiter_refills() -> None:
    now = [0.0]
    limiter = RateLimiter(2.0, 2, clock=lambda: now[0])
    assert limiter.allow("a") == 0 and limiter.allow("a") == 0
    assert limiter.allow("a") > 0
    assert limiter.allow("b") == 0  # per client
    now[0] += 0.5
    assert limiter.allow("a") == 0


async def test_rating_history_follows_every_rated_match(world: World) -> None:
    rows = await world.service.database.fetchall(
        "SELECT user_id, game, MAX(games) AS n, COUNT(*) AS c FROM rating_history"
        " WHERE scope = 0 GROUP BY user_id, game"
    )
    assert rows
    for row in rows:
        assert row["n"] == row["c"]  # one point per rated match
    assert GUILDS


async def test_a_profile_counts_matches_against_the_computer_as_unrated(
    client: TestClient, world: World
) -> None:
    from bot.service import PlayerRef
    from bot.service.computer import computer_player

    newcomer = PlayerRef(777_000_001, "Newcomer")
    computer = computer_player()
    for _ in range(2):
        info, _ = await world.service.challenge(
            newcomer, computer, "ecarte", guild_id=world.guild_on, channel_id=1, rated=False
        )
        await world.service.accept(info.id, computer)
        await world.service.resign(info.id, newcomer.user_id)
    page = await text(client, f"/players/{newcomer.user_id}")
    assert "No rated match yet." in page  # no rating: the computer is not rated against
    section = page.split("Unrated matches (against the computer)", 1)[1].split("</table>")[0]
    cells = re.findall(r'<td class="num">([^<]*)</td>', section)
    assert "Écarté" in section and cells == ["2", "0", "2", "0"]  # played, won, lost, drawn
    rated = await queries.match(world.service.database, world.finished[0])
    assert rated is not None and rated.seat_ids is not None
    assert await queries.unrated(world.service.database, rated.seat_ids[0]) == []
    # The same matches on a server whose pages are off are nobody's business on the web.
    hidden = PlayerRef(777_000_002, "Hidden")
    info, _ = await world.service.challenge(
        hidden, computer, "ecarte", guild_id=world.guild_off, channel_id=1, rated=False
    )
    await world.service.accept(info.id, computer)
    await world.service.resign(info.id, hidden.user_id)
    assert await queries.unrated(world.service.database, hidden.user_id) == []


async def test_a_piquet_match_says_the_partie_as_settled_and_le_5_as_its_rounds(
    client: TestClient, world: World
) -> None:
    by_game: dict[str, queries.Match] = {}
    for match_id in world.finished:
        match = await queries.match(world.service.database, match_id)
        assert match is not None
        by_game.setdefault(match.game, match)
    piquet = by_game["piquet"]
    result = piquet.result or {}
    page = await text(client, f"/matches/{piquet.id}")
    assert result.get("settlement")  # the populated partie was played to its end
    assert f"{result['settlement']} in all." in page.replace(",", "")
    cinq = by_game["cinq-as"]
    page = await text(client, f"/matches/{cinq.id}")
    rounds = (cinq.result or {}).get("rounds") or []
    first, second = cinq.names
    assert rounds and f"Rounds ({first} – {second}):" in page
    scores = (cinq.result or {})["scores"]
    shown = f"Final scores: {first} {scores[0]}, {second} {scores[1]}.".replace("-", "−")
    assert shown in page.replace("&#8722;", "−")


async def test_the_home_page_folds_games_without_a_rated_match(tmp_path: Path) -> None:
    from bot.service import MatchService

    service = await MatchService.open(tmp_path / "empty.db")
    client = TestClient(TestServer(create_app(service.database, rate=None)))
    await client.start_server()
    try:
        page = await text(client, "/")
        assert "<section>" not in page  # no empty section per game
        folded = page.split("No rated match yet: ", 1)[1].split("</p>")[0]
        assert all(games.get(name).title in folded for name in games.names())
    finally:
        await client.close()
        await service.close()


async def test_the_privacy_page_in_each_language_linked_from_every_page(
    client: TestClient, world: World
) -> None:
    heads = {"en": "What Tapis keeps", "fr": "Ce que Tapis garde", "sv": "Vad Tapis sparar"}
    for lang, head in heads.items():
        page = await text(client, f"/privacy?lang={lang}")
        assert head in page and "/tapis privacy" in page
    for path in ("/", "/games/piquet", f"/matches/{world.finished[0]}", "/no-such-page"):
        response = await client.get(path)
        assert 'href="/privacy' in await response.text(), path


async def test_an_operator_puts_their_own_privacy_policy(
    world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "policy.html").write_text("<p>Our own words.</p>", encoding="utf-8")
    (tmp_path / "policy.fr.html").write_text("<p>Nos propres mots.</p>", encoding="utf-8")
    monkeypatch.setenv("TAPIS_PRIVACY_FILE", str(tmp_path / "policy.html"))
    client = TestClient(TestServer(create_app(world.service.database, rate=None)))
    await client.start_server()
    try:
        english = await text(client, "/privacy")
        assert "<p>Our own words.</p>" in english and "What Tapis keeps" not in english
        assert "<p>Nos propres mots.</p>" in await text(client, "/privacy?lang=fr")
        assert "<p>Our own words.</p>" in await text(client, "/privacy?lang=sv")
    finally:
        await client.close()
