"""Bézigue: the unseen cards, a playout policy and the greedy rules."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import games
from ai.base import GameAI, Json, cards_in, layout, register, take, unseen, view_of
from games import State
from games.bezique import MELDS
from games.cards import DOUBLE_PACK

ORDER = ("7", "8", "9", "J", "Q", "K", "10", "A")  # trick order, low to high
POWER = {card: ORDER.index(card[:-1]) for card in DOUBLE_PACK}
SUITS4 = ("S", "H", "D", "C")
PHASES = ("lead", "follow", "score")
DECK_SIZE, TURN_UP_AT = 64, 16
SEVEN_DECLARED = "seven of trumps (declare)"


def brisque(card: str) -> bool:
    return card[:-1] in ("10", "A")


def table_levels(view: Json) -> list[list[list[object]]]:
    """Each seat's table cards with the meld levels they have served at (rules D7), worked
    out from the deal's public list of melds: each meld takes, among the copies still on the
    table, the most-served one that may still serve in its class."""
    tables: list[list[list[object]]] = [
        [[card, 0, 0, 0] for card in view["table"][seat]] for seat in (0, 1)
    ]
    for meld_seen in view["melds"]:
        meld = MELDS.get("meld " + " ".join(games.sort_cards(meld_seen["cards"])))
        if meld is None:
            continue
        table = tables[int(meld_seen["seat"])]
        used: set[int] = set()
        for card in meld.cards:
            eligible = [
                i
                for i, entry in enumerate(table)
                if entry[0] == card and i not in used and int(str(entry[1 + meld.cls])) < meld.level
            ]
            if eligible:
                i = max(eligible, key=lambda i: sum(int(str(x)) for x in table[i][1:]))
                used.add(i)
                table[i][1 + meld.cls] = meld.level
    return tables


def determinize(view: Json, rng: random.Random) -> State:
    """Deal the unseen cards between the opponent's hand, the stock and the tricks each side
    has won, so that each side's won cards hold exactly the brisques the view counts."""
    for state in _candidates(view, rng):
        if state.to_move != view["seat"] or state.legal_moves() == view["legal_moves"]:
            return state
    raise ValueError("no deal fits the view")


def _candidates(view: Json, rng: random.Random) -> Iterator[State]:
    seat = int(view["seat"])
    opp = 1 - seat
    trump = str(view["trump"])
    turn_up = view["turn_up"]
    trick = cards_in(view["trick"])
    last = view["last_trick"]
    last_cards = cards_in(last["cards"]) if last else []
    table = [c for side in view["table"] for c in side]
    hidden = unseen(
        DOUBLE_PACK, view["hand"], table, trick, last_cards, [turn_up] if turn_up else []
    )
    rng.shuffle(hidden)
    # Won tricks first: the brisques they hold are counted in the view.
    won: list[list[str]] = [[], []]
    pool_b = [c for c in hidden if brisque(c)]
    pool_n = [c for c in hidden if not brisque(c)]
    for side in (0, 1):
        known = last_cards if last and last["winner"] == side else []
        size = 2 * int(view["tricks_won"][side]) - len(known)
        need_b = int(view["brisques"][side]) - sum(1 for c in known if brisque(c))
        need_b = max(0, min(need_b, size, len(pool_b)))
        won[side] = known + take(pool_b, need_b) + take(pool_n, size - need_b)
    hidden = pool_b + pool_n
    rng.shuffle(hidden)
    other = take(hidden, int(view["hand_sizes"][opp]))
    stock = hidden  # the rest: the stock, without its turn-up
    if len(stock) != max(0, int(view["stock"]) - (1 if turn_up else 0)):
        raise ValueError("the view's counts do not fit the unseen cards")
    pos = DECK_SIZE - len(stock) if turn_up else DECK_SIZE
    fixed = {pos + i: c for i, c in enumerate(stock)}
    rest = [*view["hand"], *other, *table, *trick, *won[0], *won[1]]
    if turn_up:
        rest.append(turn_up)
    # The deck's turn-up position fixes the trump suit: put a trump there.
    anchor = next(i for i, c in enumerate(rest) if c[-1] == trump)
    fixed[TURN_UP_AT] = rest.pop(anchor)
    deck = layout(DECK_SIZE, fixed, rest)
    hands = [list(view["hand"]), games.sort_cards(other)]
    trump_seven = "7" + trump
    declared = [
        sum(1 for m in view["melds"] if m["seat"] == side and m["name"] == SEVEN_DECLARED)
        for side in (0, 1)
    ]
    scored = [min(declared[seat], hands[0].count(trump_seven)), 0]
    scored[1] = min(declared[opp], hands[1].count(trump_seven))
    if seat == 1:
        hands.reverse()
        scored.reverse()
    phase = str(view["phase"])
    data = {
        "game": "bezique",
        "seed": rng.getrandbits(31),
        "target": view["target"],
        "first_dealer_option": None,
        "decks": [],
        "deal": int(view["deal"]) - 1,
        "dealer": view["dealer"],
        "deck": deck,
        "pos": pos,
        "turn_up": turn_up,
        "hands": hands,
        "tables": table_levels(view),
        "scored_sevens": scored,
        "trick": trick,
        "leader": view["trick"][0]["seat"] if trick else view["to_move"],
        "turn": view["to_move"],
        "phase": PHASES.index(phase),
        "melded": False,
        "sevened": False,
        "won": won,
        "last_trick": (
            None if last is None else [last_cards, last["cards"][0]["seat"], last["winner"]]
        ),
        "totals": view["scores"],
        "deal_scores": view["deal_scores"],
        "melds": [[m["seat"], m["name"], m["cards"], m["points"]] for m in view["melds"]],
        "history": view["deal_history"],
        "last": None,
        "result": None,
    }
    game = games.get("bezique")
    if phase != "score":
        yield game.from_json(json.dumps(data))
        return
    # After a trick the winner may meld once and act on a seven once, and a seven declared
    # earlier may since have been played (the scored one goes first): which of these is
    # spent shows in the moves offered.
    mover = int(view["to_move"])
    guess = scored[mover]
    for held in dict.fromkeys((guess, *range(hands[mover].count(trump_seven) + 1))):
        scored[mover] = held
        data["scored_sevens"] = list(scored)
        for melded in (False, True):
            for sevened in (False, True):
                data["melded"], data["sevened"] = melded, sevened
                yield game.from_json(json.dumps(data))


