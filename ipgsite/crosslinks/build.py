"""Storing the mentions found in paragraphs and notes as `Link` rows, and keeping them current.

A link is stored as its words and which occurrence of them it is in the linkable text (`ipgsite.ipg.spans`), so
that a page finds it again in the text however the renderer of the day writes its HTML.
"""

from django.db import transaction

from ipgsite.ipg import languages, spans
from ipgsite.ipg.markup import render_markdown
from ipgsite.ipg.models import Note, Paragraph

from .matching import Matcher
from .models import Link


def links_of(obj, field, paragraph, section_id, matcher, note=None):
    """Unsaved links for each language of a paragraph's text or a note's body; never to its own section."""
    found = []
    for code, value in languages.translations(obj, field).items():
        for span in spans.find(render_markdown(value), matcher.spans):
            mention = span.what
            if mention.section_id == section_id:
                continue
            found.append(
                Link(
                    paragraph=paragraph,
                    note=note,
                    language=code,
                    text=span.words,
                    nth=span.nth,
                    section_id=mention.section_id,
                    mtr=mention.mtr,
                )
            )
    return found


@transaction.atomic
def relink(paragraph_ids=(), note_ids=()):
    """Find the mentions again in these paragraphs' own text and in these notes (ids of deleted rows are skipped)."""
    matcher = Matcher.from_database()
    Link.objects.filter(paragraph_id__in=paragraph_ids, note__isnull=True).delete()
    Link.objects.filter(note_id__in=note_ids).delete()
    links = []
    for paragraph in Paragraph.objects.filter(pk__in=paragraph_ids):
        links += links_of(paragraph, "text", paragraph, paragraph.section_id, matcher)
    for note in Note.objects.filter(pk__in=note_ids).select_related("paragraph"):
        links += links_of(note, "body", note.paragraph, note.paragraph.section_id, matcher, note=note)
    Link.objects.bulk_create(links)


@transaction.atomic
def rebuild_links():
    """Find every mention again, in every paragraph and note: after a bulk load, or when names change."""
    matcher = Matcher.from_database()
    Link.objects.all().delete()
    links = []
    for paragraph in Paragraph.objects.all():
        links += links_of(paragraph, "text", paragraph, paragraph.section_id, matcher)
    for note in Note.objects.select_related("paragraph"):
        links += links_of(note, "body", note.paragraph, note.paragraph.section_id, matcher, note=note)
    Link.objects.bulk_create(links, batch_size=500)
    return len(links)


def follow(batch):
    """Links follow a batch of writes (an after-write step): all of them when names changed, else the edited texts'."""
    if batch.everything or batch.names_changed:
        rebuild_links()
    elif batch.edits or batch.moved_note_ids:
        relink(batch.paragraph_ids, batch.note_ids | batch.moved_note_ids)  # a link names its place
