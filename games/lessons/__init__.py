"""Guided first deals: one prepared deal (or a few) per game, and what to say at each step.

A lesson is data. Its decks are dealt by the game's own ``new_match``, so the engine deals
them and enforces every rule as in any match; its moves are the whole deal as it will be
played, the learner's (seat 0) and the computer's alike, so that the cards come where the
lesson needs them: the learner is asked for each of their moves in turn, and the computer
plays its own from the list. Its notes say, at the moment the learner is to move, what just
happened and what they may do now; they are marked messages, told in the reader's language
by whoever shows them.

Each game keeps its lesson beside its rules: ``games/lessons/<module>.py`` for the game of
``games/<module>.py``, found through the registry like its pictures and its computer player.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import games
from games.core import State

LEARNER = 0
"""The learner's seat: the lesson is written from seat 0's side, the computer at seat 1."""


@dataclass(frozen=True)
class Lesson:
    """One game's guided deal.

    - ``options``: the match's options, which end it with the lesson (one Piquet deal, one
      round of Le 5 As, a Bézigue target reached by the deal's last count, an Écarté match
      to 11 over a few prepared hands);
    - ``decks``: the deals in turn, top card first, as ``new_match`` takes them;
    - ``moves``: every move of the lesson in order, canonical, both seats;
    - ``notes``: by the number of moves made, what the learner is told at that moment;
    - ``end``: what the learner is told once the lesson's match is over.
    """

    game: str
    options: Mapping[str, int]
    decks: tuple[tuple[str, ...], ...]
    moves: tuple[str, ...]
    notes: Mapping[int, str] = field(default_factory=dict)
    end: str = ""
    seed: int = 0

    def start(self) -> State:
        """The lesson's first state, dealt by the game from the lesson's decks."""
        decks: list[Any] = [list(deck) for deck in self.decks]
        return games.get(self.game).new_match(
            seed=self.seed, options=dict(self.options), deck=decks
        )

    def expected(self, made: int) -> str | None:
        """The move the lesson plays after ``made`` moves; None once it has no more."""
        return self.moves[made] if 0 <= made < len(self.moves) else None

    def note(self, made: int) -> str | None:
        """What the learner is told after ``made`` moves, if anything."""
        return self.notes.get(made)

    def why(self, made: int) -> str | None:
        """The reason the lesson gives for the move it asks after ``made`` moves: the
        latest note said at or before that moment."""
        said = [n for n in self.notes if n <= made]
        return self.notes[max(said)] if said else None


def cards(text: str) -> tuple[str, ...]:
    """A deck written as card codes one space apart, top card first."""
    return tuple(text.split())


def moves(text: str) -> tuple[str, ...]:
    """Moves written one after another, a comma between two."""
    return tuple(move.strip() for move in text.split(","))


def lesson_for(game: str) -> Lesson | None:
    """The lesson of ``game`` (any of its names), None if it has none; KeyError for an
    unknown game."""
    leaf = type(games.get(game)).__module__.rsplit(".", 1)[-1]
    try:
        module = importlib.import_module(f"games.lessons.{leaf}")
    except ModuleNotFoundError:
        return None
    lesson = getattr(module, "LESSON", None)
    return lesson if isinstance(lesson, Lesson) else None
