"""Edits to the content made as the tests' "content files": through the one write path, like every writer."""

from ipgsite.editing import writing
from ipgsite.editing.writing import CONTENT_FILES
from ipgsite.ipg.models import Paragraph


def paragraph(number, key):
    return Paragraph.objects.get(section__number=number, key=key)


def write(number, key, code, text):
    """Change one language of a paragraph's text."""
    p = paragraph(number, key)
    writing.write_text(p, code, text, by=CONTENT_FILES, base_revision=writing.LATEST)
    return paragraph(number, key)


def write_note(note, code, text):
    writing.write_text(note, code, text, by=CONTENT_FILES, base_revision=writing.LATEST)


def add_note(number, key, language, **bodies):
    """A note on a paragraph, e.g. add_note("2.4", "example-a", "ja", ja="…")."""
    bodies = {code.replace("_", "-"): body for code, body in bodies.items()}
    return writing.add_note(
        paragraph(number, key), language=language, source="Test", order=1, bodies=bodies, by=CONTENT_FILES
    )


def change(obj, **values):
    """Set a section's, alias's or paragraph's fields (not a paragraph's text)."""
    return writing.save_structure(obj, values, by=CONTENT_FILES)


def delete(obj):
    writing.delete(obj, by=CONTENT_FILES)
