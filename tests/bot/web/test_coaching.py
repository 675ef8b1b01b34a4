"""The coach on the site: the hints asked shown on a match's replay, and the review ``/review``
kept shown on its page, where the site may show the match at all, and never in a live one."""

from __future__ import annotations

import html
import re

from aiohttp.test_utils import TestClient

import games
from ai.review import Decision, Review, positions
from bot.service import queries
from bot.service.settings import set_web
from games.words import ENGLISH
from tests.bot.web.conftest import World
from tests.bot.web.test_site import text
from tests.style import english_left, problems

CARD_CODE = re.compile(r"\b(?:10|[2-9TJQKA])[SHDCT]\b")


async def _finished(world: World, game: str) -> queries.Match:
    """One of the world's finished matches of ``game``, as the site reads it."""
    for match_id in world.finished:
        match = await queries.match(world.service.database, match_id, public=True)
        if match is not None and match.game == game:
            return match
    raise AssertionError(f"no finished match of {game}")


async def _decisions(world: World, match: queries.Match, each: int) -> list[Decision]:
    """Up to ``each`` decisions of each seat of ``match`` where another move was open: the
    move played, another legal move as the strong level's."""
    log = [move for _seat, move in await _log(world, match)]
    states = positions(match.game, match.seed or 0, match.options, log)
    found: list[Decision] = []
    for ply in range(1, len(log) + 1):
        before = states[ply - 1]
        seat = before.to_move
        other = [m for m in before.legal_moves() if m != log[ply - 1]]
        if seat is None or not other or sum(d.seat == seat for d in found) >= each:
            continue
        found.append(Decision(ply, seat, log[ply - 1], other[0], 2.0 + ply))
    return found


def _review(game: str, decisions: list[Decision]) -> Review:
    mine = tuple(tuple(d for d in decisions if d.seat == seat) for seat in (0, 1))
    return Review(games.get(game).name, "points", (7.0, 3.0), (10, 10), (mine[0], mine[1]))


async def _log(world: World, match: queries.Match) -> list[tuple[int, str]]:
    return await queries.moves(world.service.database, match.id, match.version)


def _section(page: str) -> str:
    found = re.search(r'<section class="review".*?</section>', page, re.S)
    assert found is not None, "no Review section"
    return found.group(0)


async def test_a_hint_asked_is_marked_at_its_move(client: TestClient, world: World) -> None:
    match = await _finished(world, "ecarte")
    assert match.seat_ids is not None
    log = await _log(world, match)
    ply = 3
    seat, move = log[ply - 1]
    await world.service.coaching.record_hint(match.id, match.seat_ids[seat], ply - 1, move)
    name = html.escape(match.names[seat])
    page = await text(client, f"/matches/{match.id}")
    assert f"{name} asked for a hint" in page
    # At its move only: in the list of moves, and in the texts the stepper shows.
    marked = re.findall(r'<li id="ply-(\d+)">[^\n]*asked for a hint', page)
    assert marked == [str(ply)]
    assert page.count("asked for a hint") == 2  # the list and the stepper's data
    french = await text(client, f"/matches/{match.id}?lang=fr&ply={ply}")
    assert f"{name} a demandé un conseil" in french
    other = await _finished(world, "piquet")
    assert "asked for a hint" not in await text(client, f"/matches/{other.id}")


