"""A section's lines as units: paragraphs in one or more languages, with their part, example letter and bullet.

Part headings ("DEFINITION 定义", "Philosophy", "定義:") set the part; some stand inline before the text ("升级:如果…",
"格上げ: 変異…"). Penalty lines ("Warning 警告", "懲罰 – なし") and page navigation are not text. Example letters
("A.", "(A)", "• A.") and bullet marks are labels, not text. Lines in one language follow each other as one
paragraph only where a line does not end a sentence (a hard wrap); a line in another language is the translation
of the paragraph before it. `alert … [/alert]` is a commentary box. Where headings are missing, a blank-line gap
longer than the usual one ends a part.
"""

import re
from dataclasses import dataclass, field

from ipgsite.ipg import languages
from ipgsite.ipg.models import Part
from ipgsite.ipg.text import HALFWIDTH_KANA, HALFWIDTH_KATAKANA, HAN_BMP, HIRAGANA, KANA_BLOCKS, KATAKANA

from .documents import LABEL, is_chrome

SOURCE = languages.SOURCE

HEADINGS = {
    Part.DEFINITION: ("definition", "定义", "定義"),
    Part.EXAMPLE: ("examples", "example", "范例", "例"),
    Part.PHILOSOPHY: ("philosophy", "原则", "理念"),
    Part.ADDITIONAL_REMEDY: ("additional remedy", "进一步的修正", "追加措置"),
    Part.UPGRADE: ("upgrade", "升级", "格上げ"),
    Part.DOWNGRADE: ("downgrade", "降级", "格下げ"),
}
PENALTY_WORDS = (
    "penalty",
    "处罚",
    "懲罰",
    "no penalty",
    "なし",
    "warning",
    "警告",
    "game loss",
    "一盘负",
    "ゲームの敗北",
    "match loss",
    "マッチの敗北",
    "disqualification",
    "失格",
)
BULLET = re.compile(r"^\s*[•·*]\s*")
BOX_START = re.compile(r"^\s*\[?alert\]?", re.IGNORECASE)
BOX_END = "[/alert]"
CJK = re.compile(f"[{KANA_BLOCKS}{HAN_BMP}{HALFWIDTH_KANA}]")
KANA = re.compile(f"[{HIRAGANA}{KATAKANA}{HALFWIDTH_KATAKANA}]")  # letters only, not ー or ・
LATIN = re.compile(r"[A-Za-z]")
SENTENCE_END = re.compile(r"[.!?。！？:：]$")
CLOSERS = "\"'”’」』）)]】〕"


def heading(line):
    """The part a heading line names ("DEFINITION 定义", "Philosophy", "理念", "定義:"), or None."""
    rest = line.strip().rstrip(":：").strip().lower()
    if not rest:
        return None
    for part, words in HEADINGS.items():
        english, others = words[0], words[1:]
        if rest == english or rest in others:
            return part
        if rest.startswith(english) and rest[len(english) :].strip() in others:
            return part
    return None


INLINE_HEADINGS = [
    (part, re.compile(rf"^{re.escape(word)}\s*[:：]\s*(?=\S)", re.IGNORECASE))
    for part, words in HEADINGS.items()
    for word in words
]


def inline_heading(text):
    """ "升级:如果…" → (upgrade, "如果…"); text without one → (None, text)."""
    if not re.match(r"^[^:：]{1,20}[:：]", text):
        return None, text
    for part, pattern in INLINE_HEADINGS:
        match = pattern.match(text)
        if match:
            return part, text[match.end() :]
    return None, text


def is_penalty_line(line):
    rest = line.strip().lower()
    if not rest:
        return False
    for word in sorted(PENALTY_WORDS, key=len, reverse=True):
        rest = rest.replace(word, " ")
    return not rest.strip(" –—-:：【】")


def cjk_language_of(text):
    """Japanese where kana make up a noticeable share of the Chinese characters, else Chinese."""
    cjk = len(CJK.findall(text))
    return "ja" if cjk and len(KANA.findall(text)) * 20 >= cjk else "zh-hans"


def language_of(line, cjk_language):
    cjk = len(CJK.findall(line))
    if cjk and cjk * 2 >= len(LATIN.findall(line)):
        return cjk_language
    return SOURCE


def ends_sentence(text):
    return bool(SENTENCE_END.search(text.rstrip().rstrip(CLOSERS)))


def join(code, first, second):
    return f"{first}{'' if code in languages.CJK else ' '}{second}"


