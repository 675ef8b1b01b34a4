"""Écarté: the unseen cards, a playout policy and the greedy rules."""

from __future__ import annotations

import json
import random
from functools import cache

import games
from ai.base import GameAI, Json, cards_in, layout, take, unseen, view_of
from games import State
from games.cards import PIQUET_PACK
from games.ecarte import TRICKS, hand_points, second_takes

RANKS_LOW_TO_HIGH = ("7", "8", "9", "10", "A", "J", "Q", "K")  # the ace between ten and jack
POWER = {card: RANKS_LOW_TO_HIGH.index(card[:-1]) for card in PIQUET_PACK}
PHASES = ("propose", "respond", "discard", "play")
TURN_UP = 10
REDRAWS = 20  # tries at a deal that fits what the opponent's choices suggest
UNLIKELY = 0.1  # the chance to keep a deal that does not fit them
PLAYABLE = 5  # the strength of a hand worth playing as it is, for the rules of thumb
DISCARDS = 8  # exchanges searched: the best few by keep_worth


def cards_in_seat(view: Json, seat: int) -> list[str]:
    """The cards ``seat`` has played in this hand (tricks done and the one in progress)."""
    entries = [*view["trick"], *(e for t in view["tricks"] for e in t["cards"])]
    return [str(e["card"]) for e in entries if e["seat"] == seat]


def told_by_choices(view: Json) -> int:
    """What the opponent's last choice about exchanging says of the hand they hold now: 1 a
    hand worth playing (they played without proposing, or refused a proposal), -1 one worth
    changing (they proposed, or accepted a proposal and have not exchanged since), 0 nothing.

    The view keeps no history, but a hand's proposals and exchanges follow a fixed course
    (propose, accept, elder's exchange, dealer's, then elder chooses again), so the counts
    tell which choice came last."""
    seat = int(view["seat"])
    opp = 1 - seat
    elder = int(view["elder"])
    phase = str(view["phase"])
    proposals = int(view["proposals"])
    elder_exchanges = sum(1 for e in view["exchanges"] if e["seat"] == elder)
    if phase == "respond":
        return -1 if opp == elder else 0
    if phase == "discard":
        # Elder proposed and the dealer accepted; an opponent who is the dealer has not yet
        # exchanged, so still holds the hand they thought worth changing.
        return -1 if opp != elder else 0
    if phase != "play":
        return 0
    if proposals > elder_exchanges:
        # The last proposal was refused: the dealer held a hand worth playing, elder one
        # worth changing.
        return -1 if opp == elder else 1
    if opp == elder and int(view["stock"]) > 0 and view["king"] != opp:
        # Elder played at once when still free to propose (a king announced plays at once
        # whatever the hand, and an empty stock leaves no choice).
        return 1
    return 0


def kept_at_exchange(view: Json) -> int:
    """How many cards the opponent kept at their last exchange this hand (0 if none): a
    player throws the cards not worth keeping, so the fewer thrown, the more trumps and kings
    kept."""
    opp = 1 - int(view["seat"])
    counts = [int(e["count"]) for e in view["exchanges"] if e["seat"] == opp]
    return TRICKS - counts[-1] if counts else 0


def keeper(card: str, trump: str) -> bool:
    """A card worth keeping through an exchange: a trump or a king."""
    return card[-1] == trump or card[:-1] == "K"


def ruled_out(view: Json) -> set[str]:
    """Cards the opponent cannot hold, from the tricks they answered (ecarte D9): one who did
    not follow suit has none of it, and no trump either if they did not trump; one who
    followed without beating the card led holds no higher card of its suit."""
    opp = 1 - int(view["seat"])
    trump = str(view["trump"])
    out: set[str] = set()
    for done in view["tricks"]:
        (first, second) = done["cards"]
        if second["seat"] != opp:
            continue
        lead, answer = str(first["card"]), str(second["card"])
        suit = lead[-1]
        if answer[-1] == suit:
            if not POWER[answer] > POWER[lead]:
                out |= {c for c in PIQUET_PACK if c[-1] == suit and POWER[c] > POWER[lead]}
        else:
            out |= {c for c in PIQUET_PACK if c[-1] == suit}
            if answer[-1] != trump:
                out |= {c for c in PIQUET_PACK if c[-1] == trump}
    return out


