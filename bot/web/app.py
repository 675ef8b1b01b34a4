"""The web site: aiohttp handlers over the read-only queries, pages from Jinja2 templates.

Read-only and self-contained: every page is drawn from the database (through the service's
read-only queries, ``bot.service.queries``) and the engines, in the reader's language
(``bot.web.languages``: English, French or Swedish, asked for with ``?lang=`` or negotiated
from ``Accept-Language``); fonts are the
reader's own and the one script is served from here, so a page makes no request to anyone
else (the Content-Security-Policy says so to the browser). Anything that cannot be shown —
an unknown or malformed id, a page past the last, a server that has not turned its pages on,
a match or player no one agreed to show (``queries.consented``), a hand of a live match — is
the same plain 404 page; anything unforeseen is a 500 page and a log line, never a traceback.

What a page shows can stop being public at any moment (a server turns its pages off, a player
hides), so nothing drawn from the database may be kept by a cache without asking again: such
answers say ``no-cache`` and carry an ETag, so asking again costs a 304 while the answer is
unchanged and a 404 as soon as it is no longer public.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import math
import os
import threading
import time
from collections.abc import Awaitable, Callable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

import jinja2
from aiohttp import web
from markupsafe import Markup

import games
from bot import i18n
from bot.service import queries
from bot.service.replays import KINDS, Hidden, Line, Replays, export, warm_up
from bot.service.reviewed import reviewed
from bot.web.chart import Chart, chart
from bot.web.languages import Speech, speech_of
from games.words import N_

log = logging.getLogger("tapis.web")

HERE: Final = Path(__file__).parent
STATIC_TYPES: Final = {".css": "text/css", ".js": "text/javascript", ".svg": "image/svg+xml"}
# Anything drawn from the database may stop being public: a cache asks again every time (an
# ETag makes that cheap); only the static files, named by their content, are kept for long.
SHORT: Final = "no-cache"
FOREVER: Final = "public, max-age=31536000, immutable"
CSP: Final = (
    "default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
RATE: Final = 10.0  # requests per second per client, on average
BURST: Final = 120  # requests a client may make at once (a replay fetches three pictures)

DB_KEY: Final = web.AppKey("db", queries.Reads)
REPLAYS_KEY: Final = web.AppKey("replays", Replays)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def iso(timestamp: float) -> str:
    return datetime.fromtimestamp(timestamp, UTC).strftime("%Y-%m-%dT%H:%MZ")


def speech(request: web.Request) -> Speech:
    """The language ``request`` is answered in (``?lang=``, else ``Accept-Language``)."""
    return speech_of(request.query, request.headers.get("Accept-Language"))


def picture_speech(request: web.Request) -> Speech:
    """The language of a picture or a ply's texts: from the address alone, never from a
    header, since they are cached for good under their address."""
    return speech_of(request.query, None)


@dataclass
class Site:
    """What the handlers share: templates, the static files and their fingerprints."""

    templates: jinja2.Environment
    static: dict[str, tuple[bytes, str]]  # name -> (content, content type)
    versions: dict[str, str]  # name -> short hash, appended to URLs for caching forever

    @classmethod
    def load(cls) -> Site:
        env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(HERE / "templates"),
            autoescape=jinja2.select_autoescape(["html"]),
            trim_blocks=True,
            lstrip_blocks=True,
            undefined=jinja2.StrictUndefined,
        )
        static: dict[str, tuple[bytes, str]] = {}
        versions: dict[str, str] = {}
        for path in sorted((HERE / "static").iterdir()):
            kind = STATIC_TYPES.get(path.suffix)
            if kind is None:
                continue
            content = path.read_bytes()
            static[path.name] = (content, kind)
            versions[path.name] = hashlib.sha256(content).hexdigest()[:12]
        site = cls(env, static, versions)
        env.globals.update(static=site.static_url, iso=iso, game_names=games.names())
        return site

    def static_url(self, name: str) -> str:
        return f"/static/{name}?v={self.versions[name]}"

    def page(
        self,
        request: web.Request,
        template: str,
        *,
        status: int = 200,
        cache: str = SHORT,
        **context: Any,
    ) -> web.Response:
        """``template`` filled with ``context``, in the language ``request`` is answered in."""
        said = speech(request)
        words = said.context(request.path, request.query)
        text = self.templates.get_template(template).render(**words, chosen=said.chosen, **context)
        response = web.Response(text=text, status=status, content_type="text/html")
        response.headers["Cache-Control"] = cache
        # The same address reads in another language for another browser: caches must
        # keep one copy per Accept-Language.
        response.headers["Vary"] = "Accept-Language"
        return response


SITE_KEY: Final = web.AppKey("site", Site)


# -- middlewares ---------------------------------------------------------------------------------


class RateLimiter:
    """A token bucket per client address: ``rate`` requests a second, ``burst`` at once."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic):
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}

    def allow(self, client: str) -> float:
        """0 if the request may go ahead, else the seconds to wait."""
        now = self.clock()
        tokens, last = self._buckets.get(client, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - last) * self.rate)
        if tokens < 1:
            self._buckets[client] = (tokens, now)
            return (1 - tokens) / self.rate
        self._buckets[client] = (tokens - 1, now)
        if len(self._buckets) > 10_000:  # forget clients whose buckets have refilled
            full = self.burst / self.rate
            self._buckets = {k: v for k, v in self._buckets.items() if now - v[1] < full}
        return 0.0


