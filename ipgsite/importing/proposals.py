"""The proposal: for each section of a document, each paragraph's text beside what is stored, and each note.

The pipeline's last stage: it reads (`ipgsite.documents`), cleans (`cleaning`), splits into sections (`sections`), reads
units and tells commentary from official text (`units`, `commentary`), places them (`alignment`), and compares
what it placed with what is stored. Where a placing is uncertain, the text is proposed but not chosen: `--apply`
and the admin's default leave it out. A note already stored on its paragraph (the same text, width and whitespace
aside) is "same"; one close to a stored note is a change of that note; any other is new.
"""

import difflib
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from ipgsite import documents
from ipgsite.documents.blocks import Unreadable
from ipgsite.ipg import languages
from ipgsite.ipg.models import Alias, Note, Paragraph, Part, Section
from ipgsite.releases.diffing import diff_html

from . import alignment, cleaning, commentary, sections, units
from .vocabulary import glyph_key, squeezed

SOURCE = languages.SOURCE
SHORTER = 0.8  # a changed text shorter than this share of the stored one is uncertain
CHANGED_NOTE = 0.6  # a note this close to a stored one is a change of it
FOUND_BY_CONTENT = 0.5  # the share of a text's paragraphs that must match a section's to be that section's


@dataclass
class Proposal:
    """One language's text for one paragraph, as the document has it, beside what is stored."""

    code: str
    current: str
    imported: str
    sure: bool = True

    @property
    def kind(self):
        if self.imported == self.current:
            return "same"
        return "new" if not self.current else "changed"

    @property
    def typographic(self):
        """A change of spacing, dashes, quotes or width only."""
        return self.kind == "changed" and alignment.normal(self.imported) == alignment.normal(self.current)

    @property
    def diff(self):
        return diff_html(self.current, self.imported)

    @property
    def selected_by_default(self):
        return self.kind == "new" and self.sure


@dataclass
class Row:
    """One paragraph (stored, or new where `paragraph` is None) and what the document proposes for it."""

    key: str
    part: str
    order: int
    paragraph: object = None
    bullet: bool = False
    proposals: list = field(default_factory=list)

    @property
    def is_new(self):
        return self.paragraph is None


@dataclass
class NoteProposal:
    """A note the document holds on one paragraph: the same as a stored note, a change of one, or new."""

    key: str
    code: str
    text: str
    box: bool = False
    index: int = 0
    sure: bool = True
    note: object = None  # the stored note it is, or changes
    current: str = ""  # that note's stored text

    @property
    def same(self):
        if self.note is None:
            return False
        return squeezed(self.current) == squeezed(self.text) or glyph_key(self.current) == glyph_key(self.text)

    @property
    def kind(self):
        if self.note is None:
            return "new"
        return "same" if self.same else "changed"

    @property
    def diff(self):
        return diff_html(self.current, self.text)

    @property
    def selected_by_default(self):
        return self.kind == "new" and self.sure


@dataclass
class SectionProposal:
    section: object
    rows: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    unplaced: list = field(default_factory=list)  # units that go nowhere
    warnings: list = field(default_factory=list)
    title_number: str = ""
    by_order: bool = False  # the section has no English: aligned by part and order
    new_paragraphs: bool = False  # the section has no paragraphs: every unit a new one
    by_content: str = ""  # without a heading: where its text is ("lines 40–75"), found to be this section's

    @property
    def number(self):
        return self.section.number

    def row(self, key):
        return next((row for row in self.rows if row.key == key), None)

    def proposal(self, key, code):
        row = self.row(key)
        return next((p for p in row.proposals if p.code == code), None) if row else None

    @property
    def uncertain(self):
        """What was placed without confidence: [(key, language, text)], paragraphs and notes."""
        found = [(row.key, p.code, p.imported) for row in self.rows for p in row.proposals if not p.sure]
        return found + [(note.key, note.code, note.text) for note in self.notes if not note.sure]

    @property
    def left_out(self):
        """Whether anything of the document is not placed with confidence."""
        return bool(self.unplaced) or any(kind != "same" for kind in self._uncertain_kinds())

    def _uncertain_kinds(self):
        kinds = [p.kind for row in self.rows for p in row.proposals if not p.sure]
        return kinds + [note.kind for note in self.notes if not note.sure]

    @property
    def languages(self):
        found = {p.code for row in self.rows for p in row.proposals} | {n.code for n in self.notes}
        return [code for code in languages.CODES if code in found]

    def as_json(self):
        return {
            "number": self.section.number,
            "paragraphs": [
                {"key": row.key, "language": p.code, "text": p.imported, "change": p.kind, "sure": p.sure}
                for row in self.rows
                for p in row.proposals
            ],
            "notes": [
                {
                    "paragraph": note.key,
                    "language": note.code,
                    "text": note.text,
                    "change": note.kind,
                    "sure": note.sure,
                }
                for note in self.notes
            ],
            "unplaced": [unit.summary() for unit in self.unplaced],
            "uncertain": [f"{key} [{code}]: {text}" for key, code, text in self.uncertain],
            "warnings": [str(warning) for warning in self.warnings],
        }


