"""The site in English, French and Swedish: every page read in each language with a small
style checker (no English left, no raw card codes, true minus signs, plurals right), the
``lang`` attribute, the language negotiated from ``Accept-Language``, ``?lang=`` kept in
links, and a switch that stays on the same page."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import parse_qsl, urlsplit

import pytest
from aiohttp.test_utils import TestClient

import games
from bot import i18n
from bot.service import queries
from bot.web.languages import Speech, negotiate, preferred
from games.cards import card_name
from tests import style
from tests.bot.web.conftest import World

# Words of the site's English that neither French nor Swedish uses: one of them on a French or
# Swedish page means a sentence was left untranslated. (Words both languages share with
# English, such as "page", "options", "table", "rating", "server", "hand", are left out.)
ENGLISH_ONLY = {
    "the", "and", "of", "leaderboards", "leaderboard", "player", "players", "won", "lost",
    "drawn", "latest", "matches", "match", "move", "moves", "next", "previous", "deal",
    "download", "season", "played", "streak", "game", "rated", "yet", "found", "sorry", "back",
    "keys", "first", "last", "scores", "being", "hidden", "replay", "two", "turn", "by", "no",
    "everywhere", "this", "time", "wins", "win", "loss", "losses", "after", "lowest", "highest",
    "starts", "here", "such", "there", "is", "step", "through", "leg", "duplicate", "cards",
    "language", "slow", "down", "something", "went", "wrong", "please",
}  # fmt: skip
# The attributes a reader meets (as alt text, labels, captions the replay fills in).
READ_ATTRIBUTES = {
    "alt", "aria-label", "title", "data-move", "data-deal", "data-table", "data-hand",
}  # fmt: skip
_PLAYER = re.compile(r"Player \d+")  # the test players' names (bench.web.populate)
_NAMES = ("Ada", "Blaise")


class Reading(HTMLParser):
    """What a reader of a page reads: its text, the attributes above, and the replay's moves
    (a script's JSON); and every link."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.links: list[str] = []
        self.lang: str | None = None
        self._script: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "html":
            self.lang = found.get("lang")
        if tag == "script":
            self._script = found.get("id") or ""
        if tag == "a" and found.get("href"):
            self.links.append(str(found["href"]))
        self.texts += [value for key, value in attrs if key in READ_ATTRIBUTES and value]

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script = None

    def handle_data(self, data: str) -> None:
        if (self._script is None or self._script == "replay-data") and data.strip():
            self.texts.append(data.strip())


def read(page: str) -> Reading:
    reading = Reading()
    reading.feed(page)
    return reading


def english_left(texts: list[str]) -> set[str]:
    words: set[str] = set()
    for text in texts:
        text = _PLAYER.sub(" ", re.sub(r"\{\w+\}", " ", text))  # blanks the replay fills
        for name in _NAMES:
            text = text.replace(name, " ")
        words |= {w for w in re.findall(r"[A-Za-z]+", text) if w.lower() in ENGLISH_ONLY}
    return words


async def get(client: TestClient, path: str, status: int = 200, **headers: str) -> str:
    response = await client.get(path, headers=headers)
    body = await response.text()
    assert response.status == status, (path, body[:300])
    return body


async def every_path(world: World) -> list[str]:
    player = (await world.service.database.fetchone("SELECT seat0_id FROM results"))[0]
    return [
        "/",
        *(f"/games/{name}" for name in games.names()),
        f"/servers/{world.guild_on}",
        f"/servers/{world.guild_on}/bezique",
        f"/players/{player}",
        *(f"/matches/{match_id}" for match_id in world.finished[:4]),  # one of each game
        f"/matches/{world.finished[5]}?ply=0",
        f"/matches/{world.live}",
    ]


@pytest.fixture
def backend() -> str:
    """SQLite only: words do not depend on the database (test_site.py reads both)."""
    return "sqlite"


def test_the_checker_finds_english_left() -> None:
    assert english_left(["Dernières parties", "Player 3 a gagné"]) == set()
    assert english_left(["Latest matches"]) == {"Latest", "matches"}


@pytest.mark.parametrize("lang", i18n.LANGS)
async def test_every_page_reads_in_each_language(
    client: TestClient, world: World, lang: str
) -> None:
    problems: list[str] = []
    for path in [*await every_path(world), "/nowhere"]:
        joiner = "&" if "?" in path else "?"
        page = await get(client, f"{path}{joiner}lang={lang}", 404 if path == "/nowhere" else 200)
        reading = read(page)
        assert reading.lang == lang, path
        problems += [f"{path}: {p}" for text in reading.texts for p in style.problems(text)]
        if lang != i18n.DEFAULT_LANG:
            left = english_left(reading.texts)
            if left:
                problems.append(f"{path}: English words {sorted(left)} in {lang}")
    assert problems == []


async def test_numbers_dates_and_names_follow_the_language(
    client: TestClient, world: World
) -> None:
    recent = await queries.recent(world.service.database, 1)
    for lang in ("fr", "sv"):
        said = Speech(lang, True)
        page = await get(client, f"/?lang={lang}")
        assert said.when(recent[0].finished_at) in page
        assert "UTC" in said.when(recent[0].finished_at)
        for name in games.names():
            assert games.get(name).title_in(i18n.words(lang)) in page
        board = await get(client, f"/games/ecarte?lang={lang}")
        ratings = re.findall(r'<td class="num">([^<]+)</td>', board)
        assert ratings and all("," not in r for r in ratings)
        # A four-figure rating is grouped as the language groups it (1 500, with a space).
        assert any(not r.isdigit() for r in ratings if len(r) > 3)
    assert Speech("sv", True).title_of("piquet") == "Pikett"


async def test_a_finished_match_says_its_moves_and_cards_in_the_language(
    client: TestClient, world: World
) -> None:
    match = await queries.match(world.service.database, world.finished[3])
    assert match is not None
    state = games.get(match.game).new_match(seed=match.seed or 0, options=match.options)
    for lang in i18n.LANGS:
        page = await get(client, f"/matches/{match.id}?ply=0&lang={lang}")
        hand = " ".join(card_name(c, i18n.words(lang)) for c in state.view(0)["hand"])
        assert hand in page
        pictures = re.findall(r'src="(/matches/[^"]+\.png[^"]*)"', page)
        assert len(pictures) == 3
        for address in pictures:
            assert ("lang=" in address) == (lang != "en")
            response = await client.get(address.replace("&amp;", "&"))
            assert response.status == 200 and (await response.read())[:4] == b"\x89PNG"
        ply = await (await client.get(f"/matches/{match.id}/plies/0.json?lang={lang}")).json()
        assert ply["hands"][0] == hand
        scores = Speech(lang, True).text("scores {first} – {second}", first=0, second=0)
        assert ply["said"] == scores


async def test_a_live_match_shows_no_hand_in_any_language(client: TestClient, world: World) -> None:
    match = await queries.match(world.service.database, world.live)
    assert match is not None and match.state is not None
    state = games.get(match.game).from_json(match.state)
    hidden = {*state.view(0)["hand"], *state.view(1)["hand"]}
    for lang in i18n.LANGS:
        page = await get(client, f"/matches/{world.live}?lang={lang}")
        for card in hidden:
            assert card_name(card, i18n.words(lang)) not in page, (lang, card)
            assert not re.search(rf"(?<![0-9A-Z]){card}(?![0-9A-Z])", page), card


def test_accept_language_is_read_in_order_of_preference() -> None:
    assert preferred("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5") == ["fr-CH", "fr", "en", "de"]
    assert preferred("en;q=0.1, sv") == ["sv", "en"]
    assert preferred("sv;q=0, en;q=nonsense, <script>") == []
    assert negotiate("sv-SE,sv;q=0.9,en-US;q=0.8") == "sv"
    assert negotiate("de-DE, fr;q=0.5, en;q=0.4") == "fr"
    assert negotiate("de, ja") == "en"
    assert negotiate("") == "en" and negotiate(None) == "en"
    assert negotiate("x" * 10_000) == "en"


async def test_the_language_comes_from_the_address_then_the_header(client: TestClient) -> None:
    assert read(await get(client, "/", **{"Accept-Language": "sv-SE,sv;q=0.9"})).lang == "sv"
    assert read(await get(client, "/", **{"Accept-Language": "de, fr-CA;q=0.5"})).lang == "fr"
    assert read(await get(client, "/", **{"Accept-Language": "de"})).lang == "en"
    assert read(await get(client, "/")).lang == "en"
    asked = await get(client, "/?lang=fr", **{"Accept-Language": "sv"})
    assert read(asked).lang == "fr"
    # An unknown language in the address is ignored, not refused.
    assert read(await get(client, "/?lang=xx", **{"Accept-Language": "sv"})).lang == "sv"
    response = await client.get("/games/piquet")
    assert "Accept-Language" in response.headers["Vary"]
    # Negotiated pages need not carry the language in their links: the header comes again.
    page = read(await get(client, "/", **{"Accept-Language": "fr"}))
    assert sum("lang=" in link for link in page.links) == len(i18n.LANGS)  # the switch alone


async def test_a_chosen_language_is_kept_in_every_link_and_the_switch_keeps_the_page(
    client: TestClient, world: World
) -> None:
    for path in await every_path(world):
        page = read(await get(client, f"{path}{'&' if '?' in path else '?'}lang=sv"))
        address = urlsplit(path)
        kept = dict(parse_qsl(address.query))
        switch = [link for link in page.links if urlsplit(link).path == address.path]
        inside = [
            link
            for link in page.links
            if link.startswith("/") and "/static/" not in link and not link.endswith(".tpn")
        ]
        assert inside and all("lang=" in link for link in inside), path
        for lang in i18n.LANGS:
            wanted = {**kept, "lang": lang}
            assert any(dict(parse_qsl(urlsplit(s).query)) == wanted for s in switch), (path, lang)
            other = read(await get(client, f"{address.path}?{_query(wanted)}"))
            assert other.lang == lang
    # Nothing else typed in the address comes back in the page.
    assert "nonsense" not in await get(client, "/games/piquet?lang=fr&x=nonsense")
    # Paging a leaderboard keeps the language too.
    assert "page=1&amp;lang=fr" in await get(client, "/games/piquet?page=1&lang=fr")


def _query(pairs: dict[str, str]) -> str:
    return "&".join(f"{k}={v}" for k, v in pairs.items())
