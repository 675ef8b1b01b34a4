"""Bézigue: the unseen cards, a playout policy and the greedy rules."""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Iterator
from typing import cast

import games
import games.bezique as bz
from ai.base import GameAI, Json, cards_in, layout, take, unseen
from ai.search import value
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
    if phase != "score":
        yield _load(data)
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
                yield _load(data)


def _load(data: Json) -> State:
    """What ``from_json`` makes of the data's JSON text, without the round trip: the data is
    plain already, and every field is read into a new tuple (the candidates reuse the dict)."""
    try:
        return bz.BeziqueState.load(data)
    except (KeyError, TypeError, IndexError, AttributeError) as error:
        raise ValueError(f"unreadable Bézigue state: {error!r}") from None


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


# -- the same playouts, cheaper -----------------------------------------------------------------
# :func:`play_out` plays :func:`playout` against itself as ai.search.playout would, move for
# move and draw for draw, but on the position's ints instead of the engine's moves: a playout
# step through the engine (legal moves as strings, a state copied a move) cost more than the
# policy itself did.
LEAD_KEY = tuple(tuple(k + BRISQUE_POINTS[c] for c, k in enumerate(keep)) for keep in KEEP)
"""Stage 1: what leading or giving a card costs, its keep value and its brisque."""
LAST_GIVE = tuple(BRISQUE_POINTS[c] + bz.POWER[c] for c in range(32))
"""Stage 2: (brisque, power) as one int (a brisque's 10 outweighs any power)."""
LAST_LEAD = tuple(tuple(bz.IS_BRISQUE[c] * 1000 + keep[c] for c in range(32)) for keep in KEEP)
"""Stage 2: (brisque, keep value) as one int."""
PLAIN_ACES = tuple(
    frozenset(c for c in range(32) if c & 7 == bz.ACE and c >> 3 != trump) for trump in range(4)
)
SERVED = tuple(
    ((((a + b + c) * 4 + a) * 4 + b) * 4 + c)
    for copy in range(2048)
    for a, b, c in [((copy >> 5) & 3, (copy >> 7) & 3, (copy >> 9) & 3)]
)
"""How much a table copy has served (bezique D10), as one int ordered like the engine's
(level sum, A, B, C): the copy played first is the most served."""
TAKES = tuple(
    tuple(_beats(card & 31, card >> 5, trump) for card in range(1024)) for trump in range(4)
)
"""Whether a card (low five bits) played to another (high five bits) takes the trick."""
MELD_MOST = max(meld.points(trump) for meld in MELDS.values() for trump in range(4))
FOUR_RANKS = (bz.JACK, bz.QUEEN, bz.KING, bz.ACE)
RANK_MASKS = tuple(sum(1 << (suit * 8 + rank) for suit in range(4)) for rank in FOUR_RANKS)
Worth = tuple[bz.Meld, int, int]
"""A meld, its points, the mask of the cards it needs."""


def _worth_order(trump: int) -> tuple[Worth, Worth, Worth, Worth, tuple[Worth, ...]]:
    """The melds other than fours that :func:`playout` may lay, richest first: the double
    bezique, the sequence, the trump marriage, the bezique, the plain marriages (of equal
    worth, in :func:`games.bezique.meld_moves`' order, as max() takes the first); each with
    its points and the cards it needs as a bit mask."""

    def worth(meld: bz.Meld) -> Worth:
        return meld, meld.points(trump), sum(1 << card for card, _ in meld.need)

    plain = tuple(worth(bz.MARRIAGES[s]) for s in range(4) if s != trump)
    return (
        worth(bz.DOUBLE),
        worth(bz.SEQUENCES[trump]),
        worth(bz.MARRIAGES[trump]),
        worth(bz.BEZIQUE),
        plain,
    )


WORTH_ORDER = tuple(_worth_order(trump) for trump in range(4))
_BEST: dict[tuple[int, bz.Hand, bz.Hand], Worth | None] = {}


def _fours(hand: bz.Hand, table: bz.Hand, trump: int) -> dict[int, Worth]:
    """The four of each rank :func:`games.bezique.meld_moves` offers first, by rank: copies
    unused in a four, at most two a suit."""
    free = [0] * 32
    for card in hand:
        free[card] += 1
    for copy in table:
        if not (copy >> 9) & 3:  # unused in a four (class C)
            free[copy & 31] += 1
    fours: dict[int, Worth] = {}
    for rank in FOUR_RANKS:
        s, h, d, c = free[rank], free[8 + rank], free[16 + rank], free[24 + rank]
        if s + h + d + c >= 4:
            meld = MELDS[bz.FOURS[rank][s * 27 + h * 9 + d * 3 + c][0]]
            fours[rank] = (meld, meld.points(trump), 0)
    return fours


