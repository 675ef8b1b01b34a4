"""Le 5 As: the unseen cards, a playout policy and the greedy rules."""

from __future__ import annotations

import json
import random

import games
from ai.base import GameAI, Json, layout, register, take, unseen, view_of
from games import State
from games.cards import SUITS, TAROT_SET

PACK_SIZE = len(TAROT_SET)


def number(card: str) -> int:
    """A card's face value; 0 for the wagers (J Q K and the trumps 19-21)."""
    rank = card[:-1]
    return int(rank) if rank.isdigit() and int(rank) <= 10 else 0


def determinize(view: Json, rng: random.Random) -> State:
    """Deal the unseen cards — neither in the seat's hand nor face up — between the
    opponent's hand and the stock: everything else a view shows is public."""
    seat = int(view["seat"])
    exps = view["expeditions"]
    piles = view["discards"]
    face_up = [c for side in exps for suit in SUITS for c in side[suit]]
    face_up += [c for suit in SUITS for c in piles[suit]]
    hidden = unseen(TAROT_SET, view["hand"], face_up)
    rng.shuffle(hidden)
    other = take(hidden, int(view["hand_sizes"][1 - seat]))
    stock = take(hidden, int(view["stock"]))
    if hidden:
        raise ValueError("the view's counts do not fit the unseen cards")
    pos = PACK_SIZE - len(stock)
    deck = layout(
        PACK_SIZE, {pos + i: c for i, c in enumerate(stock)}, [*view["hand"], *other, *face_up]
    )
    hands = [list(view["hand"]), games.sort_cards(other)]
    if seat == 1:
        hands.reverse()
    data = {
        "game": "cinq-as",
        "seed": rng.getrandbits(31),
        "rounds": view["rounds"],
        "first_player_option": None,
        "decks": [],
        "round": int(view["round"]) - 1,
        "first": view["first_player"],
        "deck": deck,
        "pos": pos,
        "hands": hands,
        "expeditions": [[side[suit] for suit in SUITS] for side in exps],
        "piles": [piles[suit] for suit in SUITS],
        "turn": view["to_move"],
        "phase": 0 if view["phase"] == "play" else 1,
        "discarded": view["just_discarded"],
        "totals": view["scores"],
        "history": view["round_scores"],
        "last": None,
        "result": None,
    }
    return games.get("cinq-as").from_json(json.dumps(data))


def rules(view: Json, rng: random.Random, start_at: int = 16) -> str:
    """The greedy player: extend an expedition with the next card that leaves little gap;
    open one only with enough of its colour in hand and time to play it; otherwise throw
    away the card least useful to us. Draw a face-up card only when it extends our own
    expedition at once."""
    seat = int(view["seat"])
    moves: list[str] = [str(m) for m in view["legal_moves"]]
    mine = view["expeditions"][seat]
    stock = int(view["stock"])
    if view["phase"] == "draw":
        for suit in SUITS:
            move = f"draw {suit}"
            pile = view["discards"][suit]
            if move in moves and mine[suit] and pile:
                top = max((number(c) for c in mine[suit]), default=0)
                if 0 < number(pile[-1]) - top <= 2:
                    return move
        return "draw"
    hand = view["hand"]
    playable = [m[5:] for m in moves if m.startswith("play ")]
    tops = {s: max((number(c) for c in mine[s]), default=0) for s in SUITS}
    # Extend a started expedition with the card closest above its top.
    best: tuple[int, str] | None = None
    for card in playable:
        suit = card[-1]
        if mine[suit]:
            gap = number(card) - tops[suit] if number(card) else 0
            if (best is None or gap < best[0]) and gap <= 3:
                best = (gap, card)
    if best is not None:
        return f"play {best[1]}"
    # Open an expedition whose cards in hand promise more than the 20 it costs.
    if stock >= 12:
        worth = {s: sum(number(c) for c in hand if c[-1] == s) for s in SUITS}
        suit = max(SUITS, key=lambda s: worth[s])
        if worth[suit] >= start_at and not mine[suit]:
            lowest = [c for c in playable if c[-1] == suit]
            lowest.sort(key=number)  # wagers (0) first: they must precede the numbers
            if lowest:
                return f"play {lowest[0]}"

    # Discard: a card we can no longer use first, else the one we value least.
    def useless(card: str) -> tuple[int, int, float]:
        suit = card[-1]
        dead = 0 if mine[suit] and number(card) <= tops[suit] else 1
        return (dead, -number(card) if not mine[suit] else number(card), rng.random())

    card = min(hand, key=useless)
    return f"discard {card}"


def greedy(view: Json, rng: random.Random) -> str:
    return rules(view, rng)


def playout(state: State, moves: list[str], rng: random.Random) -> str:
    if moves[0] == "draw":  # the draw phase: the stock mostly, a face-up card sometimes
        return "draw" if rng.random() < 0.85 else rng.choice(moves)
    if rng.random() < 0.1:
        return rng.choice(moves)
    seat = state.to_move
    return rules(view_of(state, seat), rng)


def horizon(view: Json) -> int:
    # The round ends when the stock is empty: count the draws from it.
    return int(view["stock"])


def estimate(state: State, seat: int) -> float:
    """Expeditions under way, scored as they stand plus the cards in hand that can still
    extend them (counted at half their value: not all will be played in time)."""
    worth = [0.0, 0.0]
    for side in (0, 1):
        view = view_of(state, side)
        mine = view["expeditions"][side]
        for suit in SUITS:
            if mine[suit]:
                top = max((number(c) for c in mine[suit]), default=0)
                more = sum(number(c) for c in view["hand"] if c[-1] == suit and number(c) > top)
                worth[side] += view["expedition_scores"][side][suit] + 0.5 * more
    return worth[seat] - worth[1 - seat]


GAME_AI = register(
    GameAI(
        name="cinq-as",
        determinize=determinize,
        playout=playout,
        greedy=greedy,
        horizon=horizon,
        counts=lambda move: move == "draw",
        win_value=50.0,
        strong=200,
        depth=12,
        estimate=estimate,
    )
)
