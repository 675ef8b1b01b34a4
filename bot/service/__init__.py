"""The match service: the whole life of a match, in plain data, without Discord.

Every call takes ids and text and returns a :class:`MatchInfo` and the :class:`Delivery`
list the adapter must send, in order. The service speaks to the games only through the
engine contract (``games.get(name).new_match``, ``apply``, ``view``, ``to_json``/``from_json``),
so nothing here knows one game from another.

The rooms, each readable alone, none importing one that imports it back:

- ``values``: the plain data passed in and out, the errors, the stored match row;
- ``wording``: pure functions from a match to words and deliveries (with ``notices`` for a
  challenge's life, ``endings`` for a match's end);
- ``store``: matches and players as stored, cached, and saved through one ``save`` (with
  ``rows``, ``cache``, ``locks``, ``alarms``, ``outbox`` for its parts);
- ``standings``: results and ratings written when a match ends, leaderboards, stats;
- ``clock``: the one task over stored due times;
- ``life``: challenge → accept → moves → ending, each a load → decide → save → word walk
  (with ``dues`` for what a due time does, ``flood`` for how often one may challenge);
- ``integrity``: replaying a match's log to verify it;
- ``match_service``: :class:`MatchService`, the one object callers use.
"""

from bot.service.life import fresh_seed
from bot.service.match_service import MatchService, reachable, shown_here, utcnow
from bot.service.ratings import Standing
from bot.service.values import (
    ChallengeLimits,
    Conflict,
    Delivery,
    MatchInfo,
    MatchOver,
    NotAPlayer,
    NotFound,
    NotYourTurn,
    Place,
    PlayerProfile,
    PlayerRef,
    PlayerStats,
    Refused,
    ServiceError,
)

__all__ = [
    "ChallengeLimits",
    "Conflict",
    "Delivery",
    "MatchInfo",
    "MatchOver",
    "MatchService",
    "NotAPlayer",
    "NotFound",
    "NotYourTurn",
    "Place",
    "PlayerProfile",
    "PlayerRef",
    "PlayerStats",
    "Refused",
    "ServiceError",
    "Standing",
    "fresh_seed",
    "reachable",
    "shown_here",
    "utcnow",
]
