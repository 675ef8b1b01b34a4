"""Écarté: the unseen cards, a playout policy and the greedy rules."""

from __future__ import annotations

import json
import random

import games
from ai.base import GameAI, Json, cards_in, layout, register, take, unseen, view_of
from games import State
from games.cards import PIQUET_PACK

RANKS_LOW_TO_HIGH = ("7", "8", "9", "10", "A", "J", "Q", "K")  # the ace between ten and jack
POWER = {card: RANKS_LOW_TO_HIGH.index(card[:-1]) for card in PIQUET_PACK}
PHASES = ("propose", "respond", "discard", "play")
TURN_UP = 10


def determinize(view: Json, rng: random.Random) -> State:
    """Deal the unseen cards between the opponent's hand, the opponent's face-down discards
    and the stock. An announced king of trumps not yet played stays in the announcer's hand."""
    seat = int(view["seat"])
    opp = 1 - seat
    played = cards_in(view["trick"]) + [c for t in view["tricks"] for c in cards_in(t["cards"])]
    turn_up = str(view["turn_up"])
    hidden = unseen(PIQUET_PACK, view["hand"], view["discarded"], played, [turn_up])
    forced = []
    king = "K" + str(view["trump"])
    if view["king"] == opp and king in hidden:
        hidden.remove(king)
        forced.append(king)
    rng.shuffle(hidden)
    other = forced + take(hidden, int(view["hand_sizes"][opp]) - len(forced))
    thrown = take(hidden, sum(int(e["count"]) for e in view["exchanges"] if e["seat"] == opp))
    stock = take(hidden, int(view["stock"]))
    if hidden:
        raise ValueError("the view's counts do not fit the unseen cards")
    pos = len(PIQUET_PACK) - len(stock)
    fixed = {TURN_UP: turn_up, **{pos + i: c for i, c in enumerate(stock)}}
    deck = layout(
        len(PIQUET_PACK), fixed, [*view["hand"], *other, *view["discarded"], *thrown, *played]
    )
    hands = [list(view["hand"]), games.sort_cards(other)]
    discards = [list(view["discarded"]), games.sort_cards(thrown)]
    if seat == 1:
        hands.reverse()
        discards.reverse()
    data = {
        "game": "ecarte",
        "seed": rng.getrandbits(31),
        "target": view["target"],
        "first_dealer_option": None,
        "decks": [],
        "deal": int(view["deal"]) - 1,
        "dealer": view["dealer"],
        "deck": deck,
        "pos": pos,
        "hands": hands,
        "discards": discards,
        "phase": PHASES.index(view["phase"]),
        "turn": view["to_move"],
        "committed": view["committed"],
        "proposals": view["proposals"],
        "exchanges": [[e["seat"], e["count"]] for e in view["exchanges"]],
        "king": view["king"],
        "trick": [[e["seat"], e["card"]] for e in view["trick"]],
        "tricks": [
            [[[e["seat"], e["card"]] for e in t["cards"]], t["winner"]] for t in view["tricks"]
        ],
        "points": view["deal_scores"],
        "totals": view["scores"],
        "history": view["hand_scores"],
        "previous": None,
        "last": None,
        "result": None,
    }
    return games.get("ecarte").from_json(json.dumps(data))


def strength(hand: list[str], trump: str) -> int:
    """A rough worth of a hand: trumps count double, kings and queens once."""
    score = 0
    for card in hand:
        if card[-1] == trump:
            score += 2 + (1 if card[:-1] in ("K", "Q", "J") else 0)
        elif card[:-1] in ("K", "Q"):
            score += 1
    return score


def beats(card: str, led: str, trump: str) -> bool:
    if card[-1] == led[-1]:
        return POWER[card] > POWER[led]
    return card[-1] == trump


def rules(view: Json, rng: random.Random) -> str:
    """The greedy player: announce the king; play a strong hand (propose with a weak one,
    accept a proposal with a weak one); throw away every card that is neither a trump nor a
    king; take a trick with the cheapest card that wins it, otherwise play the lowest; lead
    the highest trump when holding two or more, otherwise the highest card."""
    moves: list[str] = [str(m) for m in view["legal_moves"]]
    trump = str(view["trump"])
    hand = list(view["hand"])
    if "king" in moves:
        return "king"
    strong = strength(hand, trump) >= 5
    if "propose" in moves and not strong:
        return "propose"
    if "accept" in moves:
        return "refuse" if strong else "accept"
    if moves[0].startswith("discard"):
        keep = [c for c in hand if c[-1] == trump or c[:-1] == "K"]
        throw = [c for c in hand if c not in keep]
        options = {frozenset(m.split()[1:]): m for m in moves}
        while throw:
            move = options.get(frozenset(throw))
            if move is not None:
                return move
            throw.remove(max(throw, key=lambda c: POWER[c]))  # too many: keep the best
        if frozenset() in options:
            return options[frozenset()]
        lowest = min(hand, key=lambda c: (c[-1] == trump, POWER[c]))
        return options.get(frozenset([lowest]), moves[0])
    playable = [m[5:] for m in moves if m.startswith("play ")]
    trick = view["trick"]
    if trick:
        led = str(trick[0]["card"])
        winners = [c for c in playable if beats(c, led, trump)]
        if winners:
            return "play " + min(winners, key=lambda c: (c[-1] == trump, POWER[c]))
        return "play " + min(playable, key=lambda c: (c[-1] == trump, POWER[c]))
    trumps = [c for c in playable if c[-1] == trump]
    if len(trumps) >= 2:
        return "play " + max(trumps, key=POWER.__getitem__)
    return "play " + max(playable, key=lambda c: (c[-1] != trump, POWER[c]))


def greedy(view: Json, rng: random.Random) -> str:
    return rules(view, rng)


def playout(state: State, moves: list[str], rng: random.Random) -> str:
    if rng.random() < 0.25:
        return rng.choice(moves)
    return rules(view_of(state, state.to_move), rng)


GAME_AI = register(
    GameAI(
        name="ecarte",
        determinize=determinize,
        playout=playout,
        greedy=greedy,
        # The hand ends with its last trick: count the cards still to be played.
        horizon=lambda view: int(view["hand_sizes"][0]) + int(view["hand_sizes"][1]),
        counts=lambda move: move.startswith("play"),
        win_value=4.0,
        strong=600,
    )
)
