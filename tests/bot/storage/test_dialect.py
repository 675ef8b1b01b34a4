"""SQLite's SQL in PostgreSQL's spelling: placeholders, new ids, INSERTs that may wait."""

from __future__ import annotations

from bot.storage.dialect import combined, translate


def test_statements_are_turned_into_postgresql_placeholders() -> None:
    assert translate("SELECT a FROM t WHERE b = ? AND c = '?'").text == (
        "SELECT a FROM t WHERE b = $1 AND c = '?'"
    )
    made = translate("INSERT INTO matches (game) VALUES (?)")
    assert made.text.endswith("RETURNING id") and made.numbered and made.rows
    kept = translate("INSERT INTO players (user_id) VALUES (?)")
    assert not kept.numbered and not kept.rows and kept.deferred == kept.text
    tagged = translate("INSERT INTO outbox (match_id, delivery) VALUES (?, ?)")
    assert tagged.deferred == "INSERT INTO outbox (id, match_id, delivery) VALUES ($1, $2, $3)"
    assert (
        translate("INSERT INTO players (user_id) VALUES (?) ON CONFLICT DO NOTHING").deferred
        is None
    )
    assert combined(
        ["INSERT INTO a (x) VALUES ($1)", "INSERT INTO b (y, z) VALUES ($1, $2)"], [1, 2]
    ) == (
        "WITH s0 AS (INSERT INTO a (x) VALUES ($1) RETURNING 1),"
        " s1 AS (INSERT INTO b (y, z) VALUES ($2, $3) RETURNING 1)"
        " SELECT (SELECT count(*) FROM s0), (SELECT count(*) FROM s1)"
    )


def test_placeholders_count_on_across_quotes_and_are_cached() -> None:
    statement = translate('SELECT "a?" FROM t WHERE b = ? AND c IN (?, ?)')
    assert statement.text == 'SELECT "a?" FROM t WHERE b = $1 AND c IN ($2, $3)'
    assert statement.rows and statement.deferred is None
    assert translate('SELECT "a?" FROM t WHERE b = ? AND c IN (?, ?)') is statement
    update = translate("UPDATE matches SET version = ? WHERE id = ? AND version = ?")
    assert update.text == "UPDATE matches SET version = $1 WHERE id = $2 AND version = $3"
    assert not update.rows and not update.numbered and update.deferred is None
