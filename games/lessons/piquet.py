"""Piquet's guided first deal: the partie is one deal, and elder (the learner) takes it all.

A hand dealt so that the exchange brings elder a septième: the declarations then give the
point, two sequences, a quatorze, the repique and the full hand, and the play a capot; the
dealer stays under 100, so the partie ends with the rubicon. The pique, which a repique
excludes, is told in words.
"""

from __future__ import annotations

from games.lessons import Lesson, cards, moves
from games.words import N_

DECK = cards(
    "AH KH QH JH 10H AS KS AD AC 7S 7D 7C KD QD JD 10D 9D KC QC JC 10C JS 10S 9S 9H 8H QS "
    "8D 9C 8C 8S 7H"
)
MOVES = moves(
    "discard 7S 7D 7C, discard 9S 10S JS, play AH, play 7H, play KH, play 9D, play QH, "
    "play 8S, play JH, play 8C, play 10H, play 10D, play 9H, play 10C, play 8H, play JD, "
    "play AS, play QD, play KS, play JC, play QS, play QC, play AD, play KD, play AC, "
    "play KC"
)

LESSON = Lesson(
    game="piquet",
    options={"deals": 1, "first_seat": 1},
    decks=(DECK,),
    moves=MOVES,
    notes={
        0: N_(
            "Piquet: twelve cards each and no trumps. You are elder: first you may exchange up "
            "to five cards for the top cards of your talon. Keep your hearts and your aces, and "
            "discard the three sevens."
        ),
        1: N_("Now Tapis, the younger hand, may exchange up to three cards from its own talon."),
        2: N_(
            "After the exchange the declarations were made for both of you, in order: the point "
            "(the longest suit), the sequences, then the sets of tens or better. Tapis beat you "
            "in none, so you reached 30 before it scored anything: that is a repique, 60 more. "
            "Every card of yours scored, so the full hand adds 50. Had you reached 30 only with "
            "the points of the play, it would have been a pique, 30 more. Now lead: each card "
            "above the nine you lead scores 1."
        ),
        3: N_("Tapis must follow suit if it can; the higher card of the suit led wins."),
        16: N_("Your hearts are all played: lead your spades, from the ace."),
        24: N_(
            "One trick left. Whoever takes seven tricks or more wins the cards, 10 points; all "
            "twelve are a capot, 40 in their place. The last trick scores 1 more."
        ),
    },
    end=N_(
        "Capot: all twelve tricks. The partie was one deal here, six in a real one, and "
        "Tapis ended it under 100 points: it is rubiconed, so your game score is 100 plus "
        "both totals instead of 100 plus their difference."
    ),
)
