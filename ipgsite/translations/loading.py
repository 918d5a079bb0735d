"""Making the database hold exactly what content/ says, as one batch of writes by the content files."""

from ipgsite.ipg import languages
from ipgsite.ipg.models import Alias, Chapter, Note, Paragraph, Section

from . import writing
from .models import Change
from .writing import CONTENT_FILES


def _titles(texts):
    return {languages.column("title", code): texts.get(code) or None for code in languages.CODES}


def _write_texts(obj, texts, stats):
    changed = False
    for code in languages.CODES:
        if (texts.get(code) or "") != writing.text_in(obj, code):
            changed |= writing.write_text(
                obj, code, texts.get(code) or "", by=CONTENT_FILES, base_revision=writing.LATEST
            )
    return changed


class Loader:
    def __init__(self):
        self.stats = {"created": 0, "updated": 0, "deleted": 0}

    def save(self, obj, values):
        """Create `obj`, or set the values that differ; counts what it did."""
        if obj.pk is None:
            self.stats["created"] += 1
            return writing.save_structure(obj, values, by=CONTENT_FILES)
        if any(getattr(obj, name) != value for name, value in values.items()):
            self.stats["updated"] += 1
            return writing.save_structure(obj, values, by=CONTENT_FILES)
        return obj

    def delete(self, objects):
        for obj in objects:
            self.stats["deleted"] += 1
            writing.delete(obj, by=CONTENT_FILES)

    def load(self, chapter_docs, section_docs):
        chapters = {c.number: c for c in Chapter.objects.all()}
        for doc in chapter_docs:
            chapter = chapters.get(doc.number) or Chapter(number=doc.number)
            chapters[doc.number] = self.save(chapter, {"order": doc.order, **_titles(doc.title)})

        numbers = {doc.number for doc in section_docs}
        self.delete(Section.objects.exclude(number__in=numbers))
        sections = {s.number: s for s in Section.objects.all()}
        for doc in section_docs:
            section = sections.get(doc.number) or Section(number=doc.number)
            values = {"chapter_id": chapters[doc.chapter].pk, "order": doc.order, "penalty": doc.penalty}
            sections[doc.number] = section = self.save(section, {**values, **_titles(doc.title)})
            self.load_paragraphs(section, doc)
        self.load_aliases(sections, section_docs)
        self.delete(Chapter.objects.exclude(number__in=[d.number for d in chapter_docs]))

    def load_aliases(self, sections, section_docs):
        wanted = []
        for doc in section_docs:
            wanted += [(doc.number, code, name, False) for code, names in doc.aliases.items() for name in names]
            wanted += [(doc.number, code, name, True) for code, names in doc.former_names.items() for name in names]
        aliases = list(Alias.objects.select_related("section").order_by("pk"))
        if [(a.section.number, a.language, a.name, a.former) for a in aliases] != wanted:
            self.delete(aliases)
            for number, code, name, former in wanted:
                self.save(Alias(section=sections[number]), {"language": code, "name": name, "former": former})

    def load_paragraphs(self, section, doc):
        # A paragraph whose key the file renamed is found by its former key, and keeps its history.
        known = [p.key for p in doc.paragraphs] + [k for p in doc.paragraphs for k in p.former_keys]
        self.delete(section.paragraphs.exclude(key__in=known))
        stored = {p.key: p for p in section.paragraphs.all()}
        paragraphs = {}
        for order, pdoc in enumerate(doc.paragraphs, 1):
            paragraph = stored.pop(pdoc.key, None)
            if paragraph is None:
                paragraph = next((stored.pop(k) for k in pdoc.former_keys if k in stored), None)
            paragraph = paragraph or Paragraph(section=section, key=pdoc.key)
            created = paragraph.pk is None
            values = {"key": pdoc.key, "part": pdoc.part, "order": order, "bullet": pdoc.bullet}
            paragraph = self.save(paragraph, values)
            if _write_texts(paragraph, pdoc.texts, self.stats) and not created:
                self.stats["updated"] += 1
            writing.set_former_keys(paragraph, pdoc.former_keys, by=CONTENT_FILES)
            paragraphs[pdoc.key] = paragraph
        self.delete(stored.values())

        existing = {}
        for note in Note.objects.filter(paragraph__section=section).select_related("paragraph").order_by("order", "pk"):
            existing.setdefault(note.paragraph.key, []).append(note)
        for key, paragraph in paragraphs.items():
            ndocs = [n for n in doc.notes if n.paragraph == key]
            have = existing.get(key, [])
            for order, ndoc in enumerate(ndocs, 1):
                values = {"language": ndoc.language, "source": ndoc.source, "order": order}
                if order > len(have):
                    self.stats["created"] += 1
                    writing.add_note(paragraph, bodies=ndoc.bodies, by=CONTENT_FILES, **values)
                    continue
                note = have[order - 1]
                changed = any(getattr(note, name) != value for name, value in values.items())
                if changed:
                    note = writing.change_note(note, by=CONTENT_FILES, **values)
                if _write_texts(note, ndoc.bodies, self.stats) or changed:
                    self.stats["updated"] += 1
            for surplus in have[len(ndocs) :]:
                self.stats["deleted"] += 1
                writing.delete_note(surplus, by=CONTENT_FILES)


def load_documents(chapter_docs, section_docs):
    """Make the database hold exactly these documents, atomically. Rows whose content is unchanged are not touched.

    The counts of rows created, updated and deleted, and the paragraphs and notes whose source this load changed
    (a paragraph's English, a note's text in its own language): their translations are outdated now, whatever the
    files say.
    """
    loader = Loader()
    with writing.batch(CONTENT_FILES, everything=True) as batch:
        loader.load(chapter_docs, section_docs)
    sources_changed = {
        edit.obj
        for edit in batch.edits
        if edit.action == Change.Action.EDIT and edit.before and edit.language == _source_language(edit.obj)
    }
    return loader.stats, sources_changed


def _source_language(obj):
    """The language a paragraph's or note's translations follow."""
    if isinstance(obj, Paragraph):
        return languages.SOURCE
    if isinstance(obj, Note):
        return obj.language
    return None
