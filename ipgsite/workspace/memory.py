"""Translation memory: for a paragraph or note, the most similar source texts already translated into the target
language, anywhere in the IPG, with their stored translations.

Candidates come from the search app's entries kept in memory, asked through `ipgsite.search.similar`: those sharing
most of the text's rarest trigrams. Only those few candidates are compared in Python.
"""

import difflib
from dataclasses import dataclass

from ipgsite.ipg import languages
from ipgsite.ipg.models import Note, Paragraph
from ipgsite.releases.diffing import diff_html, tokens
from ipgsite.search import similar

MAX_SUGGESTIONS = 3
CANDIDATES = 24  # compared in Python, those sharing most trigrams first
MIN_SIMILARITY = 0.5


@dataclass
class Suggestion:
    """A text already translated: its source, how similar it is, and its translation."""

    obj: object  # the Paragraph or Note
    source: str  # its text in the source language, plain
    translation: str  # its stored text in the target language (Markdown, as a translator typed it)
    similarity: float
    diff: str  # HTML: what differs between the suggestion's source (deleted) and this source (inserted)

    @property
    def exact(self):
        return self.similarity >= 1

    @property
    def percent(self):
        return int(self.similarity * 100)

    @property
    def section_number(self):
        return self.paragraph.section.number

    @property
    def paragraph(self):
        return self.obj.paragraph if isinstance(self.obj, Note) else self.obj

    @property
    def is_note(self):
        return isinstance(self.obj, Note)


# Similarity and suggestions


def similarity(a, b):
    """How alike two folded texts are, 0..1: words in Latin text, characters in Chinese and Japanese."""
    if a == b:
        return 1.0
    words_a, words_b = ([t for t in tokens(text) if not t.isspace()] for text in (a, b))
    return difflib.SequenceMatcher(None, words_a, words_b, autojunk=False).ratio()


def _best(folded, rows):
    """The rows (`similar.Found`) most like the folded text, at most MAX_SUGGESTIONS, as (similarity, id, row)."""
    scored = [(similarity(folded, row.folded), row.id, row) for row in rows]
    scored = [s for s in scored if s[0] >= MIN_SIMILARITY]
    scored.sort(key=lambda s: (-s[0], s[1]))
    return scored[:MAX_SUGGESTIONS]


def _suggestions(scored, source_text, target_code):
    paragraph_ids = {row.paragraph_id for _s, _id, row in scored if row.note_id is None}
    note_ids = {row.note_id for _s, _id, row in scored if row.note_id is not None}
    paragraphs = Paragraph.objects.select_related("section").in_bulk(paragraph_ids)
    notes = Note.objects.select_related("paragraph__section").in_bulk(note_ids)
    found = []
    for score, _entry_id, row in scored:
        obj = notes.get(row.note_id) if row.note_id is not None else paragraphs.get(row.paragraph_id)
        if obj is None:
            continue
        field = "body" if row.note_id is not None else "text"
        translation = languages.translated(obj, field, target_code)
        if translation:
            text = row.text
            found.append(Suggestion(obj, text, translation, score, "" if score >= 1 else diff_html(text, source_text)))
    return found


def suggest(obj, source_code, target_code):
    """Up to three Suggestions for translating the paragraph's or note's text from `source_code` into
    `target_code`, most similar first; exact matches (the same source text elsewhere) first of all."""
    entry = similar.entry_of(obj, source_code)
    if entry is None or source_code == target_code:
        return []
    rows = similar.candidates(entry, target_code, limit=CANDIDATES, wanted=2 * MAX_SUGGESTIONS)
    return _suggestions(_best(entry.folded, rows), entry.text, target_code)
