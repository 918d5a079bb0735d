"""Texts like a given one: what translation memory (ipgsite.workspace.memory) asks of the search index."""

from ipgsite.ipg.models import Note

from .kept import Found, entries_of, kept_entries
from .models import Entry

__all__ = ["Found", "candidates", "entry_of"]


def entry_of(obj, language):
    """The entry (`Found`) for a paragraph's text or a note's body in one language, or None."""
    text = {"note": obj} if isinstance(obj, Note) else {"paragraph": obj, "note": None}
    pk = Entry.objects.filter(**text, language=language).values_list("id", flat=True).first()
    return None if pk is None else entries_of({pk}).get(pk)


def candidates(entry, target, limit, wanted):
    """At most `limit` other entries in the language of `entry`, translated into `target`, most alike first."""
    return kept_entries().similar(entry, target, limit, wanted)
