"""The database schema, as numbered migrations.

Migration *n* (1-based) brings a database from ``PRAGMA user_version = n - 1`` to ``n``; each
is applied once, in its own transaction, with the version bump. Never edit a migration that
has shipped: add the next one.
"""

from __future__ import annotations

import re
from typing import Final

MIGRATIONS: Final[tuple[str, ...]] = (
    # 1: players, matches, the move log, results and ratings.
    """
    CREATE TABLE players (
        user_id     INTEGER PRIMARY KEY,
        name        TEXT NOT NULL,
        locale      TEXT NOT NULL DEFAULT 'en',
        four_colour INTEGER NOT NULL DEFAULT 0 CHECK (four_colour IN (0, 1)),
        dms_closed  INTEGER NOT NULL DEFAULT 0 CHECK (dms_closed IN (0, 1)),
        created_at  REAL NOT NULL,
        updated_at  REAL NOT NULL
    );

    CREATE TABLE matches (
        id            INTEGER PRIMARY KEY,
        game          TEXT NOT NULL,
        guild_id      INTEGER,
        channel_id    INTEGER,
        thread_id     INTEGER,
        challenger_id INTEGER NOT NULL REFERENCES players (user_id),
        opponent_id   INTEGER REFERENCES players (user_id),
        seat0_id      INTEGER REFERENCES players (user_id),
        seat1_id      INTEGER REFERENCES players (user_id),
        options       TEXT NOT NULL DEFAULT '{}',
        seed          INTEGER,
        status        TEXT NOT NULL CHECK (status IN ('challenge', 'active', 'finished',
                          'declined', 'cancelled', 'aborted', 'corrupt')),
        version       INTEGER NOT NULL DEFAULT 0,
        state         TEXT,
        to_move_id    INTEGER,
        days_per_move INTEGER CHECK (days_per_move IS NULL OR days_per_move > 0),
        deadline      REAL,
        reminder_at   REAL,
        result        TEXT,
        problem       TEXT,
        rematch_of    INTEGER REFERENCES matches (id),
        rated         INTEGER NOT NULL DEFAULT 1 CHECK (rated IN (0, 1)),
        created_at    REAL NOT NULL,
        updated_at    REAL NOT NULL
    );
    CREATE INDEX matches_by_thread ON matches (thread_id) WHERE thread_id IS NOT NULL;
    CREATE INDEX matches_by_seat0 ON matches (seat0_id, status);
    CREATE INDEX matches_by_seat1 ON matches (seat1_id, status);
    CREATE INDEX matches_by_challenger ON matches (challenger_id, status);
    CREATE INDEX matches_by_opponent ON matches (opponent_id, status);
    CREATE INDEX matches_by_deadline ON matches (deadline) WHERE status = 'active';
    CREATE INDEX matches_by_reminder ON matches (reminder_at) WHERE status = 'active';
    CREATE INDEX matches_rematch ON matches (rematch_of) WHERE rematch_of IS NOT NULL;

    -- One row per engine move, in order: ply n is the move that made version n.
    CREATE TABLE moves (
        match_id INTEGER NOT NULL REFERENCES matches (id),
        ply      INTEGER NOT NULL CHECK (ply > 0),
        seat     INTEGER NOT NULL CHECK (seat IN (0, 1)),
        user_id  INTEGER NOT NULL,
        move     TEXT NOT NULL,
        at       REAL NOT NULL,
        PRIMARY KEY (match_id, ply)
    ) WITHOUT ROWID;

    -- How each finished match ended; how = 'play' | 'resignation' | 'time'.
    CREATE TABLE results (
        match_id    INTEGER PRIMARY KEY REFERENCES matches (id),
        game        TEXT NOT NULL,
        guild_id    INTEGER,
        seat0_id    INTEGER NOT NULL REFERENCES players (user_id),
        seat1_id    INTEGER NOT NULL REFERENCES players (user_id),
        winner_seat INTEGER CHECK (winner_seat IN (0, 1)),
        how         TEXT NOT NULL CHECK (how IN ('play', 'resignation', 'time')),
        scores      TEXT NOT NULL,
        finished_at REAL NOT NULL
    );

    -- One rating per player, game and scope (scope 0: everywhere; else a guild id).
    CREATE TABLE ratings (
        user_id      INTEGER NOT NULL REFERENCES players (user_id),
        game         TEXT NOT NULL,
        scope        INTEGER NOT NULL,
        mu           REAL NOT NULL,
        sigma        REAL NOT NULL,
        rating       REAL NOT NULL,  -- the shown rating: mu - 3 sigma, kept for the board's index
        games        INTEGER NOT NULL DEFAULT 0,
        wins         INTEGER NOT NULL DEFAULT 0,
        losses       INTEGER NOT NULL DEFAULT 0,
        draws        INTEGER NOT NULL DEFAULT 0,
        streak       INTEGER NOT NULL DEFAULT 0,
        losses_on_time INTEGER NOT NULL DEFAULT 0,
        resignations INTEGER NOT NULL DEFAULT 0,
        wins_on_time INTEGER NOT NULL DEFAULT 0,
        wins_by_resignation INTEGER NOT NULL DEFAULT 0,
        updated_at   REAL NOT NULL,
        PRIMARY KEY (user_id, game, scope)
    ) WITHOUT ROWID;
    CREATE INDEX ratings_board ON ratings (game, scope, rating DESC);
    """,
    # 2: the web site. A server shows its pages only once it asked to (privacy: off by
    # default), and each rating change is kept for the profile's chart. A trigger records the
    # history, so every path that rates a match feeds it in that match's own transaction.
    """
    CREATE TABLE guild_settings (
        guild_id   INTEGER PRIMARY KEY,
        web        INTEGER NOT NULL DEFAULT 0 CHECK (web IN (0, 1)),
        updated_at REAL NOT NULL
    );

    CREATE TABLE rating_history (
        user_id INTEGER NOT NULL,
        game    TEXT NOT NULL,
        scope   INTEGER NOT NULL,
        games   INTEGER NOT NULL,  -- the rated matches counted after this change
        rating  REAL NOT NULL,
        at      REAL NOT NULL,
        PRIMARY KEY (user_id, game, scope, games)
    ) WITHOUT ROWID;

    -- Ratings stored before this migration start their history where they stand.
    INSERT INTO rating_history (user_id, game, scope, games, rating, at)
        SELECT user_id, game, scope, games, rating, updated_at FROM ratings;

    CREATE TRIGGER rating_history_insert AFTER INSERT ON ratings BEGIN
        INSERT OR REPLACE INTO rating_history (user_id, game, scope, games, rating, at)
            VALUES (NEW.user_id, NEW.game, NEW.scope, NEW.games, NEW.rating, NEW.updated_at);
    END;
    CREATE TRIGGER rating_history_update AFTER UPDATE ON ratings BEGIN
        INSERT OR REPLACE INTO rating_history (user_id, game, scope, games, rating, at)
            VALUES (NEW.user_id, NEW.game, NEW.scope, NEW.games, NEW.rating, NEW.updated_at);
    END;

    -- A profile lists a player's latest matches; results are looked up by seat.
    CREATE INDEX results_by_seat0 ON results (seat0_id, finished_at);
    CREATE INDEX results_by_seat1 ON results (seat1_id, finished_at);
    CREATE INDEX results_by_time ON results (finished_at);
    """,
    # 3: the outbox: every message a change owes, written in the change's own transaction,
    # so a crash between the commit and the sending loses nothing; ``sent_at`` is set once
    # it went out. AUTOINCREMENT: an id is never reused, as it is the message's nonce.
    """
    CREATE TABLE outbox (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        match_id   INTEGER NOT NULL,
        delivery   TEXT NOT NULL,
        created_at REAL NOT NULL,
        sent_at    REAL
    );
    CREATE INDEX outbox_unsent ON outbox (id) WHERE sent_at IS NULL;
    CREATE INDEX outbox_sent ON outbox (sent_at) WHERE sent_at IS NOT NULL;
    """,
    # 4: open challenges counted per channel (flood caps) and expired by the clock task,
    # whose expiry is kept in ``deadline`` while the match is a challenge.
    """
    CREATE INDEX matches_open_by_channel ON matches (channel_id) WHERE status = 'challenge';
    CREATE INDEX matches_challenge_expiry ON matches (deadline) WHERE status = 'challenge';
    UPDATE matches SET deadline = created_at + 86400 WHERE status = 'challenge';
    """,
    # 5: the clocks in a side table. A move used to rewrite the match row and move it in two
    # indexes of due times; a due time now lives in a small row of its own, one per match
    # with a clock running (an active match's deadline and reminder, an open challenge's
    # expiry), written only when a due time changes and deleted when none is left.
    """
    CREATE TABLE clocks (
        match_id    INTEGER PRIMARY KEY REFERENCES matches (id),
        deadline    REAL,
        reminder_at REAL
    );
    CREATE INDEX clocks_by_deadline ON clocks (deadline);
    CREATE INDEX clocks_by_reminder ON clocks (reminder_at);
    INSERT INTO clocks (match_id, deadline, reminder_at)
        SELECT id, deadline, reminder_at FROM matches
        WHERE status IN ('active', 'challenge')
            AND (deadline IS NOT NULL OR reminder_at IS NOT NULL);
    DROP INDEX matches_by_deadline;
    DROP INDEX matches_by_reminder;
    DROP INDEX matches_challenge_expiry;
    ALTER TABLE matches DROP COLUMN deadline;
    ALTER TABLE matches DROP COLUMN reminder_at;
    """,
    # 6: duplicate matches, tournaments and seasons. Plain types and no AUTOINCREMENT, so the
    # same text runs on PostgreSQL. A duplicate match is named by its first leg; its second
    # leg (same seed, seats swapped) and its one result come later. A tournament's games name
    # their match (the first leg for a duplicate); a bye has no match and no second player.
    # The tournament task looks at a tournament once ``due_at`` has passed (its start time),
    # and whenever one of its matches ends.
    """
    CREATE TABLE duplicates (
        first_leg   INTEGER PRIMARY KEY REFERENCES matches (id),
        second_leg  INTEGER REFERENCES matches (id),
        margin      REAL,     -- first leg's seat 0 player's points less the other's, both legs
        winner_seat INTEGER CHECK (winner_seat IN (0, 1)),  -- a seat of the first leg
        how         TEXT,
        rated       INTEGER NOT NULL DEFAULT 1 CHECK (rated IN (0, 1)),  -- the pair, as one
        finished_at REAL
    );
    CREATE INDEX duplicates_by_second ON duplicates (second_leg) WHERE second_leg IS NOT NULL;
    CREATE INDEX duplicates_open ON duplicates (first_leg) WHERE finished_at IS NULL;

    CREATE TABLE tournaments (
        id            INTEGER PRIMARY KEY,
        guild_id      INTEGER NOT NULL,
        channel_id    INTEGER NOT NULL,
        thread_id     INTEGER,
        name          TEXT NOT NULL,
        game          TEXT NOT NULL,
        options       TEXT NOT NULL DEFAULT '{}',
        format        TEXT NOT NULL CHECK (format IN ('swiss', 'round-robin')),
        duplicate     INTEGER NOT NULL DEFAULT 0 CHECK (duplicate IN (0, 1)),
        rounds        INTEGER CHECK (rounds IS NULL OR rounds > 0),
        days_per_move INTEGER CHECK (days_per_move IS NULL OR days_per_move > 0),
        creator_id    INTEGER NOT NULL,
        status        TEXT NOT NULL CHECK (status IN ('open', 'running', 'finished',
                          'cancelled')),
        round         INTEGER NOT NULL DEFAULT 0,  -- the round being played (0: not started)
        announced     INTEGER NOT NULL DEFAULT 0,  -- rounds whose pairings were posted
        reported      INTEGER NOT NULL DEFAULT 0,  -- rounds whose standings were posted
        starts_at     REAL,
        due_at        REAL,
        created_at    REAL NOT NULL,
        updated_at    REAL NOT NULL
    );
    CREATE INDEX tournaments_by_guild ON tournaments (guild_id, status);
    CREATE INDEX tournaments_due ON tournaments (due_at) WHERE due_at IS NOT NULL;

    CREATE TABLE tournament_players (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
        user_id       INTEGER NOT NULL REFERENCES players (user_id),
        place         INTEGER NOT NULL,  -- the starting order: who joined first
        joined_at     REAL NOT NULL,
        left_round    INTEGER,  -- the round they left in (0: before the start), NULL if in
        PRIMARY KEY (tournament_id, user_id)
    );

    CREATE TABLE tournament_games (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
        round         INTEGER NOT NULL,
        board         INTEGER NOT NULL,
        seat0_id      INTEGER NOT NULL,
        seat1_id      INTEGER,  -- NULL: a bye
        match_id      INTEGER REFERENCES matches (id),
        points0       REAL,     -- NULL until the game is over
        points1       REAL,
        posted        INTEGER NOT NULL DEFAULT 0 CHECK (posted IN (0, 1)),
        PRIMARY KEY (tournament_id, round, board)
    );
    CREATE INDEX tournament_games_by_match ON tournament_games (match_id)
        WHERE match_id IS NOT NULL;

    -- Seasons per server: the current one is the highest number without ``ended_at``; a
    -- server that never started one is in season 1. Ratings are never reset by a season.
    CREATE TABLE seasons (
        guild_id   INTEGER NOT NULL,
        number     INTEGER NOT NULL,
        started_at REAL NOT NULL,
        ended_at   REAL,
        PRIMARY KEY (guild_id, number)
    );
    CREATE TABLE season_scores (
        guild_id   INTEGER NOT NULL,
        season     INTEGER NOT NULL,
        game       TEXT NOT NULL,
        user_id    INTEGER NOT NULL REFERENCES players (user_id),
        games      INTEGER NOT NULL DEFAULT 0,
        wins       INTEGER NOT NULL DEFAULT 0,
        draws      INTEGER NOT NULL DEFAULT 0,
        losses     INTEGER NOT NULL DEFAULT 0,
        points     REAL NOT NULL DEFAULT 0,
        updated_at REAL NOT NULL,
        PRIMARY KEY (guild_id, season, game, user_id)
    );
    CREATE INDEX season_board ON season_scores (guild_id, season, game, points DESC);
    """,
    # 7: the language a server's public posts speak: the one chosen with /tapis language
    # (NULL: none chosen) and the Discord locale last seen there (NULL: not seen yet).
    """
    ALTER TABLE guild_settings ADD COLUMN language TEXT;
    ALTER TABLE guild_settings ADD COLUMN locale TEXT;
    """,
    # 8: an outbox row is sent under a lease. The process replaying it notes itself and until
    # when the row is its own; it sends, then marks the row sent. If it dies between the two,
    # the lease runs out and any process claims the row again and sends it with the same
    # nonce (Discord shows a nonce's message once): every message goes out, none twice.
    """
    ALTER TABLE outbox ADD COLUMN claimed_by TEXT;
    ALTER TABLE outbox ADD COLUMN claimed_until REAL;
    """,
    # 9: each player's DM channel with the bot, once opened (NULL: never opened), so that a
    # restarted bot does not spend a request per player opening it again.
    """
    ALTER TABLE players ADD COLUMN dm_channel INTEGER;
    """,
    # 10: a turn's due times back on the match's row, which every move rewrites anyway; the
    # row of clocks becomes an alarm: when the clock task must look at the match, never later
    # than its due times but possibly earlier. A move that only puts the due times later
    # leaves the alarm alone, so the two indexes of clocks are no longer rewritten at every
    # move; an alarm that rings early is set anew to the match's due times.
    """
    ALTER TABLE matches ADD COLUMN deadline REAL;
    ALTER TABLE matches ADD COLUMN reminder_at REAL;
    UPDATE matches
        SET deadline = (SELECT c.deadline FROM clocks c WHERE c.match_id = matches.id),
            reminder_at = (SELECT c.reminder_at FROM clocks c WHERE c.match_id = matches.id)
        WHERE id IN (SELECT match_id FROM clocks);
    """,
    # 11: each player's own word about the web site (``/tapis privacy``): -1 hidden from it
    # (no profile, named "a player"), 0 as their servers chose, 1 public (their matches
    # outside any server may be shown, when their opponent chose so too).
    """
    ALTER TABLE players ADD COLUMN web INTEGER NOT NULL DEFAULT 0 CHECK (web IN (-1, 0, 1));
    """,
    # 12: where a match lives: 0 a channel the bot posts in; 1 a conversation the bot is no
    # member of (a DM or group DM between people, a server without the bot), reached only by
    # answering the interactions made there.
    """
    ALTER TABLE matches ADD COLUMN talk INTEGER NOT NULL DEFAULT 0 CHECK (talk IN (0, 1));
    """,
    # 13: the coach. A match may allow hints (``coached``: the challenge said so; matches
    # against the computer allow them without a row). Each hint asked is kept with the match,
    # so its replay shows who was helped and when; a finished match's review is worked out
    # once and kept, so asking again is instant.
    """
    CREATE TABLE coached (
        match_id INTEGER PRIMARY KEY REFERENCES matches (id)
    );
    CREATE TABLE hints (
        match_id INTEGER NOT NULL REFERENCES matches (id),
        version  INTEGER NOT NULL,
        user_id  INTEGER NOT NULL,
        move     TEXT NOT NULL,
        at       REAL NOT NULL,
        PRIMARY KEY (match_id, version, user_id)
    );
    CREATE TABLE reviews (
        match_id   INTEGER PRIMARY KEY REFERENCES matches (id),
        review     TEXT NOT NULL,
        created_at REAL NOT NULL
    );
    """,
)