def opponent_cards(
    hidden: list[str], size: int, known: list[str], view: Json, rng: random.Random
) -> list[str]:
    """Draw the opponent's ``size`` hidden cards out of ``hidden`` (removed from it), after
    what their choices and answers tell: ``known`` are their cards already shown (played,
    or the king they announced), part of the hand they chose with."""
    trump = str(view["trump"])
    out = ruled_out(view)
    allowed = [c for c in hidden if c not in out]
    if len(allowed) < size:  # the answers do not fit: a deal still has to be made
        allowed = list(hidden)
    told = told_by_choices(view)
    kept = kept_at_exchange(view) - sum(1 for c in known if keeper(c, trump))
    best: list[str] = []
    for _attempt in range(REDRAWS):
        rng.shuffle(allowed)
        chosen: list[str] = []
        if kept > 0 and rng.random() >= UNLIKELY:
            good = [c for c in allowed if keeper(c, trump)]
            chosen = good[: min(kept, size)]
        chosen += [c for c in allowed if c not in chosen][: size - len(chosen)]
        best = chosen
        worth = strength([*known, *chosen], trump)
        if told == 0 or (worth >= PLAYABLE) == (told > 0) or rng.random() < UNLIKELY:
            break
    for card in best:
        hidden.remove(card)
    return best


def determinize(view: Json, rng: random.Random) -> State:
    """Deal the unseen cards between the opponent's hand, the opponent's face-down discards
    and the stock. An announced king of trumps not yet played stays in the announcer's hand.

    What the opponent chose tells of their hand, and deals that contradict it are mostly
    redrawn (only mostly, as not every player reasons so): see ``told_by_choices``,
    ``kept_at_exchange`` and ``ruled_out``. Their discards were cards not worth keeping."""
    seat = int(view["seat"])
    opp = 1 - seat
    played = cards_in(view["trick"]) + [c for t in view["tricks"] for c in cards_in(t["cards"])]
    turn_up = str(view["turn_up"])
    trump = str(view["trump"])
    hidden = unseen(PIQUET_PACK, view["hand"], view["discarded"], played, [turn_up])
    forced = []
    king = "K" + trump
    if view["king"] == opp and king in hidden:
        hidden.remove(king)
        forced.append(king)
    rng.shuffle(hidden)
    their_played = [c for c in played if c not in cards_in_seat(view, seat)]
    size = int(view["hand_sizes"][opp]) - len(forced)
    if size < 0:
        raise ValueError("the view's counts do not fit the unseen cards")
    mine = opponent_cards(hidden, size, [*forced, *their_played], view, rng)
    count = sum(int(e["count"]) for e in view["exchanges"] if e["seat"] == opp)
    if count > len(hidden):
        raise ValueError("the view's counts do not fit the unseen cards")
    if rng.random() >= UNLIKELY:
        # Cards thrown away were mostly not worth keeping: deal them from those first.
        hidden.sort(key=lambda c: keeper(c, trump))
    thrown = take(hidden, count)
    rng.shuffle(hidden)
    other = forced + mine
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
    strong = strength(hand, trump) >= PLAYABLE
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


def keep_worth(card: str, trump: str) -> float:
    """A rough worth of keeping a card through an exchange: trumps most, then kings and
    queens; a low plain card is worth less than the average card drawn in its place."""
    return POWER[card] + (8.0 if card[-1] == trump else 0.0) + (2.0 if card[:-1] == "K" else 0.0)


def candidates(view: Json, moves: list[str]) -> list[str]:
    """Every move, but only the most promising exchanges: of 31 possible discards most are
    absurd (throwing the trumps away), and the exact search spends its samples better on a
    few.

    The search keeps the first of equally valued candidates, so the conventional move (the
    rules of thumb's) comes first: where the exact solutions cannot tell the cards apart (the
    tricks come out the same whoever holds what), the card a good player would choose, and
    not the one that happens to come first in the hand's order, is played. Both hands laid
    open make many cards look alike that are not, against a player who cannot see them."""
    if not moves[0].startswith("discard"):
        usual = rules(view, random.Random(0))
        return [usual, *(move for move in moves if move != usual)]
    trump = str(view["trump"])
    hand = list(view["hand"])
    seen = set(hand) | {str(view["turn_up"])}
    fresh = [c for c in PIQUET_PACK if c not in seen]
    drawn = sum(keep_worth(c, trump) for c in fresh) / len(fresh)

    def promise(move: str) -> float:
        thrown = move.split()[1:]
        kept = sum(keep_worth(c, trump) for c in hand if c not in thrown)
        return kept + drawn * len(thrown)

    return sorted(moves, key=lambda m: (-promise(m), m))[:DISCARDS]


def greedy(view: Json, rng: random.Random) -> str:
    return rules(view, rng)


def playout(state: State, moves: list[str], rng: random.Random) -> str:
    if rng.random() < 0.25:
        return rng.choice(moves)
    return rules(view_of(state, state.to_move), rng)


BIT = {card: 1 << i for i, card in enumerate(PIQUET_PACK)}
CARD = {bit: card for card, bit in BIT.items()}
MEMO_LIMIT = 200_000


