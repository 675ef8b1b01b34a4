"""Le 5 As: the unseen cards, a playout policy and the greedy rules."""

from __future__ import annotations

import random

import games
from ai.base import GameAI, Json, layout, take, unseen, view_of
from ai.search import value
from games import State
from games.cards import SUITS, TAROT_SET
from games.cinq_as import CinqAsState, Table

PACK_SIZE = len(TAROT_SET)


def _face(card: str) -> int:
    rank = card[:-1]
    return int(rank) if rank.isdigit() and int(rank) <= 10 else 0


VALUE = {card: _face(card) for card in TAROT_SET}
SUIT_AND_VALUE = {card: (SUITS.index(card[-1]), VALUE[card]) for card in TAROT_SET}
PLAY = {card: f"play {card}" for card in TAROT_SET}
DISCARD = {card: f"discard {card}" for card in TAROT_SET}
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
    # What from_json reads once it has parsed the text: the JSON round trip only copied data
    # that is already plain (a determinization is made per round of every search).
    try:
        return CinqAsState.load(data)
    except (KeyError, TypeError, IndexError, AttributeError) as error:
        raise ValueError(f"unreadable Le 5 As state: {error!r}") from None


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
    assert isinstance(state, CinqAsState) and seat is not None
    return play_rules(state.table(), seat, rng)


def play_out(state: State, seat: int, left: int, rng: random.Random) -> float:
    """:func:`ai.search.playout` with :func:`playout` as the policy, the same moves from the
    same random numbers, only cheaper: a turn's play lists the legal moves only when it
    picks one at random (a hand of two cards or more offers two moves or more, so the
    generic loop would ask the policy too), and the loop calls no policy through the
    game's entry."""
    assert isinstance(state, CinqAsState)
    while left > 0 and state.result is None:
        mover = state.to_move
        assert mover is not None
        if state.drawing:
            moves = state.legal_moves()
            if len(moves) == 1:
                move = moves[0]
            else:
                move = "draw" if rng.random() < 0.85 else rng.choice(moves)
            if move == "draw":
                left -= 1
        else:
            table = state.table()
            if len(table.hands[mover]) < 2:  # never in a real round: the generic step
                moves = state.legal_moves()
                move = moves[0] if len(moves) == 1 else playout(state, moves, rng)
            elif rng.random() < 0.1:
                move = rng.choice(state.legal_moves())
            else:
                move = play_rules(table, mover, rng)
        state = state.apply(move)
    return value(GAME_AI, state, seat)


def play_rules(table: Table, seat: int, rng: random.Random, start_at: int = 16) -> str:
    """What :func:`rules` plays in the play phase, read from the state's fields instead of a
    view: the same move, and the same draws from ``rng`` in the same order (one per card in
    hand when it discards), so a playout goes exactly where the view-based rules took it."""
    hand = table.hands[seat]
    mine = table.expeditions[seat]
    base = seat * 5
    tops = table.tops
    # Extend a started expedition with the card closest above its top (the first of the
    # closest, in hand order); a wager goes only on an expedition with no number yet.
    best_gap = 4
    best = ""
    for card in hand:
        suit, face = SUIT_AND_VALUE[card]
        if mine[suit]:
            top = tops[base + suit]
            if face:
                if face > top and face - top < best_gap:
                    best_gap, best = face - top, card
            elif not top and best_gap > 0:
                best_gap, best = 0, card
    if best:
        return PLAY[best]
    # Open an expedition whose cards in hand promise more than the 20 it costs.
    if table.stock >= 12:
        worth = [0, 0, 0, 0, 0]
        for card in hand:
            suit, face = SUIT_AND_VALUE[card]
            worth[suit] += face
        top_worth = max(worth)
        suit = worth.index(top_worth)  # the first suit of the best worth, as max() takes
        if top_worth >= start_at and not mine[suit]:
            # Nothing laid there yet: every card of the suit is playable; the first of the
            # lowest face (wagers first) opens it.
            lowest = ""
            lowest_face = 11
            for card in hand:
                card_suit, face = SUIT_AND_VALUE[card]
                if card_suit == suit and face < lowest_face:
                    lowest, lowest_face = card, face
            if lowest:
                return PLAY[lowest]
    # Discard: a card we can no longer use first, else the one we value least; the key of
    # :func:`rules` (dead, face or its opposite, a random number), its first two parts as one
    # integer (the face lies within ±10).
    least = 0
    least_draw = 1.0
    chosen = ""
    for card in hand:
        suit, face = SUIT_AND_VALUE[card]
        if not mine[suit]:
            key = 64 - face  # (1, -face): keep the high cards of an expedition not opened
        elif face <= tops[base + suit]:
            key = face  # (0, face): dead, it can no longer go on its expedition
        else:
            key = 64 + face  # (1, face)
        draw = rng.random()
        if not chosen or key < least or (key == least and draw < least_draw):
            least, least_draw, chosen = key, draw, card
    return DISCARD[chosen]


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
    each side judged from what it sees. Zero on a fresh round: a playout that ran into the
    next round dealt it from an invented deck, so its promise is noise.

    It reads the state's fields (a playout's state is a determinization) and computes
    exactly what :func:`view_estimate` computes from both seats' views, only cheaper."""
    assert isinstance(state, CinqAsState)
    table = state.table()
    exps = table.expeditions
    piles = table.piles
    laid = any(exps[0]) or any(exps[1])
    if table.stock >= FULL_STOCK and not laid and not any(piles):
        return 0.0
    # The number cards face up, per suit, as bit masks of their faces (bit 10 for a 10).
    face_up = [0, 0, 0, 0, 0]
    for cards in (*exps[0], *exps[1], *piles):
        for card in cards:
            suit, face = SUIT_AND_VALUE[card]
            face_up[suit] |= BIT[face]
    return table_worth(table, seat, face_up) - table_worth(table, 1 - seat, face_up)


