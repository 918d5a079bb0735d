"""What every reader gives: a document as blocks (a heading, a paragraph, a list item, a box, a table row, or a line
of plain text), each with its text and where it came from.

A line (`LINE`) is a line of a text file or of a PDF page, which the cleaning stage may join to the next (a hard
wrap); the other kinds are whole as their markup gives them. A paragraph's text may hold line breaks (`<br>`,
DokuWiki's `\\\\`): each is a line of the paragraph, as in a text file.
"""

from dataclasses import dataclass

from django.utils.translation import gettext as _

HEADING = "heading"
PARAGRAPH = "paragraph"
ITEM = "item"  # a list item; `label` holds an ordered list's number
BOX = "box"  # a rendered box, a blockquote, `alert … [/alert]`: commentary
ROW = "row"  # a table row; `cells` holds its cells
LINE = "line"  # a line of plain text or of a PDF page
RUNNING = "running"  # a running header or footer, or a page number: not text (kept to name a section)


@dataclass
class Block:
    kind: str
    text: str = ""
    cells: tuple = ()
    line: int = 0  # the line of a text file, the paragraph of a Word file, the line of a PDF page
    page: int = 0  # the PDF page (1, 2, …); 0 where the file has no pages
    gap: int = 1  # blank lines (or space) before it: 0 where it follows the line before directly
    level: int = 0  # a heading's level, 1 the highest, where the markup gives one
    label: str = ""  # an ordered list item's number, as its markup gives it
    width: float = 0.0  # a PDF line's width as a share of the page's text column

    def where(self):
        """Where the block starts, for a message: "line 12", "page 3, line 5"."""
        if self.page:
            return _("page %(page)d, line %(line)d") % {"page": self.page, "line": self.line}
        return _("line %(line)d") % {"line": self.line}


class Unreadable(Exception):
    """A document the importer cannot read; the message says why, for the person who gave it."""


def normalise(raw):
    """CRLF and CR line ends as LF; no BOM, no NUL, no zero-width characters."""
    raw = raw.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
    return raw.translate(INVISIBLE)


INVISIBLE = {0xFEFF: None, 0x200B: None, 0x200C: None, 0x200D: None, 0x2060: None}