def best_meld(hand: bz.Hand, table: bz.Hand, trump: int) -> Worth | None:
    """The meld :func:`playout` lays (the first of the richest that
    :func:`games.bezique.meld_moves` offers) and its points; None if none can be laid. The
    same hands and tables come back often across playouts, so the answers are kept."""
    key = (trump, hand, table)
    if key in _BEST:
        return _BEST[key]
    if len(_BEST) >= 50_000:  # a decision makes a few thousand
        _BEST.clear()
    # The cards held once or more, and twice, in hand or on the table: a quick refusal of
    # the melds lacking a card (most hands lay nothing) before the rules' full test.
    once = twice = 0
    for card in hand:
        bit = 1 << card
        twice |= once & bit
        once |= bit
    for copy in table:
        bit = 1 << (copy & 31)
        twice |= once & bit
        once |= bit
    double, sequence, trump_marriage, bezique, plain = WORTH_ORDER[trump]
    best: Worth | None = None
    if twice & double[2] == double[2] and bz.feasible(double[0], hand, table):
        best = double
    elif once & sequence[2] == sequence[2] and bz.feasible(sequence[0], hand, table):
        best = sequence
    else:
        # A four needs four copies of its rank, in hand or on the table.
        fours: dict[int, Worth] = {}
        for mask in RANK_MASKS:
            if (once & mask).bit_count() + (twice & mask).bit_count() >= 4:
                fours = _fours(hand, table, trump)
                break
        if bz.ACE in fours:
            best = fours[bz.ACE]
        elif bz.KING in fours:
            best = fours[bz.KING]
        elif bz.QUEEN in fours:
            best = fours[bz.QUEEN]
        elif once & trump_marriage[2] == trump_marriage[2] and bz.feasible(
            trump_marriage[0], hand, table
        ):
            best = trump_marriage
        elif once & bezique[2] == bezique[2] and bz.feasible(bezique[0], hand, table):
            best = bezique
        elif bz.JACK in fours:
            best = fours[bz.JACK]
        else:
            for meld in plain:
                if once & meld[2] == meld[2] and bz.feasible(meld[0], hand, table):
                    best = meld
                    break
    _BEST[key] = best
    return best


_LAID: dict[tuple[str, bz.Hand, bz.Hand], tuple[bz.Hand, bz.Hand]] = {}


def _lay(meld: bz.Meld, hand: bz.Hand, table: bz.Hand) -> tuple[bz.Hand, bz.Hand]:
    """:func:`games.bezique.lay_meld`, its answers kept: the same melds are laid from the
    same hands in many playouts of a decision."""
    key = (meld.move, hand, table)
    if key in _LAID:
        return _LAID[key]
    if len(_LAID) >= 20_000:
        _LAID.clear()
    laid = _LAID[key] = bz.lay_meld(meld, hand, table)
    return laid


def _without(cards: bz.Hand, card: int) -> bz.Hand:
    i = cards.index(card)
    return cards[:i] + cards[i + 1 :]


def _with(cards: bz.Hand, card: int) -> bz.Hand:
    new = list(cards)
    insort(new, card)
    return tuple(new)


