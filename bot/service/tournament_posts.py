"""What a tournament owes its thread and its players: each round's pairings and standings,
a cancellation, and each new match to post in a thread of its own.

Nothing here is said at once: each is owed as long as its stored mark (``announced``,
``reported``, ``posted``) is not set, handed out until the adapter has posted it and set it,
so nothing is lost or said twice across a crash.
"""

from __future__ import annotations

from dataclasses import dataclass

import bot.service.tournament_words as words
import bot.service.wording as wording
from bot import i18n
from bot.service.life import MatchLife
from bot.service.store import MatchStore
from bot.service.tournament_store import TournamentStore
from bot.service.tournament_values import (
    StandingLine,
    TournamentInfo,
    standing_lines,
    unknown_tournament,
)
from bot.service.values import Delivery, person
from games.words import Words


@dataclass(frozen=True)
class Report:
    """Something to post in a tournament's thread: a round's standings (with the picture's
    data) or a round's pairings; ``mark`` it once posted."""

    tournament_id: int
    kind: str  # "standings" | "pairings"
    round: int
    place: int  # the thread (or channel) to post in
    text: str
    lines: tuple[StandingLine, ...] = ()
    title: str = ""
    lang: str = i18n.DEFAULT_LANG  # what ``text`` and ``title`` speak: the server's language


@dataclass(frozen=True)
class Posting:
    """A new tournament match the adapter must post in a thread of its own."""

    tournament_id: int
    round: int
    board: int
    match_id: int
    channel_id: int
    text: str
    thread_name: str


class TournamentPosts:
    """The reports and new matches owed to Discord, and their marks once posted."""

    def __init__(self, store: MatchStore, life: MatchLife, kept: TournamentStore) -> None:
        self._store = store
        self._life = life
        self._kept = kept

    def _words_of(self, guild_id: int | None) -> Words:
        return i18n.words(self._life.languages.of(guild_id))

    async def reports(self) -> list[Report]:
        """Standings and pairings not yet posted, in the order to post them."""
        found = await self._kept.unreported()
        out: list[Report] = []
        for owed in found:
            row = await self._kept.row(owed["id"])
            if row is None:
                raise unknown_tournament(owed["id"])
            info = await self._kept.info(row)
            said = self._words_of(info.guild_id)
            if info.status == "cancelled":
                text = words.cancelled(info.name, len(info.players), said)
                place = info.thread_id or info.channel_id
                out.append(Report(info.id, "cancelled", 1, place, text, lang=said.lang))
                continue
            marks = await self._kept.marks(info.id)
            assert marks is not None and info.rounds is not None
            place = info.thread_id or info.channel_id
            finished_upto = info.round if info.status == "finished" else info.round - 1
            for number in range(marks["reported"] + 1, finished_upto + 1):
                lines = tuple(standing_lines(info, await self._kept.played(info.id, number)))
                final = info.status == "finished" and number == info.round
                text = words.standings_caption(info.name, number, info.rounds, final, said)
                if final and lines:
                    text += "\n" + words.winner(info.name, lines[0].name, said)
                title = words.round_title(info.name, number, info.rounds, said)
                out.append(
                    Report(info.id, "standings", number, place, text, lines, title, said.lang)
                )
            if marks["announced"] < info.round and info.status == "running":
                out.append(await self._pairings_report(info, place))
        return out

    async def _pairings_report(self, info: TournamentInfo, place: int) -> Report:
        assert info.rounds is not None
        said = self._words_of(info.guild_id)
        names = {e.user_id: e.name for e in info.players}
        found = await self._kept.round_games(info.id, info.round)
        pairs = [
            (names.get(g["seat0_id"], "?"), names.get(g["seat1_id"], "?"), g["match_id"])
            for g in found
            if g["seat1_id"] is not None
        ]
        bye = next((names.get(g["seat0_id"]) for g in found if g["seat1_id"] is None), None)
        text = words.pairings(info.name, info.round, info.rounds, pairs, bye, said)
        return Report(info.id, "pairings", info.round, place, text, lang=said.lang)

    async def mark_reported(self, report: Report) -> None:
        # A cancellation is told once, as if announcing a first round that never came.
        column = "reported" if report.kind == "standings" else "announced"
        await self._kept.mark(report.tournament_id, column, report.round)

    async def postings(self) -> list[Posting]:
        """Tournament matches not yet given their thread (new, or a crash came between)."""
        found = await self._kept.unposted()
        out = []
        for game in found:
            people = await self._store.people((game["seat0_id"], game["seat1_id"]))
            first = person(people, game["seat0_id"]).name
            second = person(people, game["seat1_id"]).name
            said = self._words_of(game["guild_id"])
            text = words.round_match(
                game["name"], game["round"], first, second, game["match_id"], said
            )
            # Named as every match's thread is (bot.discord.actions.thread_name).
            thread = said.gettext("{game} · {challenger} vs {opponent} · #{id}").format(
                game=wording.game_title(game["game"], said),
                challenger=first,
                opponent=second,
                id=game["match_id"],
            )
            out.append(
                Posting(game["tournament_id"], game["round"], game["board"], game["match_id"],
                        game["channel_id"], text, thread[:100])
            )  # fmt: skip
        return out

    async def opening(self, posting: Posting, thread_id: int | None) -> list[Delivery]:
        """Once a match is posted: its thread is stored, and the board and hands to send."""
        if thread_id is not None:
            await self._life.set_thread(posting.match_id, thread_id)
        await self._kept.mark_posted(posting.tournament_id, posting.round, posting.board)
        row, people = await self._store.peek_with_people(posting.match_id)
        if row.status != "active":
            return []
        public = self._life.languages.of(row.guild_id)
        return wording.progress(row, people, self._store.ts(), public)
