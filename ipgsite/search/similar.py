"""Texts like a given one, for translation memory (ipgsite.workspace.memory): what it asks of the search index.

The index holds every paragraph's text and every note's body, plain and folded, per language (`search.Entry`). Memory
asks for the entry of the text to translate (`entry_of`), then for the entries in its language, translated into the
target language, that are most like it (`candidates`): found through the text index of the search backend
(SEARCH_BACKEND; search/backends.py), or, with `by_like`, every one of them (the plain scan, which memory's baseline
compares in full).
"""

from ipgsite.ipg.models import Note

from . import backends
from .backends import Text
from .models import Entry

__all__ = ["Text", "candidates", "entry_of"]


def entry_of(obj, language):
    """The index's entry (`Text`) for a paragraph's text or a note's body in one language, or None."""
    entries = Entry.objects.of_note(obj) if isinstance(obj, Note) else Entry.objects.of_paragraph_text(obj)
    row = entries.filter(language=language).values_list(*Text._fields).first()
    return None if row is None else Text(*row)


def candidates(entry, target, limit, wanted, by_like=False):
    """Entries (`Text`) in the language of `entry`, other than it, whose text is also indexed in the `target`
    language, the backend's best matches first: at most `limit` of them, and the backend looks further when it
    finds fewer than `wanted`. With `by_like`, every such entry, unranked."""
    return backends.backend(by_like).similar(entry, target, limit, wanted)
