"""Raw text pasted by a translator, aligned to a section's existing paragraph keys for review.

The shapes handled are those of the source documents: plain English under part headings, and English
with each paragraph followed by its Chinese (or Japanese), with or without headings. Page chrome
before the section's title line, and the penalty lines, are not content. Example letters ("A.",
"(A)", "• A.") are labels, not text. Where headings are missing, two blank lines end a part.

English paragraphs are matched to existing keys sentence by sentence, so a paragraph split in two
in the paste still lands on its one key. Text without English is placed by example letter, or by
position within its part.
"""

import difflib
import re
import unicodedata
from dataclasses import dataclass, field

from ipgsite.ipg import languages
from ipgsite.ipg.models import Part

from .status import diff_html

SOURCE = languages.CODES[0]

HEADINGS = {
    Part.DEFINITION: ("definition", "定义", "定義"),
    Part.EXAMPLE: ("examples", "example", "范例", "例"),
    Part.PHILOSOPHY: ("philosophy", "原则", "理念"),
    Part.ADDITIONAL_REMEDY: ("additional remedy", "进一步的修正", "追加措置"),
    Part.UPGRADE: ("upgrade", "升级", "格上げ"),
    Part.DOWNGRADE: ("downgrade",),
}
PENALTY_WORDS = (
    "penalty",
    "处罚",
    "懲罰",
    "no penalty",
    "warning",
    "警告",
    "【警告】",
    "game loss",
    "一盘负",
    "【ゲームの敗北】",
    "match loss",
    "disqualification",
)
LABEL = re.compile(r"^\s*(?:[•·*\-–]\s*)?(?:\(([A-Z])\)|([A-Z])\.)\s+")
TITLE = re.compile(r"^\s*(?:IPG\s+)?(?:(\d{1,2}\.\d{1,2})\.?|Appendix\s+([A-Z])\b)\s+\S")
CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f]")
KANA = re.compile(r"[\u3040-\u30ff\uff66-\uff9f]")
LATIN = re.compile(r"[A-Za-z]")
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z“‘\"'(])")


def _heading(line):
    """The part a heading line names ("DEFINITION 定义", "Philosophy", "理念"), or None."""
    rest = line.strip().lower()
    for part, words in HEADINGS.items():
        english, others = words[0], words[1:]
        remainder = rest[len(english) :].strip() if rest.startswith(english) else rest
        if remainder == "" and rest.startswith(english):
            return part
        if remainder in others or (remainder != rest and remainder == ""):
            return part
    return None


def _inline_heading(text):
    """ "升级:如果…" → (upgrade, "如果…")."""
    for part, words in HEADINGS.items():
        for word in words:
            match = re.match(rf"^{re.escape(word)}\s*[:：]\s*", text, re.IGNORECASE)
            if match:
                return part, text[match.end() :]
    return None, text


def _is_penalty_line(line):
    rest = line.strip().lower()
    for word in sorted(PENALTY_WORDS, key=len, reverse=True):
        rest = rest.replace(word, " ")
    return not rest.strip(" –-:：")


def _is_chrome(line):
    return " | " in line


def detect_language(line, cjk_language="zh-hans"):
    cjk = len(CJK.findall(line))
    if cjk and cjk * 2 >= len(LATIN.findall(line)):
        if cjk_language == "auto":
            return "ja" if KANA.search(line) else "zh-hans"
        return cjk_language
    return SOURCE


@dataclass
class Unit:
    """One paragraph of the paste, in one or more languages."""

    texts: dict
    part: str | None = None
    label: str = ""
    line: int = 0
    group: int = 0


@dataclass
class AlignedParagraph:
    """One existing paragraph and what the paste proposes for it, language by language."""

    paragraph: object
    proposals: list = field(default_factory=list)  # [Proposal]


@dataclass
class Proposal:
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
class Alignment:
    rows: list
    unmatched: list  # Units no existing paragraph took
    title_number: str = ""
    warnings: list = field(default_factory=list)

    def proposal(self, key, code):
        for row in self.rows:
            if row.paragraph.key == key:
                return next((p for p in row.proposals if p.code == code), None)
        return None

    @property
    def languages(self):
        return [code for code in languages.CODES if any(p.code == code for row in self.rows for p in row.proposals)]


