"""English stems for inflected queries ("scried" finds "scries").

SQLite: `search_entry.stems` (Snowball's English stems, filled by the index) becomes a second column of the
trigram FTS5 table, so that one MATCH can ask for a word's surface forms or its stem. Adding the column rebuilds
search_entry, which drops the triggers of migration 0002: they are made again here, with the new column.
PostgreSQL: `english_words`, a stored generated column holding `to_tsvector('english', folded)`, and its GIN index;
and no pending list on the GIN indexes (see POSTGRES).
"""

from django.db import migrations, models

SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS search_entry_indexed",
    "DROP TRIGGER IF EXISTS search_entry_unindexed",
    "DROP TRIGGER IF EXISTS search_entry_reindexed",
    "DROP TABLE IF EXISTS search_entry_trigrams",
    "DROP TABLE IF EXISTS search_entry_grams",
]
SQLITE_TABLES = [
    "CREATE VIRTUAL TABLE search_entry_trigrams USING fts5("
    "folded, stems, content='search_entry', content_rowid='id', tokenize='trigram')",
    "CREATE VIRTUAL TABLE search_entry_grams USING fts5("
    "grams, content='search_entry', content_rowid='id', tokenize='unicode61')",
]
SQLITE_TRIGGERS = [
    """CREATE TRIGGER search_entry_indexed AFTER INSERT ON search_entry BEGIN
        INSERT INTO search_entry_trigrams(rowid, folded, stems) VALUES (new.id, new.folded, new.stems);
        INSERT INTO search_entry_grams(rowid, grams) VALUES (new.id, new.grams);
    END""",
    """CREATE TRIGGER search_entry_unindexed AFTER DELETE ON search_entry BEGIN
        INSERT INTO search_entry_trigrams(search_entry_trigrams, rowid, folded, stems)
            VALUES ('delete', old.id, old.folded, old.stems);
        INSERT INTO search_entry_grams(search_entry_grams, rowid, grams) VALUES ('delete', old.id, old.grams);
    END""",
    """CREATE TRIGGER search_entry_reindexed AFTER UPDATE ON search_entry BEGIN
        INSERT INTO search_entry_trigrams(search_entry_trigrams, rowid, folded, stems)
            VALUES ('delete', old.id, old.folded, old.stems);
        INSERT INTO search_entry_grams(search_entry_grams, rowid, grams) VALUES ('delete', old.id, old.grams);
        INSERT INTO search_entry_trigrams(rowid, folded, stems) VALUES (new.id, new.folded, new.stems);
        INSERT INTO search_entry_grams(rowid, grams) VALUES (new.id, new.grams);
    END""",
    "INSERT INTO search_entry_trigrams(search_entry_trigrams) VALUES ('rebuild')",
    "INSERT INTO search_entry_grams(search_entry_grams) VALUES ('rebuild')",
]
# Migration 0002's tables and triggers, for going back.
SQLITE_BEFORE = [
    "CREATE VIRTUAL TABLE search_entry_trigrams USING fts5("
    "folded, content='search_entry', content_rowid='id', tokenize='trigram')",
    SQLITE_TABLES[1],
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
    SQLITE_TRIGGERS[-2],
    SQLITE_TRIGGERS[-1],
]
GIN_INDEXES = ["search_entry_folded_trigrams", "search_entry_grams_words", "search_entry_english_words"]
POSTGRES = [
    "ALTER TABLE search_entry ADD COLUMN english_words tsvector"
    " GENERATED ALWAYS AS (to_tsvector('english', folded)) STORED",
    "CREATE INDEX search_entry_english_words ON search_entry USING gin (english_words)",
    # A GIN index keeps new rows in a pending list, which every query reads in full until a vacuum merges it:
    # after a rebuild of the index, 5-15 ms a query at 50x the corpus. Entries are written rarely: no list.
    *(f"ALTER INDEX {index} SET (fastupdate = off)" for index in GIN_INDEXES),
    *(f"SELECT gin_clean_pending_list('{index}'::regclass)" for index in GIN_INDEXES),
]
POSTGRES_DROP = [
    *(f"ALTER INDEX {index} RESET (fastupdate)" for index in GIN_INDEXES[:2]),
    "DROP INDEX IF EXISTS search_entry_english_words",
    "ALTER TABLE search_entry DROP COLUMN IF EXISTS english_words",
]


def _run(schema_editor, statements):
    for statement in statements:
        schema_editor.execute(statement)


def fill_stems(apps, schema_editor):
    from ipgsite.search.folding import stems

    Entry = apps.get_model("search", "Entry")
    entries = list(Entry.objects.only("id", "folded"))
    for entry in entries:
        entry.stems = stems(entry.folded)
    Entry.objects.bulk_update(entries, ["stems"], batch_size=500)


def create(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "sqlite":
        _run(schema_editor, SQLITE_DROP)
        fill_stems(apps, schema_editor)
        _run(schema_editor, SQLITE_TABLES + SQLITE_TRIGGERS)
    else:
        fill_stems(apps, schema_editor)
        if vendor == "postgresql":
            _run(schema_editor, POSTGRES)


def drop(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "sqlite":
        _run(schema_editor, SQLITE_DROP)
    elif vendor == "postgresql":
        _run(schema_editor, POSTGRES_DROP)


def restore_before(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        _run(schema_editor, SQLITE_DROP + SQLITE_BEFORE)


class Migration(migrations.Migration):
    dependencies = [("search", "0003_alter_entry_language")]
    operations = [
        # Going back, the table loses `stems` (rebuilt, so without triggers) and gets migration 0002's back.
        migrations.RunPython(migrations.RunPython.noop, restore_before),
        migrations.AddField(
            model_name="entry",
            name="stems",
            field=models.TextField(
                blank=True, default="", help_text="The English stems of its Latin-script words, for inflected queries."
            ),
            preserve_default=False,
        ),
        migrations.RunPython(create, drop),
    ]
