"""Building the search index from paragraphs and notes, and keeping it current."""

from django.db import transaction

from ipgsite.ipg import languages
from ipgsite.ipg.markup import render_markdown
from ipgsite.ipg.models import Note, Paragraph
from ipgsite.ipg.text import plain_text

from .folding import fold, grams
from .models import Entry, Kind
from .stemming import stems


def entries_for(obj, field, paragraph, note=None):
    """Unsaved entries: one per language the paragraph's text (or the note's body) is written in."""
    found = []
    for code, value in languages.translations(obj, field).items():
        text = plain_text(render_markdown(value))
        folded = fold(text)
        found.append(
            Entry(
                section_id=paragraph.section_id,
                paragraph=paragraph,
                note=note,
                language=code,
                kind=Kind.of(paragraph, note),
                text=text,
                folded=folded,
                grams=grams(folded),
                stems=stems(folded),
            )
        )
    return found


@transaction.atomic
def reindex(paragraph_ids=(), note_ids=()):
    """Index these paragraphs' own text and these notes again (ids of deleted rows are skipped)."""
    Entry.objects.filter(paragraph_id__in=paragraph_ids, note__isnull=True).delete()
    Entry.objects.filter(note_id__in=note_ids).delete()
    entries = []
    for paragraph in Paragraph.objects.filter(pk__in=paragraph_ids):
        entries += entries_for(paragraph, "text", paragraph)
    for note in Note.objects.filter(pk__in=note_ids).select_related("paragraph"):
        entries += entries_for(note, "body", note.paragraph, note=note)
    Entry.objects.bulk_create(entries)


@transaction.atomic
def rebuild_index():
    """Index every paragraph and note again, e.g. after content is loaded in bulk."""
    Entry.objects.all().delete()
    entries = []
    for paragraph in Paragraph.objects.all():
        entries += entries_for(paragraph, "text", paragraph)
    for note in Note.objects.select_related("paragraph"):
        entries += entries_for(note, "body", note.paragraph, note=note)
    Entry.objects.bulk_create(entries, batch_size=500)
    return len(entries)


def follow(batch):
    """The index follows a batch of writes (ipgsite.editing.after_write): whole after a load, else the edited texts and
    the paragraphs whose part changed (a result's kind), and the notes moved to another paragraph (a result's place)."""
    if batch.everything:
        rebuild_index()
    elif batch.edits or batch.touched_paragraph_ids or batch.moved_note_ids:
        reindex(batch.paragraph_ids | batch.touched_paragraph_ids, batch.note_ids | batch.moved_note_ids)
