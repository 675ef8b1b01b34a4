"""Piquet: the unseen cards, a playout policy and the greedy rules."""

from __future__ import annotations

import json
import random
from itertools import combinations, pairwise

import games
from ai.base import GameAI, Json, cards_in, layout, take, unseen, view_of
from games import State
from games.cards import PIQUET_PACK

RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
RANK = {card: RANKS.index(card[:-1]) for card in PIQUET_PACK}
HAND, ELDER_TALON, YOUNGER_TALON = 12, 5, 3
MOST = (ELDER_TALON, YOUNGER_TALON)
CANDIDATES = 6  # discards searched: the best few by the rules of thumb below
PLAYOUT_NOISE = 0.3  # the share of random cards in a playout's tricks


def determinize(view: Json, rng: random.Random) -> State:
    """Deal the unseen cards between the opponent's hand and discards, the untaken talon
    cards the seat has not seen, and the cards played before the last trick."""
    seat = int(view["seat"])
    opp = 1 - seat
    elder = int(view["elder"])
    exchanged = list(view["exchanged"])
    talons = [int(n) for n in view["talons"]]
    trick = cards_in(view["trick"])
    last = view["last_trick"]
    last_cards = cards_in(last["cards"]) if last else []
    seen = list(view["talon_seen"])
    hidden = unseen(PIQUET_PACK, view["hand"], view["discarded"], seen, trick, last_cards)
    rng.shuffle(hidden)
    other = take(hidden, int(view["hand_sizes"][opp]))
    opp_index = 0 if opp == elder else 1
    thrown = take(hidden, int(exchanged[opp_index] or 0))
    # The untaken talon cards: the seat's own leftovers are seen, the others are not.
    mine_index = 1 - opp_index
    leftovers: list[list[str]] = [[], []]
    for index in (0, 1):
        if index == mine_index and exchanged[index] is not None:
            leftovers[index] = seen
        else:
            leftovers[index] = take(hidden, talons[index])
    played = take(hidden, 2 * sum(int(n) for n in view["tricks_won"]) - len(last_cards))
    if hidden:
        raise ValueError("the view's counts do not fit the unseen cards")
    fixed = {}
    for index, start, size in (
        (0, 2 * HAND, ELDER_TALON),
        (1, 2 * HAND + ELDER_TALON, YOUNGER_TALON),
    ):
        first = start + size - len(leftovers[index])
        fixed.update({first + i: c for i, c in enumerate(leftovers[index])})
    rest = [*view["hand"], *other, *view["discarded"], *thrown, *trick, *last_cards, *played]
    deck = layout(len(PIQUET_PACK), fixed, rest)
    hands = [list(view["hand"]), other]
    discards = [list(view["discarded"]), thrown]
    if seat == 1:
        hands.reverse()
        discards.reverse()
    declarations = view["declarations"]
    data = {
        "game": "piquet",
        "seed": rng.getrandbits(31),
        "deals": view["deals"],
        "first_dealer_option": None,
        "decks": [],
        "deal": int(view["deal"]) - 1,
        "dealer": view["dealer"],
        "deck": deck,
        "hands": hands,
        "discards": discards,
        "exchanged": exchanged,
        "turn": view["to_move"],
        "lead": trick[0] if trick else None,
        "played": [*last_cards, *played],
        "tricks": view["tricks_won"],
        "last_trick": (
            None
            if last is None
            else [last["cards"][0]["seat"], last_cards[0], last_cards[1], last["winner"]]
        ),
        "scores": view["scores"],
        "deal_scores": view["deal_scores"],
        "bonus": any(d["kind"] in ("repique", "pique") for d in declarations),
        "declarations": [[d["seat"], d["kind"], d["text"], d["points"]] for d in declarations],
        "history": view["deal_history"],
        "last": None,
        "result": None,
    }
    return games.get("piquet").from_json(json.dumps(data))


