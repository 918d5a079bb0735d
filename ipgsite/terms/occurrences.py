"""Storing where the text uses each term (`Occurrence` rows), and keeping them current: found the way cross-links are,
in the linkable text of the rendered paragraph, and stored as words and which occurrence of them each is
(`ipgsite.ipg.spans`), never on a request."""

from ipgsite.ipg import derived

from . import lookup
from .models import Occurrence, Term


def _matcher():
    return lookup.Matcher(lookup.read_terms())


def occurrences_for(matcher, terms):
    """`rows_for` of `ipg.derived`: the unsaved occurrences in each language of a paragraph's text or a note's body.
    `terms` is {term key: term id}."""

    def rows_for(obj, field, paragraph, note):
        return [
            Occurrence(
                term_id=terms[span.what.key],
                paragraph=paragraph,
                note=note,
                language=code,
                text=span.words,
                nth=span.nth,
            )
            for code, span in derived.found_in(obj, field, matcher.spans)
        ]

    return rows_for


def _rows_for():
    return occurrences_for(_matcher(), dict(Term.objects.values_list("key", "pk")))


def rebuild_occurrences():
    """Find every term again in every paragraph and note: after a load, or when a term changes."""
    return derived.rebuild(Occurrence, _rows_for())


def refind(paragraph_ids=(), note_ids=()):
    """Find the terms again in these paragraphs' own text and in these notes."""
    derived.refresh(Occurrence, _rows_for(), paragraph_ids, note_ids)


def follow(batch):
    """Occurrences follow a batch of writes (an after-write step): all of them when terms changed, else the edited
    texts' and those of the notes moved to another paragraph (an occurrence names its paragraph)."""
    if batch.changed(Term):
        rebuild_occurrences()
    elif batch.paragraph_ids or batch.note_ids or batch.moved_note_ids:
        refind(batch.paragraph_ids, batch.note_ids | batch.moved_note_ids)
