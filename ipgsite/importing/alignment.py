"""Where each unit of a section's text goes: the section's paragraph keys, and notes on them.

A unit with English is matched to a paragraph sentence by sentence, so a paragraph split in two in the paste still
lands on its one key; its translation comes with it. Official text without English (an annotated edition) is
aligned, part by part, with the English sentences of the section: each unit takes a run of sentences of one
paragraph, chosen by length, sentence count, bullets, numbers and card names in 《》. Example letters go straight
to their example. Where the section has no English, units are aligned by part and order, and the proposal says
so; where it has no paragraphs at all, each unit is proposed as a new paragraph with a key made from its part.
"""

import difflib
import math
import re
import unicodedata
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from ipgsite.ipg import languages
from ipgsite.ipg.models import Part
from ipgsite.releases.diffing import diff_html

from . import commentary, documents, units

SOURCE = languages.SOURCE
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z“‘\"'(])")
KEY_PREFIX = {Part.ADDITIONAL_REMEDY: "remedy", None: "text"}
NUMBER_WORDS = {
    word: str(number)
    for number, word in enumerate("zero one two three four five six seven eight nine ten eleven twelve".split())
}
SKIP_SENTENCE = 0.8  # an English sentence the translation does not have (it follows an older English)
UNPLACED = 2.5  # a unit that goes nowhere
LONGEST_RUN = 5  # sentences one unit may take


@dataclass
class Proposal:
    """One language's text for one paragraph, as the paste has it, beside what is stored."""

    code: str
    current: str
    imported: str

    @property
    def kind(self):
        if self.imported == self.current:
            return "same"
        return "new" if not self.current else "changed"

    @property
    def diff(self):
        return diff_html(self.current, self.imported)

    @property
    def selected_by_default(self):
        return self.kind == "new"


@dataclass
class Row:
    """One paragraph (stored, or new where `paragraph` is None) and what the paste proposes for it."""

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
    """A note the paste holds on one paragraph; `same` where the paragraph already has a note with this text."""

    key: str
    code: str
    text: str
    box: bool = False
    same: bool = False
    index: int = 0

    @property
    def kind(self):
        return "same" if self.same else "new"

    @property
    def selected_by_default(self):
        return not self.same


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

    @property
    def number(self):
        return self.section.number

    def row(self, key):
        return next((row for row in self.rows if row.key == key), None)

    def proposal(self, key, code):
        row = self.row(key)
        return next((p for p in row.proposals if p.code == code), None) if row else None

    @property
    def languages(self):
        found = {p.code for row in self.rows for p in row.proposals} | {n.code for n in self.notes}
        return [code for code in languages.CODES if code in found]

    def as_json(self):
        return {
            "number": self.section.number,
            "paragraphs": [
                {"key": row.key, "language": p.code, "text": p.imported, "change": p.kind}
                for row in self.rows
                for p in row.proposals
            ],
            "notes": [
                {"paragraph": note.key, "language": note.code, "text": note.text, "change": note.kind}
                for note in self.notes
            ],
            "unplaced": [unit.summary() for unit in self.unplaced],
            "warnings": [str(warning) for warning in self.warnings],
        }


def propose_document(raw, sections, cjk_language="auto", number=None):
    """A proposal for each section of a paste. `sections` maps number → Section; `number` names the section of
    a paste without a heading, or picks one section of a longer document. Returns (proposals, problems)."""
    found = documents.split(raw, known=set(sections))
    problems = []
    if number:
        if len(found) == 1:
            found[0].number, title = number, found[0].number
            found = [found[0]]
        else:
            title = ""
            found = [document for document in found if document.number == number]
            if not found:
                problems.append(_("The document has no section %(number)s.") % {"number": number})
    proposals = []
    for document in found:
        if not document.number:
            problems.append(
                _("The document has no section heading (such as “2.3 Hidden Card Error”); name its section.")
            )
            continue
        proposal = propose(sections[document.number], document, cjk_language)
        if number and len(found) == 1 and title and title != number:
            proposal.title_number = title
            proposal.warnings.insert(
                0,
                _("The pasted title says section %(pasted)s, but this is section %(here)s.")
                % {"pasted": title, "here": number},
            )
        proposals.append(proposal)
    return proposals, problems


def propose_section(section, raw, cjk_language="auto"):
    """The proposal for one section from a paste of it (or of a document holding it)."""
    from ipgsite.ipg.models import Section

    sections = {s.number: s for s in Section.objects.all()}
    proposals, _problems = propose_document(raw, sections, cjk_language, number=section.number)
    return proposals[0] if proposals else SectionProposal(section=section)


