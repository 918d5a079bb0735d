"""A section's blocks as units: paragraphs in one or more languages, with their part, example label and bullet.

Part headings ("DEFINITION 定义", "Philosophy", "定義:") set the part; some stand inline before the text ("升级:如果…",
"格上げ: 変異…"). Penalty lines ("Warning 警告", "懲罰 – なし") and page navigation are not text. Example labels
("A.", "(A)", "（Ａ）", "例(C)", and a list's "1." under Examples) and bullet marks are labels, not text. A line in
another language than the paragraph before, with no blank line between, is its translation; so is a table row's
second cell. A box (`alert … [/alert]`, a rendered box, a blockquote) and a line marked 【解説】 or ※ are
commentary. Where headings are missing, a blank-line gap longer than the usual one ends a part.
"""

from dataclasses import dataclass, field

from ipgsite.documents.blocks import BOX, HEADING, ITEM, LINE, ROW, RUNNING
from ipgsite.ipg import languages
from ipgsite.ipg.models import Part

from .vocabulary import (
    BOX_END,
    BOX_START,
    BULLET,
    cjk_language_of,
    example_letter,
    heading,
    inline_heading,
    is_penalty_line,
    label_of,
    language_of,
    marker_of,
)

SOURCE = languages.SOURCE
COLUMN_NAMES = {"english", "en", "chinese", "中文", "英文", "原文", "译文", "japanese", "日本語", "source", "target"}


@dataclass
class Unit:
    """One paragraph of the document, in one or more languages; or a commentary box."""

    texts: dict
    part: str | None = None
    label: str = ""
    bullet: bool = False
    line: int = 0
    where: str = ""
    group: int = 0
    box: bool = False  # a commentary box
    marked: bool = False  # opened with a commentary marker (【解説】, ※)
    commentary: bool = False  # set by `commentary.classify`
    notes: list = field(default_factory=list)

    @property
    def only_language(self):
        return next(iter(self.texts)) if len(self.texts) == 1 else None

    def summary(self):
        return " / ".join(self.texts.values())


def is_chrome(line):
    return " | " in line


def read(blocks, cjk_language="auto"):
    """The units of a section's blocks, in order; `cjk_language` "auto" reads kana as Japanese, for the whole
    section at once (a heading such as 定義 has no kana)."""
    if cjk_language not in languages.CJK:
        cjk_language = cjk_language_of("\n".join(block.text for block in blocks))
    reader = Reader(cjk_language, blocks)
    for block in blocks:
        reader.block(block)
    return reader.finish()


class Reader:
    def __init__(self, cjk_language, blocks):
        self.cjk = cjk_language
        self.units, self.part, self.group = [], None, 0
        self.box = None  # an `alert … [/alert]` box being read: [block, [texts]]
        self.has_headings = any(block.kind != RUNNING and heading(block.text.strip()) for block in blocks)
        self.breaks = set() if self.has_headings else _part_breaks(blocks)

    def finish(self):
        if self.box is not None:
            self._close_box()
        for unit in self.units:
            for code, text in list(unit.texts.items()):
                unit.texts[code] = text.strip()
            if unit.label and unit.part is None:
                unit.part = Part.EXAMPLE
        return [unit for unit in self.units if any(unit.texts.values())]

    def block(self, block):
        if block.kind == RUNNING:
            return
        if id(block) in self.breaks and self.units:
            self.group += 1
        if self.box is not None:
            self._box_line(block.text.strip())
            return
        if block.kind == ROW:
            self.row(block)
            return
        if block.kind == BOX:
            self.add_box(block.text, block)
            return
        if block.kind == HEADING:
            text = block.text.strip()
            found = heading(text)
            if found:
                self.part = found
                return
            if is_penalty_line(text) or not text:
                return
        lines = [line for line in block.text.split("\n") if line.strip()]
        for index, line in enumerate(lines):
            after_blank = index == 0 and (block.kind != LINE or block.gap > 0)
            self.line(line, block, after_blank, item=block.kind == ITEM and index == 0, continued=index > 0)

    def line(self, raw, block, after_blank, item=False, continued=False):
        """Read one line; `continued`: a later line of one paragraph of markup, which goes on its paragraph."""
        line = raw.strip()
        if is_chrome(line) or (not self.units and is_penalty_line(line)):
            return
        found = heading(line)
        if found:
            self.part = found
            return
        if is_penalty_line(line):
            return
        if BOX_START.match(line):
            text = BOX_START.sub("", line, count=1)
            self.box = [block, []]
            self._box_line(text)
            return
        marked, line = marker_of(line)
        bullet = item or bool(BULLET.match(line))
        text = BULLET.sub("", line) if BULLET.match(line) else line
        label, text = label_of(text)
        if not label and item and block.label:
            label = block.label
        inline_part, text = inline_heading(text)
        if label.isdigit():  # a list's number: an example's place under Examples, else only a number
            label = example_letter(label).upper() if (inline_part or self.part) == Part.EXAMPLE else ""
        code = language_of(text, self.cjk)
        last = self.units[-1] if self.units else None
        if (
            last is not None
            and not after_blank
            and not label
            and not bullet
            and not inline_part
            and not marked
            and not last.box
            and list(last.texts)[-1] == code
            and continued
        ):
            last.texts[code] = _join(code, last.texts[code], text)  # the next line of a paragraph
            return
        if (
            last is not None
            and not last.box
            and not marked
            and code != SOURCE
            and code not in last.texts
            and SOURCE in last.texts
            and not after_blank
            and (label == last.label or not label)
        ):
            last.texts[code] = text  # the translation of the paragraph before
            if inline_part:
                last.part = inline_part
            if inline_part:
                self.part = inline_part
            return
        if inline_part:
            self.part = inline_part
        self.units.append(
            Unit(
                texts={code: text},
                part=self.part,
                label=label,
                bullet=bullet,
                line=block.line,
                where=block.where(),
                group=self.group,
                marked=marked,
            )
        )

    def row(self, block):
        """A table row: a part heading, or a paragraph and its translation, one per cell."""
        cells = [cell for cell in block.cells if cell.strip()]
        if not cells:
            return
        if all(heading(cell) for cell in cells):
            self.part = heading(cells[0])
            return
        if all(cell.strip().lower() in COLUMN_NAMES for cell in cells) or all(is_penalty_line(c) for c in cells):
            return
        if len(cells) == 1:
            self.line(cells[0], block, after_blank=True)
            return
        self.line(cells[0], block, after_blank=True)
        for cell in cells[1:]:
            self.line(cell, block, after_blank=False)

    def add_box(self, text, block):
        body = "\n\n".join(part.strip() for part in text.split("\n\n") if part.strip())
        if not body:
            return
        code = language_of(body, self.cjk)
        self.units.append(
            Unit(texts={code: body}, part=self.part, line=block.line, where=block.where(), group=self.group, box=True)
        )

    def _box_line(self, line):
        block, texts = self.box
        closed = BOX_END in line
        texts.append(line.split(BOX_END, 1)[0].strip() if closed else line.strip())
        if closed:
            self._close_box()

    def _close_box(self):
        block, texts = self.box
        self.box = None
        self.add_box("\n\n".join(text for text in texts if text), block)


def _join(code, first, second):
    return f"{first}{'' if code in languages.CJK else ' '}{second}"


def _part_breaks(blocks):
    """The blocks that open a new part: after a run of blank lines longer than the shortest run between text."""
    runs = [(id(block), block.gap) for block in blocks[1:] if block.kind == LINE and block.gap and not block.page]
    if not runs:
        return set()
    shortest = min(length for _b, length in runs)
    return {block for block, length in runs if length >= 2 * shortest}