async def test_a_stored_review_is_shown_with_names_and_card_names(
    client: TestClient, world: World
) -> None:
    match = await _finished(world, "piquet")
    page = await text(client, f"/matches/{match.id}")
    assert 'class="review"' not in page  # no review kept: none shown, none started
    decisions = await _decisions(world, match, 6)
    assert {d.seat for d in decisions} == {0, 1}
    await world.service.coaching.store_review(match.id, _review(match.game, decisions).to_json())

    section = _section(await text(client, f"/matches/{match.id}"))
    names = [html.escape(name) for name in match.names]
    game = games.get(match.game)
    assert f"{names[0]} lost about 7 points to their choices, {names[1]} about 3 points" in section
    shown = re.findall(r"Move (\d+): ([^<]*?) played ([^<]*?); the strong level would", section)
    assert len(shown) == 10  # at most five a player, though six were kept
    for decision in decisions:
        said = (
            f"Move {decision.ply}: {names[decision.seat]} played "
            f"{html.escape(game.describe(decision.played, ENGLISH))}; the strong level would "
            f"have played {html.escape(game.describe(decision.best, ENGLISH))}. "
            f"Cost: about {round(decision.cost)} points on average."
        )
        if decision.ply in {int(ply) for ply, _, _ in shown}:
            assert said in section
            # The position decided from, drawn as the replay draws it.
            for kind in ("table", f"hand{decision.seat}"):
                picture = f"/matches/{match.id}/frames/{decision.ply - 1}/{kind}.png"
                assert picture in section
                drawn = await client.get(picture)
                assert drawn.status == 200 and (await drawn.read())[:4] == b"\x89PNG"
    assert f"{names[0]}, the costliest choices:" in section
    assert f"{names[1]}, the costliest choices:" in section
    assert not CARD_CODE.search(re.sub(r'(src|href)="[^"]*"', "", section))
    french = _section(await text(client, f"/matches/{match.id}?lang=fr"))
    assert "Bilan" in french and "le niveau fort aurait joué" in french
    # Read as the house style reads what players read, in each language.
    for lang in ("en", "fr", "sv"):
        shown_text = html.unescape(
            re.sub(
                r"<[^>]*>", " ", _section(await text(client, f"/matches/{match.id}?lang={lang}"))
            )
        )
        assert problems(shown_text) == [], lang
        assert lang == "en" or english_left(shown_text, lang) == [], lang


async def test_a_review_with_nothing_costly_says_so(client: TestClient, world: World) -> None:
    match = await _finished(world, "bezique")
    await world.service.coaching.store_review(match.id, _review(match.game, []).to_json())
    section = _section(await text(client, f"/matches/{match.id}"))
    for name in match.names:
        assert f"{html.escape(name)}: no choice cost anything worth telling." in section
    assert "<img" not in section


async def test_a_server_without_its_pages_on_shows_nothing(
    client: TestClient, world: World
) -> None:
    match = await _finished(world, "piquet")
    assert match.guild_id is not None and match.seat_ids is not None
    await world.service.coaching.store_review(
        match.id, _review(match.game, await _decisions(world, match, 2)).to_json()
    )
    seat, move = (await _log(world, match))[0]
    await world.service.coaching.record_hint(match.id, match.seat_ids[seat], 0, move)
    assert 'class="review"' in await text(client, f"/matches/{match.id}")
    await set_web(world.service.database, match.guild_id, False)
    page = await text(client, f"/matches/{match.id}", 404)
    assert "Review" not in page and "hint" not in page
    assert "There is no such page here." in page
    await text(client, f"/matches/{match.id}/frames/0/hand0.png", 404)


async def test_a_live_match_shows_no_hidden_card_hint_or_review(
    client: TestClient, world: World
) -> None:
    match = await queries.match(world.service.database, world.live)
    assert match is not None and match.status == "active" and match.seat_ids is not None
    state = games.get(match.game).from_json(match.state or "")
    mover = state.to_move
    assert mover is not None
    hinted = state.legal_moves()[0]
    await world.service.coaching.record_hint(match.id, match.seat_ids[mover], match.version, hinted)
    # Were a review ever kept for a match still in play, it would not be shown either.
    log = [move for _seat, move in await _log(world, match)]
    await world.service.coaching.store_review(
        match.id,
        _review(match.game, [Decision(1, 0, log[0], state.legal_moves()[-1], 5.0)]).to_json(),
    )
    page = await text(client, f"/matches/{world.live}")
    hands = [*state.view(0)["hand"], *state.view(1)["hand"]]
    for card in hands:
        assert not re.search(rf"\b{card}\b", page), card
    assert 'class="review"' not in page and "Review" not in page
    assert "hint" not in page.lower()
    assert "hand0.png" not in page and "hand1.png" not in page