def keep_value(kept: list[str]) -> float:
    """Rules of thumb for a hand after the exchange: high cards, long suits (the point),
    runs (sequences) and three or four of a rank from the ten up (sets)."""
    value = 0.0
    by_suit: dict[str, list[int]] = {}
    by_rank: dict[int, int] = {}
    for card in kept:
        rank = RANK[card]
        value += (0, 0, 0, 1, 1, 2, 3, 4)[rank]
        by_suit.setdefault(card[-1], []).append(rank)
        by_rank[rank] = by_rank.get(rank, 0) + 1
    for ranks in by_suit.values():
        value += 1.5 * len(ranks) * len(ranks) / 4
        ranks.sort()
        run = best = 1
        for a, b in pairwise(ranks):
            run = run + 1 if b == a + 1 else 1
            best = max(best, run)
        if best >= 3:
            value += 2 * best
    for rank, count in by_rank.items():
        if rank >= 3 and count >= 3:
            value += 3 * count
    return value


def ranked_discards(hand: list[str], moves: list[str]) -> list[str]:
    """The legal discards, best first by :func:`keep_value` of the cards kept (taking more
    new cards is worth a little: the talon's cards are on average as good as ours)."""
    legal = set(moves)
    scored = []
    for count in range(len(hand) + 1):
        if count > 5:
            break
        for thrown in combinations(hand, count):
            move = " ".join(("discard", *thrown))
            if move in legal:
                kept = [c for c in hand if c not in thrown]
                scored.append((keep_value(kept) + 1.2 * count, move))
    scored.sort(key=lambda item: -item[0])
    return [move for _value, move in scored]


def quick_discard(hand: list[str], most: int) -> str:
    """The lowest cards outside the longest suit, as many as allowed (for playouts)."""
    lengths = {s: sum(1 for c in hand if c[-1] == s) for s in "SHDC"}
    order = sorted(hand, key=lambda c: (RANK[c] + 2 * lengths[c[-1]], c))
    return " ".join(("discard", *games.sort_cards(order[:most])))


def candidates(view: Json, moves: list[str]) -> list[str]:
    if not moves[0].startswith("discard"):
        return moves
    return ranked_discards(list(view["hand"]), moves)[:CANDIDATES]


def rules(view: Json, rng: random.Random) -> str:
    """The greedy player: exchange the cards whose loss hurts the hand least; take a trick
    with the cheapest winning card, otherwise play the lowest; lead the highest card of the
    longest suit."""
    moves: list[str] = [str(m) for m in view["legal_moves"]]
    hand = list(view["hand"])
    if moves[0].startswith("discard"):
        return ranked_discards(hand, moves)[0]
    playable = [m[5:] for m in moves]
    trick = view["trick"]
    if trick:
        led = str(trick[0]["card"])
        winners = [c for c in playable if c[-1] == led[-1] and RANK[c] > RANK[led]]
        if winners:
            return "play " + min(winners, key=RANK.__getitem__)
        return "play " + min(playable, key=RANK.__getitem__)
    lengths = {s: sum(1 for c in hand if c[-1] == s) for s in "SHDC"}
    return "play " + max(playable, key=lambda c: (lengths[c[-1]], RANK[c]))


def greedy(view: Json, rng: random.Random) -> str:
    return rules(view, rng)


def playout(state: State, moves: list[str], rng: random.Random) -> str:
    if moves[0].startswith("discard"):
        seat = state.to_move
        view = view_of(state, seat)
        move = quick_discard(list(view["hand"]), MOST[seat != view["elder"]])
        return move if move in moves else rng.choice(moves)
    # Tricks by the rules of thumb mostly: purely random tricks gave the search's playouts
    # too little signal to tell a good exchange or lead from a bad one.
    if rng.random() < PLAYOUT_NOISE:
        return rng.choice(moves)
    return rules(view_of(state, state.to_move), rng)


GAME_AI = GameAI(
    name="piquet",
    determinize=determinize,
    playout=playout,
    greedy=greedy,
    # The deal ends with its twelfth trick: count the cards still to be played.
    horizon=lambda view: int(view["hand_sizes"][0]) + int(view["hand_sizes"][1]),
    counts=lambda move: move.startswith("play"),
    win_value=100.0,
    strong=500,
    candidates=candidates,
)
