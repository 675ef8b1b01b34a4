"""The database schema, as numbered migrations.

Migration *n* (1-based) brings a database from ``PRAGMA user_version = n - 1`` to ``n``; each
is applied once, in its own transaction, with the version bump. Never edit a migration that
has shipped: add the next one.
"""

from __future__ import annotations

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
    # 5 and 6: the clocks' side table and tournaments.
    "",
    "",
    # 7: the language a server's public posts speak: the one chosen with /tapis language
    # (NULL: none chosen) and the Discord locale last seen there (NULL: not seen yet).
    """
    ALTER TABLE guild_settings ADD COLUMN language TEXT;
    ALTER TABLE guild_settings ADD COLUMN locale TEXT;
    """,
)
