"""Le 5 As: the unseen cards, a playout policy and the greedy rules."""

from __future__ import annotations

import json
import random

import games
from ai.base import GameAI, Json, layout, register, take, unseen, view_of
from games import State
from games.cards import SUITS, TAROT_SET

PACK_SIZE = len(TAROT_SET)


def _face(card: str) -> int:
    rank = card[:-1]
    return int(rank) if rank.isdigit() and int(rank) <= 10 else 0


VALUE = {card: _face(card) for card in TAROT_SET}
FULL_STOCK = PACK_SIZE - 16  # the stock of a fresh round: both hands of 8 dealt


def number(card: str) -> int:
    """A card's face value; 0 for the wagers (J Q K and the trumps 19-21)."""
    return VALUE[card]


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


CANDIDATES = 6  # moves searched in the play phase: the best few by a one-ply judgement


def candidates(view: Json, moves: list[str]) -> list[str]:
    """The play phase offers up to sixteen moves, too many to search each well: keep the
    few whose immediate result :func:`estimate` judges best on one sampled deal (the same
    deal for all, so they are compared on equal terms), and the rules of thumb's choice."""
    if len(moves) <= CANDIDATES or view["phase"] != "play":
        return moves
    rng = random.Random(f"tapis-ai/5as/{view['stock']}/{' '.join(view['hand'])}")
    seat = int(view["seat"])
    state = determinize(view, rng)
    scored = sorted(moves, key=lambda m: (-estimate(state.apply(m), seat), m))
    kept = scored[:CANDIDATES]
    usual = rules(view, rng)
    return kept if usual in kept else [*kept[:-1], usual]


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


LONG = 8  # cards in an expedition that earn the bonus (cinq-as D6)
COST = 20  # what opening an expedition costs (cinq-as D5)


def projected(
    laid: list[str], held: list[str], unknown: list[str], share: float, chance: float
) -> float:
    """What one expedition is likely to score at the end of the round.

    ``laid``: its cards on the table; ``held``: the cards of its suit in hand that can still
    go on it; ``share``: the part of them there is time to play; ``unknown``: the cards of
    its suit this side has not seen that could still extend it, each drawn and played in
    time with probability ``chance``.
    An expedition not opened yet is worth opening only if the projection is positive.
    """
    numbers = [VALUE[c] for c in laid if VALUE[c]]
    top = max(numbers, default=0)
    wagers = sum(1 for c in laid if not VALUE[c])
    playable = [c for c in held if VALUE[c] > top or (not numbers and not VALUE[c])]
    later = [c for c in unknown if VALUE[c] > top]
    total = sum(numbers) + share * sum(VALUE[c] for c in playable)
    total += chance * sum(VALUE[c] for c in later)
    if not numbers:
        wagers_here = wagers + share * sum(1 for c in playable if not VALUE[c])
    else:
        wagers_here = wagers
    count = len(laid) + share * len(playable) + chance * len(later)
    value = (total - COST) * (1 + wagers_here) + (COST if count >= LONG else 0.0)
    return value if laid else max(0.0, value)


def worth(view: Json, side: int) -> float:
    """Every expedition of ``side`` projected to the end of the round (see :func:`projected`),
    from what ``side`` sees: its hand, everything face up, the stock's length as a clock."""
    hand = view["hand"]
    mine = view["expeditions"][side]
    seen = set(hand)
    for cards in [*view["expeditions"][0].values(), *view["expeditions"][1].values()]:
        seen.update(cards)
    for cards in view["discards"].values():
        seen.update(cards)
    # Each turn plays one card: the turns left bound how much of the hand can still be laid.
    turns = (int(view["stock"]) + 1) / 2
    useful = 0
    for suit in SUITS:
        top = max((VALUE[c] for c in mine[suit]), default=0)
        useful += sum(1 for c in hand if c[-1] == suit and VALUE[c] > top)
    share = min(1.0, turns / useful) if useful else 1.0
    # An unseen card is in the stock or the other's hand; this side draws about one stock
    # card a turn, and one drawn late may find no turn left to be played: hence the half.
    pool = int(view["stock"]) + int(view["hand_sizes"][1 - side])
    chance = 0.5 * share * min(1.0, turns / pool) if pool else 0.0
    total = 0.0
    for suit in SUITS:
        held = [c for c in hand if c[-1] == suit]
        # A face-up card that extends an expedition under way is as good as held: a gift
        # from the other side's discard, or one it will take back if left there.
        pile = view["discards"][suit]
        if mine[suit] and pile:
            held.append(pile[-1])
        unknown = [c for c in TAROT_SET if c[-1] == suit and c not in seen and VALUE[c]]
        total += projected(mine[suit], held, unknown, share, chance)
    return total


def estimate(state: State, seat: int) -> float:
    """The expeditions' projected scores (see :func:`worth`) for ``seat`` against the other's,
    each side judged from its own view. Zero on a fresh round: a playout that ran into the
    next round dealt it from an invented deck, so its promise is noise."""
    views = [view_of(state, 0), view_of(state, 1)]
    public = views[0]
    laid = any(cards for side in public["expeditions"] for cards in side.values())
    if int(public["stock"]) >= FULL_STOCK and not laid and not any(public["discards"].values()):
        return 0.0
    return worth(views[seat], seat) - worth(views[1 - seat], 1 - seat)


GAME_AI = register(
    GameAI(
        name="cinq-as",
        determinize=determinize,
        playout=playout,
        greedy=greedy,
        horizon=horizon,
        counts=lambda move: move == "draw",
        win_value=50.0,
        strong=300,
        depth=10,
        estimate=estimate,
        candidates=candidates,
    )
)
