"""Word diffs as HTML: removed text in <del>, added text in <ins>, everything escaped.

Latin text is compared word by word. Chinese and Japanese have no spaces between words, so each of
their characters (Han, kana, CJK and full-width punctuation) is a token of its own: changing 牌手 to
选手 marks one character, not the whole clause.
"""

import difflib
import re

from django.utils.html import escape
from django.utils.safestring import mark_safe

CJK = (
    "\u2e80-\u2fdf"  # radicals
    "\u3000-\u303f"  # CJK punctuation
    "\u3040-\u30ff"  # hiragana, katakana
    "\u3100-\u31ff"  # bopomofo, katakana extensions
    "\u3400-\u4dbf"  # Han extension A
    "\u4e00-\u9fff"  # Han
    "\uf900-\ufaff"  # compatibility ideographs
    "\ufe30-\ufe4f"  # compatibility forms
    "\uff00-\uffef"  # full-width and half-width forms
    "\U00020000-\U0003134f"  # Han extensions B-G
)
TOKEN = re.compile(rf"[{CJK}]|[^\W{CJK}]+|\s+|[^\w\s]", re.UNICODE)


def tokens(text):
    """Words, runs of space, single punctuation marks, and single CJK characters, in order; joined they
    give `text` back."""
    return TOKEN.findall(text)


def _segments(a, b):
    """[(same, old, new)]: runs of equal text, and runs of changes; a lone space between two changes
    joins them, so that a changed phrase reads as one <del> and one <ins>."""
    segments = []
    for op, a1, a2, b1, b2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        old, new = "".join(a[a1:a2]), "".join(b[b1:b2])
        segments.append([op == "equal", old, new])
    merged = []
    for index, segment in enumerate(segments):
        same, old, new = segment
        between_changes = 0 < index < len(segments) - 1 and not old.strip() and not segments[index + 1][0]
        if (same and not between_changes) or not merged or merged[-1][0]:
            merged.append([same and not between_changes, old, new])
        else:
            merged[-1][1] += old
            merged[-1][2] += new
    return merged


def diff_html(old, new):
    """`new` against `old` as escaped HTML, with <del> and <ins> around what changed."""
    html = []
    for same, removed, added in _segments(tokens(old or ""), tokens(new or "")):
        if same:
            html.append(escape(removed))
            continue
        if removed:
            html.append(f"<del>{escape(removed)}</del>")
        if added:
            html.append(f"<ins>{escape(added)}</ins>")
    return mark_safe("".join(html))
