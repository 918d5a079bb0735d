"""Storing the mentions found in paragraphs and notes as `Link` rows, and keeping them current.

A link is stored as its words and which occurrence of them it is in the linkable text (`ipgsite.ipg.spans`), so
that a page finds it again in the text however the renderer of the day writes its HTML.
"""

from ipgsite.ipg import derived

from .matching import Matcher
from .models import Link


def links_for(matcher):
    """`rows_for` of `ipg.derived`: the unsaved links in each language of a paragraph's text or a note's body,
    never to its own section."""

    def rows_for(obj, field, paragraph, note):
        return [
            Link(
                paragraph=paragraph,
                note=note,
                language=code,
                text=span.words,
                nth=span.nth,
                section_id=span.what.section_id,
                mtr=span.what.mtr,
            )
            for code, span in derived.found_in(obj, field, lambda text, code: matcher.spans(text))
            if span.what.section_id != paragraph.section_id
        ]

    return rows_for


def relink(paragraph_ids=(), note_ids=()):
    """Find the mentions again in these paragraphs' own text and in these notes (ids of deleted rows are skipped)."""
    derived.refresh(Link, links_for(Matcher.from_database()), paragraph_ids, note_ids)


def rebuild_links():
    """Find every mention again, in every paragraph and note: after a bulk load, or when names change."""
    return derived.rebuild(Link, links_for(Matcher.from_database()))


def follow(batch):
    """Links follow a batch of writes (an after-write step): all of them when names changed, else the edited texts'."""
    if batch.everything or batch.names_changed:
        rebuild_links()
    elif batch.edits or batch.moved_note_ids:
        relink(batch.paragraph_ids, batch.note_ids | batch.moved_note_ids)  # a link names its place
