"""The site in a real browser: headless Chromium (the system's) driven by Playwright.

Skipped, saying why, where no Chromium is installed (``.ci/run`` installs Debian's, so CI
always runs these). Playwright is never asked to download a browser of its own.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp import web

import games
from bot import i18n
from bot.service import queries
from bot.service.ratings import displayed
from bot.web.app import create_app
from games.cards import SUIT_SYMBOLS, card_name
from tests.bot.web.conftest import World

ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


def chromium() -> str | None:
    """The system's Chromium: ``TAPIS_CHROMIUM``, else ``chromium`` on the PATH."""
    configured = os.environ.get("TAPIS_CHROMIUM")
    if configured:
        return configured if os.path.exists(configured) else None
    return shutil.which("chromium") or shutil.which("chromium-browser")


BROWSER = chromium()
try:
    from playwright.async_api import Page, async_playwright, expect
except ImportError:  # pragma: no cover - the dev extra installs it
    async_playwright = None  # type: ignore[assignment]

pytestmark = pytest.mark.skipif(
    BROWSER is None or async_playwright is None,
    reason="browser tests skipped: no Chromium found (apt-get install chromium, or set "
    "TAPIS_CHROMIUM) or Playwright missing",
)


class Session:
    """A page on the site, recording console errors, failed loads and every URL fetched."""

    def __init__(self, page: Page, base: str) -> None:
        self.page = page
        self.base = base
        self.errors: list[str] = []
        self.urls: list[str] = []
        page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        page.on("pageerror", lambda e: self.errors.append(str(e)))
        page.on("requestfailed", self._failed)
        page.on("request", lambda r: self.urls.append(r.url))

    def _failed(self, request: Any) -> None:
        # A picture replaced before it arrived (stepping fast) is cancelled, not failed.
        if request.failure != "net::ERR_ABORTED":
            self.errors.append(f"failed: {request.url} ({request.failure})")

    async def open(self, path: str) -> Any:
        response = await self.page.goto(self.base + path, wait_until="load")
        assert response is not None and response.status == 200, path
        await self.page.wait_for_load_state("networkidle")
        return response


@pytest.fixture
def backend() -> str:
    """SQLite only: the pages' queries are tested on both databases in test_site.py."""
    return "sqlite"


@pytest.fixture
async def session(world: World) -> AsyncIterator[Session]:
    runner = web.AppRunner(create_app(world.service.database, rate=None), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    async with async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=BROWSER, args=ARGS)
        page = await browser.new_page()
        yield Session(page, f"http://127.0.0.1:{port}")
        await browser.close()
    await runner.cleanup()


OVERFLOWING = """() => [...document.querySelectorAll("*")]
    .filter(e => e.scrollWidth > e.clientWidth + 1
        && ["auto", "scroll"].includes(getComputedStyle(e).overflowX))
    .map(e => e.tagName + "." + e.className)"""
"""Every element that scrolls sideways (a table in its scroll box, too wide for the screen)."""


async def test_pages_load_cleanly_fit_a_phone_and_fetch_nothing_elsewhere(
    session: Session, world: World
) -> None:
    player = (await world.service.database.fetchone("SELECT seat0_id FROM results"))[0]
    paths = [
        "/",
        *(f"/games/{name}" for name in games.names()),
        f"/servers/{world.guild_on}",
        f"/servers/{world.guild_on}/piquet",
        f"/players/{player}",
        *(f"/matches/{match_id}" for match_id in world.finished[:4]),
        f"/matches/{world.finished[0]}?ply=0&lang=fr",
        f"/players/{player}?lang=sv",
        f"/matches/{world.live}",
    ]
    for width in (1280, 390):
        await session.page.set_viewport_size({"width": width, "height": 844})
        for path in paths:
            await session.open(path)
            assert session.errors == [], (path, session.errors)
            # No horizontal scroll anywhere: neither the page nor a box inside it.
            scroll = await session.page.evaluate("document.documentElement.scrollWidth")
            assert scroll <= width, (path, width, scroll)
            assert await session.page.evaluate(OVERFLOWING) == [], (path, width)
            # Every picture has its alt text, and every one has loaded.
            for image in await session.page.locator("img").all():
                assert (await image.get_attribute("alt") or "").strip(), path
                assert await image.evaluate("i => i.complete && i.naturalWidth > 0"), path
    assert all(url.startswith(session.base) for url in session.urls)
    await session.page.emulate_media(color_scheme="dark")
    await session.open("/")
    background = await session.page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background != "rgb(246, 244, 238)"  # the dark palette applies