def meld_points(move: str, trump: str) -> int:
    meld = MELDS.get(move)
    return 0 if meld is None else meld.points(SUITS4.index(trump))


def beats(card: str, led: str, trump: str) -> bool:
    if card[-1] == led[-1]:
        return POWER[card] > POWER[led]
    return card[-1] == trump


def rules(view: Json, rng: random.Random) -> str:
    """The greedy player: score the richest meld, then the seven (exchange before declare),
    then draw. Lead the cheapest card that is neither a trump nor a brisque nor a meld piece;
    take a brisque led with the cheapest winning card, else give the cheapest card. In the
    last eight tricks take the trick as cheaply as possible, else give the cheapest card."""
    moves: list[str] = [str(m) for m in view["legal_moves"]]
    trump = str(view["trump"])
    if view["phase"] == "score":
        melds = [m for m in moves if m.startswith("meld")]
        if melds:
            return max(melds, key=lambda m: meld_points(m, trump))
        for move in ("exchange", "declare 7", "draw"):
            if move in moves:
                return move
    playable = [m[5:] for m in moves if m.startswith("play ")]

    def cost(card: str) -> tuple[int, int, int]:
        piece = card in ("QS", "JD") or card[:-1] in ("K", "Q") or card == "A" + trump
        return (card[-1] == trump, brisque(card) or piece, POWER[card])

    trick = view["trick"]
    if trick:
        led = str(trick[0]["card"])
        winners = [c for c in playable if beats(c, led, trump)]
        if winners and (view["stage"] == 2 or brisque(led)):
            return "play " + min(winners, key=cost)
    return "play " + min(playable, key=cost)


def greedy(view: Json, rng: random.Random) -> str:
    return rules(view, rng)


def playout(state: State, moves: list[str], rng: random.Random) -> str:
    first = moves[0]
    if first.startswith("meld") or first in ("exchange", "declare 7", "draw"):
        # Scoring after a trick: the meld with the most cards is usually the richest.
        melds = [m for m in moves if m.startswith("meld")]
        if melds:
            return max(melds, key=len)
        return "exchange" if "exchange" in moves else moves[0]
    return rng.choice(moves)


def estimate(state: State, seat: int) -> float:
    """The brisques each side has won count 10 at the end of the deal (rules D12)."""
    brisques = view_of(state, None)["brisques"]
    return 10.0 * float(brisques[seat] - brisques[1 - seat])


GAME_AI = register(
    GameAI(
        name="bezique",
        determinize=determinize,
        playout=playout,
        greedy=greedy,
        # The deal ends when every card has been played: hands, tables and the stock.
        horizon=lambda view: (
            int(view["stock"])
            + sum(int(n) for n in view["hand_sizes"])
            + sum(len(side) for side in view["table"])
        ),
        counts=lambda move: move.startswith("play"),
        win_value=300.0,
        strong=300,
        depth=24,
        estimate=estimate,
    )
)