def client_of(request: web.Request, forwarded: bool) -> str:
    """Who is asking: the peer's address, or behind a trusted reverse proxy (``forwarded``)
    the first address of its ``X-Forwarded-For``."""
    if forwarded:
        first = request.headers.get("X-Forwarded-For", "").split(",")[0].strip()
        if first:
            return first
    return request.remote or "?"


def _middlewares(site: Site, limiter: RateLimiter | None, forwarded: bool) -> list[Any]:
    @web.middleware
    async def guard(request: web.Request, handler: Handler) -> web.StreamResponse:
        if limiter is not None and not request.path.startswith("/static/"):
            wait = limiter.allow(client_of(request, forwarded))
            if wait:
                refusal = _error(site, request, 429, N_("Too many requests: please wait a moment."))
                refusal.headers["Retry-After"] = str(math.ceil(wait))
                return _secure(refusal)
        try:
            response = await handler(request)
        except web.HTTPException as error:
            if error.status < 400:
                raise
            text = {405: N_("This page is only read, never written to.")}.get(
                error.status, NOT_HERE
            )
            response = _error(site, request, error.status, text)
        except Hidden:
            response = _error(site, request, 404, NOT_HERE)
        except Exception:
            log.exception("page %s failed", request.path_qs)
            response = _error(
                site, request, 500, N_("Something went wrong on our side. Please try again.")
            )
        return _secure(_revalidated(request, response))

    return [guard]


def _revalidated(request: web.Request, response: web.StreamResponse) -> web.StreamResponse:
    """A successful answer tagged with its content's hash; a 304 when the asker already has
    it (only ever after the handler agreed to show it again)."""
    if response.status != 200 or not isinstance(response, web.Response):
        return response
    body = response.body
    if not isinstance(body, bytes):
        return response
    tag = hashlib.sha256(body).hexdigest()[:32]
    response.etag = tag
    asked = request.if_none_match
    if asked and any(etag.value == tag for etag in asked):
        unchanged = web.Response(status=304)
        unchanged.etag = tag
        for name in ("Cache-Control", "Vary", "Content-Disposition"):
            if name in response.headers:
                unchanged.headers[name] = response.headers[name]
        return unchanged
    return response


NOT_HERE: Final = N_("There is no such page here.")


def _error(site: Site, request: web.Request, status: int, message: str) -> web.Response:
    """The error page; ``message`` is the English text, translated by the page."""
    return site.page(request, "error.html", status=status, cache="no-store",
                     status_code=status, message=message)  # fmt: skip


def _secure(response: web.StreamResponse) -> web.StreamResponse:
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response


# -- helpers -----------------------------------------------------------------------------------


def _site(request: web.Request) -> Site:
    return request.app[SITE_KEY]


def _db(request: web.Request) -> queries.Reads:
    return request.app[DB_KEY]


def _id(request: web.Request, key: str) -> int:
    number = queries.valid_id(request.match_info[key])
    if number is None:
        raise web.HTTPNotFound()
    return number


def _game(name: str) -> str:
    if name not in games.names():
        raise web.HTTPNotFound()
    return name


def _page_number(request: web.Request) -> int:
    text = request.query.get("page", "1")
    if not text.isascii() or not text.isdigit() or len(text) > 9:
        raise web.HTTPNotFound()
    return int(text)


