"""Bézigue: the unseen cards, a playout policy and the greedy rules."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import cast

import games
import games.bezique as bz
from ai.base import GameAI, Json, cards_in, layout, register, take, unseen
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


# -- the playout policy ------------------------------------------------------------------------
# Playouts read the determinized state's own fields (it is a full deal invented for the
# search, so nothing hidden is read) and decide on the engine's int cards: a playout policy
# runs thousands of times a decision, and the view it would otherwise build costs more than
# the move.
PLAYOUT_NOISE = 0.15
"""The share of random cards in a playout's tricks, so playouts do not all follow one line."""
MELD_CHANCE = 15
"""What winning a stage-1 trick is worth beyond its brisques (the lead, the first draw, a
chance to meld), in points; a meld ready to be laid counts its own points instead."""


def _keep_values(trump: int) -> tuple[int, ...]:
    """What a card is worth keeping in hand in stage 1, apart from its brisque (bezique D9):
    its trick power, more in trumps (they take brisques, chiefly in the last eight tricks),
    and what it may still meld: kings and queens (marriages, fours), the bezique cards, the
    trump sequence, the aces (four aces)."""
    values = []
    for card in range(32):
        suit, rank = card >> 3, card & 7
        value = bz.POWER[card]
        if suit == trump:
            value += 8
            if rank in (bz.TEN, bz.JACK, bz.QUEEN, bz.KING, bz.ACE):
                value += 6  # the sequence (250)
        if rank in (bz.QUEEN, bz.KING):
            value += 6  # marriages, four queens or kings
        if card in (bz.QS, bz.JD):
            value += 12  # bezique, double bezique
        if rank == bz.ACE:
            value += 4  # four aces
        elif rank == bz.JACK:
            value += 2  # four jacks
        values.append(value)
    return tuple(values)


KEEP = tuple(_keep_values(trump) for trump in range(4))
BRISQUE_POINTS = bz.BRISQUE


def _meld_points(move: str, trump: int) -> int:
    meld = bz.MELDS.get(move)
    return 0 if meld is None else meld.points(trump)


def _beats(card: int, led: int, trump: int) -> bool:
    if card >> 3 == led >> 3:
        return bz.POWER[card] > bz.POWER[led]
    return card >> 3 == trump


def playout(state: State, moves: list[str], rng: random.Random) -> str:
    """Rules of thumb for both sides, with a little noise. After a trick, the richest meld,
    then the seven. In stage 1 lead the card least worth keeping; take a trick when what it
    holds (brisques) and what winning brings (a meld to lay) pay for the card it costs. In
    the last eight tricks take the trick as cheaply as possible, else give the least."""
    at = cast(bz.BeziqueState, state).position()
    trump = at.trump
    first = moves[0]
    if not first.startswith("play"):
        melds = [m for m in moves if m.startswith("meld")]
        if melds:
            return max(melds, key=lambda m: _meld_points(m, trump))
        return "exchange" if "exchange" in moves else moves[0]
    if rng.random() < PLAYOUT_NOISE:
        return rng.choice(moves)
    cards = [bz.INDEX[m[5:]] for m in moves]
    keep = KEEP[trump]
    trick = at.trick
    if at.last_eight:  # stage 2: the legal moves already follow bezique D8
        if trick:
            led = trick[0]
            winners = [c for c in cards if _beats(c, led, trump)]
            if winners:
                return bz.PLAY_MOVE[min(winners, key=bz.POWER.__getitem__)]
            return bz.PLAY_MOVE[min(cards, key=lambda c: (BRISQUE_POINTS[c], bz.POWER[c]))]
        # Lead a plain ace (a sure trick while the opponent holds the suit), else the least.
        aces = [c for c in cards if c & 7 == bz.ACE and c >> 3 != trump]
        if aces:
            return bz.PLAY_MOVE[aces[0]]
        return bz.PLAY_MOVE[min(cards, key=lambda c: (BRISQUE_POINTS[c], keep[c]))]
    if not trick:
        return bz.PLAY_MOVE[min(cards, key=lambda c: keep[c] + BRISQUE_POINTS[c])]
    led = trick[0]
    seat = at.turn
    assert seat is not None
    loser = min(cards, key=lambda c: keep[c] + BRISQUE_POINTS[c])
    winners = [c for c in cards if _beats(c, led, trump)]
    if not winners:
        return bz.PLAY_MOVE[loser]
    winner = min(winners, key=keep.__getitem__)
    ready = bz.meld_moves(at.hands[seat], at.tables[seat], trump)
    gain = BRISQUE_POINTS[led] + max((_meld_points(m, trump) for m in ready), default=MELD_CHANCE)
    if keep[winner] - gain < keep[loser] + BRISQUE_POINTS[loser]:
        return bz.PLAY_MOVE[winner]
    return bz.PLAY_MOVE[loser]


def estimate(state: State, seat: int) -> float:
    """The brisques each side has won count 10 at the end of the deal (rules D9)."""
    won = cast(bz.BeziqueState, state).position().won
    points = bz.BRISQUE
    return float(sum(points[c] for c in won[seat]) - sum(points[c] for c in won[1 - seat]))


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
        # 600 playouts: twice the earlier budget, p99 about half a second a decision.
        strong=600,
        depth=24,
        estimate=estimate,
    )
)
