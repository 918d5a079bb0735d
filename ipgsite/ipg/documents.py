"""The IPG's content as plain documents: what content/ files hold and what a release freezes, read from the
database by `documents_from_database` (reading and writing the files is `ipgsite.contentfiles`)."""

from dataclasses import dataclass, field
from pathlib import Path

from . import languages
from .models import Chapter, Section


@dataclass
class ParagraphDoc:
    key: str
    part: str
    texts: dict
    bullet: bool = False
    line: int | None = None
    # {code: "2024-09-23" or "unknown"}: translations that follow an older English than the current one
    follows: dict = field(default_factory=dict)
    reviewed: list = field(default_factory=list)  # translations someone other than their translator reviewed
    remarks: dict = field(default_factory=dict)  # {code: why the translation has its status}, from "# code: …"
    former_keys: list = field(default_factory=list)  # keys it had before a rename: their addresses still lead here


@dataclass
class NoteDoc:
    paragraph: str
    language: str
    source: str
    bodies: dict
    line: int | None = None
    # {code: "2024-09-23" or "unknown"}: translations that follow an older original (the note's text in its language)
    follows: dict = field(default_factory=dict)
    reviewed: list = field(default_factory=list)  # translations someone other than their translator reviewed
    remarks: dict = field(default_factory=dict)  # {code: why the translation has its status}, from "# code: …"
    place: int = 1  # among its paragraph's notes, as releases pair notes

    @property
    def name(self):
        """How errors name the note: "note on 'example-c'", or "note 2 on 'example-c'" after the first."""
        return f"note {self.place} on {self.paragraph!r}" if self.place > 1 else f"note on {self.paragraph!r}"


@dataclass
class SectionDoc:
    number: str
    chapter: str
    order: int
    penalty: str
    title: dict
    aliases: dict = field(default_factory=dict)
    former_names: dict = field(default_factory=dict)
    paragraphs: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    path: Path | None = None
    # Where each key is written in the file it was read from, for errors found across files.
    lines: object = field(default=None, repr=False, compare=False)  # contentfiles.toml.Lines

    def has_text(self):
        return bool(self.paragraphs)


@dataclass
class ChapterDoc:
    number: str
    order: int
    title: dict


# Reading


def documents_from_database():
    """The database's content as documents, ready to be written to files."""
    chapters = [
        ChapterDoc(number=c.number, order=c.order, title=languages.translations(c, "title"))
        for c in Chapter.objects.all()
    ]
    sections = []
    for section in Section.objects.select_related("chapter").prefetch_related(
        "aliases", "paragraphs__notes", "paragraphs__former_keys"
    ):
        doc = SectionDoc(
            number=section.number,
            chapter=section.chapter.number,
            order=section.order,
            penalty=section.penalty,
            title=languages.translations(section, "title"),
        )
        for alias in sorted(section.aliases.all(), key=lambda a: a.pk):
            target = doc.former_names if alias.former else doc.aliases
            target.setdefault(alias.language, []).append(alias.name)
        for paragraph in sorted(section.paragraphs.all(), key=lambda p: p.order):
            doc.paragraphs.append(
                ParagraphDoc(
                    key=paragraph.key,
                    part=paragraph.part,
                    texts=languages.translations(paragraph, "text"),
                    bullet=paragraph.bullet,
                    former_keys=[f.key for f in sorted(paragraph.former_keys.all(), key=lambda f: f.pk)],
                )
            )
            for place, note in enumerate(sorted(paragraph.notes.all(), key=lambda n: (n.order, n.pk)), 1):
                doc.notes.append(
                    NoteDoc(
                        paragraph=paragraph.key,
                        language=note.language,
                        source=note.source,
                        bodies=languages.translations(note, "body"),
                        place=place,
                    )
                )
        sections.append(doc)
    return chapters, sections