def parse(raw, cjk_language="zh-hans"):
    """The paste as units, with the section number its title line gives (if any)."""
    lines = raw.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    start, number = 0, ""
    for index, line in enumerate(lines):
        match = TITLE.match(line)
        if match and not _is_chrome(line) and not LABEL.match(line):
            start, number = index + 1, match.group(1) or match.group(2)
            break
    has_headings = any(_heading(line) for line in lines[start:] if line.strip())

    units, part, group, blanks, block = [], None, 0, 0, []

    def flush():
        if block:
            units.extend(_units_of_block(block, part, group, cjk_language))
            block.clear()

    for number_of_line, line in enumerate(lines[start:], start + 1):
        if not line.strip():
            blanks += 1
            flush()
            continue
        if blanks >= 2 and not has_headings and units:
            group += 1
        blanks = 0
        if _is_chrome(line) or (not units and not block and _is_penalty_line(line)):
            continue
        heading = _heading(line)
        if heading:
            flush()
            part = heading
            continue
        block.append((number_of_line, line))
    flush()
    for unit in units:
        if unit.label and unit.part is None:
            unit.part = Part.EXAMPLE
    return units, number


def _units_of_block(block, part, group, cjk_language):
    """Lines → pieces (a run of lines in one language, or one labelled line) → units (English + translations)."""
    pieces = []
    for number, line in block:
        label_match = LABEL.match(line)
        label = (label_match.group(1) or label_match.group(2)) if label_match else ""
        text = line[label_match.end() :] if label_match else line.strip()
        code = detect_language(text, cjk_language)
        if pieces and not label and pieces[-1]["code"] == code:
            pieces[-1]["text"] += ("" if code != SOURCE else " ") + text.strip()
            continue
        pieces.append({"code": code, "text": text.strip(), "label": label, "line": number})
    units = []
    for piece in pieces:
        inline_part, text = _inline_heading(piece["text"])
        starts_unit = not units or piece["code"] == SOURCE or piece["code"] in units[-1].texts
        if starts_unit:
            units.append(Unit(texts={}, part=part, label=piece["label"], line=piece["line"], group=group))
        unit = units[-1]
        unit.texts[piece["code"]] = text
        if inline_part:
            unit.part = inline_part
    return units


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
    return difflib.SequenceMatcher(None, _normal(a), _normal(b), autojunk=False).ratio()


def _score(unit_text, paragraph_text):
    """How much of the unit's English is in the paragraph's: the share of its sentences found there."""
    theirs = sentences(paragraph_text)
    if not theirs:
        return 0.0
    mine = sentences(unit_text)
    found = sum(max(_similarity(s, t) for t in theirs) >= 0.85 for s in mine)
    return found / len(mine) if mine else 0.0


def align(section, raw, cjk_language="zh-hans"):
    """Propose, for each existing paragraph of `section`, the text the paste gives it in each language."""
    units, number = parse(raw, cjk_language)
    paragraphs = list(section.paragraphs.order_by("order"))
    warnings = []
    if number and number != section.number:
        warnings.append(number)
    _parts_from_groups(units, paragraphs)
    taken = {}  # key -> [units]
    unmatched = []
    position = 0
    for unit in units:
        key = None
        english = unit.texts.get(SOURCE)
        if english:
            scored = [(_score(english, p.text_in(SOURCE)), -abs(i - position), i) for i, p in enumerate(paragraphs)]
            best = max(scored, default=None)
            if best and best[0] >= 0.5:
                key = paragraphs[best[2]].key
                position = best[2]
        else:
            key = _by_place(unit, paragraphs, taken)
        if key is None:
            unmatched.append(unit)
        else:
            taken.setdefault(key, []).append(unit)

    rows = []
    for paragraph in paragraphs:
        if paragraph.key not in taken:
            continue
        joined = {}
        for unit in taken[paragraph.key]:
            for code, text in unit.texts.items():
                joined[code] = f"{joined[code]} {text}" if code in joined else text
        row = AlignedParagraph(paragraph=paragraph)
        for code in languages.CODES:
            if code in joined:
                row.proposals.append(Proposal(code=code, current=paragraph.text_in(code), imported=joined[code]))
        rows.append(row)
    return Alignment(rows=rows, unmatched=unmatched, title_number=number, warnings=warnings)


def _by_place(unit, paragraphs, taken):
    """A unit without English: its example letter, or the next untaken paragraph of its part."""
    if unit.label:
        key = f"example-{unit.label.lower()}"
        if any(p.key == key for p in paragraphs):
            return key
    for paragraph in paragraphs:
        if paragraph.part == unit.part and paragraph.key not in taken:
            return paragraph.key
    return None


def _parts_from_groups(units, paragraphs):
    """Without headings, the parts in the paste's order are the section's parts in order."""
    if any(unit.part for unit in units if not unit.label):
        return
    groups = sorted({unit.group for unit in units})
    parts = []
    for paragraph in paragraphs:
        if not parts or parts[-1] != paragraph.part:
            parts.append(paragraph.part)
    if len(groups) == len(parts):
        for unit in units:
            unit.part = parts[groups.index(unit.group)]
