"""Texts like a given one, for translation memory (ipgsite.workspace.memory): what it asks of the search index.

Memory asks for the kept entry of the text to translate (`entry_of`), then for the entries in its language,
translated into the target language, that are most like it (`candidates`, search/kept.py).
"""

from ipgsite.ipg.models import Note

from .kept import Found, entries_of, kept_entries
from .models import Entry

__all__ = ["Found", "candidates", "entry_of"]


def entry_of(obj, language):
    """The entry (`Found`) for a paragraph's text or a note's body in one language, or None."""
    entries = Entry.objects.of_note(obj) if isinstance(obj, Note) else Entry.objects.of_paragraph_text(obj)
    pk = entries.filter(language=language).values_list("id", flat=True).first()
    return None if pk is None else entries_of({pk}).get(pk)


def candidates(entry, target, limit, wanted):
    """Entries (`Found`) in the language of `entry`, other than it, whose text is also kept in the `target` language,
    those sharing most of its rarest trigrams first: at most `limit`, looking further when fewer than `wanted`."""
    return kept_entries().similar(entry, target, limit, wanted)
