"""A paragraph as a link preview shows it: plain text, shortened where a sentence (or at least a word) ends."""

import re

from django.utils.html import strip_tags

from ipgsite.ipg import languages
from ipgsite.ipg.markup import render_markdown

# Chinese and Japanese end a sentence with a full-width mark and no space; English with a mark and a space.
CJK_SENTENCE_END = re.compile(r"[。！？]")
LATIN_SENTENCE_END = re.compile(r"[.!?](?=\s)")
# A preview's length in characters: a CJK character is about two Latin ones wide.
LIMITS = {"en": 200, "zh-hans": 100, "ja": 100}
ELLIPSIS = "…"


def plain_text(markdown):
    """The text a reader sees, without markup, on one line."""
    return " ".join(strip_tags(render_markdown(markdown)).split())


def shorten(text, code, limit=None):
    """`text` in at most `limit` characters: up to the last sentence that fits if that keeps a third of
    the limit, else cut at a word (English) or a character (Chinese, Japanese) with an ellipsis."""
    limit = limit or LIMITS.get(code, 200)
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    head = text[: limit + 1]
    ends = [m.end() for m in CJK_SENTENCE_END.finditer(head)] + [m.end() for m in LATIN_SENTENCE_END.finditer(head)]
    ends = [end for end in ends if end <= limit]
    if ends and max(ends) >= limit // 3:
        return text[: max(ends)].rstrip()
    cut = text[: limit - 1]
    if code not in languages.CJK and " " in cut:
        cut = cut.rsplit(" ", 1)[0]
    return cut.rstrip(" ,;:、，") + ELLIPSIS