async def test_a_leaderboard_matches_the_database(session: Session, world: World) -> None:
    rows = await world.service.database.fetchall(
        "SELECT p.name, r.rating FROM ratings r JOIN players p USING (user_id)"
        " WHERE r.game = 'bezique' AND r.scope = 0 ORDER BY r.rating DESC, r.games DESC, r.user_id"
    )
    await session.open("/games/bezique")
    shown = await session.page.locator("table.board tbody tr").evaluate_all(
        "rows => rows.map(r => [r.cells[1].innerText, r.cells[2].innerText])"
    )
    english = i18n.words("en")  # the browser sends no Accept-Language of ours: English
    assert shown == [[row["name"], english.number(displayed(row["rating"]))] for row in rows]


async def test_stepping_a_replay_changes_the_picture_and_the_move_list(
    session: Session, world: World
) -> None:
    match_id = world.finished[3]
    await session.open(f"/matches/{match_id}?ply=0")
    page = session.page

    async def shown() -> tuple[str, str, str, bytes]:
        src = await page.locator("#table").get_attribute("src") or ""
        current = await page.locator("#moves a[aria-current]").inner_text()
        caption = await page.locator("#caption").inner_text()
        await page.locator("#table").evaluate("image => image.decode()")  # loaded and drawn
        picture = await page.locator("#table").screenshot()
        return src, current, caption, picture

    before = await shown()
    await page.keyboard.press("ArrowRight")
    await page.keyboard.press("ArrowRight")
    after = await shown()
    assert after[0].endswith("/frames/2/table.png") and before[0].endswith("/frames/0/table.png")
    assert before[1] == "Deal" and after[1] != before[1]
    assert "Move 2 of" in after[2]
    assert after[3] != before[3]  # the picture itself changed
    assert page.url.endswith("?ply=2")
    # The hands' descriptions follow the pictures: the engine's hands at ply 2.
    match = await queries.match(world.service.database, match_id)
    assert match is not None
    state = games.get(match.game).new_match(seed=match.seed or 0, options=match.options)
    for _seat, move in (await queries.moves(world.service.database, match_id))[:2]:
        state = state.apply(move)
    cards = state.view(0)["hand"]
    symbols = " ".join(card[:-1] + SUIT_SYMBOLS[card[-1]] for card in cards) or "no cards"
    await expect(page.locator("#hand0")).to_have_attribute(
        "alt", f"{match.names[0]}’s hand: {symbols}"
    )
    await page.keyboard.press("ArrowLeft")
    assert (await shown())[0].endswith("/frames/1/table.png")
    await page.locator("#slider").fill("4")
    assert (await shown())[0].endswith("/frames/4/table.png")
    await page.locator("#ply-3 a").click()
    assert "Move 3 of" in (await shown())[2]
    assert session.errors == []


async def test_a_live_match_page_shows_no_card_of_either_hand(
    session: Session, world: World
) -> None:
    match = await queries.match(world.service.database, world.live)
    assert match is not None and match.state is not None
    state = games.get(match.game).from_json(match.state)
    hidden = {*state.view(0)["hand"], *state.view(1)["hand"]}
    public = state.view(None)
    await session.open(f"/matches/{world.live}")
    text = await session.page.locator("body").inner_text()
    alts = " ".join(
        await session.page.locator("img").evaluate_all("images => images.map(i => i.alt)")
    )
    html = await session.page.content()
    for card in hidden:
        pattern = rf"(?<![0-9A-Z]){re.escape(card)}(?![0-9A-Z])"
        symbol = card[:-1] + "♠♥♦♣"["SHDC".index(card[-1])]
        for where in (text, alts, html):
            assert not re.search(pattern, where) and symbol not in where, card
    assert public["hand"] == []
    assert not any("hand" in url for url in session.urls)
    assert session.errors == []


