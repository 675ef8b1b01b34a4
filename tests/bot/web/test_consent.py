"""The site shows only what was consented to: every route over matches and players, for a
match of a server with its pages on, of a server without, outside any server, an unknown id
and a hidden player. Only the first shows anything; every other answer is the very 404 an
unknown id gets from a site over an empty database — status, headers and bytes alike."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.service import MatchService, PlayerRef
from bot.service.privacy import HIDDEN, PUBLIC
from bot.service.settings import set_web
from bot.web.app import create_app
from tests import pg

SERVER_ON = 910_000_000_000_000_001
SERVER_OFF = 910_000_000_000_000_002
ADA = PlayerRef(920_000_000_000_000_001, "Ada")
BLAISE = PlayerRef(920_000_000_000_000_002, "Blaise")
CLARA = PlayerRef(920_000_000_000_000_003, "Clara")  # plays on the server without pages
DORA = PlayerRef(920_000_000_000_000_004, "Dora")  # plays only outside any server
HEDDA = PlayerRef(920_000_000_000_000_005, "Hedda")  # hides from the site
UNKNOWN = 930_000_000_000_000_001  # no one's id, no match's

# Every route that names a match or a player, with ``{id}`` for it.
MATCH_ROUTES = (
    "/matches/{id}",
    "/matches/{id}?ply=1",
    "/matches/{id}/frames/0/table.png",
    "/matches/{id}/frames/1/hand0.png",
    "/matches/{id}/plies/1.json",
    "/matches/{id}/export.tpn",
)
PLAYER_ROUTES = ("/players/{id}",)
LIVE_ROUTES = ("/matches/{id}", "/matches/{id}/frames/0/table.png")


@dataclass
class Cases:
    """The ids of each case, per kind of route."""

    finished: dict[str, int]
    live: dict[str, int]
    players: dict[str, int]


async def _finished(service: MatchService, a: PlayerRef, b: PlayerRef, guild: int | None) -> int:
    info, _ = await service.challenge(a, b, "ecarte", guild_id=guild, channel_id=1)
    await service.accept(info.id, b)
    legal = await service.legal_moves(info.id, (await service.get(info.id)).to_move or 0)
    mover = (await service.get(info.id)).to_move or 0
    await service.move(info.id, mover, legal[0])
    await service.resign(info.id, a.user_id)
    return info.id


async def _live(service: MatchService, a: PlayerRef, b: PlayerRef, guild: int | None) -> int:
    info, _ = await service.challenge(a, b, "piquet", guild_id=guild, channel_id=1)
    await service.accept(info.id, b)
    return info.id


@pytest.fixture(params=["sqlite", "postgres"])
def places(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Path | str, Path | str]:
    """The site's database and an empty one, on the same backend."""
    if request.param == "sqlite":
        return tmp_path / "site.db", tmp_path / "empty.db"
    url = str(request.getfixturevalue("pg_url"))
    return url, pg.fresh_database(url)


@pytest.fixture
async def sites(
    places: tuple[Path | str, Path | str],
) -> AsyncIterator[tuple[TestClient, TestClient, Cases, MatchService]]:
    service = await MatchService.open(places[0])
    empty = await MatchService.open(places[1])
    await set_web(service.database, SERVER_ON, True)
    await set_web(service.database, SERVER_OFF, False)
    await service.privacy.choose(HEDDA.user_id, HIDDEN, HEDDA.name)
    cases = Cases(
        finished={
            "server on": await _finished(service, ADA, BLAISE, SERVER_ON),
            "server off": await _finished(service, CLARA, BLAISE, SERVER_OFF),
            "no server": await _finished(service, DORA, BLAISE, None),
            "unknown id": UNKNOWN,
        },
        live={
            "server on": await _live(service, ADA, BLAISE, SERVER_ON),
            "server off": await _live(service, CLARA, BLAISE, SERVER_OFF),
            "no server": await _live(service, DORA, BLAISE, None),
            "unknown id": UNKNOWN,
        },
        players={
            "server on": ADA.user_id,
            "server off": CLARA.user_id,
            "no server": DORA.user_id,
            "unknown id": UNKNOWN,
            "hidden player": HEDDA.user_id,
        },
    )
    await _finished(service, HEDDA, ADA, SERVER_ON)  # Hedda plays where pages are on
    site = TestClient(TestServer(create_app(service.database, rate=None)))
    nothing = TestClient(TestServer(create_app(empty.database, rate=None)))
    await site.start_server()
    await nothing.start_server()
    yield site, nothing, cases, service
    await site.close()
    await nothing.close()
    await service.close()
    await empty.close()


async def _get(client: TestClient, path: str) -> tuple[int, dict[str, str], bytes]:
    response = await client.get(path, headers={"Accept-Language": "fr"})
    headers = {k: v for k, v in response.headers.items() if k not in ("Date",)}
    return response.status, headers, await response.read()


async def test_only_consent_shows_anything(
    sites: tuple[TestClient, TestClient, Cases, MatchService],
) -> None:
    site, nothing, cases, service = sites
    plan = [(MATCH_ROUTES, cases.finished), (LIVE_ROUTES, cases.live)]
    plan.append((PLAYER_ROUTES, cases.players))
    servers = {"server on": SERVER_ON, "server off": SERVER_OFF, "unknown id": UNKNOWN}
    plan.append((("/servers/{id}", "/servers/{id}/ecarte"), servers))
    for routes, ids in plan:
        for route in routes:
            for case, some_id in ids.items():
                path = route.format(id=some_id)
                status, headers, body = await _get(site, path)
                if case == "server on":
                    assert status == 200, path
                    assert headers["Cache-Control"] == "no-cache", path
                    continue
                assert (status, headers, body) == await _get(nothing, path), (case, path)
                assert status == 404
    # A hidden player's matches show, naming them "a player", never by name or id.
    for path in ("/", "/games/ecarte", f"/servers/{SERVER_ON}/ecarte", f"/players/{ADA.user_id}"):
        status, _, body = await _get(site, path)
        assert status == 200 and HEDDA.name.encode() not in body, path
        assert str(HEDDA.user_id).encode() not in body, path
    # Turning the pages off hides it all at once; the global boards lose its results.
    page = await site.get("/games/ecarte")
    assert ADA.name in await page.text()
    await set_web(service.database, SERVER_ON, False)
    for route in MATCH_ROUTES:
        path = route.format(id=cases.finished["server on"])
        assert await _get(site, path) == await _get(nothing, path), path
    path = f"/players/{ADA.user_id}"
    assert await _get(site, path) == await _get(nothing, path)
    assert ADA.name not in await (await site.get("/games/ecarte")).text()
    assert ADA.name not in await (await site.get("/")).text()


async def test_matches_outside_any_server_show_when_both_players_are_public(
    sites: tuple[TestClient, TestClient, Cases, MatchService],
) -> None:
    site, _, cases, service = sites
    path = f"/matches/{cases.finished['no server']}"
    await service.privacy.choose(DORA.user_id, PUBLIC, DORA.name)
    assert (await site.get(path)).status == 404  # one of two is not enough
    await service.privacy.choose(BLAISE.user_id, PUBLIC, BLAISE.name)
    assert (await site.get(path)).status == 200
