"""Storing where the text uses each term (`Occurrence` rows), and keeping them current: found the way cross-links are,
in the linkable text of the rendered paragraph, and stored as words and which occurrence of them each is
(`ipgsite.ipg.spans`), never on a request."""

from django.db import transaction

from ipgsite.ipg import languages, spans
from ipgsite.ipg.markup import render_markdown
from ipgsite.ipg.models import Note, Paragraph

from . import lookup
from .models import Occurrence, Term


def _matcher():
    # Read from the database in this transaction: the cached vocabulary may not have these writes yet.
    return lookup.Matcher(lookup._read_terms())


def occurrences_of(obj, field, paragraph, matcher, terms, note=None):
    """Unsaved occurrences in each language of a paragraph's text or a note's body."""
    found = []
    for code, value in languages.translations(obj, field).items():
        for span in spans.find(render_markdown(value), matcher.spans):
            found.append(
                Occurrence(
                    term_id=terms[span.what.key],
                    paragraph=paragraph,
                    note=note,
                    language=code,
                    text=span.words,
                    nth=span.nth,
                )
            )
    return found


def _find(paragraphs, notes):
    matcher = _matcher()
    terms = dict(Term.objects.values_list("key", "pk"))
    found = []
    for paragraph in paragraphs:
        found += occurrences_of(paragraph, "text", paragraph, matcher, terms)
    for note in notes:
        found += occurrences_of(note, "body", note.paragraph, matcher, terms, note=note)
    return found


@transaction.atomic
def rebuild_occurrences():
    """Find every term again in every paragraph and note: after a load, or when a term changes."""
    Occurrence.objects.all().delete()
    found = _find(Paragraph.objects.all(), Note.objects.select_related("paragraph"))
    Occurrence.objects.bulk_create(found, batch_size=500)
    return len(found)


@transaction.atomic
def refind(paragraph_ids=(), note_ids=()):
    """Find the terms again in these paragraphs' own text and in these notes."""
    Occurrence.objects.filter(paragraph_id__in=paragraph_ids, note__isnull=True).delete()
    Occurrence.objects.filter(note_id__in=note_ids).delete()
    found = _find(
        Paragraph.objects.filter(pk__in=paragraph_ids), Note.objects.filter(pk__in=note_ids).select_related("paragraph")
    )
    Occurrence.objects.bulk_create(found)


def follow(batch):
    """Occurrences follow a batch of writes (an after-write step): all of them when terms changed, else the edited
    texts' and those of the notes moved to another paragraph (an occurrence names its paragraph)."""
    if batch.everything or batch.terms_changed or batch.term_ids:
        rebuild_occurrences()
    elif batch.paragraph_ids or batch.note_ids or batch.moved_note_ids:
        refind(batch.paragraph_ids, batch.note_ids | batch.moved_note_ids)
