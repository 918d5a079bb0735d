"""Tables derived from the text of paragraphs and notes (the cross-links, the terms' occurrences, the search index),
and how each is rebuilt: the rows of some texts, or all of them.

Each such table has a row per thing found in one language of a paragraph's own text or of a note's body, with the
paragraph (and the note, or none) it was found in. Its app gives `rows_for(obj, field, paragraph, note)`: the unsaved
rows of one paragraph (obj is the paragraph, field "text", note None) or one note (obj is the note, field "body",
paragraph the note's paragraph). When each is rebuilt, and for which texts, is the app's `follow(batch)`, one of the
after-write steps `settings.AFTER_WRITE` lists.
"""

from django.db import transaction

from .models import Note, Paragraph

BATCH_SIZE = 500


def _rows(rows_for, paragraphs, notes):
    rows = []
    for paragraph in paragraphs:
        rows += rows_for(paragraph, "text", paragraph, None)
    for note in notes.select_related("paragraph"):
        rows += rows_for(note, "body", note.paragraph, note)
    return rows


@transaction.atomic
def refresh(model, rows_for, paragraph_ids=(), note_ids=()):
    """The rows of these paragraphs' own text and of these notes, found again (ids of deleted rows are skipped);
    the number of rows."""
    model.objects.filter(paragraph_id__in=paragraph_ids, note__isnull=True).delete()
    model.objects.filter(note_id__in=note_ids).delete()
    rows = _rows(rows_for, Paragraph.objects.filter(pk__in=paragraph_ids), Note.objects.filter(pk__in=note_ids))
    model.objects.bulk_create(rows, batch_size=BATCH_SIZE)
    return len(rows)


@transaction.atomic
def rebuild(model, rows_for):
    """Every row found again, in every paragraph and note; the number of rows."""
    model.objects.all().delete()
    rows = _rows(rows_for, Paragraph.objects.all(), Note.objects.all())
    model.objects.bulk_create(rows, batch_size=BATCH_SIZE)
    return len(rows)