@dataclass
class Unit:
    """One paragraph of the paste, in one or more languages; or a commentary box."""

    texts: dict
    part: str | None = None
    label: str = ""
    bullet: bool = False
    line: int = 0
    group: int = 0
    box: bool = False  # the text of an `alert … [/alert]` box
    commentary: bool = False  # set by `commentary.classify`
    notes: list = field(default_factory=list)

    @property
    def only_language(self):
        return next(iter(self.texts)) if len(self.texts) == 1 else None

    def summary(self):
        return " / ".join(self.texts.values())


def read(document, cjk_language="auto"):
    """The units of a section's lines, in order; `cjk_language` "auto" reads kana as Japanese, for the whole
    section at once (a heading such as 定義 has no kana)."""
    if cjk_language not in languages.CJK:
        cjk_language = cjk_language_of(document.text)
    lines = document.lines
    has_headings = any(heading(line) for _n, line in lines if line.strip())
    breaks = _part_breaks(lines) if not has_headings else set()
    units, part, group = [], None, 0
    box = None  # the box being read: [line, [texts]]
    previous_blank = True
    for number, raw_line in lines:
        line = raw_line.strip()
        if box is not None:
            text, closed = _box_text(line)
            box[1].append(text)
            if closed:
                units.append(_box_unit(box, part, group, cjk_language))
                box = None
            continue
        if not line:
            previous_blank = True
            continue
        if number in breaks and units:
            group += 1
        if is_chrome(line) or (not units and is_penalty_line(line)):
            continue
        found = heading(line)
        if found:
            part, previous_blank = found, True
            continue
        if BOX_START.match(line):
            text, closed = _box_text(BOX_START.sub("", line, count=1))
            box = [number, [text]]
            if closed:
                units.append(_box_unit(box, part, group, cjk_language))
                box = None
            previous_blank = True
            continue
        part = _read_line(units, number, line, part, group, cjk_language, previous_blank) or part
        previous_blank = False
    if box is not None:
        units.append(_box_unit(box, part, group, cjk_language))
    for unit in units:
        for code, text in list(unit.texts.items()):
            unit.texts[code] = text.strip()
        if unit.label and unit.part is None:
            unit.part = Part.EXAMPLE
    return [unit for unit in units if any(unit.texts.values())]


def _read_line(units, number, line, part, group, cjk_language, after_blank):
    """Add a line to the units; returns the part an inline heading opens, if it has one."""
    bullet = bool(BULLET.match(line))
    text = BULLET.sub("", line) if bullet else line
    label_match = LABEL.match(text)
    label = (label_match.group(1) or label_match.group(2)) if label_match else ""
    text = text[label_match.end() :].strip() if label_match else text
    code = language_of(text, cjk_language)
    inline_part, text = inline_heading(text)
    last = units[-1] if units else None
    if (
        last is not None
        and not after_blank
        and not label
        and not bullet
        and not inline_part
        and not last.box
        and list(last.texts)[-1] == code
        and not ends_sentence(last.texts[code])
    ):
        last.texts[code] = join(code, last.texts[code], text)  # a hard-wrapped line
        return None
    if (
        last is not None
        and not last.box
        and code != SOURCE
        and code not in last.texts
        and SOURCE in last.texts
        and not after_blank
        and (label == last.label or not label)
    ):
        last.texts[code] = text  # the translation of the paragraph before
        if inline_part:
            last.part = inline_part
        return inline_part
    units.append(
        Unit(texts={code: text}, part=inline_part or part, label=label, bullet=bullet, line=number, group=group)
    )
    return inline_part


def _box_text(line):
    if BOX_END in line:
        return line.split(BOX_END, 1)[0].strip(), True
    return line.strip(), False


def _box_unit(box, part, group, cjk_language):
    number, texts = box
    body = "\n\n".join(text for text in texts if text)
    return Unit(texts={language_of(body, cjk_language): body}, part=part, line=number, group=group, box=True)


def _part_breaks(lines):
    """Line numbers that open a new part: after a run of blank lines longer than the shortest run between text."""
    runs, blank, first = [], 0, True
    for number, line in lines:
        if not line.strip():
            blank += 1
            continue
        if not first and blank:
            runs.append((number, blank))
        first, blank = False, 0
    if not runs:
        return set()
    shortest = min(length for _n, length in runs)
    return {number for number, length in runs if length >= 2 * shortest}
