"""A PDF file, read with pdfminer.six and its layout analysis: each text line of each page, in reading order, as a
`LINE` block with its page, its place on the page, its width as a share of the page's text column, and whether
more space than usual stands above it (`gap`: a paragraph's start). Joining wrapped lines, and dropping running
headers, footers and page numbers, are the cleaning stage's work, the same as for text pasted from a PDF."""

import io
import logging

from django.utils.translation import gettext as _

from .blocks import LINE, Block, Unreadable


def read(data):
    from pdfminer.high_level import extract_pages
    from pdfminer.layout import LAParams, LTTextContainer, LTTextLine
    from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect
    from pdfminer.pdfexceptions import PDFException
    from pdfminer.psexceptions import PSException

    blocks = []
    logging.getLogger("pdfminer").setLevel(logging.ERROR)  # it warns of every font it reads without a box
    try:
        for number, page in enumerate(
            extract_pages(io.BytesIO(data), laparams=LAParams(boxes_flow=None)), 1
        ):  # lines, sorted here
            lines = []
            for box in page:
                if isinstance(box, LTTextContainer):
                    lines.extend(line for line in box if isinstance(line, LTTextLine) and line.get_text().strip())
            blocks.extend(_blocks(number, lines))
    except (PDFPasswordIncorrect, PDFEncryptionError) as error:
        raise Unreadable(_("The PDF is encrypted: save it without a password and import it again.")) from error
    except (PDFException, PSException, ValueError, KeyError, TypeError, AssertionError) as error:
        raise Unreadable(_("The file is not a PDF that can be read.")) from error
    return blocks


def _blocks(page, lines):
    """A page's lines, top to bottom, as blocks: a line opens a paragraph (`gap`) where the space above it is
    larger than the page's usual space between lines."""
    if not lines:
        return []
    lines = sorted(lines, key=lambda line: (-round(line.y1), line.x0))
    left = min(line.x0 for line in lines)
    column = max(max(line.x1 for line in lines) - left, 1.0)
    spaces = [above.y0 - below.y1 for above, below in zip(lines, lines[1:], strict=False)]
    usual = sorted(spaces)[len(spaces) // 5] if spaces else 0.0  # the space between lines of a paragraph
    blocks = []
    for place, line in enumerate(lines, 1):
        height = max(line.y1 - line.y0, 1.0)
        space = spaces[place - 2] if place > 1 else height
        gap = 1 if space > usual + 0.35 * height else 0
        text = line.get_text().replace("\n", " ").rstrip()
        width = (line.x1 - left) / column
        blocks.append(Block(LINE, text, line=place, page=page, gap=gap, width=width))
    return blocks
