"""What a language pair's files hold: each paragraph and each note as one unit, named as the files name it.

A unit's id is its section's number, its paragraph's key and, for a note, its place among the paragraph's notes
(`2.3#example-c`, `2.3#example-c/note-1`), as content/ and the releases pair notes: ids stay the same across
exports, loads and releases.
"""

import re
from dataclasses import dataclass

from django.utils.translation import gettext as _

from ipgsite.editing.models import State, Status
from ipgsite.ipg import languages
from ipgsite.ipg.models import Note, Paragraph

UNIT_ID = re.compile(r"^(?P<number>[0-9A-Z.]+)#(?P<key>[a-z0-9]+(?:-[a-z0-9]+)*)(?:/note-(?P<place>[1-9][0-9]{0,3}))?$")


@dataclass
class Unit:
    """A paragraph's or a note's text in two languages, and where its target translation stands."""

    id: str
    obj: object  # a Paragraph or a Note
    source: str
    target: str
    state: int  # editing.models.State of the target
    revision: int

    @property
    def is_note(self):
        return isinstance(self.obj, Note)


def unit_id(number, key, place=None):
    return f"{number}#{key}" + (f"/note-{place}" if place else "")


def is_translation(obj, code):
    """Whether `code` is a translation of the paragraph or note, rather than its original."""
    original = obj.language if isinstance(obj, Note) else languages.SOURCE
    return code != original


def units(source, target, section=None):
    """The units of a language pair in reading order, each paragraph followed by its notes: those with text in
    `source` whose `target` is a translation (English paragraphs and notes written in `target` are originals)."""
    paragraphs = Paragraph.objects.select_related("section").in_reading_order()
    if section is not None:
        paragraphs = paragraphs.filter(section=section)
    notes = {}
    for note in Note.objects.filter(paragraph__in=paragraphs).order_by("order", "pk"):
        notes.setdefault(note.paragraph_id, []).append(note)
    states = {
        (s.paragraph_id, s.note_id): s.state
        for s in Status.everything.in_language(target).filter(paragraph__in=paragraphs)
    }
    for paragraph in paragraphs:
        number = paragraph.section.number
        if is_translation(paragraph, target) and paragraph.text_in(source):
            yield _unit(unit_id(number, paragraph.key), paragraph, paragraph.text_in(source), target, states)
        for place, note in enumerate(notes.get(paragraph.pk, []), start=1):
            if is_translation(note, target) and note.body_in(source):
                yield _unit(unit_id(number, paragraph.key, place), note, note.body_in(source), target, states)


def _unit(id, obj, source_text, target, states):
    is_note = isinstance(obj, Note)
    text = obj.body_in(target) if is_note else obj.text_in(target)
    key = (obj.paragraph_id, obj.pk) if is_note else (obj.pk, None)
    state = states.get(key, State.TRANSLATED if text else State.MISSING)
    return Unit(id=id, obj=obj, source=source_text, target=text, state=state, revision=obj.revision)


class UnknownUnit(LookupError):
    pass


def find(id):
    """The paragraph or note a unit id names; raises UnknownUnit saying why not."""
    match = UNIT_ID.match(id or "")
    if not match:
        raise UnknownUnit(_("%(id)s is not a unit id like 2.3#example-c or 2.3#example-c/note-1.") % {"id": id})
    paragraph = (
        Paragraph.objects.select_related("section").filter(section__number=match["number"], key=match["key"]).first()
    )
    if paragraph is None:
        raise UnknownUnit(_("%(id)s: the site has no such paragraph.") % {"id": id})
    if not match["place"]:
        return paragraph
    notes = list(paragraph.notes.order_by("order", "pk"))
    place = int(match["place"])
    if place > len(notes):
        raise UnknownUnit(_("%(id)s: the paragraph has no such note.") % {"id": id})
    return notes[place - 1]
