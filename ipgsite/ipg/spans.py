"""Spans of a text found once, stored, and put back into the text on every page: cross-links (`crosslinks.Link`) and
term marks (`terms.Occurrence`).

A span is found in the linkable text of the rendered paragraph or note (its text outside links, code and citations:
`text.pieces`), where the words a reader sees are. It is stored as those words and which occurrence of them it is
in the linkable text (`nth`: 0 for the first "hand", 1 for the second), never as an offset. On a page it is looked
for again, the same way, in the text as rendered for that page, and spliced in there.

Why the words and not an offset: an offset into the text of the render made when the span was found holds only as
long as Markdown and nh3 render exactly that text. An upgrade that wrote another newline between two blocks, or an
extra space, would shift every offset after it, and marks would silently drop out. Offsets into the Markdown source
would not shift, but they cannot be put back into a page without a map from the source to the rendered text, which
only Markdown itself could draw (escapes, emphasis, entities, link syntax): the same dependence again. The words,
and their rank among the same words of the linkable text, are properties of the text alone: attributes, entities,
the whitespace between blocks and the tags around the words may change, and every span is found again. Within the
words any run of whitespace matches any other, so a line break written as a space is no change either. What a
renderer could still undo is a span whose words it split with a new tag, or made unlinkable; such a span is left
as text, like one whose words the text no longer holds.
"""

import re
from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache

from django.utils.html import escape

from .text import any_spacing, pieces

MAX_WORDS = 300  # the longest words a span keeps (the length of its model's column); longer ones are cut


@dataclass(frozen=True)
class Found:
    """A span found in a text, to be stored: its words, which occurrence of them it is, and what the finder made of
    it (a mention of a section, a term)."""

    words: str
    nth: int
    what: object


@dataclass(frozen=True)
class Placed:
    """A stored span (anything with its words as `text`, and `nth`) where it is in the text of one render."""

    start: int
    end: int
    span: object


@lru_cache(maxsize=4096)
def _occurrences(words):
    """Every place the words start, overlapping ones too, with the end of the words in group 1."""
    return re.compile(f"(?=({any_spacing(words)}))")


def _linkable(html):
    return [piece for piece in pieces(html) if piece.linkable and piece.text]


def find(html, finditer):
    """The spans that `finditer(text)` finds in each piece of the linkable text of rendered `html`, in order:
    `finditer` yields (start, end, what) in the piece's text. A span never crosses two pieces."""
    linkable = _linkable(html)
    starts = {}  # words -> [(piece number, start)] of every occurrence of the words, in order

    def nth(words, number, start):
        if words not in starts:
            regex = _occurrences(words)
            starts[words] = [(n, m.start()) for n, piece in enumerate(linkable) for m in regex.finditer(piece.text)]
        return bisect_left(starts[words], (number, start))

    for number, piece in enumerate(linkable):
        for start, end, what in finditer(piece.text):
            words = piece.text[start:end][:MAX_WORDS]
            if words.strip():
                yield Found(words=words, nth=nth(words, number, start), what=what)


def nth_at(html, words, start):
    """Which occurrence of `words` in the linkable text of `html` is the one at `start` (an offset into the text of
    the whole fragment), or None if the words are not there: how a span stored as an offset is stored now."""
    if not words.strip():
        return None
    regex = _occurrences(words)
    occurrences = [piece.offset + m.start() for piece in _linkable(html) for m in regex.finditer(piece.text)]
    return occurrences.index(start) if start in occurrences else None


def place(spans, html):
    """Where each stored span is in the text of rendered `html`, in text order: the `nth` occurrence of its words in
    the linkable text, found as `find` counted them. A span whose words the text no longer holds that often is left
    out."""
    linkable = _linkable(html)
    found = {}  # words -> [(start, end)] in the text of the whole fragment
    placed = []
    for span in spans:
        if not span.text.strip():
            continue
        if span.text not in found:
            regex = _occurrences(span.text)
            found[span.text] = [
                (piece.offset + m.start(), piece.offset + m.end(1))
                for piece in linkable
                for m in regex.finditer(piece.text)
            ]
        if span.nth < len(found[span.text]):
            start, end = found[span.text][span.nth]
            placed.append(Placed(start, end, span))
    return sorted(placed, key=lambda p: (p.start, -p.end))


def splice(html, placed, render):
    """`html` with the words of each placed span replaced by `render(span, words)` (HTML; the words are as this text
    has them), and the rest of the text as it was. `placed` holds offsets into the text of `html`, or of any HTML
    with the same text (the same render before links were spliced into it, say).

    A span is spliced only where it lies in one linkable piece of `html` (not inside a link spliced since) and does
    not overlap a span spliced before it; `render` may return None to leave it as text."""
    if not placed:
        return str(html)
    out = []
    for piece in pieces(html):
        end = piece.offset + len(piece.text)
        here = [p for p in placed if piece.linkable and piece.text and piece.offset <= p.start and p.end <= end]
        if not here:
            out.append(piece.raw)
            continue
        cursor = 0
        for span in here:
            start, stop = span.start - piece.offset, span.end - piece.offset
            if start < cursor:
                continue
            made = render(span.span, piece.text[start:stop])
            if made is None:
                continue
            out.append(escape(piece.text[cursor:start]))
            out.append(made)
            cursor = stop
        out.append(escape(piece.text[cursor:]))
    return "".join(out)
