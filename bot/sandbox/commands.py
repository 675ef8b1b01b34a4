"""What a player types at the sandbox's prompts: its commands in each language, its help, a
move as a player of a language types it."""

from __future__ import annotations

from games.cards import SUIT_SYMBOLS, card_name
from games.phrases import is_card, move_word
from games.words import N_, Words

YES = ("yes", "y")  # and the reader's own word for it
# The sandbox's commands, each as English, French and Swedish players type it (the help text
# of each language names its own); every spelling is read whatever the language.
COMMANDS = {
    "moves": ("moves", "coups", "drag"),
    "hand": ("hand", "main", "hand"),
    "table": ("table", "board", "table", "bord"),
    "rules": ("rules", "règles", "regles", "regler"),
    "resign": ("resign", "abandonner", "ge upp"),
    "quit": ("quit", "exit", "q", "quitter", "avsluta"),
    "colours": ("colours", "colors", "couleurs", "färger", "farger"),
    "help": ("help", "?", "aide", "hjälp", "hjalp"),
    "hint": ("hint", "conseil", "tips"),
    "learn": ("learn", "apprendre", "lär", "lar", "lära", "lara"),
}
QUIT = COMMANDS["quit"]
HELP_WORDS = COMMANDS["help"]
RULES_WORDS = COMMANDS["rules"]
LEARN_WORDS = COMMANDS["learn"]

HELP = N_(
    """Commands (at any prompt):
  <a move>      the same notation as on Discord, e.g.  {examples}
  <number>      the move with that number in the list of your moves
  moves         list the moves open to you now
  hand          show your hand again          table   show the table again
  rules         the rules of this game, in short, and how to write its moves
  hint          the move the strong computer would make now, and why
  learn <game>  a guided first deal, each step explained (when choosing a game)
  resign        give up this match            quit    leave (the match is kept: resume it later)
  colours       switch the four-colour deck on or off (in the pictures)
  help          this text"""
)


def as_typed(move: str, w: Words) -> str:
    """A move as a player of ``w``'s language types it: their move word, their card names
    (``jouer D♠``); the parser reads it back."""
    verb, *rest = move.split()
    cards = [card_name(word, w) if is_card(word) else SUIT_SYMBOLS.get(word, word) for word in rest]
    return " ".join([move_word(verb, w), *cards])