async def test_a_replay_in_swedish_keeps_its_language_as_it_steps(
    session: Session, world: World
) -> None:
    match_id = world.finished[1]
    await session.open(f"/matches/{match_id}?ply=0&lang=sv")
    page = session.page
    await page.keyboard.press("ArrowRight")
    await page.keyboard.press("ArrowRight")
    await expect(page.locator("#caption")).to_contain_text("Drag 2 av")
    await expect(page.locator("#caption")).to_contain_text("ställning")
    assert "ply=2" in page.url and "lang=sv" in page.url
    assert (await page.locator("#table").get_attribute("src") or "").endswith("?lang=sv")
    match = await queries.match(world.service.database, match_id)
    assert match is not None
    state = games.get(match.game).new_match(seed=match.seed or 0, options=match.options)
    for _seat, move in (await queries.moves(world.service.database, match_id))[:2]:
        state = state.apply(move)
    swedish = i18n.words("sv")
    cards = " ".join(card_name(card, swedish) for card in state.view(0)["hand"]) or "inga kort"
    await expect(page.locator("#hand0")).to_have_attribute(
        "alt", f"Handen hos {match.names[0]}: {cards}"
    )
    assert "lang=sv" in (await page.locator("#next").get_attribute("href") or "")
    # The switch leads to the same move of the same match, in French.
    await page.locator("nav.langs a[hreflang=fr]").click()
    await page.wait_for_load_state("networkidle")
    assert await page.locator("html").get_attribute("lang") == "fr"
    assert "ply=2" in page.url and "lang=fr" in page.url
    await expect(page.locator("#caption")).to_contain_text("Coup 2 sur")
    assert session.errors == []


async def test_a_replay_keeps_its_controls_in_view_and_each_hand_by_its_side(
    session: Session, world: World
) -> None:
    page = session.page
    for width, height in ((1280, 900), (390, 844)):
        await page.set_viewport_size({"width": width, "height": height})
        await session.open(f"/matches/{world.finished[1]}?ply=3")
        for image in ("#hand0", "#table", "#hand1"):
            await page.locator(image).evaluate("image => image.decode()")
        boxes = {
            name: await page.locator(name).bounding_box()
            for name in ("#hand0", "#table", "#hand1", "#next")
        }
        assert all(boxes.values())
        hand0, table, hand1, step = (boxes[n] for n in ("#hand0", "#table", "#hand1", "#next"))
        assert hand0 and table and hand1 and step
        # Seat 0's side of every table is on top: its hand above seat 1's.
        assert hand0["y"] < hand1["y"]
        assert step["y"] + step["height"] <= height  # the controls are in view
        if width < 500:
            # A phone shows the table across its whole width: its smallest words are drawn
            # to read at that width.
            assert table["width"] >= width - 1
        if width >= 1000:
            # Beside the table, each at its owner's end, the whole position on one screen
            # once the replay is scrolled to, its controls above it.
            assert hand0["x"] >= table["x"] + table["width"] - 1
            assert hand1["y"] + hand1["height"] <= table["y"] + table["height"] + 1
            await page.evaluate("document.getElementById('replay').scrollIntoView()")
            table = await page.locator("#table").bounding_box()
            step = await page.locator("#next").bounding_box()
            assert table and step and step["y"] >= 0
            assert table["y"] + table["height"] <= height
        # Down to the foot of the last picture: the controls have followed.
        await page.locator("#hand1").evaluate("image => image.scrollIntoView(false)")
        step = await page.locator("#next").bounding_box()
        assert step and step["y"] >= 0 and step["y"] + step["height"] <= height
    assert session.errors == []
