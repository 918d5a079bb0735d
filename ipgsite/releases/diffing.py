"""Word diffs as HTML: removed text in <del>, added text in <ins>, everything escaped.

Latin text is compared word by word. Chinese and Japanese have no spaces between words, so each of
their characters (Han, kana, CJK and full-width punctuation) is a token of its own: changing 牌手 to
选手 marks one character, not the whole clause.

The cost is bounded, whatever the texts: comparing token by token grows with the product of the two
lengths (two 19,000-character versions of a Japanese paragraph took 13 s). So sentences are paired
first, and only the changed ones are compared token by token; a changed run of sentences too long to
compare within BLOCK_LIMIT, or once a diff has spent DIFF_LIMIT, is shown replaced whole.
"""

import difflib
import re

from django.utils.html import escape
from django.utils.safestring import mark_safe

from ipgsite.ipg.text import CJK  # Han, kana, CJK punctuation, full-width forms: each character a token

TOKEN = re.compile(rf"[{CJK}]|[^\W{CJK}]+|\s+|[^\w\s]", re.UNICODE)
# The end of a sentence, with the closing quotes or brackets and the space after it; or a line break.
SENTENCE_END = re.compile(r"[.!?]+[\"'”’)\]]*\s+|[。！？]+[」』）”’]*\s*|\n+")
# Pairs of items (sentences, or tokens) that one comparison may weigh, and all the token comparisons of one diff.
BLOCK_LIMIT = 250_000
DIFF_LIMIT = 2_000_000


def tokens(text):
    """Words, runs of space, single punctuation marks, and single CJK characters, in order; joined they
    give `text` back."""
    return TOKEN.findall(text)


def sentences(text):
    """Sentences, each with the space after it; joined they give `text` back."""
    found, start = [], 0
    for match in SENTENCE_END.finditer(text):
        found.append(text[start : match.end()])
        start = match.end()
    if start < len(text):
        found.append(text[start:])
    return found


def _opcodes(a, b):
    """difflib's opcodes of two lists; beyond BLOCK_LIMIT, the common start and end kept and the middle replaced."""
    if len(a) * len(b) <= BLOCK_LIMIT:
        return difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    return [
        ("equal", 0, head, 0, head),
        ("replace", head, len(a) - tail, head, len(b) - tail),
        ("equal", len(a) - tail, len(a), len(b) - tail, len(b)),
    ]


def _token_segments(old, new, budget):
    """[(same, old, new)] of two texts token by token, or one replacement when that would cost too much."""
    a, b = tokens(old), tokens(new)
    cost = len(a) * len(b)
    if cost > BLOCK_LIMIT or cost > budget[0]:
        return [(False, old, new)]
    budget[0] -= cost
    return [
        (op == "equal", "".join(a[a1:a2]), "".join(b[b1:b2]))
        for op, a1, a2, b1, b2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    ]


def _changed_segments(old, new, budget):
    """A changed run of sentences: compared as one text, else sentence by sentence if they pair one to one."""
    joined_old, joined_new = "".join(old), "".join(new)
    if not joined_old or not joined_new:
        return [(False, joined_old, joined_new)]
    if len(tokens(joined_old)) * len(tokens(joined_new)) <= BLOCK_LIMIT or len(old) != len(new):
        return _token_segments(joined_old, joined_new, budget)
    return [segment for pair in zip(old, new, strict=True) for segment in _token_segments(*pair, budget)]


def _segments(old, new):
    """[(same, old, new)]: runs of equal text, and runs of changes; a lone space between two changes
    joins them, so that a changed phrase reads as one <del> and one <ins>."""
    a, b = sentences(old), sentences(new)
    budget = [DIFF_LIMIT]
    segments = []
    for op, a1, a2, b1, b2 in _opcodes(a, b):
        if op == "equal":
            segments.append((True, "".join(a[a1:a2]), "".join(b[b1:b2])))
        else:
            segments += _changed_segments(a[a1:a2], b[b1:b2], budget)
    segments = [segment for segment in segments if segment[1] or segment[2]]
    merged = []
    for index, (same, old_text, new_text) in enumerate(segments):
        between_changes = (
            0 < index < len(segments) - 1 and not old_text.strip() and not segments[index + 1][0] and not merged[-1][0]
        )
        if (same and not between_changes) or not merged or merged[-1][0]:
            merged.append([same and not between_changes, old_text, new_text])
        else:
            merged[-1][1] += old_text
            merged[-1][2] += new_text
    return merged


def diff_html(old, new):
    """`new` against `old` as escaped HTML, with <del> and <ins> around what changed."""
    html = []
    for same, removed, added in _segments(old or "", new or ""):
        if same:
            html.append(escape(removed))
            continue
        if removed:
            html.append(f"<del>{escape(removed)}</del>")
        if added:
            html.append(f"<ins>{escape(added)}</ins>")
    return mark_safe("".join(html))
