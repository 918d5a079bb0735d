"""Moving content between the files' documents and the database."""

from django.db import transaction

from . import languages
from .contentfiles import ChapterDoc, NoteDoc, ParagraphDoc, SectionDoc
from .models import Alias, Chapter, Note, Paragraph, Section
from .signals import content_loaded


def _set_translations(obj, field, texts):
    changed = False
    for code in languages.CODES:
        column = languages.column(field, code)
        value = texts.get(code) or None
        if (getattr(obj, column) or None) != value:
            setattr(obj, column, value)
            changed = True
    return changed


def _update(obj, **values):
    changed = False
    for name, value in values.items():
        if getattr(obj, name) != value:
            setattr(obj, name, value)
            changed = True
    return changed


@transaction.atomic
def load_documents(chapter_docs, section_docs):
    """Make the database hold exactly these documents. Rows whose content is unchanged are not touched."""
    stats = {"created": 0, "updated": 0, "deleted": 0}

    def save(obj, changed):
        if obj.pk is None:
            stats["created"] += 1
            obj.save()
        elif changed:
            stats["updated"] += 1
            obj.save()

    chapters = {c.number: c for c in Chapter.objects.all()}
    for doc in chapter_docs:
        chapter = chapters.get(doc.number) or Chapter(number=doc.number)
        changed = _update(chapter, order=doc.order) | _set_translations(chapter, "title", doc.title)
        save(chapter, changed)
        chapters[doc.number] = chapter

    numbers = {doc.number for doc in section_docs}
    stats["deleted"] += Section.objects.exclude(number__in=numbers).delete()[0]
    sections = {s.number: s for s in Section.objects.all()}
    for doc in section_docs:
        section = sections.get(doc.number) or Section(number=doc.number)
        changed = _update(section, chapter_id=chapters[doc.chapter].pk, order=doc.order, penalty=doc.penalty)
        changed |= _set_translations(section, "title", doc.title)
        save(section, changed)
        sections[doc.number] = section
        _load_paragraphs(section, doc, stats, save)
    _load_aliases(sections, section_docs, stats)

    stats["deleted"] += Chapter.objects.exclude(number__in=[d.number for d in chapter_docs]).delete()[0]
    content_loaded.send(sender=Section)
    return stats


def _load_aliases(sections, section_docs, stats):
    wanted = []
    for doc in section_docs:
        wanted += [(doc.number, code, name, False) for code, names in doc.aliases.items() for name in names]
        wanted += [(doc.number, code, name, True) for code, names in doc.former_names.items() for name in names]
    have = [(a.section.number, a.language, a.name, a.former) for a in Alias.objects.select_related("section").order_by("pk")]
    if have != wanted:
        stats["deleted"] += Alias.objects.all().delete()[0]
        Alias.objects.bulk_create(
            Alias(section=sections[number], language=code, name=name, former=former)
            for number, code, name, former in wanted
        )
        stats["created"] += len(wanted)


def _load_paragraphs(section, doc, stats, save):
    keys = [p.key for p in doc.paragraphs]
    stats["deleted"] += section.paragraphs.exclude(key__in=keys).delete()[0]
    paragraphs = {p.key: p for p in section.paragraphs.all()}
    for order, pdoc in enumerate(doc.paragraphs, 1):
        paragraph = paragraphs.get(pdoc.key) or Paragraph(section=section, key=pdoc.key)
        changed = _update(paragraph, part=pdoc.part, order=order, bullet=pdoc.bullet)
        changed |= _set_translations(paragraph, "text", pdoc.texts)
        save(paragraph, changed)
        paragraphs[pdoc.key] = paragraph

    existing = {}
    for note in Note.objects.filter(paragraph__section=section).select_related("paragraph").order_by("order", "pk"):
        existing.setdefault(note.paragraph.key, []).append(note)
    for key, paragraph in paragraphs.items():
        ndocs = [n for n in doc.notes if n.paragraph == key]
        have = existing.get(key, [])
        for order, ndoc in enumerate(ndocs, 1):
            note = have[order - 1] if order <= len(have) else Note(paragraph=paragraph)
            changed = _update(note, language=ndoc.language, source=ndoc.source, order=order)
            changed |= _set_translations(note, "body", ndoc.bodies)
            save(note, changed)
        for surplus in have[len(ndocs):]:
            surplus.delete()
            stats["deleted"] += 1


def documents_from_database():
    """The database's content as documents, ready to be written to files."""
    chapters = [
        ChapterDoc(number=c.number, order=c.order, title=languages.translations(c, "title"))
        for c in Chapter.objects.all()
    ]
    sections = []
    for section in Section.objects.select_related("chapter").prefetch_related("aliases", "paragraphs__notes"):
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
                )
            )
            for note in sorted(paragraph.notes.all(), key=lambda n: (n.order, n.pk)):
                doc.notes.append(
                    NoteDoc(
                        paragraph=paragraph.key,
                        language=note.language,
                        source=note.source,
                        bodies=languages.translations(note, "body"),
                    )
                )
        sections.append(doc)
    return chapters, sections
