"""Tables derived from the text of paragraphs and notes (the cross-links, the terms' occurrences, the search index),
and how each is rebuilt: the rows of some texts, or all of them.

Each such table has a row per thing found in one language of a paragraph's own text or of a note's body, with the
paragraph (and the note, or none) it was found in. Its app gives `rows_for(obj, field, paragraph, note)`: the unsaved
rows of one paragraph (obj is the paragraph, field "text", note None) or one note (obj is the note, field "body",
paragraph the note's paragraph). When each is rebuilt, and for which texts, is the app's `follow(batch)`, one of the
after-write steps `settings.AFTER_WRITE` lists.
"""

from django.db import models, transaction

from .models import Note, Paragraph

BATCH_SIZE = 500


def _rows(rows_for, paragraphs, notes):
    rows = []
    for paragraph in paragraphs:
        rows += rows_for(paragraph, "text", paragraph, None)
    for note in notes.select_related("paragraph"):
        rows += rows_for(note, "body", note.paragraph, note)
    return rows


def _compared(model):
    """The columns a row is compared by: all but its id."""
    return [field.attname for field in model._meta.concrete_fields if not field.primary_key]


def _text_of(row):
    """The text a row was found in: its paragraph, its note (or none) and its language."""
    return row[0], row[1], row[2]


def sync(model, rows, stored):
    """Make the `stored` rows (a queryset of `model`) the found `rows`, text by text: a text whose rows are the same
    keeps them untouched; one whose rows differ has them replaced, in reading order; one with none found left has
    them deleted. Only what changed is deleted and inserted, so that two writes at once touch few rows and the
    unchanged ones keep their ids. The number of rows found."""
    columns = _compared(model)
    place = [columns.index(name) for name in ("paragraph_id", "note_id", "language")]
    found = {}
    for row in rows:
        values = tuple(getattr(row, name) for name in columns)
        found.setdefault(_text_of([values[i] for i in place]), []).append((values, row))
    kept = {}
    for pk, *values in stored.order_by("pk").values_list("pk", *columns):
        kept.setdefault(_text_of([values[i] for i in place]), []).append((tuple(values), pk))
    stale, new = [], []
    for text in found.keys() | kept.keys():
        now, before = found.get(text, []), kept.get(text, [])
        if [values for values, _row in now] != [values for values, _pk in before]:
            stale += [pk for _values, pk in before]
            new += [row for _values, row in now]
    for start in range(0, len(stale), BATCH_SIZE):
        model.objects.filter(pk__in=stale[start : start + BATCH_SIZE]).delete()
    model.objects.bulk_create(new, batch_size=BATCH_SIZE)
    return len(rows)


@transaction.atomic
def refresh(model, rows_for, paragraph_ids=(), note_ids=()):
    """The rows of these paragraphs' own text and of these notes, found again (ids of deleted rows are skipped);
    the number of rows."""
    if not paragraph_ids and not note_ids:
        return 0
    rows = _rows(rows_for, Paragraph.objects.filter(pk__in=paragraph_ids), Note.objects.filter(pk__in=note_ids))
    stored = model.objects.filter(
        models.Q(paragraph_id__in=paragraph_ids, note__isnull=True) | models.Q(note_id__in=note_ids)
    )
    return sync(model, rows, stored)


@transaction.atomic
def rebuild(model, rows_for):
    """Every row found again, in every paragraph and note; the number of rows."""
    return sync(model, _rows(rows_for, Paragraph.objects.all(), Note.objects.all()), model.objects.all())
