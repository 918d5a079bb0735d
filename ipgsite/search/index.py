"""Building the search index from paragraphs and notes, and keeping it current."""

from ipgsite.caching.versions import content_changed
from ipgsite.ipg import derived, languages
from ipgsite.ipg.markup import render_markdown
from ipgsite.ipg.text import plain_text

from .folding import fold, stems
from .models import Entry, Kind


def entries_for(obj, field, paragraph, note=None):
    """`rows_for` of `ipg.derived`: one unsaved entry per language the text (or the note's body) is written in."""
    place = {"section_id": paragraph.section_id, "paragraph": paragraph, "note": note, "kind": Kind.of(paragraph, note)}
    found = []
    for code, value in languages.translations(obj, field).items():
        text = plain_text(render_markdown(value))
        folded = fold(text)
        found.append(Entry(**place, language=code, text=text, folded=folded, stems=stems(folded)))
    return found


def reindex(paragraph_ids=(), note_ids=()):
    """Index these paragraphs' own text and these notes again (ids of deleted rows are skipped)."""
    derived.refresh(Entry, entries_for, paragraph_ids, note_ids)
    content_changed()  # so the kept entries (search/kept.py) are read again


def rebuild_index():
    found = derived.rebuild(Entry, entries_for)
    content_changed()
    return found


def follow(batch):
    """The index follows a batch of writes (ipgsite.editing.after_write): the edited texts, the paragraphs whose part
    changed (a result's kind) and the notes moved (a result's place); everything after a load."""
    if batch.everything:
        rebuild_index()
    elif batch.edits or batch.touched_paragraph_ids or batch.moved_note_ids:
        reindex(batch.paragraph_ids | batch.touched_paragraph_ids, batch.note_ids | batch.moved_note_ids)
