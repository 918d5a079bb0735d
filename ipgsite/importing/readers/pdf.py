"""A PDF file, read with pdfminer.six and its layout analysis: each text line of each page, in reading order, as a
`LINE` block with its page, its place on the page, its width as a share of the page's text column, and whether it
opens a text box (`gap`: the layout's space between paragraphs). Joining wrapped lines, and dropping running
headers, footers and page numbers, are the cleaning stage's work, the same as for text pasted from a PDF."""

import io

from ..blocks import LINE, Block, Unreadable


def read(data):
    from pdfminer.high_level import extract_pages
    from pdfminer.layout import LAParams, LTTextContainer, LTTextLine
    from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect
    from pdfminer.pdfexceptions import PDFException
    from pdfminer.psexceptions import PSException

    blocks = []
    try:
        for number, page in enumerate(extract_pages(io.BytesIO(data), laparams=LAParams()), 1):
            lines = []
            for box in page:
                if not isinstance(box, LTTextContainer):
                    continue
                first = True
                for line in box:
                    if not isinstance(line, LTTextLine):
                        continue
                    text = line.get_text().replace("\n", " ").rstrip()
                    if text.strip():
                        lines.append((text, line.x0, line.x1, first))
                        first = False
            if not lines:
                continue
            left = min(x0 for _t, x0, _x1, _f in lines)
            right = max(x1 for _t, _x0, x1, _f in lines)
            column = max(right - left, 1.0)
            for place, (text, _x0, x1, first) in enumerate(lines, 1):
                width = (x1 - left) / column
                blocks.append(Block(LINE, text, line=place, page=number, gap=1 if first else 0, width=width))
    except (PDFPasswordIncorrect, PDFEncryptionError) as error:
        raise Unreadable("The PDF is encrypted: save it without a password and import it again.") from error
    except (PDFException, PSException, ValueError, KeyError, TypeError, AssertionError) as error:
        raise Unreadable("The file is not a PDF that can be read.") from error
    return blocks