def propose(section, document, cjk_language="auto"):
    """Propose, for `section`, where each unit of `document` goes."""
    read = units.read(document, cjk_language)
    official, orphans = commentary.classify(read)
    paragraphs = list(section.paragraphs.order_by("order"))
    proposal = SectionProposal(section=section, unplaced=list(orphans))
    if not paragraphs:
        proposal.new_paragraphs = bool(official)
        placed = _as_new_paragraphs(official)
        if official:
            proposal.warnings.append(_("This section has no paragraphs yet: each paragraph is proposed as a new one."))
    else:
        _parts_from_groups(official, paragraphs)
        placed = {}
        with_english = [unit for unit in official if SOURCE in unit.texts]
        _place_english(with_english, paragraphs, placed)
        rest = [unit for unit in official if SOURCE not in unit.texts]
        has_english = any(p.text_in(SOURCE) for p in paragraphs)
        if rest and not has_english:
            proposal.by_order = True
            proposal.warnings.append(
                _("This section has no English text to align to: paragraphs were aligned by part and order.")
            )
        _place_translations(rest, paragraphs, placed, has_english)
    _rows_and_notes(proposal, official, placed, {p.key: p for p in paragraphs})
    return proposal


# Placing units


def _place_english(found, paragraphs, placed):
    position = 0
    theirs = [[_normal(s) for s in sentences(p.text_in(SOURCE))] for p in paragraphs]
    for unit in found:
        mine = [_normal(s) for s in sentences(unit.texts[SOURCE])]
        scored = [(_score(mine, their), -abs(i - position), i) for i, their in enumerate(theirs)]
        best = max(scored, default=None)
        if best and best[0] >= 0.5:
            placed[id(unit)] = paragraphs[best[2]].key
            position = best[2]


def _place_translations(found, paragraphs, placed, has_english):
    """Units without English: by example letter, then part by part by the English sentences (or by order)."""
    taken = set(placed.values())
    keys = {p.key for p in paragraphs}
    pending = []
    for unit in found:
        key = f"example-{unit.label.lower()}" if unit.label else ""
        if key in keys:
            placed[id(unit)] = key
            taken.add(key)
        else:
            pending.append(unit)
    by_part = {}
    for unit in pending:
        by_part.setdefault(unit.part, []).append(unit)
    ratio = _length_ratio(pending, paragraphs) if has_english else 1.0
    for part, group in by_part.items():
        candidates = [p for p in paragraphs if (part is None or p.part == part) and p.key not in taken]
        if has_english and any(p.text_in(SOURCE) for p in candidates):
            chosen = _by_sentences(group, candidates, ratio)
        else:
            chosen = list(zip(group, candidates, strict=False))  # units beyond the part's paragraphs: unplaced
        for unit, paragraph in chosen:
            placed[id(unit)] = paragraph.key
            taken.add(paragraph.key)


def _length_ratio(found, paragraphs):
    parts = {unit.part for unit in found}
    english = sum(len(p.text_in(SOURCE)) for p in paragraphs if None in parts or p.part in parts)
    theirs = sum(len(_text(unit)) for unit in found)
    return min(max(theirs / english, 0.2), 2.0) if english and theirs else 0.5


def _text(unit):
    return next(iter(unit.texts.values()))


def _by_sentences(found, paragraphs, ratio):
    """Each unit takes a run of English sentences within one paragraph, at the least total cost: [(unit, p)]."""
    spans = [(index, s) for index, p in enumerate(paragraphs) for s in sentences(p.text_in(SOURCE))]
    n, m = len(found), len(spans)
    infinity = float("inf")
    cost = [[infinity] * (m + 1) for _ in range(n + 1)]
    step = [[None] * (m + 1) for _ in range(n + 1)]
    cost[0][0] = 0.0
    for i in range(n + 1):
        for j in range(m + 1):
            here = cost[i][j]
            if here == infinity:
                continue
            if j < m and here + SKIP_SENTENCE < cost[i][j + 1]:
                cost[i][j + 1], step[i][j + 1] = here + SKIP_SENTENCE, (i, j, None)
            if i == n:
                continue
            if here + UNPLACED < cost[i + 1][j]:
                cost[i + 1][j], step[i + 1][j] = here + UNPLACED, (i, j, None)
            for k in range(j + 1, min(j + LONGEST_RUN, m) + 1):
                if spans[k - 1][0] != spans[j][0]:
                    break
                total = here + _pair_cost(found[i], [s for _p, s in spans[j:k]], paragraphs[spans[j][0]], ratio)
                if total < cost[i + 1][k]:
                    cost[i + 1][k], step[i + 1][k] = total, (i, j, spans[j][0])
    chosen, i, j = [], n, m
    while i or j:
        previous_i, previous_j, index = step[i][j]
        if index is not None and previous_i != i:
            chosen.append((found[previous_i], paragraphs[index]))
        i, j = previous_i, previous_j
    return chosen[::-1]


def _pair_cost(unit, english, paragraph, ratio):
    text = _text(unit)
    english_text = " ".join(english)
    cost = abs(math.log(max(len(text), 1) / (ratio * max(len(english_text), 1))))
    cost += 0.2 * abs(len(commentary.sentences(text)) - len(english))
    if unit.bullet != paragraph.bullet:
        cost += 0.5
    mine, theirs = _numbers(text), _numbers(english_text)
    if mine:
        cost += -0.3 if mine <= theirs else 0.3
    names = _card_names(text)
    if names:
        lowered = english_text.lower()
        cost += -0.5 if all(name.lower() in lowered for name in names) else 0.5
    return cost


