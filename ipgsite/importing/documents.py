"""A paste or a file as sections: line ends made plain, split at section headings, page text before a title dropped.

A section heading is a line that starts with a section number: `2.3 Hidden Card Error`, `IPG 2.3 …`, `2.3. …`,
`Appendix A …`. A line with ` | ` is page navigation, never a heading. Text before the first heading is page
text; a document with no heading at all is one section, whose start is its first part heading or penalty line.
"""

import re
from dataclasses import dataclass, field

TITLE = re.compile(r"^\s*(?:IPG\s+)?(?:(\d{1,2}\.\d{1,2})\.?|Appendix\s+([A-Z])\b\.?)(?:\s+\S|\s*$)", re.IGNORECASE)
LABEL = re.compile(r"^\s*(?:[•·*\-–]\s*)?(?:\(([A-Z])\)|([A-Z])\.)\s+")


@dataclass
class Document:
    """One section's lines, numbered as in the whole paste, with the number its heading gives ("" without one)."""

    number: str
    lines: list = field(default_factory=list)  # [(line number, text)]
    title: str = ""

    @property
    def text(self):
        return "\n".join(line for _number, line in self.lines)


def normalise(raw):
    """CRLF and CR line ends as LF; no BOM, no NUL."""
    return raw.replace("\r\n", "\n").replace("\r", "\n").replace("\ufeff", "").replace("\x00", "")


def is_chrome(line):
    return " | " in line


def heading_number(line):
    """The section number a heading line gives ("2.3", "A"), or ""."""
    if is_chrome(line) or LABEL.match(line):
        return ""
    match = TITLE.match(line)
    if not match:
        return ""
    return match.group(1) or match.group(2).upper()


def split(raw, known=None):
    """The sections of a paste, in order. `known`, if given, is the set of section numbers a heading may name."""
    lines = list(enumerate(normalise(raw).split("\n"), 1))
    documents = []
    for number, line in lines:
        found = heading_number(line)
        if found and (known is None or found in known):
            documents.append(Document(number=found, title=line.strip()))
        elif documents:
            documents[-1].lines.append((number, line))
    if documents:
        return documents
    return [Document(number="", lines=_from_first_heading(lines))]


def _from_first_heading(lines):
    from .units import heading, is_penalty_line

    for index, (_number, line) in enumerate(lines):
        if line.strip() and (heading(line) or is_penalty_line(line)):
            return lines[index:]
    return lines