BIT = [0, 0, *(1 << face for face in range(2, 11))]
"""A face's bit in a mask of faces (a wager, face 0, has none)."""
NUMBERS = sum(BIT)
"""Every face of a suit: 2 to 10."""
MASK_SUM = [sum(face for face in range(2, 11) if mask >> face & 1) for mask in range(1 << 11)]
MASK_COUNT = [mask.bit_count() for mask in range(1 << 11)]
ABOVE = [~((2 << top) - 1) for top in range(11)]
"""The faces above ``top``, as a mask."""


def table_worth(table: Table, side: int, face_up: list[int]) -> float:
    """:func:`worth` of ``side``'s view, from the state's fields: the same sums and products,
    in the same order, so the same float to the last bit. ``face_up``: per suit, the mask of
    the faces of the number cards face up."""
    hand = table.hands[side]
    mine = table.expeditions[side]
    tops = table.tops[side * 5 : side * 5 + 5]
    piles = table.piles
    stock = table.stock
    seen = face_up[:]
    useful = 0
    # Per suit, the cards held that can still go on its expedition: their faces' sum, their
    # count and how many are wagers (the top of a pile that extends it counts as held).
    held_sum = [0, 0, 0, 0, 0]
    held_count = [0, 0, 0, 0, 0]
    held_wagers = [0, 0, 0, 0, 0]
    for card in hand:
        suit, face = SUIT_AND_VALUE[card]
        seen[suit] |= BIT[face]
        top = tops[suit]
        if face > top:
            useful += 1
        if face > top or (not top and not face):
            held_sum[suit] += face
            held_count[suit] += 1
            if not face:
                held_wagers[suit] += 1
    for suit in range(5):
        pile = piles[suit]
        if mine[suit] and pile:
            top = tops[suit]
            _, face = SUIT_AND_VALUE[pile[-1]]
            if face > top or (not top and not face):
                held_sum[suit] += face
                held_count[suit] += 1
                if not face:
                    held_wagers[suit] += 1
    turns = (stock + 1) / 2
    share = min(1.0, turns / useful) if useful else 1.0
    pool = stock + len(table.hands[1 - side])
    chance = 0.5 * share * min(1.0, turns / pool) if pool else 0.0
    total = 0.0
    for suit in range(5):
        laid = mine[suit]
        top = tops[suit]
        later = NUMBERS & ~seen[suit] & ABOVE[top]
        numbers = 0
        wagers = 0
        for card in laid:
            face = VALUE[card]
            if face:
                numbers += face
            else:
                wagers += 1
        value = numbers + share * held_sum[suit]
        value += chance * MASK_SUM[later]
        wagers_here = wagers + share * held_wagers[suit] if not top else wagers
        count = len(laid) + share * held_count[suit] + chance * MASK_COUNT[later]
        value = (value - COST) * (1 + wagers_here) + (COST if count >= LONG else 0.0)
        total += value if laid else max(0.0, value)
    return total


def view_estimate(state: State, seat: int) -> float:
    """:func:`estimate` as each side's view shows the position: the reference the fast one
    must equal (tests/ai compare them), and the definition of what it computes."""
    views = [view_of(state, 0), view_of(state, 1)]
    public = views[0]
    laid = any(cards for side in public["expeditions"] for cards in side.values())
    if int(public["stock"]) >= FULL_STOCK and not laid and not any(public["discards"].values()):
        return 0.0
    return worth(views[seat], seat) - worth(views[1 - seat], 1 - seat)


GAME_AI = GameAI(
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
    evaluate=play_out,
)
