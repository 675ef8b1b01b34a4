"""Écarté's guided first hands: four prepared hands to 11 points, elder's all through.

The first shows a proposal accepted, the exchanges, the king of trumps drawn and announced,
and the vole; the second a first proposal refused (the dealer then bears the risk); the
third and fourth elder playing at once without proposing (elder then bears it), with the
order of the ranks and the duty to follow and beat.
"""

from __future__ import annotations

from games.lessons import Lesson, cards, moves
from games.words import N_

HAND_1 = cards(
    "QH JH AH 8C 7D 7S 8S 9D 10C JS 7H KH 10H 9S 10S QS KS AS 8H 9H 8D 10D JD QD KD AD 7C "
    "9C JC QC KC AC"
)
HAND_2 = cards(
    "QS JS AS 10S 9S 7H 8H 9D 10D 8C 7S 8S KS 9H 10H JH QH KH AH 7D 8D JD QD KD AD 7C 9C "
    "10C JC QC KC AC"
)
HAND_3 = cards(
    "KD QD JD AD 10D 7H 8H 9S 10S 8C 7D 7S 8S JS QS KS AS 9H 10H JH QH KH AH 8D 9D 7C 9C "
    "10C JC QC KC AC"
)
HAND_4 = cards(
    "KC QC JC AH 10S 7H KH 9S KS 8D 7C 7S 8S JS QS AS 8H 9H 10H JH QH 7D 9D 10D JD QD KD "
    "AD 8C 9C 10C AC"
)
MOVES = moves(
    "propose, accept, discard 7D 8C, discard 7S 8S, king, play KH, play 9S, play QH, "
    "play 10S, play JH, play JS, play AH, play 9D, play 10H, play 10C, propose, refuse, "
    "play QS, play 7H, play JS, play 8H, play AS, play 9D, play 10S, play 8C, play 9S, "
    "play 10D, king, play KD, play 7H, play QD, play 8H, play JD, play 8C, play AD, "
    "play 9S, play 10D, play 10S, king, play KC, play 8D, play QC, play 9S, play AH, "
    "play KH, play KS, play 10S, play 7H, play JC"
)

LESSON = Lesson(
    game="ecarte",
    options={"target": 11, "first_seat": 1},
    decks=(HAND_1, HAND_2, HAND_3, HAND_4),
    moves=MOVES,
    notes={
        0: N_(
            "Écarté: five cards each, and the card turned up gives trumps. You are elder: you "
            "may lead at once, or propose to exchange cards. Your cards outside trumps are "
            "poor, so propose."
        ),
        1: N_("You proposed: the dealer, Tapis, now accepts or refuses."),
        2: N_(
            "Tapis accepted. Now you discard one to five cards face down and draw as many from "
            "the stock; then Tapis may do the same. Throw away your two small cards outside "
            "trumps."
        ),
        3: N_("Tapis now exchanges in turn, from zero to five cards."),
        4: N_(
            "You drew the king of trumps. Announce it as you come to play your first card: it "
            "scores 1 point, and then you play. A king of trumps discarded would score nothing."
        ),
        5: N_(
            "Now the tricks. The second player must follow suit and beat the card led if they "
            "can; with no card of that suit they must trump if they can. Lead your trumps from "
            "the top: five tricks out of five is the vole."
        ),
        15: N_(
            "All five tricks: the vole, 2 points (after an exchange nobody bears the risk, so "
            "three or four tricks score 1 and all five score 2). A new hand: propose again. "
            "This time Tapis refuses."
        ),
        17: N_(
            "Tapis refused your first proposal, so Tapis now bears the risk: if it takes "
            "fewer than three tricks you score 2, and 3 if it takes none. Lead your trumps."
        ),
        27: N_(
            "Tapis took no trick: 3 points to you. This hand you play at once without "
            "proposing, so you bear the risk yourself: take fewer than three tricks and Tapis "
            "scores 2 or 3. Announce your king first; announcing it means you play now."
        ),
        38: N_(
            "Committed and winning all five tricks: 2 points, and 1 for the king. One more "
            "point wins the match, which is played to 11. Announce your king again."
        ),
        43: N_(
            "In Écarté the ace ranks between the jack and the ten: king, queen, jack, ace, ten, "
            "nine, eight, seven. Lead your ace of hearts and see."
        ),
        46: N_(
            "Tapis leads. You must follow suit and beat the card led if you can; if you cannot "
            "beat it, you still follow suit."
        ),
        48: N_("You have no heart, so you must trump: a trump takes the trick, your third one."),
    },
    end=N_(
        "The match is yours, 11 points. That was Écarté: propose or play at once, the "
        "exchanges, the king of trumps, who bears the risk, and the vole."
    ),
)