async def _match(request: web.Request, said: Speech | None = None) -> queries.Match:
    """The match the address names, if the site may show it (else the 404 of an unknown id),
    its hidden players named as ``said`` (the page's language by default) words it."""
    match = await queries.match(_db(request), _id(request, "match"), public=True)
    if match is None:
        raise web.HTTPNotFound()
    return replace(match, names=_names(match.names, said or speech(request)))


def _names(names: tuple[str, str], said: Speech) -> tuple[str, str]:
    """A hidden player's empty name worded as "a player"."""
    anonymous = said.text(N_("a player"))
    return (names[0] or anonymous, names[1] or anonymous)


def _lines(lines: list[queries.Finished], said: Speech) -> list[queries.Finished]:
    return [replace(line, names=_names(line.names, said)) for line in lines]


# -- pages -------------------------------------------------------------------------------------


async def index(request: web.Request) -> web.StreamResponse:
    db = _db(request)
    tops = {}
    for name in games.names():
        page = await queries.leaderboard(db, queries.Board(name), 1)
        tops[name] = page.standings[:5] if page else []
    recent = _lines(await queries.recent(db, 10), speech(request))
    return _site(request).page(request, "index.html", tops=tops, recent=recent)


async def leaderboard(request: web.Request) -> web.StreamResponse:
    game = _game(request.match_info["game"])
    board = queries.Board(game)
    page = await queries.leaderboard(_db(request), board, _page_number(request))
    if page is None:
        raise web.HTTPNotFound()
    heading = speech(request).text(N_("{game} — everywhere"), game=speech(request).title_of(game))
    return _site(request).page(
        request, "leaderboard.html", game=game, board=board, page=page, base=f"/games/{game}",
        heading=heading,
    )  # fmt: skip


async def _guild(request: web.Request) -> int:
    guild_id = _id(request, "guild")
    if not await queries.web_enabled(_db(request), guild_id):
        raise web.HTTPNotFound()  # the same answer as for a server that does not exist
    return guild_id


async def server(request: web.Request) -> web.StreamResponse:
    guild_id = await _guild(request)
    db = _db(request)
    tops = {}
    for name in games.names():
        page = await queries.leaderboard(db, queries.Board(name, guild_id), 1)
        tops[name] = page.standings[:10] if page else []
    return _site(request).page(request, "server.html", guild_id=guild_id, tops=tops)


async def server_board(request: web.Request) -> web.StreamResponse:
    guild_id = await _guild(request)
    game = _game(request.match_info["game"])
    board = queries.Board(game, guild_id)
    page = await queries.leaderboard(_db(request), board, _page_number(request))
    if page is None:
        raise web.HTTPNotFound()
    said = speech(request)
    heading = said.text(N_("{game} — this server, all time"), game=said.title_of(game))
    return _site(request).page(
        request, "leaderboard.html", game=game, board=board, page=page,
        base=f"/servers/{guild_id}/{game}", heading=heading,
    )  # fmt: skip


async def profile(request: web.Request) -> web.StreamResponse:
    db = _db(request)
    who = await queries.player(db, _id(request, "player"))
    if who is None:
        raise web.HTTPNotFound()
    records = await queries.records(db, who.user_id)
    said = speech(request)
    charts: list[tuple[str, Chart]] = []
    for record in records:
        points = await queries.history(db, who.user_id, record.game)
        title = said.text(
            N_("{name}’s rating at {game}"), name=who.name, game=said.title_of(record.game)
        )
        charts.append((record.game, chart(points, title, said.words)))
    recent = _lines(await queries.recent_of(db, who.user_id, public=True), said)
    unrated = await queries.unrated(db, who.user_id)
    return _site(request).page(
        request, "player.html", player=who, records=records, charts=charts, recent=recent,
        unrated=unrated,
    )  # fmt: skip


