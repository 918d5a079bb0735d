"""Tables derived from the text of paragraphs and notes (the cross-links, the terms' occurrences, the search index),
and how each is rebuilt: the rows of some texts, or all of them.

Each such table has a row per thing found in one language of a paragraph's own text or of a note's body, with the
paragraph (and the note, or none) it was found in; a cross-link and a term's occurrence are both `models.Found`, words
found in the linkable text (`found_in`). Its app gives `rows_for(obj, field, paragraph, note)`: the unsaved rows of
one paragraph (obj is the paragraph, field "text", note None) or one note (obj is the note, field "body", paragraph
the note's paragraph). When each is rebuilt, and for which texts, is the app's `follow(batch)`, one of the after-write
steps `settings.AFTER_WRITE` lists.
"""

from django.db import models, transaction

from . import languages, spans
from .markup import render_markdown
from .models import Note, Paragraph

BATCH_SIZE = 500


def found_in(obj, field, spans_in):
    """(language, span) of each thing `spans_in(text, language)` finds in each language of a paragraph's text or a
    note's body, located in the linkable text of its rendering as a `models.Found` row keeps it (`spans.find`)."""
    for code, value in languages.translations(obj, field).items():
        for span in spans.find(render_markdown(value), lambda text, code=code: spans_in(text, code)):
            yield code, span


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


def number_from_offsets(model):
    """For the migrations that stored a table of `models.Found` rows as words and which occurrence of them
    (crosslinks and terms 0004), where they had been offsets (`start`) into the render they were found in: each row
    is numbered from its offset against the text as rendered now; one whose words are no longer there was never
    shown, and goes (the next write or load finds it again, if the text still has it). `model` is the migration's."""
    gone = []
    for row in model.objects.select_related("paragraph", "note").iterator():
        obj, field = (row.note, "body") if row.note_id else (row.paragraph, "text")
        value = getattr(obj, f"{field}_{languages.field_suffix(row.language)}") or ""
        row.nth = spans.nth_at(render_markdown(value), row.text, row.start)
        if row.nth is None:
            gone.append(row.pk)
        else:
            row.save(update_fields=["nth"])
    model.objects.filter(pk__in=gone).delete()