# -- PostgreSQL -----------------------------------------------------------------------------
# The migrations above are written for SQLite and, statement by statement, for PostgreSQL
# too; the few words the two spell differently are turned here, and only here, so that the
# one list serves both backends. A new migration needs nothing in this section as long as it
# keeps to the portable part of SQL (plain types, no AUTOINCREMENT, no triggers).

# SQLite triggers have no PostgreSQL spelling: PostgreSQL runs a function. Migration 2's
# triggers keep each rating change in rating_history; this is the same, the PostgreSQL way.
_POSTGRES_TRIGGERS: Final[dict[int, str]] = {
    2: """
    CREATE FUNCTION rating_history_keep() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        INSERT INTO rating_history (user_id, game, scope, games, rating, at)
            VALUES (NEW.user_id, NEW.game, NEW.scope, NEW.games, NEW.rating, NEW.updated_at)
            ON CONFLICT (user_id, game, scope, games)
            DO UPDATE SET rating = EXCLUDED.rating, at = EXCLUDED.at;
        RETURN NULL;
    END $$;
    CREATE TRIGGER rating_history_keep AFTER INSERT OR UPDATE ON ratings
        FOR EACH ROW EXECUTE FUNCTION rating_history_keep();
    """,
}

_SQLITE_TRIGGER = re.compile(r"CREATE TRIGGER\b.*?\bEND;", re.DOTALL | re.IGNORECASE)
_WORDS: Final[tuple[tuple[re.Pattern[str], str], ...]] = (
    # A table's own ``id`` is SQLite's rowid, numbered by the database; identity in PostgreSQL.
    (
        re.compile(r"\bid\s+INTEGER\s+PRIMARY\s+KEY(\s+AUTOINCREMENT)?", re.IGNORECASE),
        "id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
    ),
    # SQLite's INTEGER holds 64 bits (Discord ids need them); PostgreSQL's holds 32.
    (re.compile(r"\bINTEGER\b", re.IGNORECASE), "BIGINT"),
    (re.compile(r"\bREAL\b", re.IGNORECASE), "DOUBLE PRECISION"),
    (re.compile(r"\)\s*WITHOUT\s+ROWID", re.IGNORECASE), ")"),
)


def for_postgres(number: int) -> str:
    """Migration ``number`` (1-based) as PostgreSQL runs it."""
    script = MIGRATIONS[number - 1]
    script = _SQLITE_TRIGGER.sub("", script)
    for pattern, replacement in _WORDS:
        script = pattern.sub(replacement, script)
    return script + _POSTGRES_TRIGGERS.get(number, "")
