"""A Word file (`.docx`), read with python-docx: paragraphs and tables in the order of the body. A paragraph in a
heading style is a heading; in a list style, or numbered, a list item; in a quote style, or framed by a border or
shading, a box (commentary). A line break in a paragraph is a line."""

import io
import re
import zipfile

from django.utils.translation import gettext as _

from .blocks import BOX, HEADING, ITEM, PARAGRAPH, ROW, Block, Unreadable

QUOTE_STYLES = re.compile(r"quote|note|box|comment|annotation", re.IGNORECASE)
LIST_STYLES = re.compile(r"^list", re.IGNORECASE)
HEADING_STYLE = re.compile(r"^(?:heading\s*(\d)|title)$", re.IGNORECASE)


def read(data):
    import docx
    from docx.opc.exceptions import PackageNotFoundError
    from docx.oxml.ns import qn
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    try:
        document = docx.Document(io.BytesIO(data))
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError) as error:
        raise Unreadable(_("The file is not a Word document (.docx) that can be read.")) from error
    blocks, numbers = [], {}
    for position, child in enumerate(document.element.body.iterchildren(), 1):
        if child.tag == qn("w:p"):
            paragraph = Paragraph(child, document)
            text = paragraph.text.replace("\t", " ").strip()
            if not text:
                continue
            style = paragraph.style.name if paragraph.style is not None else ""
            heading = HEADING_STYLE.match(style)
            properties = child.pPr
            numbered = properties is not None and properties.numPr is not None
            if heading:
                blocks.append(Block(HEADING, text, line=position, level=int(heading.group(1) or 1)))
            elif QUOTE_STYLES.search(style) or _framed(properties, qn):
                blocks.append(Block(BOX, text, line=position))
            elif numbered or LIST_STYLES.match(style):
                ordered = "number" in style.lower() or _ordered(paragraph, document, qn)
                numbers[style] = numbers.get(style, 0) + 1
                label = str(numbers[style]) if ordered else ""
                blocks.append(Block(ITEM, text, line=position, label=label))
                continue
            else:
                blocks.append(Block(PARAGRAPH, text, line=position))
            numbers.clear()
        elif child.tag == qn("w:tbl"):
            for row in Table(child, document).rows:
                cells = tuple(cell.text.strip() for cell in row.cells)
                if any(cells):
                    blocks.append(Block(ROW, " ".join(c for c in cells if c), cells=cells, line=position))
    return _merge_boxes(blocks)


def _framed(properties, qn):
    if properties is None:
        return False
    return properties.find(qn("w:pBdr")) is not None or properties.find(qn("w:shd")) is not None


def _ordered(paragraph, document, qn):
    """Whether a numbered paragraph's list counts (1. 2. 3.) rather than bullets."""
    properties = paragraph._p.pPr
    if properties is None or properties.numPr is None or properties.numPr.numId is None:
        return False
    try:
        numbering = document.part.numbering_part.element
    except (KeyError, NotImplementedError):
        return False
    number_id = properties.numPr.numId.val
    for num in numbering.findall(qn("w:num")):
        if num.get(qn("w:numId")) == str(number_id):
            abstract = num.find(qn("w:abstractNumId")).get(qn("w:val"))
            for definition in numbering.findall(qn("w:abstractNum")):
                if definition.get(qn("w:abstractNumId")) == abstract:
                    level = definition.find(qn("w:lvl"))
                    format_ = level.find(qn("w:numFmt")) if level is not None else None
                    return format_ is not None and format_.get(qn("w:val")) not in ("bullet", "none")
    return False


def _merge_boxes(blocks):
    """Paragraphs of one box follow each other: one box, its paragraphs apart."""
    merged = []
    for block in blocks:
        if block.kind == BOX and merged and merged[-1].kind == BOX and merged[-1].line == block.line - 1:
            merged[-1].text += "\n\n" + block.text
            merged[-1].line = block.line
        else:
            merged.append(block)
    return merged
