"""Plain text, as pasted or saved: one block per line, with the blank lines before it.

A paste may be markup: DokuWiki source (`====` headings, `\\\\` line breaks), Markdown (`#` headings, `**bold**`)
or a two-column table copied from a spreadsheet (tab-separated); each is read by its own reader.
"""

import re

from . import dokuwiki, markdown, table
from .blocks import LINE, Block, normalise

DOKUWIKI_HEADING = re.compile(r"^\s*={2,6}[^=].*?={2,6}\s*$", re.MULTILINE)
DOKUWIKI_BREAK = re.compile(r"\\\\(?=\s|$)")
MARKDOWN_HEADING = re.compile(r"^#{1,6}\s+\S", re.MULTILINE)
MARKDOWN_STRONG = re.compile(r"\*\*\S[^*\n]*\*\*")


def read(raw):
    raw = normalise(raw)
    if DOKUWIKI_HEADING.search(raw) or len(DOKUWIKI_BREAK.findall(raw)) >= 2:
        return dokuwiki.read(raw)
    if len(MARKDOWN_HEADING.findall(raw)) >= 2 or len(MARKDOWN_STRONG.findall(raw)) >= 2:
        return markdown.read(raw)
    if table.is_tab_separated(raw):
        return table.read(raw, "paste.tsv")
    return lines(raw)


def lines(raw, first=1):
    """One `LINE` block per non-blank line, with the blank lines before it."""
    blocks, gap = [], 0
    for number, line in enumerate(raw.split("\n"), first):
        if not line.strip():
            gap += 1
            continue
        blocks.append(Block(LINE, line.rstrip(), line=number, gap=gap if blocks else 1))
        gap = 0
    return blocks
