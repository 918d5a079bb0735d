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
from ipgsite.ipg.models import Note, Paragraph, Section

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
    found = find_all([id])[id]
    if isinstance(found, UnknownUnit):
        raise found
    return found


def find_all(ids):
    """{id: the paragraph or note it names, or the UnknownUnit saying why not} for every unit id of a file.

    A few queries whatever the number of ids (the sections, then the paragraphs and notes of those the ids name),
    never one per id: a file of 35,000 units is looked up as quickly as one of 35."""
    wanted = {}
    for id in ids:
        match = UNIT_ID.match(id or "")
        wanted[id] = match and (match["number"], match["key"], int(match["place"] or 0))
    named = {where[0] for where in wanted.values() if where}
    sections = {number: pk for number, pk in Section.objects.values_list("number", "pk") if number in named}
    paragraphs = {
        (paragraph.section.number, paragraph.key): paragraph
        for paragraph in Paragraph.objects.filter(section__in=sections.values()).select_related("section")
    }
    notes = {}
    if any(where and where[2] for where in wanted.values()):
        for note in (
            Note.objects.filter(paragraph__section__in=sections.values())
            .select_related("paragraph__section")
            .order_by("order", "pk")
        ):
            notes.setdefault(note.paragraph_id, []).append(note)
    found = {}
    for id, where in wanted.items():
        if not where:
            found[id] = UnknownUnit(
                _("%(id)s is not a unit id like 2.3#example-c or 2.3#example-c/note-1.") % {"id": id}
            )
            continue
        number, key, place = where
        paragraph = paragraphs.get((number, key))
        if paragraph is None:
            found[id] = UnknownUnit(_("%(id)s: the site has no such paragraph.") % {"id": id})
        elif not place:
            found[id] = paragraph
        elif place > len(notes.get(paragraph.pk, [])):
            found[id] = UnknownUnit(_("%(id)s: the paragraph has no such note.") % {"id": id})
        else:
            found[id] = notes[paragraph.pk][place - 1]
    return found