class Stored:
    """What is stored, read once per proposal of a whole document: the sections, their paragraphs and notes."""

    def __init__(self, sections=None):
        self.sections = sections if sections is not None else {s.number: s for s in Section.objects.all()}
        self._paragraphs, self._notes, self._outline = {}, {}, None

    def paragraphs(self, section):
        if not self._paragraphs:
            by_id = {s.pk: number for number, s in self.sections.items()}
            self._paragraphs = {number: [] for number in self.sections}
            for paragraph in Paragraph.objects.filter(section_id__in=by_id).order_by("section_id", "order"):
                self._paragraphs[by_id[paragraph.section_id]].append(paragraph)
        return self._paragraphs.get(section.number, [])

    def notes(self, section):
        """{(key, language): [notes]}, in order."""
        if section.number not in self._notes:
            by_id = {p.pk: p.key for p in self.paragraphs(section)}
            found = {}
            for note in Note.objects.filter(paragraph_id__in=by_id).order_by("order", "pk"):
                for code in languages.CODES:
                    if note.body_in(code):
                        found.setdefault((by_id[note.paragraph_id], code), []).append(note)
            self._notes[section.number] = found
        return self._notes[section.number]

    def outline(self):
        if self._outline is None:
            names = {number: [] for number in self.sections}
            for section in self.sections.values():
                for code in languages.CODES:
                    title = section.title_in(code) or ""
                    names[section.number].append(title)
                    names[section.number].extend(_title_parts(title))
            for alias in _aliases(self.sections):
                names[alias.section.number].append(alias.name)
            self._outline = sections.Outline(names)
        return self._outline

    def english_words(self):
        """The stored English's words (lower case): the words a PDF's line-end hyphen may split."""
        words = set()
        for section in self.sections.values():
            for paragraph in self.paragraphs(section):
                words.update(word.lower() for word in cleaning.WORD.findall(paragraph.text_in(SOURCE) or ""))
        return {part for word in words for part in word.split("-")}


def _aliases(sections_by_number):
    return Alias.objects.filter(section__number__in=list(sections_by_number)).select_related("section")


def _title_parts(title):
    """A title's parts around its dash: "Game Play Error — Hidden Card Error" → "Hidden Card Error"."""
    for separator in ("—", "–", " - ", "~", "─", "―"):
        if separator in title:
            return [part.strip() for part in title.split(separator) if part.strip()]
    return []


# Proposing


def propose_file(data, name, sections_by_number=None, cjk_language="auto", number=None):
    """A proposal for each section of a file's bytes: (proposals, problems). Unreadable files are a problem."""
    try:
        _kind, blocks = documents.read(data, name)
    except Unreadable as error:
        return [], [str(error)]
    return propose_blocks(blocks, sections_by_number, cjk_language, number)


def propose_document(raw, sections_by_number=None, cjk_language="auto", number=None):
    """A proposal for each section of a paste: (proposals, problems). `number` names the section of a paste
    without a heading, or picks one section of a longer document."""
    try:
        blocks = documents.read_text(raw)
    except Unreadable as error:
        return [], [str(error)]
    return propose_blocks(blocks, sections_by_number, cjk_language, number)