async def match_page(request: web.Request) -> web.StreamResponse:
    match = await _match(request)
    site = _site(request)
    public_server = match.guild_id is not None and await queries.web_enabled(
        _db(request), match.guild_id
    )
    if not match.replayable:
        # Live (or set aside): the public table and the public facts, nothing else.
        view = None
        if match.status == "active" and match.state is not None:
            view = games.get(match.game).from_json(match.state).view(None)
        return site.page(
            request, "live.html", match=match, view=view, public_server=public_server,
            frame=_frames(match, _pictures(speech(request))), cache="no-cache",
        )  # fmt: skip
    replays = request.app[REPLAYS_KEY]
    lines = await replays.lines(match)
    text = request.query.get("ply")
    ply = len(lines) - 1
    if text is not None:
        if not text.isascii() or not text.isdigit() or int(text[:9]) >= len(lines):
            raise web.HTTPNotFound()
        ply = int(text)
    position = await replays.position(match, ply)
    words = speech(request)
    asked = {(mark.ply, mark.seat) for mark in await queries.hints(_db(request), match.id)}
    said = [_said(line, match, words, asked) for line in lines]
    review = await reviewed(_db(request), match, words.words)
    pictures = _pictures(words)
    options = ", ".join(games.get(match.game).options_text(match.options, words.words, match.names))
    return site.page(
        request, "match.html", match=match, lines=lines, said=said, ply=ply,
        hands=[words.cards(hand) for hand in position.hands],
        score_text=_scores(position.scores, words), options=options,
        frame=_frames(match, pictures), frame_lang=pictures.lang if pictures.chosen else "",
        command=Markup("<code>python -m bot verify FILE</code>"),
        public_server=public_server, data=json.dumps(said), review=review, cache=SHORT,
    )  # fmt: skip


def _pictures(page: Speech) -> Speech:
    """The pictures and the plies' texts speak the page's language, named in their address
    (English needs none), so a picture cached for good is never another language's."""
    return Speech(page.lang, page.lang != i18n.DEFAULT_LANG)


def _frames(match: queries.Match, said: Speech) -> Callable[[int, str], str]:
    """The address of a picture of ``match`` (ply, kind) in the language of ``said``."""
    return lambda ply, kind: said.link(f"/matches/{match.id}/frames/{ply}/{kind}.png")


def _said(
    line: Line,
    match: queries.Match,
    said: Speech,
    asked: AbstractSet[tuple[int, int]] = frozenset(),
) -> str | None:
    """A move as the page says it, in players' words: ``Ada: D♠`` in French; a move its
    player had asked a hint for says so (``asked``: (ply, seat) pairs), so a replay shows
    who was helped, and where."""
    if line.move is None:
        return None
    name = match.names[line.seat or 0]
    text = said.text(N_("{name}: {move}"), name=name, move=said.move(match.game, line.move))
    if (line.ply, line.seat) in asked:
        text = said.text(N_("{move} ({name} asked for a hint)"), move=text, name=name)
    return text


def _scores(scores: tuple[int, int], said: Speech) -> str:
    return said.text(
        N_("scores {first} – {second}"), first=said.number(scores[0]), second=said.number(scores[1])
    )


async def position(request: web.Request) -> web.StreamResponse:
    """Both hands and the scores at one ply of a finished match, for the replay's texts."""
    match = await _match(request, picture_speech(request))
    text = request.match_info["ply"]
    if not text.isdigit() or len(text) > 9:
        raise web.HTTPNotFound()
    found = await request.app[REPLAYS_KEY].position(match, int(text))
    said = picture_speech(request)
    response = web.json_response(
        {
            "hands": [said.cards(hand) for hand in found.hands],
            "scores": list(found.scores),
            "said": _scores(found.scores, said),
        }
    )
    response.headers["Cache-Control"] = SHORT
    return response


async def frame(request: web.Request) -> web.StreamResponse:
    match = await _match(request, picture_speech(request))
    kind = request.match_info["kind"]
    text = request.match_info["ply"]
    if kind not in KINDS or not text.isdigit() or len(text) > 9:
        raise web.HTTPNotFound()
    picture = await request.app[REPLAYS_KEY].frame(
        match, int(text), kind, picture_speech(request).words
    )
    response = web.Response(body=picture, content_type="image/png")
    # A ply's picture never changes once played, but it stops being public with its match.
    response.headers["Cache-Control"] = SHORT
    return response


async def export_file(request: web.Request) -> web.StreamResponse:
    match = await _match(request, picture_speech(request))
    if not match.replayable:
        raise web.HTTPNotFound()
    text = export(match, await queries.moves(_db(request), match.id, match.version))
    response = web.Response(text=text, content_type="text/plain", charset="utf-8")
    response.headers["Content-Disposition"] = f'attachment; filename="tapis-{match.id}.tpn"'
    response.headers["Cache-Control"] = SHORT
    return response


