"""Le 5 As' guided first round: one round, the learner first.

The learner opens expeditions (each costs 20 points until its cards make them up), wagers on
two of them with bonus cards, discards cards they cannot use, draws from a discard pile, and
grows one expedition to eight cards for the bonus; the round ends with the last card of the
stock.
"""

from __future__ import annotations

from games.lessons import Lesson, cards, moves
from games.words import N_

DECK = cards(
    "9C KD 8T 3C 3T 10S JS 9T 3D 9D KS 8C 10H 10D JC 20T 4C 8H 10T 4H JH 9H 6S 4S 6D QC "
    "2H 21T 5D 2T 7S 7H 4D 3H 2S 6C 2C 8S QD 2D 6T 8D KH 9S QS 5S 5T 5H 7D 3S JD 7C 19T "
    "7T 10C 4T QH KC 6H 5C"
)
MOVES = moves(
    "play 3T, draw, play 3D, draw, play 9C, draw, discard 10H, draw, discard 3C, draw, "
    "play JC, draw, play JS, draw, discard 10D, draw, play 10T, draw, play 4H, draw H, "
    "discard 4C, draw, discard 4S, draw, discard QC, draw, discard 2H, draw, "
    "discard 21T, draw, play 5D, draw S, discard 2T, draw, discard 4S, draw, play 6S, "
    "draw C, play 20T, draw T, play 7S, draw, play 2T, draw H, play KD, draw, play 7H, "
    "draw, play 10S, draw D, play 8H, draw, play 3H, draw, play 9H, draw, discard JH, "
    "draw, play 10H, draw, play QD, draw H, discard 2H, draw, discard 2C, draw, "
    "discard 2D, draw C, discard JH, draw S, play 2C, draw H, discard QC, draw D, "
    "discard JH, draw, discard 4S, draw, discard KH, draw, play 2D, draw, discard 2S, "
    "draw, play 4D, draw, discard QS, draw C, play 5H, draw, play 5T, draw C, play 6D, "
    "draw, play 6T, draw C, play 7D, draw, play 3C, draw T, play 8D, draw, play 4C, "
    "draw, play 10D, draw, play 9D, draw, discard 5S, draw, discard 8C, draw S, "
    "discard 7C, draw, discard 6C, draw, discard QH, draw, discard 21T, draw C, play 6H, "
    "draw"
)

LESSON = Lesson(
    game="cinq-as",
    options={"rounds": 1, "first_seat": 0},
    decks=(DECK,),
    moves=MOVES,
    notes={
        0: N_(
            "Le 5 As: each of the five suits is an expedition you may open. A turn is two "
            "moves: play a card onto your expedition of its suit, or discard it face up on its "
            "pile; then draw. An expedition's numbers must go up, and it scores the sum of its "
            "numbers minus 20: opening one costs 20 points until its cards make them up. Open "
            "the trumps."
        ),
        1: N_(
            "Now draw: the top card of the stock, or the top card of a discard pile, but never "
            "the card you have just discarded."
        ),
        8: N_(
            "A card you cannot use goes face up on its discard pile instead. Tapis may take it, "
            "so give away what helps it least."
        ),
        12: N_(
            "A jack, queen or king is a wager: played on an expedition before any number, it "
            "doubles what the expedition scores, gain or loss; two wagers triple it."
        ),
        37: N_(
            "Take the top card of the clubs discard pile instead of the stock: a card you need "
            "is worth more than a blind draw."
        ),
        44: N_("Another wager, on diamonds, before any diamond number is played."),
        105: N_(
            "Your diamond expedition holds eight cards: it scores 20 more when the round is "
            "counted. Draw."
        ),
    },
    end=N_(
        "The round ended with the last card of the stock. Each expedition scored the sum of "
        "its numbers minus 20, times one more than its wagers, and 20 more with eight cards; "
        "an expedition never opened cost nothing. A real match is three rounds."
    ),
)
