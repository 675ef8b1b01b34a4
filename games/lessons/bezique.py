"""Bézigue's guided first deal: one deal to a target the learner reaches at its last count.

The learner wins the first trick and exchanges the seven of trumps for the turned-up card,
melds a bezique, a plain marriage, then a trump marriage with a queen already shown; the
computer shows its own seven; the last eight tricks follow their stricter rule, and the
brisques and the last trick are counted at the end.
"""

from __future__ import annotations

from games.lessons import Lesson, cards, moves
from games.words import N_

DECK = cards(
    "KH 7S 9S 9H 9H 7C QH JD 7D 10S 7H 10C 10S AH KH 8S QS 9D 9C 8H 10H KS AD QC 8H AS KC "
    "QH QD QD 10C 8S QS 9C 8C JH 7D 10D AD JS JH KD 7C KC 8C KD KS AS 8D 7H JC 7S JC 9S "
    "AC JD AC 10D QC 10H JS 8D 9D AH"
)
MOVES = moves(
    "play 7C, play 7H, exchange, meld QS JD, play 9H, play 8S, play 7D, play 9H, "
    "play 8H, play 9D, play AH, play 9S, meld QH KH, play 8H, play KH, meld QC KC, "
    "play KC, play QS, play JD, play KS, play 9C, play QH, play 9C, play 8C, play JH, "
    "play 7D, play QH, play QD, play QC, play JH, play KD, play AS, play 7C, play 8S, "
    "play 8C, play QD, play 10S, play 8D, play 7H, play JC, play KD, play JC, declare 7, "
    "play 10S, play AD, play JD, play KH, play 10D, play AD, meld QS KS, play QC, "
    "play 10D, play QS, play 9D, play 8D, play 7S, play 10C, play AC, play KC, play 10C, "
    "play 7S, play KS, play 10H, play 9S, play AS, play 10H, play JS, play AH, play JS, "
    "play AC"
)

LESSON = Lesson(
    game="bezique",
    options={"target": 180, "first_seat": 1},
    decks=(DECK,),
    moves=MOVES,
    notes={
        0: N_(
            "Bézigue: two packs, eight cards each, and the card turned up gives trumps. While "
            "the stock lasts nobody must follow suit, and the winner of each trick may score "
            "before both draw. You lead first."
        ),
        2: N_(
            "You won the trick, so you may score now. You hold the seven of trumps: exchange "
            "it for the card turned up, 10 points. Each seven of trumps scores once."
        ),
        3: N_(
            "One meld per trick won: the queen of spades and the jack of diamonds make a "
            "bezique, 40 points. Melded cards stay on the table, and may still be played."
        ),
        4: N_("After your scores you both drew a card. Lead again."),
        12: N_(
            "Another trick won: meld the king and queen of hearts, a marriage, 20 points. In "
            "trumps a marriage scores 40."
        ),
        44: N_(
            "Tapis won a trick and showed a seven of trumps: 10 points. A seven may be shown or "
            "exchanged, never both for the same card."
        ),
        49: N_(
            "A card may serve again in a meld of another kind: the queen of spades of your "
            "bezique now marries the king of spades, and spades are trumps: 40 points."
        ),
        54: N_(
            "The stock is gone: the last eight tricks. Your cards on the table went back to "
            "your hand, nothing more is melded, and now the second player must follow suit and "
            "beat the card led if able, else trump if able."
        ),
        57: N_("Tapis led a club: you must follow with a higher club, and your ace does."),
        69: N_(
            "The last trick scores 10. Then each ace and ten among the tricks you took, a "
            "brisque, scores 10 more."
        ),
    },
    end=N_(
        "The brisques and the last trick were counted, and you reached 180 points, this "
        "lesson's goal. A real match is played to 1,500 points, over several deals."
    ),
)
