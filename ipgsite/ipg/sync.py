"""The database's content as the files' documents (loading them is `translations.loading`: a write)."""

from . import languages
from .contentfiles import ChapterDoc, NoteDoc, ParagraphDoc, SectionDoc
from .models import Chapter, Section


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