def propose_blocks(blocks, sections_by_number=None, cjk_language="auto", number=None, default=None):
    """The proposals for a document's blocks. `number` picks one section (and names a document without a
    heading); `default` only names a document without a heading, every section being proposed."""
    stored = Stored(sections_by_number)
    blocks = cleaning.clean(blocks, stored.english_words())
    found, problems = sections.split(blocks, stored.outline())
    if problems:
        return [], problems
    if not any(document.blocks for document in found):
        return [], [_("Nothing in the document is text the importer can read.")]
    title_number = ""
    if number:
        if len(found) == 1:
            title_number = found[0].number
            found[0].number = number
        else:
            found = [document for document in found if document.number == number]
            if not found:
                return [], [_("The document has no section %(number)s.") % {"number": number}]
    elif default and len(found) == 1 and found[0].headless:
        found[0].number = default
    proposals = []
    for document in found:
        by_content = ""
        if document.headless:
            document.number = _section_by_content(document, stored, cjk_language)
            if not document.number:
                problems.append(_headless_problem(document))
                continue
            by_content = document.span()
        section = stored.sections[document.number]
        proposal = propose(section, document.blocks, cjk_language, stored)
        if by_content:
            proposal.by_content = by_content
            proposal.warnings.insert(
                0,
                _("%(where)s have no section heading; by their text they are section %(number)s.")
                % {"where": by_content.capitalize(), "number": document.number},
            )
        if document.named_by_running:
            proposal.warnings.insert(
                0, _("The document's running header names section %(number)s.") % {"number": document.number}
            )
        if number and title_number and title_number != number:
            proposal.title_number = title_number
            proposal.warnings.insert(
                0,
                _("The pasted title says section %(pasted)s, but this is section %(here)s.")
                % {"pasted": title_number, "here": number},
            )
        proposals.append(proposal)
    return proposals, list(dict.fromkeys(problems))  # one message per problem, however often it is met


def _headless_problem(document):
    if document.after:
        return _(
            "%(where)s follow section %(after)s without a section heading, and their text matches no section's: "
            "add their heading (such as “2.3 Hidden Card Error”), or import them on their own and name their section."
        ) % {"where": document.span().capitalize(), "after": document.after}
    return _("The document has no section heading (such as “2.3 Hidden Card Error”); name its section.")


def _section_by_content(document, stored, cjk_language):
    """The section whose stored text the document's text matches, for text with no heading after a section; ""
    where none matches clearly."""
    if not document.after:
        return ""
    official, _orphans = commentary.classify(units.read(document.blocks, cjk_language))
    if not official:
        return ""
    scores = []
    for section in stored.sections.values():
        paragraphs = stored.paragraphs(section)
        if paragraphs:
            scores.append((_matches(official, paragraphs), section.number))
    scores.sort(reverse=True)
    if not scores or scores[0][0] < max(1, FOUND_BY_CONTENT * len(official)):
        return ""
    if len(scores) > 1 and scores[1][0] * 2 > scores[0][0]:
        return ""
    return scores[0][1]


def _matches(official, paragraphs):
    """How many units match a stored paragraph: by their English, else by the stored sentences of their language
    (half of a unit's sentences at least)."""
    count = alignment.english_matches(official, paragraphs)
    stored = {}
    for paragraph in paragraphs:
        for code in languages.CJK:
            text = paragraph.text_in(code)
            if text:
                stored.setdefault(code, set()).update(glyph_key(s) for s in commentary.sentences(text))
    for unit in official:
        if SOURCE in unit.texts or not unit.only_language:
            continue
        code, text = next(iter(unit.texts.items()))
        mine = commentary.sentences(text)
        if mine and sum(glyph_key(s) in stored.get(code, ()) for s in mine) * 2 >= len(mine):
            count += 1
    return count


def propose_section(section, raw, cjk_language="auto"):
    """The proposal for one section from a paste of it (or of a document holding it)."""
    proposals, _problems = propose_document(raw, None, cjk_language, number=section.number)
    return proposals[0] if proposals else SectionProposal(section=section)


def propose(section, blocks, cjk_language="auto", stored=None):
    """Propose, for `section`, where each unit of a section's blocks goes."""
    stored = stored or Stored({section.number: section})
    paragraphs = stored.paragraphs(section)
    read = alignment.split_joined(units.read(blocks, cjk_language), paragraphs)
    official, orphans = commentary.classify(read)
    placement = alignment.place(official, paragraphs)
    proposal = SectionProposal(
        section=section, unplaced=list(orphans), by_order=placement.by_order, new_paragraphs=placement.new_paragraphs
    )
    if placement.new_paragraphs:
        proposal.warnings.append(_("This section has no paragraphs yet: each paragraph is proposed as a new one."))
    if placement.by_order:
        proposal.warnings.append(
            _("This section has no English text to align to: paragraphs were aligned by part and order.")
        )
    _rows(proposal, official, placement, {p.key: p for p in paragraphs})
    _notes(proposal, official, placement, stored.notes(section))
    uncertain = len(proposal.uncertain)
    if uncertain:
        proposal.warnings.append(
            _("%(count)d texts were placed without confidence: they are listed, and not taken unless ticked.")
            % {"count": uncertain}
        )
    return proposal


