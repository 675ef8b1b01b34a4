"""A small style checker for what players read: the house rules of every message and picture.

``problems(text)`` lists what is wrong with one player-facing string: a rule decision id
("(ecarte D8)"), a raw move code ("play QS", "draw D", a bare "discard"), a hyphen-minus
before a digit where a minus sign (U+2212) belongs, a score's dash without spaces ("11–9"),
"1 cards"-style plurals. Tests run it over every string a whole match produces, in each
language. ``english_left(text, lang)`` finds words only English uses in a French or Swedish
text: a sentence left untranslated.
"""

from __future__ import annotations

import re
import unicodedata

import games


def decision_ids(letters: str = "DX", flags: int = 0) -> re.Pattern[str]:
    """A rule decision id ("ecarte D8") of any registered game, by any of its names, with or
    without accents; ``letters``: the letters that number decisions."""
    spellings = set()
    for game in games.registered():
        for name in (game.name, game.title, *game.aliases):
            plain = unicodedata.normalize("NFKD", name)
            spellings |= {name, "".join(ch for ch in plain if not unicodedata.combining(ch))}
    either = "|".join(re.escape(name) for name in sorted(spellings, key=len, reverse=True))
    return re.compile(rf"\b(?:{either})\s+[{letters}]\d+\b", flags)


_DECISION = decision_ids()
_RAW_MOVE = re.compile(
    r"\b(?:play|discard|meld|draw)\s+(?:10|[2-9]|1[0-9]|2[01]|[JQKA])[SHDCT]\b|\bdraw [SHDCT]\b"
)
_BARE_DISCARD = re.compile(r"^\s*discard\s*$")
_CODE = re.compile(r"(?<![\w`])(?:10|[2-9]|[JQKA])[SHDC](?![\w`])")
_HYPHEN_MINUS = re.compile(r"(?:^|[\s(=:,])-\d")
_TIGHT_SCORE = re.compile(r"\d–[\d\N{MINUS SIGN}]")
# A third-person sentence given "You" as its subject: "You scores 2 points", "Vous marque".
_YOU_THIRD_PERSON = re.compile(
    r"\bYou (?:wins|scores|takes|gets|has|is|plays|holds|stays|loses|makes)\b"
    r"|\bVous (?:gagne|marque|a|est|reste|prend)\b"
)
_SINGULAR_PLURAL = re.compile(
    r"(?<![\d.,])1\s+(?:cards|points|tricks|brisques|cartes|levées|brisker|wins|victoires)\b"
)


def problems(text: str) -> list[str]:
    """What is wrong with ``text``, one line each (empty: nothing)."""
    found = []
    if _DECISION.search(text):
        found.append(f"a rule decision id: {text!r}")
    if _RAW_MOVE.search(text) or _BARE_DISCARD.search(text):
        found.append(f"a raw move code: {text!r}")
    if _CODE.search(text):
        found.append(f"a raw card code: {text!r}")
    if _HYPHEN_MINUS.search(text):
        found.append(f"a hyphen-minus before a digit: {text!r}")
    if _TIGHT_SCORE.search(text):  # "−31–−70": a score's dash stands between spaces
        found.append(f"a score without spaces around its dash: {text!r}")
    if _YOU_THIRD_PERSON.search(text):
        found.append(f"a verb that does not agree with 'you': {text!r}")
    if _SINGULAR_PLURAL.search(text):
        found.append(f"a plural after 1: {text!r}")
    return found


# Words only English uses: one of them in a French or Swedish text means a sentence was left
# untranslated. What is typed (between backticks) is notation, the same in every language.
ENGLISH_ONLY = frozenset({
    "the", "you", "your", "not", "is", "are", "was", "has", "have", "hold", "must", "only",
    "cannot", "card", "cards", "trick", "tricks", "suits", "follow", "played", "draw", "discard",
    "meld", "melds", "stock", "this", "that", "with", "when", "already", "move", "moves", "turn",
    "match", "over", "write", "takes", "may", "one", "king", "queen", "jack", "ace", "trumps",
    "trump", "seven", "first", "after", "before", "then", "there", "no", "of", "and", "or",
})  # fmt: skip


def english_left(text: str, lang: str) -> list[str]:
    """The English words left in ``text``, a message in ``lang`` (none for English)."""
    if lang == "en":
        return []
    prose = re.sub(r"`[^`]*`|<[^>]*>", " ", text)
    return sorted(
        {word for word in re.findall(r"[A-Za-z]+", prose) if word.lower() in ENGLISH_ONLY}
    )