def _numbers(text):
    text = unicodedata.normalize("NFKC", text).lower()
    found = set(re.findall(r"\d+", text))
    found |= {NUMBER_WORDS[word] for word in re.findall(r"[a-z]+", text) if word in NUMBER_WORDS}
    return found


def _card_names(text):
    """Card names written in English inside 《》: 《Ancestral Recall》, 《…/Sphinx of Jwar Isle》."""
    names = []
    for inside in re.findall(r"《([^》]+)》", text):
        english = inside.split("/")[-1].strip()
        if re.fullmatch(r"[A-Za-z][A-Za-z ,'\-]+", english):
            names.append(english)
    return names


def _as_new_paragraphs(found):
    placed, counts = {}, {}
    for unit in found:
        part = unit.part or Part.TEXT
        counts[part] = counts.get(part, 0) + 1
        if part == Part.EXAMPLE:
            suffix = unit.label.lower() or chr(ord("a") + counts[part] - 1)
        else:
            suffix = str(counts[part])
        placed[id(unit)] = f"{KEY_PREFIX.get(part, part)}-{suffix}"
    return placed


def _parts_from_groups(found, paragraphs):
    """Without headings, the parts in the paste's order are the section's parts in order."""
    if any(unit.part for unit in found if not unit.label):
        return
    groups = sorted({unit.group for unit in found})
    parts = []
    for paragraph in paragraphs:
        if not parts or parts[-1] != paragraph.part:
            parts.append(paragraph.part)
    if len(groups) == len(parts):
        for unit in found:
            unit.part = parts[groups.index(unit.group)]


# English sentences


def _normal(text):
    text = unicodedata.normalize("NFKC", text).lower()
    text = re.sub(r"[—–-]", "-", text)
    text = re.sub(r"[‘’`]", "'", text)
    text = re.sub(r"[“”]", '"', text)
    text = re.sub(r"\s*-\s*", "-", text)
    return re.sub(r"\s+", " ", text).strip()


def sentences(text):
    return [s for s in SENTENCE_END.split(text.strip()) if s]


def _similarity(a, b):
    """How alike two normalised sentences are (0 where they are not close)."""
    if a == b:
        return 1.0
    if min(len(a), len(b)) < 0.73 * max(len(a), len(b)):  # then the ratio cannot reach 0.85
        return 0.0
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    if matcher.real_quick_ratio() < 0.85 or matcher.quick_ratio() < 0.85:
        return 0.0
    return matcher.ratio()


def _score(mine, theirs):
    """How much of a unit's English is in a paragraph's: the share of its (normalised) sentences found there."""
    if not theirs:
        return 0.0
    found = sum(s in theirs or max(_similarity(s, t) for t in theirs) >= 0.85 for s in mine)
    return found / len(mine) if mine else 0.0


# The proposal


def _rows_and_notes(proposal, official, placed, stored):
    joined, parts, bullets, notes = {}, {}, {}, []
    for unit in official:
        key = placed.get(id(unit))
        if key is None:
            proposal.unplaced.append(unit)
            proposal.unplaced.extend(_note_units(unit))
            continue
        texts = joined.setdefault(key, {})
        for code, text in unit.texts.items():
            texts[code] = units.join(code, texts[code], text) if code in texts else text
        parts.setdefault(key, unit.part or Part.TEXT)
        bullets.setdefault(key, unit.bullet)
        for note in unit.notes:
            target = f"example-{note['example']}" if note["example"] else key
            if note["example"] and target not in stored and target not in joined:
                target = key
            for code, text in note["texts"].items():
                notes.append(NoteProposal(key=target, code=code, text=text, box=note["box"]))
    order = {p.key: p.order for p in stored.values()}
    keys = sorted(joined, key=lambda key: order.get(key, 0)) if stored else list(joined)
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
            text = joined[key].get(code, "")
            if text:
                row.proposals.append(
                    Proposal(code=code, current=paragraph.text_in(code) if paragraph else "", imported=text)
                )
        proposal.rows.append(row)
    existing = _stored_notes(stored.values())
    for index, note in enumerate(notes):
        note.index = index
        note.same = _squeeze(note.text) in existing.get((note.key, note.code), set())
    proposal.notes = notes


def _note_units(unit):
    return [units.Unit(texts=note["texts"], line=note["line"], box=note["box"]) for note in unit.notes]


def _stored_notes(paragraphs):
    from ipgsite.ipg.models import Note

    found = {}
    by_id = {p.pk: p.key for p in paragraphs}
    for note in Note.objects.filter(paragraph_id__in=by_id):
        for code in languages.CODES:
            body = note.body_in(code)
            if body:
                found.setdefault((by_id[note.paragraph_id], code), set()).add(_squeeze(body))
    return found


def _squeeze(text):
    return re.sub(r"\s+", "", text or "")