class Solver:
    """Exact trick play with both hands known, for one suit of trumps.

    Hands are bit masks of the pack. The value of a position is the number of tricks the
    searching side ("us") takes from there on with best play by both: every score of the
    table (ecarte D6/D7/D10) grows with our tricks, so whatever a hand is worth, the best
    play for it is the one that takes the most tricks against the best defence, and one
    value per position serves every determinization, commitment and score.

    The search goes a whole trick at a time (a lead, then each answer): positions at the
    start of a trick repeat a great deal (the same cards left, whatever order they went in)
    and are remembered; an answer that cannot change the leader's choice is not searched
    further; the last trick is read off directly.
    """

    def __init__(self, trump: str) -> None:
        suit_of = {bit: card[-1] for card, bit in BIT.items()}
        masks = {suit: 0 for suit in "SHDC"}
        for bit, suit in suit_of.items():
            masks[suit] |= bit
        self.trumps = masks[trump]
        self.suit = {bit: masks[suit_of[bit]] for bit in CARD}
        # The cards that take a trick from a led card: higher of its suit, or any trump.
        self.takers = {
            bit: sum(
                other
                for other in CARD
                if second_takes(CARD[bit], CARD[other], trump) and other != bit
            )
            for bit in CARD
        }
        self.memo: dict[int, int] = {}

    def answers(self, hand: int, lead: int) -> int:
        """The cards of ``hand`` that may answer ``lead`` (ecarte D9), as a mask."""
        same = hand & self.suit[lead]
        if same:
            return (same & self.takers[lead]) or same
        if not self.suit[lead] & self.trumps:
            trumps = hand & self.trumps
            if trumps:
                return trumps
        return hand

    def tricks(self, ours: int, theirs: int, our_turn: int, lead: int) -> int:
        """Tricks we take from here: ``our_turn`` 1 if we are to play, ``lead`` the card led
        to the trick in progress (by the other side) or 0."""
        if not lead:
            return self.led(ours, theirs, our_turn) if ours | theirs else 0
        takers = self.takers[lead]
        hand = ours if our_turn else theirs
        options = self.answers(hand, lead)
        values = []
        while options:
            bit = options & -options
            options ^= bit
            # The second card takes the trick or the leader keeps it; the winner leads.
            won = our_turn if bit & takers else 1 - our_turn
            a, b = (ours ^ bit, theirs) if our_turn else (ours, theirs ^ bit)
            values.append(won + (self.led(a, b, won) if a | b else 0))
        return max(values) if our_turn else min(values)

    def led(self, ours: int, theirs: int, our_turn: int) -> int:
        """Tricks we take from the start of a trick (both hands of the same size, not
        empty), ``our_turn`` 1 if we lead it."""
        key = ours | theirs << 32 | our_turn << 64
        known = self.memo.get(key)
        if known is not None:
            return known
        takers, answers, led = self.takers, self.answers, self.led
        leader, other = (ours, theirs) if our_turn else (theirs, ours)
        most = leader.bit_count()
        if most == 1:  # the last trick
            taken = 1 if other & takers[leader] else 0
            best = 1 - taken if our_turn else taken
        elif our_turn:
            best = -1  # the most we can make sure of, leading each card in turn
            options = ours
            while options:
                lead = options & -options
                options ^= lead
                a, beat = ours ^ lead, takers[lead]
                replies = answers(theirs, lead)
                worst = most
                while replies:  # their best answer; stop once no better than a lead seen
                    bit = replies & -replies
                    replies ^= bit
                    b = theirs ^ bit
                    value = led(a, b, 0) if bit & beat else 1 + led(a, b, 1)
                    if value < worst:
                        worst = value
                        if worst <= best:
                            break
                if worst > best:
                    best = worst
                    if best == most:
                        break
        else:
            best = most + 1  # the fewest they can hold us to, leading each card in turn
            options = theirs
            while options:
                lead = options & -options
                options ^= lead
                b, beat = theirs ^ lead, takers[lead]
                replies = answers(ours, lead)
                top = 0
                while replies:  # our best answer; stop once no worse than a lead seen
                    bit = replies & -replies
                    replies ^= bit
                    a = ours ^ bit
                    value = 1 + led(a, b, 1) if bit & beat else led(a, b, 0)
                    if value > top:
                        top = value
                        if top >= best:
                            break
                if top < best:
                    best = top
                    if best == 0:
                        break
        if len(self.memo) >= MEMO_LIMIT:
            self.memo.clear()
        self.memo[key] = best
        return best


SOLVERS = {trump: Solver(trump) for trump in "SHDC"}


def mask(cards: list[str]) -> int:
    return sum(BIT[card] for card in cards)


# How a hand between two fair players ends, as (the winner's points, the loser's) and its
# chance: the tricks' 1, 2 (the vole, or a committed player's failure) or 3, and a king of
# trumps scored by either side. Measured over 421 first hands of the strong level against the
# greedy player.
HAND_OUTCOMES = (
    (1, 0, 0.42),
    (2, 0, 0.30),
    (3, 0, 0.10),
    (1, 1, 0.10),
    (2, 1, 0.07),
    (3, 1, 0.01),
)


