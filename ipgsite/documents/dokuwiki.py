"""DokuWiki source, as the Chinese judge wiki keeps its pages: `====== 2.3 … ======` headings, `  * ` and `  - `
lists, `\\\\` line breaks, `**bold**`, `//italic//`, `__underline__`, `''monospace''`, `[[link|text]]`, tables
(`^ head ^`, `| cell |`), and boxes (`<WRAP …>`, `<note>`, `<box>`, `> quote`). Markup is structure, never text:
a list's number is its item's `label`, a line break is a line of the paragraph."""

import re

from .blocks import BOX, HEADING, ITEM, PARAGRAPH, ROW, Block

HEADING_LINE = re.compile(r"^\s*(={2,6})\s*(.*?)\s*={2,6}\s*$")
LIST_ITEM = re.compile(r"^(?: {2,}|\t+)([*\-])\s?(.*)$")
TABLE_ROW = re.compile(r"^\s*[\^|]")
BOX_OPEN = re.compile(r"^\s*<(wrap|note|box|alert|callout)\b[^>]*>(.*)$", re.IGNORECASE)
QUOTE = re.compile(r"^\s*>+\s?(.*)$")

INLINE = [
    (re.compile(r"%%(.*?)%%"), r"\1"),
    (re.compile(r"<nowiki>(.*?)</nowiki>", re.IGNORECASE), r"\1"),
    (re.compile(r"\{\{[^}]*\}\}"), ""),  # images and media
    (re.compile(r"\(\((.*?)\)\)"), ""),  # footnotes
    (re.compile(r"\[\[[^\]|]*\|([^\]]*)\]\]"), r"\1"),
    (re.compile(r"\[\[([^\]]*)\]\]"), r"\1"),
    (re.compile(r"\*\*(.+?)\*\*"), r"\1"),
    (re.compile(r"(?<![:/])//(.+?)(?<![:/])//"), r"\1"),
    (re.compile(r"__(.+?)__"), r"\1"),
    (re.compile(r"''(.+?)''"), r"\1"),
    (re.compile(r"</?(?:sup|sub|del|ins|color[^>]*|fs[^>]*|wrap[^>]*|html)>", re.IGNORECASE), ""),
    (re.compile(r"~~[A-Z]+~~"), ""),  # ~~NOTOC~~ and the like
]
LINE_BREAK = re.compile(r"\s*\\\\(?:\s+|$)")


def inline(text):
    """A line's text without DokuWiki's inline markup; `\\\\` becomes a line break."""
    for pattern, replacement in INLINE:
        text = pattern.sub(replacement, text)
    return "\n".join(part.strip() for part in LINE_BREAK.split(text) if part.strip())


def read(raw):
    blocks, paragraph, box = [], None, None
    numbers = {}  # ordered-list numbers by depth
    gap = 1

    def close():
        nonlocal paragraph, gap
        if paragraph is not None:
            blocks.append(paragraph)
            paragraph = None

    quoting = False
    for number, line in enumerate(raw.split("\n"), 1):
        if box is None and not (quoting and QUOTE.match(line) and line.lstrip().startswith(">")):
            quoting = False
        if box is not None:
            end = re.search(r"</(wrap|note|box|alert|callout)>", line, re.IGNORECASE)
            body = line[: end.start()] if end else line
            if body.strip():
                box.text += ("\n\n" if box.text and not body.startswith(" ") else "\n" if box.text else "") + inline(
                    body
                )
            if end:
                box.text = box.text.strip()
                blocks.append(box)
                box, gap = None, 1
            continue
        if not line.strip():
            close()
            numbers.clear()
            gap += 1
            continue
        heading = HEADING_LINE.match(line)
        opened = BOX_OPEN.match(line)
        item = LIST_ITEM.match(line)
        if heading:
            close()
            blocks.append(Block(HEADING, inline(heading.group(2)), line=number, level=7 - len(heading.group(1))))
        elif opened:
            close()
            box = Block(BOX, "", line=number, gap=gap)
            rest = opened.group(2)
            if rest.strip():
                end = re.search(r"</(wrap|note|box|alert|callout)>", rest, re.IGNORECASE)
                box.text = inline(rest[: end.start()] if end else rest)
                if end:
                    blocks.append(box)
                    box = None
        elif item:
            close()
            depth = len(line) - len(line.lstrip())
            label = ""
            if item.group(1) == "-":
                numbers[depth] = numbers.get(depth, 0) + 1
                label = str(numbers[depth])
            blocks.append(Block(ITEM, inline(item.group(2)), line=number, gap=gap, label=label))
        elif TABLE_ROW.match(line):
            close()
            cells = tuple(inline(cell) for cell in re.split(r"[\^|]", line.strip())[1:-1])
            blocks.append(Block(ROW, " ".join(c for c in cells if c), cells=cells, line=number, gap=gap))
        elif QUOTE.match(line) and line.lstrip().startswith(">"):
            close()
            text = inline(QUOTE.match(line).group(1))
            if quoting:
                blocks[-1].text += "\n" + text
            else:
                blocks.append(Block(BOX, text, line=number, gap=gap))
            quoting, gap = True, 0
            continue
        else:
            text = inline(line)
            if paragraph is None:
                paragraph = Block(PARAGRAPH, text, line=number, gap=gap)
            else:
                paragraph.text += "\n" + text
            gap = 0
            continue
        gap = 0
    close()
    if box is not None and box.text:
        blocks.append(box)
    return [block for block in blocks if block.text.strip() or block.cells]
