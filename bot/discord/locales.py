"""Command descriptions in French and Swedish, the homes of these games.

Discord shows a command's descriptions in the reader's client language when the command
carries them. Command and option names stay English on purpose: they are what the help, the
README and other players write. Replies are English for now.
"""

from __future__ import annotations

import discord
from discord import app_commands

import games

_EXAMPLE = games.example().example_options
OPTIONS_HELP = f"Game options, e.g. {_EXAMPLE} (the list suggests each game's)"
"""The /challenge options' description; its example comes from the games themselves."""
START_HELP = (
    "When it starts by itself: 2026-12-24 18:00 (UTC), or in 3h, in 2d (default: /tournament start)"
)
"""The /tournament create start's description (kept here: it is translated below)."""

# English text → (French, Swedish)
TRANSLATIONS: dict[str, tuple[str, str]] = {
    "Challenge a member (or anyone) to a card game": (
        "Défier un membre (ou n'importe qui) à un jeu de cartes",
        "Utmana en medlem (eller vem som helst) i ett kortspel",
    ),
    "Which game to play": ("Le jeu", "Vilket spel"),
    "Who you challenge; leave empty to let anyone accept": (
        "Qui vous défiez ; vide pour laisser n'importe qui accepter",
        "Vem du utmanar; lämna tomt så kan vem som helst anta",
    ),
    OPTIONS_HELP: (
        f"Options du jeu, p. ex. {_EXAMPLE} (la liste propose celles du jeu)",
        f"Spelets val, t.ex. {_EXAMPLE} (listan föreslår spelets val)",
    ),
    "Days each player has per move before losing on time (default: no clock)": (
        "Jours par coup avant de perdre au temps (par défaut : sans pendule)",
        "Dagar per drag innan man förlorar på tid (standard: ingen klocka)",
    ),
    "The computer's level, when you challenge Tapis itself (default: normal)": (
        "Le niveau de l'ordinateur, quand vous défiez Tapis lui-même (par défaut : normal)",
        "Datorns nivå, när du utmanar Tapis själv (standard: normal)",
    ),
    "Accept a challenge (or press Accept on it)": (
        "Accepter un défi (ou appuyer sur Accepter)",
        "Anta en utmaning (eller tryck på Anta)",
    ),
    "The challenge to accept": ("Le défi à accepter", "Utmaningen att anta"),
    "Decline a challenge, or withdraw your own": (
        "Refuser un défi, ou retirer le vôtre",
        "Avböj en utmaning, eller dra tillbaka din egen",
    ),
    "The challenge to decline": ("Le défi à refuser", "Utmaningen att avböja"),
    "Make your move: the list shows your legal moves": (
        "Jouer votre coup : la liste montre vos coups permis",
        "Gör ditt drag: listan visar dina tillåtna drag",
    ),
    "Your move, e.g. play QS or discard 7H 9C (pick from the list)": (
        "Votre coup, p. ex. play QS ou discard 7H 9C (choisir dans la liste)",
        "Ditt drag, t.ex. play QS eller discard 7H 9C (välj i listan)",
    ),
    "Which match, when you are not in its thread": (
        "Quelle partie, hors de son fil",
        "Vilket parti, när du inte är i dess tråd",
    ),
    "See your cards again, privately": (
        "Revoir vos cartes, en privé",
        "Se dina kort igen, privat",
    ),
    "Send it by DM, or show it here to you alone": (
        "En message privé, ou ici pour vous seul",
        "Som direktmeddelande, eller här bara för dig",
    ),
    "Show the table of a match to everyone here": (
        "Montrer la table d'une partie à tous ici",
        "Visa ett partis bord för alla här",
    ),
    "Give up a match: your opponent wins it": (
        "Abandonner une partie : votre adversaire la gagne",
        "Ge upp ett parti: motståndaren vinner",
    ),
    "List your matches and challenges": (
        "Vos parties et vos défis",
        "Dina partier och utmaningar",
    ),
    "Rules, rankings and help": ("Règles, classements et aide", "Regler, rankning och hjälp"),
    "How to play with Tapis: the commands, in short": (
        "Jouer avec Tapis : les commandes, en bref",
        "Så spelar du med Tapis: kommandona i korthet",
    ),
    "Card colours in your hand pictures: two or four suits' colours": (
        "Couleurs des cartes de votre main : deux ou quatre",
        "Färger på korten i din hand: två eller fyra",
    ),
    "Four colours tell ♦ from ♥ and ♣ from ♠ at a glance": (
        "Quatre couleurs distinguent ♦ de ♥ et ♣ de ♠ d'un coup d'œil",
        "Fyra färger skiljer ♦ från ♥ och ♣ från ♠ med en blick",
    ),
    "The rules of a game, in short, and how to write its moves": (
        "Les règles d'un jeu, en bref, et comment écrire ses coups",
        "Ett spels regler i korthet, och hur dragen skrivs",
    ),
    "Which game": ("Quel jeu", "Vilket spel"),
    "The best players of a game, here or everywhere": (
        "Les meilleurs joueurs d'un jeu, ici ou partout",
        "De bästa spelarna i ett spel, här eller överallt",
    ),
    "This server only, or every server": (
        "Ce serveur seulement, ou tous",
        "Bara den här servern, eller alla",
    ),
    "A member's record: rating, wins, losses, streak": (
        "Le bilan d'un membre : cote, victoires, défaites, série",
        "En medlems resultat: rating, vinster, förluster, svit",
    ),
    "Whose record (default: yours)": (
        "Le bilan de qui (par défaut : le vôtre)",
        "Vems (standard: ditt)",
    ),
    "One game, or all": ("Un jeu, ou tous", "Ett spel, eller alla"),
    "here": ("ici", "här"),
    "this server": ("ce serveur", "den här servern"),
    "global": ("partout", "alla servrar"),
    "two colours": ("deux couleurs", "två färger"),
    "four colours": ("quatre couleurs", "fyra färger"),
    "Replay a finished match, move by move, with every hand": (
        "Rejouer une partie finie, coup par coup, toutes les mains visibles",
        "Spela upp ett avslutat parti, drag för drag, med alla händer",
    ),
    "The finished match to replay": ("La partie finie à rejouer", "Partiet att spela upp"),
    "Moves a second in the animation (1-10, default 2)": (
        "Coups par seconde dans l'animation (1 à 10, 2 par défaut)",
        "Drag per sekund i animeringen (1-10, standard 2)",
    ),
    "An animation, or pages with buttons (long matches are always paged)": (
        "Une animation, ou des pages à boutons (toujours des pages pour les longues parties)",
        "En animering, eller sidor med knappar (långa partier visas alltid som sidor)",
    ),
    "animation": ("animation", "animering"),
    "pages": ("pages", "sidor"),
    "A finished match's moves as a file, to keep or check": (
        "Les coups d'une partie finie dans un fichier, à garder ou vérifier",
        "Ett avslutat partis drag som fil, att spara eller kontrollera",
    ),
    "The finished match to export": ("La partie finie à exporter", "Partiet att exportera"),
    "Show this server's leaderboards on the web, or stop": (
        "Montrer les classements de ce serveur sur le web, ou cesser",
        "Visa serverns topplistor på webben, eller sluta",
    ),
    "Play the same deals twice, seats swapped: the difference of scores decides": (
        "Jouer deux fois les mêmes donnes, places inversées : l'écart des points décide",
        "Spela samma givar två gånger med bytta platser: poängskillnaden avgör",
    ),
    "A season's table of this server (its points), current or past": (
        "Le tableau d'une saison de ce serveur (ses points), en cours ou passée",
        "En säsongs tabell på servern (dess poäng), pågående eller tidigare",
    ),
    "Seasons of this server's tables": (
        "Les saisons des tableaux de ce serveur",
        "Säsonger för serverns tabeller",
    ),
    "Close this season's tables and start the next": (
        "Clore les tableaux de cette saison et commencer la suivante",
        "Stäng säsongens tabeller och börja nästa",
    ),
    "Tournaments on this server": ("Les tournois de ce serveur", "Turneringar på servern"),
    "Open a tournament for members to join": (
        "Ouvrir un tournoi auquel les membres s'inscrivent",
        "Öppna en turnering som medlemmar kan gå med i",
    ),
    "Swiss (paired by score) or round-robin (everyone meets everyone)": (
        "Suisse (appariés selon les points) ou toutes rondes (chacun contre chacun)",
        "Schweizer (lottade efter poäng) eller allsvensk (alla möter alla)",
    ),
    "Each pairing plays the same deals twice with seats swapped": (
        "Chaque paire joue deux fois les mêmes donnes, places inversées",
        "Varje par spelar samma givar två gånger med bytta platser",
    ),
    "Swiss rounds (default: enough to find a winner)": (
        "Rondes du suisse (par défaut : assez pour trouver un vainqueur)",
        "Schweizerrundor (standard: tillräckligt för att kora en vinnare)",
    ),
    START_HELP: (
        "Départ automatique : 2026-12-24 18:00 (UTC), ou in 3h, in 2d (défaut : /tournament start)",
        "Start av sig själv: 2026-12-24 18:00 (UTC), eller in 3h, in 2d "
        "(standard: /tournament start)",
    ),
    "The tournament's name": ("Le nom du tournoi", "Turneringens namn"),
    "Join a tournament before it starts": (
        "S'inscrire à un tournoi avant son début",
        "Gå med i en turnering innan den börjar",
    ),
    "Which tournament": ("Quel tournoi", "Vilken turnering"),
    "Leave a tournament (during it, your match is resigned)": (
        "Quitter un tournoi (en cours, votre partie est abandonnée)",
        "Lämna en turnering (under den ges ditt parti upp)",
    ),
    "Start a tournament now (its creator or a manager)": (
        "Lancer un tournoi maintenant (son créateur ou un gérant)",
        "Starta en turnering nu (dess skapare eller en administratör)",
    ),
    "A tournament's standings, as a picture": (
        "Le classement d'un tournoi, en image",
        "En turnerings ställning, som bild",
    ),
    "on: anyone may see them on the site; off: hidden (default)": (
        "on : visibles de tous sur le site ; off : cachés (par défaut)",
        "on: alla kan se dem på webbplatsen; off: dolda (standard)",
    ),
}

_LOCALES = {discord.Locale.french: 0, discord.Locale.swedish: 1}


class Translator(app_commands.Translator):
    """Descriptions and choice names from :data:`TRANSLATIONS`; names stay as written."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        index = _LOCALES.get(locale)
        if index is None or context.location in NAMES:
            return None
        found = TRANSLATIONS.get(string.message)
        return found[index] if found else None


NAMES = (
    app_commands.TranslationContextLocation.command_name,
    app_commands.TranslationContextLocation.group_name,
    app_commands.TranslationContextLocation.parameter_name,
)
