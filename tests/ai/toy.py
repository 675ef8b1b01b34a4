"""The computer player of high card, the toy game of tests/games/toy.py: found beside the
game's rules, as ai/<game>.py is beside games/<game>.py, once the game is registered."""

from __future__ import annotations

import random

from ai.base import GameAI, Json, take, unseen
from games import State
from tests.games.toy import GAME, PACK, ToyState, rank_of


def determinize(view: Json, rng: random.Random) -> State:
    """A whole state consistent with ``view``: the cards the seat has not seen are dealt at
    random between the opponent's hand and the cards dealt to no one."""
    seat = int(view["seat"])
    trick = [(int(entry["seat"]), str(entry["card"])) for entry in view["trick"]]
    taken = [list(view["taken"][0]), list(view["taken"][1])]
    hidden = unseen(PACK, view["hand"], [card for _seat, card in trick], *taken)
    rng.shuffle(hidden)
    hands: list[list[str]] = [[], []]
    hands[seat] = list(view["hand"])
    hands[1 - seat] = take(hidden, int(view["hand_sizes"][1 - seat]))
    first = f"first_{GAME.first_seat_role}_option"
    data = {
        "game": GAME.name, "seed": rng.randrange(2**31), GAME.goal: view["deals"], first: None,
        "decks": [], "deal": int(view["deal"]) - 1, "dealer": view["dealer"],
        "totals": view["scores"], "history": view["history"], "last": None, "result": None,
        "turn": view["to_move"], "hands": hands, "stock": hidden, "trick": trick, "taken": taken,
    }  # fmt: skip
    return ToyState.load(data)


def playout(state: State, moves: list[str], rng: random.Random) -> str:
    return rng.choice(moves)


def greedy(view: Json, rng: random.Random) -> str:
    """Lead the highest card; answer with the lowest card that takes the trick, or else the
    lowest card of all."""
    hand = sorted(view["hand"], key=rank_of)
    if not view["trick"]:
        return f"play {hand[-1]}"
    led = rank_of(str(view["trick"][0]["card"]))
    taking = [card for card in hand if rank_of(card) > led]
    return f"play {(taking or hand)[0]}"


GAME_AI = GameAI(
    name=GAME.name,
    determinize=determinize,
    playout=playout,
    greedy=greedy,
    horizon=lambda view: int(view["hand_sizes"][0]) + int(view["hand_sizes"][1]),
    counts=lambda move: True,
    win_value=2.0,
    strong=120,
)