def _rows(proposal, official, placement, stored):
    pieces, parts, bullets, sure = {}, {}, {}, {}
    for unit in official:
        key = placement.keys.get(id(unit))
        if key is None:
            proposal.unplaced.append(unit)
            proposal.unplaced.extend(_note_units(unit))
            continue
        texts = pieces.setdefault(key, {})
        for code, text in unit.texts.items():
            texts.setdefault(code, []).append(text)
            sure[(key, code)] = sure.get((key, code), True) and id(unit) in placement.sure
        parts.setdefault(key, unit.part or Part.TEXT)
        bullets.setdefault(key, unit.bullet)
    order = {p.key: p.order for p in stored.values()}
    keys = sorted(pieces, key=lambda key: order.get(key, 0)) if stored else list(pieces)
    for position, key in enumerate(keys, 1):
        paragraph = stored.get(key)
        row = Row(
            key=key,
            part=paragraph.part if paragraph else parts[key],
            order=paragraph.order if paragraph else position,
            paragraph=paragraph,
            bullet=paragraph.bullet if paragraph else bullets[key],
        )
        for code in languages.CODES:
            texts = pieces[key].get(code)
            if texts:
                text = ("" if code in languages.CJK else " ").join(texts)
                current = (paragraph.text_in(code) or "") if paragraph else ""
                if current and glyph_key(text) == glyph_key(current):
                    text = current  # only glyphs a PDF gives for one another differ: the stored text stands
                # A text much shorter than the stored one may have lost a part the reading did not find: uncertain.
                whole = not current or len(squeezed(text)) >= SHORTER * len(squeezed(current))
                row.proposals.append(
                    Proposal(code=code, current=current, imported=text, sure=sure[(key, code)] and whole)
                )
        proposal.rows.append(row)


def _notes(proposal, official, placement, stored_notes):
    notes, keys = [], {row.key for row in proposal.rows} | {key for key, _code in stored_notes}
    for unit in official:
        key = placement.keys.get(id(unit))
        if key is None:
            continue
        for note in unit.notes:
            target = f"example-{note['example']}" if note["example"] else key
            if note["example"] and target not in keys:
                target = key
            for code, text in note["texts"].items():
                notes.append(
                    NoteProposal(key=target, code=code, text=text, box=note["box"], sure=id(unit) in placement.sure)
                )
    for index, note in enumerate(notes):
        note.index = index
    _match_stored_notes(notes, stored_notes)
    proposal.notes = notes


def _match_stored_notes(notes, stored_notes):
    """Pair each proposed note with the stored note it is (the same text, width and whitespace aside) or, failing
    that, the unpaired stored note of its paragraph and language it is closest to, if close enough: a change."""
    used = set()
    for note in notes:
        for stored in stored_notes.get((note.key, note.code), ()):
            body = stored.body_in(note.code)
            if squeezed(body) == squeezed(note.text) or glyph_key(body) == glyph_key(note.text):
                note.note, note.current = stored, body
                if glyph_key(body) == glyph_key(note.text):
                    note.text = body  # only glyphs a PDF gives for one another differ: the stored note stands
                used.add(stored.pk)
                break
    for note in notes:
        if note.note is not None:
            continue
        mine = squeezed(note.text)
        best, best_ratio = None, CHANGED_NOTE
        for stored in stored_notes.get((note.key, note.code), ()):
            if stored.pk in used:
                continue
            matcher = difflib.SequenceMatcher(None, mine, squeezed(stored.body_in(note.code)), autojunk=False)
            if matcher.real_quick_ratio() < best_ratio or matcher.quick_ratio() < best_ratio:
                continue
            ratio = matcher.ratio()
            if ratio >= best_ratio:
                best, best_ratio = stored, ratio
        if best is not None:
            note.note, note.current = best, best.body_in(note.code)
            used.add(best.pk)


def _note_units(unit):
    return [
        units.Unit(texts=note["texts"], line=note["line"], where=note.get("where", ""), box=note["box"])
        for note in unit.notes
    ]