@cache
def match_chances(target: int) -> dict[tuple[int, int], float]:
    """The chance of winning the match from each score (ours, theirs) below ``target``, each
    hand won by either side alike and scored as ``HAND_OUTCOMES`` tells."""
    chance: dict[tuple[int, int], float] = {}

    def at(ours: int, theirs: int) -> float:
        if ours >= target or theirs >= target:
            return 1.0 if theirs < target else 0.0 if ours < target else 0.5
        return chance[ours, theirs]

    # Every hand scores, so a score only leads to higher ones: fill from the top down.
    for ours in range(target - 1, -1, -1):
        for theirs in range(target - 1, -1, -1):
            chance[ours, theirs] = sum(
                p / 2 * (at(ours + won, theirs + lost) + at(ours + lost, theirs + won))
                for won, lost, p in HAND_OUTCOMES
            )
    return chance


def standing(totals: list[int], seat: int, target: int, first: int | None = None) -> float:
    """What a score is worth to ``seat``: the chance of winning the match from it, 1 or 0
    once a side has reached the target (``first`` the side that reached it first, if both
    have)."""
    ours, theirs = totals[seat], totals[1 - seat]
    if ours >= target or theirs >= target:
        if first is None:
            first = seat if theirs < target else 1 - seat
        return 1.0 if first == seat else 0.0
    return match_chances(target)[ours, theirs]


def evaluate(state: State, seat: int, left: int, rng: random.Random) -> float:
    """The value of a determinized state for ``seat``: the chance of winning the match once
    the hand is scored. The proposals and exchanges still to come are played by the rules of
    thumb (a model of both players), the king of trumps is announced by whoever holds it,
    and the tricks are then solved exactly.

    A hand is worth what it changes in the chance of winning the match, not its points: at
    10-10 any hand won is the match, the vole no better than three tricks, and a side that
    needs one point more risks less for a second; early on, points count nearly as points."""
    public: Json = {}
    while left > 0 and state.result is None:
        public = view_of(state, state.to_move)
        if public["phase"] == "play" and "king" not in public["legal_moves"]:
            break
        state = state.apply(rules(public, rng))
        # Nothing before the tricks ends a deal; only a king point ending the match can.
    if state.result is not None:
        winner = state.result.get("winner")
        return 0.5 if winner is None else 1.0 if winner == seat else 0.0
    if left <= 0:
        # The hand is over and the next one dealt from an invented deck: its turned-up king
        # (already scored) is no part of this hand's worth.
        after = view_of(state, seat)
        scores, dealt = after["scores"], after["deal_scores"]
        totals = [int(scores[side]) - int(dealt[side]) for side in (0, 1)]
        return standing(totals, seat, int(after["target"]))
    # All the tricks need is public, but for the two hands: the last view serves for the rest.
    zones = state.zones()
    hands = (zones["hand0"], zones["hand1"])
    trump = str(public["trump"])
    totals = [int(n) for n in public["scores"]]
    # A king of trumps still to be announced will be, as its holder plays a first card.
    if public["king"] is None:
        for side in (0, 1):
            if len(hands[side]) == TRICKS and "K" + trump in hands[side]:
                totals[side] += 1
    target = int(public["target"])
    committed = public["committed"]

    def payoff(won: tuple[int, int]) -> float:
        scorer, points = hand_points(won, committed)
        final = list(totals)
        final[scorer] += points
        # The first to reach the target wins; a king point reached it before the tricks.
        first = 0 if totals[0] >= target else 1 if totals[1] >= target else scorer
        return standing(final, seat, target, first)

    trick = public["trick"]
    lead = BIT[str(trick[0]["card"])] if trick else 0
    ours = SOLVERS[trump].tricks(
        mask(hands[seat]),
        mask(hands[1 - seat]),
        1 if public["to_move"] == seat else 0,
        lead,
    )
    won = [int(n) for n in public["tricks_won"]]
    won[seat] += ours
    won[1 - seat] += TRICKS - won[0] - won[1]
    return payoff((won[0], won[1]))


GAME_AI = GameAI(
    name="ecarte",
    determinize=determinize,
    playout=playout,
    greedy=greedy,
    # The hand ends with its last trick: count the cards still to be played.
    horizon=lambda view: int(view["hand_sizes"][0]) + int(view["hand_sizes"][1]),
    counts=lambda move: move.startswith("play"),
    win_value=4.0,
    strong=1400,
    # Five tricks solved exactly make a sixth of the strong budget play as well as all of it
    # (51 of 100 matches); ten deals leave the normal level between easy and strong.
    normal=10,
    evaluate=evaluate,
    candidates=candidates,
    unit="chance",
)
