"""The indexes that find text, which differ by database.

SQLite: two FTS5 tables over search_entry (external content), kept in step by triggers:
`search_entry_trigrams` (trigram tokenizer, over `folded`) and `search_entry_grams` (unicode61, over `grams`).
PostgreSQL: pg_trgm's GIN index on `folded`, and a GIN index on `grams_words`, a stored generated column
holding the `simple` tsvector of `grams` (Django's model doesn't know it; the database fills it in).

Beware: when a later migration alters search_entry on SQLite, Django rebuilds the table and the
triggers go with it. Such a migration must run SQLITE_TRIGGERS again and rebuild the FTS tables.
"""

from django.db import migrations

SQLITE_TABLES = [
    "CREATE VIRTUAL TABLE search_entry_trigrams USING fts5("
    "folded, content='search_entry', content_rowid='id', tokenize='trigram')",
    "CREATE VIRTUAL TABLE search_entry_grams USING fts5("
    "grams, content='search_entry', content_rowid='id', tokenize='unicode61')",
]
SQLITE_TRIGGERS = [
    """CREATE TRIGGER search_entry_indexed AFTER INSERT ON search_entry BEGIN
        INSERT INTO search_entry_trigrams(rowid, folded) VALUES (new.id, new.folded);
        INSERT INTO search_entry_grams(rowid, grams) VALUES (new.id, new.grams);
    END""",
    """CREATE TRIGGER search_entry_unindexed AFTER DELETE ON search_entry BEGIN
        INSERT INTO search_entry_trigrams(search_entry_trigrams, rowid, folded) VALUES ('delete', old.id, old.folded);
        INSERT INTO search_entry_grams(search_entry_grams, rowid, grams) VALUES ('delete', old.id, old.grams);
    END""",
    """CREATE TRIGGER search_entry_reindexed AFTER UPDATE ON search_entry BEGIN
        INSERT INTO search_entry_trigrams(search_entry_trigrams, rowid, folded) VALUES ('delete', old.id, old.folded);
        INSERT INTO search_entry_grams(search_entry_grams, rowid, grams) VALUES ('delete', old.id, old.grams);
        INSERT INTO search_entry_trigrams(rowid, folded) VALUES (new.id, new.folded);
        INSERT INTO search_entry_grams(rowid, grams) VALUES (new.id, new.grams);
    END""",
    "INSERT INTO search_entry_trigrams(search_entry_trigrams) VALUES ('rebuild')",
    "INSERT INTO search_entry_grams(search_entry_grams) VALUES ('rebuild')",
]
SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS search_entry_indexed",
    "DROP TRIGGER IF EXISTS search_entry_unindexed",
    "DROP TRIGGER IF EXISTS search_entry_reindexed",
    "DROP TABLE IF EXISTS search_entry_trigrams",
    "DROP TABLE IF EXISTS search_entry_grams",
]
POSTGRES = [
    "CREATE EXTENSION IF NOT EXISTS pg_trgm",
    "CREATE INDEX search_entry_folded_trigrams ON search_entry USING gin (folded gin_trgm_ops)",
    # Stored, so that no query computes a tsvector row by row.
    "ALTER TABLE search_entry ADD COLUMN grams_words tsvector GENERATED ALWAYS AS (to_tsvector('simple', grams)) STORED",
    "CREATE INDEX search_entry_grams_words ON search_entry USING gin (grams_words)",
]
POSTGRES_DROP = [
    "DROP INDEX IF EXISTS search_entry_folded_trigrams",
    "DROP INDEX IF EXISTS search_entry_grams_words",
    "ALTER TABLE search_entry DROP COLUMN IF EXISTS grams_words",
]


def _run(schema_editor, statements):
    for statement in statements:
        schema_editor.execute(statement)


def create(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "sqlite":
        _run(schema_editor, SQLITE_TABLES + SQLITE_TRIGGERS)
    elif vendor == "postgresql":
        _run(schema_editor, POSTGRES)


def drop(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "sqlite":
        _run(schema_editor, SQLITE_DROP)
    elif vendor == "postgresql":
        _run(schema_editor, POSTGRES_DROP)


class Migration(migrations.Migration):
    dependencies = [("search", "0001_initial")]
    operations = [migrations.RunPython(create, drop)]
