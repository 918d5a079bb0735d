"""The database's own text indexes go: search and translation memory find in the entries kept in memory
(search/kept.py). SQLite: the FTS5 tables and the triggers that kept them in step (0002, 0004). PostgreSQL: the
pg_trgm and GIN indexes, the generated tsvector columns and the extension (0002, 0004). `grams`, which only fed them,
goes too. Going back makes them again as 0004 left them.
"""

from importlib import import_module

from django.db import migrations

from ipgsite.ipg.text import CJK_RUN

TEXT_INDEXES = import_module("ipgsite.search.migrations.0002_text_indexes")
STEMS = import_module("ipgsite.search.migrations.0004_entry_stems")
POSTGRES_DROP = [
    "DROP INDEX IF EXISTS search_entry_english_words",
    "ALTER TABLE search_entry DROP COLUMN IF EXISTS english_words",
    *TEXT_INDEXES.POSTGRES_DROP,
    "DROP EXTENSION IF EXISTS pg_trgm",
]


def _run(schema_editor, statements):
    for statement in statements:
        schema_editor.execute(statement)


def drop(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "sqlite":
        _run(schema_editor, STEMS.SQLITE_DROP)
    elif vendor == "postgresql":
        _run(schema_editor, POSTGRES_DROP)


def grams(folded):
    """Every CJK letter and every pair of adjacent CJK letters, space-separated, in text order (as 0002 had them)."""
    out = []
    for run in CJK_RUN.findall(folded):
        out.append(run[0])
        for index in range(1, len(run)):
            out += [run[index], run[index - 1 : index + 1]]
    return " ".join(out)


def create(apps, schema_editor):
    Entry = apps.get_model("search", "Entry")
    entries = list(Entry.objects.only("id", "folded"))
    for entry in entries:
        entry.grams = grams(entry.folded)
    Entry.objects.bulk_update(entries, ["grams"], batch_size=500)
    vendor = schema_editor.connection.vendor
    if vendor == "sqlite":
        _run(schema_editor, STEMS.SQLITE_TABLES + STEMS.SQLITE_TRIGGERS)
    elif vendor == "postgresql":
        _run(schema_editor, TEXT_INDEXES.POSTGRES + STEMS.POSTGRES)


class Migration(migrations.Migration):
    dependencies = [("search", "0005_drop_duplicate_note_index")]
    operations = [
        migrations.RunPython(drop, create),
        migrations.RemoveField(model_name="entry", name="grams"),
    ]
