"""Views built by hand for each game, as docs/views.md describes them: the pictures' fixtures.

They hold every key a table reads, in a busy moment of a deal, so the golden images show
everything a player can see. Real engines' views are tested separately (test_engines.py).
"""

from __future__ import annotations

from typing import Any

View = dict[str, Any]


def _base(game: str, seat: int | None, hand: list[str], to_move: int | None) -> View:
    return {
        "game": game,
        "seat": seat,
        "hand": hand,
        "to_move": to_move,
        "scores": [0, 0],
        "legal_moves": [],
        "result": None,
    }


def ecarte(seat: int | None = None) -> View:
    view = _base("ecarte", seat, [], 1)
    view.update(
        {
            "scores": [3, 4],
            "deal": 6,
            "dealer": 0,
            "elder": 1,
            "target": 11,
            "trump": "H",
            "turn_up": "9H",
            "stock": 13,
            "phase": "play",
            "committed": 1,
            "proposals": 1,
            "exchanges": [{"seat": 1, "count": 3}, {"seat": 0, "count": 2}],
            "king": None,
            "trick": [{"seat": 0, "card": "KS"}],
            "tricks": [
                {"cards": [{"seat": 1, "card": "AH"}, {"seat": 0, "card": "7H"}], "winner": 1},
                {"cards": [{"seat": 1, "card": "10C"}, {"seat": 0, "card": "QC"}], "winner": 0},
            ],
            "tricks_won": [1, 1],
            "hand_sizes": [3, 3],
            "deal_scores": [0, 0],
            "hand_scores": [[1, 0], [0, 2]],
            "previous_hand": None,
            "discarded": [],
            "last_move": {"seat": 0, "move": "play KS"},
        }
    )
    if seat == 1:
        view["hand"] = ["8S", "JH", "9D"]
        view["legal_moves"] = ["play 8S"]
        view["discarded"] = ["7S", "8C", "9C"]
    return view


def piquet(seat: int | None = None) -> View:
    view = _base("piquet", seat, [], 1)
    view.update(
        {
            "scores": [87, 54],
            "deal": 4,
            "deals": 6,
            "dealer": 1,
            "elder": 0,
            "phase": "play",
            "talons": [0, 0],
            "exchanged": [5, 3],
            "talon_seen": [],
            "discarded": [],
            "declarations": [
                {"seat": 0, "kind": "point", "text": "point of five, 48", "points": 5},
                {"seat": 1, "kind": "sequence", "text": "quart to the king in spades", "points": 4},
                {"seat": 0, "kind": "set", "text": "quatorze of aces", "points": 14},
                {"seat": 0, "kind": "cards", "text": "leading a card", "points": 1},
            ],
            "trick": [{"seat": 0, "card": "AC"}],
            "last_trick": {
                "cards": [{"seat": 1, "card": "KD"}, {"seat": 0, "card": "AD"}],
                "winner": 0,
            },
            "tricks_won": [3, 2],
            "deal_scores": [24, 6],
            "deal_history": [[31, 12], [8, 27], [24, 9]],
            "hand_sizes": [7, 7],
            "last_move": {"seat": 0, "move": "play AC"},
        }
    )
    if seat == 1:
        view["hand"] = ["9S", "10S", "QH", "JC", "KC", "8D", "9D"]
        view["legal_moves"] = ["play JC", "play KC"]  # piquet: follow suit
        view["discarded"] = ["7S", "7H", "8H"]
    return view


def bezique(seat: int | None = None) -> View:
    view = _base("bezique", seat, [], 1)
    view.update(
        {
            "scores": [620, 480],
            "deal": 2,
            "dealer": 0,
            "target": 1000,
            "trump": "D",
            "turn_up": "7D",
            "stock": 23,
            "stage": 1,
            "phase": "follow",
            "trick": [{"seat": 0, "card": "10C"}],
            "last_trick": {
                "cards": [{"seat": 1, "card": "AS"}, {"seat": 0, "card": "8S"}],
                "winner": 1,
            },
            "table": [["QS", "KD", "QD", "JD"], ["KS", "KH", "KD", "KC"]],
            "melds": [
                {"seat": 1, "name": "seven of trumps (exchange)", "cards": ["7D"], "points": 10},
                {"seat": 0, "name": "bezique", "cards": ["QS", "JD"], "points": 40},
                {"seat": 1, "name": "four kings", "cards": ["KS", "KH", "KD", "KC"], "points": 80},
                {"seat": 0, "name": "trump marriage", "cards": ["KD", "QD"], "points": 40},
            ],
            "hand_sizes": [4, 4],
            "tricks_won": [5, 6],
            "brisques": [4, 5],
            "deal_scores": [80, 90],
            "last_move": {"seat": 0, "move": "play 10C"},
        }
    )
    if seat == 1:
        view["hand"] = ["7S", "9S", "AH", "10C", "AC", "8D", "10D", "AD", "JC"]
        view["legal_moves"] = ["play " + code for code in view["hand"]]
    return view


def cinq_as(seat: int | None = None) -> View:
    view = _base("cinq-as", seat, [], 0)
    view.update(
        {
            "scores": [14, -10],
            "round": 2,
            "rounds": 3,
            "first_player": 0,
            "phase": "play",
            "expeditions": [
                {
                    "S": ["JS", "3S", "5S", "8S"],
                    "H": [],
                    "D": ["4D", "9D"],
                    "C": [],
                    "T": ["20T", "2T", "6T", "7T", "10T"],
                },
                {"S": [], "H": ["KH", "QH", "2H", "4H", "6H", "7H"], "D": [], "C": ["5C"], "T": []},
            ],
            "expedition_scores": [
                {"S": -8, "H": 0, "D": -7, "C": 0, "T": 10},
                {"S": 0, "H": 9, "D": 0, "C": -15, "T": 0},
            ],
            "discards": {
                "S": ["9S"],
                "H": [],
                "D": ["QD", "2D"],
                "C": ["JC", "8C", "10C"],
                "T": ["21T"],
            },
            "just_discarded": None,
            "stock": 19,
            "hand_sizes": [8, 8],
            "round_scores": [[-20, -2], [34, -8]],
            "last_move": {"seat": 1, "move": "draw D"},
        }
    )
    if seat == 0:
        view["hand"] = ["2S", "10S", "8H", "KD", "3C", "4C", "8T", "19T"]
        view["legal_moves"] = [
            *(f"play {code}" for code in ("10S", "8H", "3C", "4C")),
            *(f"discard {code}" for code in view["hand"]),
        ]
    return view


SAMPLES = {"bezique": bezique, "cinq-as": cinq_as, "ecarte": ecarte, "piquet": piquet}
"""Each game's sample: called with None for the public view, with the seat for a hand."""
HAND_SEATS = {"bezique": 1, "cinq-as": 0, "ecarte": 1, "piquet": 1}