def play_out(state: State, seat: int, left: int, rng: random.Random) -> float:
    """:func:`ai.search.playout` with :func:`playout` for both sides and :func:`estimate`,
    the same value from the same random numbers, on the position read once: a card is an
    int, a hand a sorted tuple, the tricks won count only their brisques. ``left`` never
    runs past the deal's end (the search's horizon): the playout stops there."""
    bstate = cast(bz.BeziqueState, state)
    if left <= 0 or state.result is not None:
        return value(GAME_AI, state, seat)
    at = bstate.position()
    trump = at.trump
    seven = trump * 8 + bz.SEVEN
    keep, lead_key, last_lead = KEEP[trump], LEAD_KEY[trump], LAST_LEAD[trump]
    plain_aces, takes = PLAIN_ACES[trump], TAKES[trump]
    power, brisque = bz.POWER, BRISQUE_POINTS
    hands = list(at.hands)
    tables = list(at.tables)
    won = [sum(brisque[c] for c in at.won[0]), sum(brisque[c] for c in at.won[1])]
    totals = list(state.scores)
    scored7 = list(at.scored_sevens)
    stock, drawn, turn_up = at.stock, 0, at.turn_up
    phase, turn, leader = at.phase, at.turn, at.leader
    melded, sevened = at.melded, at.sevened
    led = at.trick[0] if at.trick else -1
    goal = at.goal
    winner: int | None = None
    random_ = rng.random
    assert turn is not None
    while left > 0:
        if phase == bz.SCORE:
            # The trick's winner lays the richest meld, then the seven (the exchange first),
            # then whatever they opened; then both draw (bezique D6, D11).
            hand, table = hands[turn], tables[turn]
            while True:
                found = None if melded else best_meld(hand, table, trump)
                if found is not None:
                    hand, table = _lay(found[0], hand, table)
                    melded = True
                    totals[turn] += found[1]
                elif not sevened and hand.count(seven) > scored7[turn]:
                    sevened = True
                    if turn_up & 7 != bz.SEVEN:
                        hand, turn_up = _with(_without(hand, seven), turn_up), seven
                    else:
                        scored7[turn] += 1
                    totals[turn] += 10
                else:
                    break
                if totals[turn] >= goal:
                    winner = turn
                    break
            hands[turn], tables[turn] = hand, table
            if winner is not None:
                break
            first = stock[drawn]
            if drawn + 1 < len(stock):
                second = stock[drawn + 1]
            else:
                second, turn_up = turn_up, -1
            drawn += 2
            hands[turn] = _with(hands[turn], first)
            hands[1 - turn] = _with(hands[1 - turn], second)
            phase = bz.LEAD
            if turn_up < 0:  # stage 2: the melds go back to the hands; sevens no longer score
                for side in (0, 1):
                    if tables[side]:
                        hands[side] = tuple(
                            sorted(hands[side] + tuple(c & 31 for c in tables[side]))
                        )
                tables = [(), ()]
                scored7 = [0, 0]
            continue
        hand, table = hands[turn], tables[turn]
        if turn_up < 0:
            if phase == bz.FOLLOW:  # bezique D8: follow and beat if able, else trump
                suit = led >> 3
                choice = tuple(c for c in hand if c >> 3 == suit)
                if choice:
                    choice = tuple(c for c in choice if power[c] > power[led]) or choice
                else:
                    choice = tuple(c for c in hand if c >> 3 == trump) or hand
                cards = list(dict.fromkeys(choice))
            else:
                cards = list(dict.fromkeys(hand))
        elif table:
            cards = sorted(set(hand).union(copy & 31 for copy in table))
        else:
            cards = list(dict.fromkeys(hand))
        if len(cards) == 1:
            card = cards[0]
        elif random_() < PLAYOUT_NOISE:
            card = rng.choice(cards)
        elif turn_up < 0:
            if phase == bz.FOLLOW:
                beaten = led << 5
                winners = [c for c in cards if takes[beaten | c]]
                if winners:
                    card = min(winners, key=power.__getitem__)
                else:
                    card = min(cards, key=LAST_GIVE.__getitem__)
            else:
                card = next((c for c in cards if c in plain_aces), -1)
                if card < 0:
                    card = min(cards, key=last_lead.__getitem__)
        elif phase == bz.LEAD:
            card = min(cards, key=lead_key.__getitem__)
        else:
            loser = min(cards, key=lead_key.__getitem__)
            beaten = led << 5
            winners = [c for c in cards if takes[beaten | c]]
            card = loser
            if winners:
                taker = min(winners, key=keep.__getitem__)
                # What the trick brings is at least its brisque and MELD_CHANCE (a meld ready
                # scores 20 or more): the melds are looked at only when that falls short.
                short = keep[taker] - brisque[led] - lead_key[loser]
                if short < MELD_CHANCE:
                    card = taker
                elif short < MELD_MOST:
                    ready = best_meld(hand, table, trump)
                    if ready is not None and short < ready[1]:
                        card = taker
        # Play it: a table copy before the hand's, the most served first (bezique D10).
        copies = [c for c in table if c & 31 == card] if table else None
        if copies:
            tables[turn] = _without(table, max(copies, key=SERVED.__getitem__))
        else:
            hands[turn] = _without(hand, card)
            if card == seven and scored7[turn]:
                scored7[turn] -= 1
        left -= 1
        if phase == bz.LEAD:
            led, leader, turn, phase = card, turn, 1 - turn, bz.FOLLOW
            continue
        if takes[led << 5 | card]:
            leader = turn
        turn = leader
        won[leader] += brisque[led] + brisque[card]
        if turn_up >= 0:
            phase, melded, sevened = bz.SCORE, False, False
        elif hands[0]:
            phase = bz.LEAD
        else:
            # The deal's end (bezique D9): brisques and the last trick, then the target; a
            # new deal's seven turned up scores for its dealer at once (bezique D3).
            won[leader] += 10
            totals = [totals[0] + won[0], totals[1] + won[1]]
            if totals[0] >= goal or totals[1] >= goal:
                winner = 0 if totals[0] > totals[1] else 1 if totals[1] > totals[0] else leader
            else:
                dealer = 1 - at.dealer
                if bstate.next_turn_up() & 7 == bz.SEVEN:
                    totals[dealer] += 10
                    if totals[dealer] >= goal:
                        winner = dealer
            won = [0, 0]
            break
    margin = float(totals[seat] - totals[1 - seat])
    if winner is None:
        return margin + float(won[seat] - won[1 - seat])
    return margin + (GAME_AI.win_value if winner == seat else -GAME_AI.win_value)


GAME_AI = GameAI(
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
    # 600 playouts: a decision well within the computer's pause (docs/computer.md).
    strong=600,
    depth=24,
    estimate=estimate,
    evaluate=play_out,
)