PRIVACY_KEY: Final = web.AppKey("privacy", dict)


def own_privacy_texts(path: str | None = None) -> dict[str, Markup]:
    """The operator's own privacy policy, if ``TAPIS_PRIVACY_FILE`` names one: an HTML
    fragment shown on /privacy in place of Tapis's text; ``NAME.fr.html`` beside
    ``NAME.html`` for French readers (``.sv`` for Swedish), else the one file for everyone.
    Keyed by language ("" for the one file)."""
    path = path if path is not None else os.environ.get("TAPIS_PRIVACY_FILE", "").strip()
    if not path:
        return {}
    base = Path(path)
    texts = {"": Markup(base.read_text(encoding="utf-8"))}
    for lang in i18n.LANGS:
        variant = base.with_name(f"{base.stem}.{lang}{base.suffix}")
        if variant.is_file():
            texts[lang] = Markup(variant.read_text(encoding="utf-8"))
    return texts


async def privacy(request: web.Request) -> web.StreamResponse:
    """What Tapis keeps, for how long, who sees it, how to erase it (or the operator's own)."""
    texts: dict[str, Markup] = request.app[PRIVACY_KEY]
    said = speech(request)
    own = texts.get(said.lang, texts.get(""))
    return _site(request).page(request, "privacy.html", own=own)


async def static(request: web.Request) -> web.StreamResponse:
    found = _site(request).static.get(request.match_info["name"])
    if found is None:
        raise web.HTTPNotFound()
    content, kind = found
    response = web.Response(body=content, content_type=kind)
    response.headers["Cache-Control"] = FOREVER
    return response


# -- the application ---------------------------------------------------------------------------


def create_app(
    db: queries.Reads,
    *,
    rate: float | None = RATE,
    burst: int = BURST,
    cache_bytes: int | None = None,
    forwarded: bool | None = None,
) -> web.Application:
    """The site over ``db`` (opened and closed by the caller); ``rate=None``: no rate limit.

    ``forwarded`` (default: ``TAPIS_WEB_FORWARDED=1``) trusts ``X-Forwarded-For`` to tell
    clients apart, as it must behind a reverse proxy; never set it without one, or anyone
    could choose their own address and escape the limit."""
    if forwarded is None:
        forwarded = os.environ.get("TAPIS_WEB_FORWARDED", "").strip().lower() in ("1", "yes")
    site = Site.load()
    limiter = None if rate is None else RateLimiter(rate, burst)
    app = web.Application(middlewares=_middlewares(site, limiter, forwarded))
    app[DB_KEY] = db
    app[SITE_KEY] = site
    app[REPLAYS_KEY] = Replays(db) if cache_bytes is None else Replays(db, cache_bytes=cache_bytes)
    app[PRIVACY_KEY] = own_privacy_texts()
    app.router.add_get("/", index)
    app.router.add_get("/games/{game}", leaderboard)
    app.router.add_get("/servers/{guild}", server)
    app.router.add_get("/servers/{guild}/{game}", server_board)
    app.router.add_get("/players/{player}", profile)
    app.router.add_get("/matches/{match}", match_page)
    app.router.add_get("/matches/{match}/frames/{ply}/{kind}.png", frame)
    app.router.add_get("/matches/{match}/plies/{ply}.json", position)
    app.router.add_get("/matches/{match}/export.tpn", export_file)
    app.router.add_get("/privacy", privacy)
    app.router.add_get("/static/{name}", static)
    return app


async def start(db: queries.Reads, host: str, port: int, **options: Any) -> web.AppRunner:
    """Serve the site in the running event loop (the bot's, or ``python -m bot web``'s)."""
    app = create_app(db, **options)
    # Card faces drawn once in the background, so the first replays need not wait for them;
    # stopped between two pictures when the site closes.
    stop = threading.Event()
    warming = asyncio.create_task(asyncio.to_thread(warm_up, stop=stop), name="tapis-web-warm")

    async def stop_warming(app: web.Application) -> None:
        stop.set()
        await asyncio.gather(warming, return_exceptions=True)

    app.on_cleanup.append(stop_warming)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    log.info("web site on http://%s:%d/", host, port)
    return runner
