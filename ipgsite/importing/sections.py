"""Splitting a document into sections, at real section headings only.

A section heading is a number and a title that the outline knows, in any of the three languages: "2.3 Hidden Card
Error", "IPG 2.3 Game Play Error — Hidden Card Error", "2.3. 非公开牌张失误", "Appendix A …", or the number alone.
A line naming a known number with another title ("2.5 players may…") is text. A heading-like line with a number the
outline does not know ("2.9 Game Play Error — …") is a problem that names it. Running headers never start a section;
where a document has no heading at all, a running header that names one section names it. Page navigation (a line
with " | ") is never a heading.

Text before the first heading is page text. Within a section, a part heading that goes back (Definition after
Philosophy) or a penalty line after text starts text with no heading: another section, whose number the proposing
stage finds by its content (or refuses, naming its lines).
"""

import re
import unicodedata
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from ipgsite.documents.blocks import HEADING, ITEM, LINE, PARAGRAPH, ROW, RUNNING

from .vocabulary import PART_ORDER, SECTION_TITLE, display_width, heading, inline_heading, is_penalty_line

SEPARATORS = re.compile(r"[\s—–\-~─―:：・·|()（）\[\]【】〔〕「」]+")


@dataclass
class Document:
    """One section's blocks, with the number its heading gives ("" where it has none)."""

    number: str
    blocks: list = field(default_factory=list)
    title: str = ""
    where: str = ""  # where its heading (or, without one, its text) starts
    after: str = ""  # without a heading: the section whose text it follows
    named_by_running: bool = False  # its number is a running header's

    @property
    def headless(self):
        return not self.number

    def span(self):
        """The lines it covers, for a message: "lines 40–75", "pages 2–3"."""
        located = [block for block in self.blocks if block.line]
        if not located:
            return self.where
        first, last = located[0], located[-1]
        if first.page:
            if first.page == last.page:
                return _("page %(page)d") % {"page": first.page}
            return _("pages %(first)d–%(last)d") % {"first": first.page, "last": last.page}
        if first.line == last.line:
            return _("line %(line)d") % {"line": first.line}
        return _("lines %(first)d–%(last)d") % {"first": first.line, "last": last.line}


class Outline:
    """The sections a document may name: {number: [names in any language]}."""

    def __init__(self, names):
        self.names = {number: {_squashed(name) for name in found if _squashed(name)} for number, found in names.items()}

    def __contains__(self, number):
        return number in self.names

    def names_section(self, number, rest):
        rest = _squashed(rest)
        if not rest:
            return True
        return any(name in rest or (len(rest) >= 2 and rest in name) for name in self.names.get(number, ()))


def _squashed(text):
    return SEPARATORS.sub("", unicodedata.normalize("NFKC", text or "").lower())


def _title_like(block):
    text = block.text.strip()
    if block.kind == HEADING:
        return True
    if block.kind == ROW and sum(bool(cell.strip()) for cell in block.cells) != 1:
        return False
    if block.kind not in (LINE, PARAGRAPH, ITEM, ROW) or "\n" in text or " | " in text:
        return False
    return display_width(text) <= 120 and not text.rstrip("\"'”’」』）)").endswith((".", "。", "!", "?", "！", "？"))


def heading_of(block, outline):
    """(number, problem) for a block: the section its heading names, or a problem naming an unknown number."""
    if block.kind == RUNNING or not _title_like(block):
        return "", ""
    text = unicodedata.normalize("NFKC", block.text.strip())
    match = SECTION_TITLE.match(text)
    if not match:
        return "", ""
    number = match.group(1) or match.group(2).upper()
    rest = match.group(3)
    if number in outline:
        return (number, "") if outline.names_section(number, rest) else ("", "")
    if rest and (block.kind == HEADING or not re.match(r"^[\d.,%]", rest)):
        return "", _("%(where)s: “%(heading)s” is a section heading, but the IPG has no section %(number)s.") % {
            "where": block.where().capitalize(),
            "heading": block.text.strip()[:80],
            "number": number,
        }
    return "", ""


def split(blocks, outline):
    """The sections of a document, in order, and the problems found: ([Document], [message])."""
    documents, before, problems, running = [], [], [], []
    for block in blocks:
        if block.kind == RUNNING:
            running.append(block)
            continue
        number, problem = heading_of(block, outline)
        if problem:
            problems.append(problem)
            continue
        if number:
            documents.append(Document(number=number, title=block.text.strip(), where=block.where()))
        elif documents:
            documents[-1].blocks.append(block)
        else:
            before.append(block)
    if not documents:
        document = Document(number="", blocks=_from_first_part(before))
        named = {number for number in (_running_number(block, outline) for block in running) if number}
        if len(named) == 1:
            document.number, document.named_by_running = named.pop(), True
        documents = [document]
    return [part for document in documents for part in _restarts(document)], problems


def _running_number(block, outline):
    match = SECTION_TITLE.match(unicodedata.normalize("NFKC", block.text.strip()))
    if not match:
        return ""
    number = match.group(1) or (match.group(2) or "").upper()
    return number if number in outline and outline.names_section(number, match.group(3)) else ""


def _from_first_part(blocks):
    """A document without a heading starts at its first part heading or penalty line (page text before it)."""
    for index, block in enumerate(blocks):
        text = block.text.strip()
        if text and (heading(text) or is_penalty_line(text) or inline_heading(text)[0]):
            return blocks[index:]
    return blocks


def _restarts(document):
    """The document, and any text in it with no heading that starts again: a part heading that goes back, or a
    penalty line after text."""
    blocks = document.blocks
    document.blocks = []
    parts, current, highest, seen_text = [], document, -1, False
    for index, block in enumerate(blocks):
        text = block.text.strip()
        part = heading(text) if block.kind != RUNNING else None
        if part is None:
            part = inline_heading(text)[0] if block.kind in (LINE, PARAGRAPH) else None
            inline = part is not None
        else:
            inline = False
        penalty = is_penalty_line(text)
        order = PART_ORDER.index(part) if part in PART_ORDER else -1
        goes_back = order >= 0 and not inline and order <= highest and seen_text
        if (goes_back or (penalty and seen_text)) and current.blocks:
            start = index
            previous = blocks[index - 1] if index else None
            if goes_back and previous is not None and is_penalty_line(previous.text.strip()):
                start -= 1
                current.blocks.pop()
            parts.append(current)
            after = current.number or current.after
            current = Document(number="", where=blocks[start].where(), after=after)
            current.blocks.extend(blocks[start:index])
            highest, seen_text = -1, False
        current.blocks.append(block)
        if order >= 0:
            highest = max(highest, order)
        elif not penalty and block.kind != HEADING:
            seen_text = seen_text or highest >= 0 or bool(current.blocks)
    parts.append(current)
    return parts
