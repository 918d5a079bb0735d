"""What a reader sees of a section: its parts, and each paragraph's text in the chosen languages."""

import string
from dataclasses import dataclass, field

from django.db.models import Prefetch

from . import languages, naming
from .markup import render_markdown
from .models import Note, Part


@dataclass
class Text:
    """One language's text of a paragraph or note, or the fact that it is missing."""

    code: str
    html: str = ""
    obj: object = None  # the paragraph or note it is the text of
    # When the text is missing: the language it is shown in instead (if any) and those that have it.
    shown_from: str = ""
    available: list = field(default_factory=list)

    @property
    def written_in(self):
        return self.shown_from or self.code

    @property
    def lang(self):
        return languages.html_lang(self.written_in)

    @property
    def paragraph(self):
        """The paragraph this is the text of, or that its note is on."""
        return self.obj.paragraph if isinstance(self.obj, Note) else self.obj

    @property
    def place(self):
        """(paragraph id, note id or None, language): where the links and terms stored for this text are filed."""
        note_id = self.obj.pk if isinstance(self.obj, Note) else None
        return self.paragraph.pk, note_id, self.written_in

    @property
    def missing(self):
        return not self.html or bool(self.shown_from)

    @property
    def available_names(self):
        """The languages it is available in, as the page's language calls them."""
        return [languages.called(c) for c in self.available]


@dataclass
class ShownParagraph:
    paragraph: object
    label: str
    texts: list
    notes: list
    place: object = None  # naming.Place

    @property
    def name(self):
        """ "Example C", "Definition, paragraph 2", in the active language."""
        return naming.paragraph_name(self.place) if self.place else ""


@dataclass
class PartBlock:
    part: str
    label: str
    rows: list

    @property
    def anchor(self):
        return f"part-{self.part}"


def shown_text(obj, field_name, code, fallback=True):
    """`obj`'s text in `code` as a reader sees it; where missing, in the first other language that has it."""
    value = languages.translated(obj, field_name, code)
    available = list(languages.translations(obj, field_name))
    if value:
        return Text(code=code, html=render_markdown(value), obj=obj, available=available)
    if fallback:
        for other in languages.others(code):
            if other in available:
                html = render_markdown(languages.translated(obj, field_name, other))
                return Text(code=code, html=html, obj=obj, shown_from=other, available=available)
    return Text(code=code, obj=obj, available=available)


def note_texts(note, codes):
    """A note in each chosen language it has; if it has none of them, in the language it was written in."""
    texts = [shown_text(note, "body", code, fallback=False) for code in codes if note.body_in(code)]
    if not texts:
        original = shown_text(note, "body", note.language, fallback=False)
        original.shown_from = note.language
        texts = [original]
    return texts


def paragraphs_with_notes(section):
    notes = Prefetch("notes", queryset=Note.objects.order_by("order"))
    return section.paragraphs.order_by("order").prefetch_related(notes, "former_keys")


def read_section(section, codes, fallback=True, paragraphs=None):
    """The section's parts in order, each paragraph with its text in each of `codes`.

    `paragraphs` read in place of the stored ones: an earlier version's (`ipg.versions`).
    """
    parts, example_count = [], 0
    for paragraph in paragraphs_with_notes(section) if paragraphs is None else paragraphs:
        if not parts or parts[-1].part != paragraph.part:
            parts.append(PartBlock(part=paragraph.part, label=Part(paragraph.part).label, rows=[]))
        label = ""
        if paragraph.part == Part.EXAMPLE:
            label = string.ascii_uppercase[example_count % 26]
            example_count += 1
        notes = [(note, note_texts(note, codes)) for note in paragraph.notes.all()]
        texts = [shown_text(paragraph, "text", code, fallback=fallback) for code in codes]
        parts[-1].rows.append(ShownParagraph(paragraph=paragraph, label=label, texts=texts, notes=notes))
    every = [row.paragraph for part in parts for row in part.rows]
    for part in parts:
        for row in part.rows:
            row.place = naming.place_of(every, row.paragraph.key)
    return parts


def languages_of(parts):
    """The languages in which the section read into `parts` has at least one paragraph."""
    have = {code for part in parts for row in part.rows for code in row.paragraph.languages()}
    return [code for code in languages.CODES if code in have]
