"""A short piece of an entry's text around what matched, escaped, with the matches marked."""

from functools import lru_cache
from html import escape  # what django.utils.html.escape calls, without its lazy-string wrapper: 20 calls a result

from django.utils.safestring import mark_safe

from ipgsite.ipg.text import CJK_LETTER

from .folding import WORD, fold, fold_with_spans, stem

# How much text to show, in characters: CJK text says more per character.
WIDTH = {"en": 180, "zh-hans": 80, "ja": 90}
BEFORE = {"en": 50, "zh-hans": 20, "ja": 22}
ELLIPSIS = "…"


def matched_spans(text, terms, folded=None, stems=(), words=()):
    """Where `terms`, whole `words` and words with one of `stems` occur in `text`, as (start, end), merged and in
    order. The stored `folded` text's positions are used when they carry over one to one."""
    spans = None
    if folded is not None and len(folded) == len(text):
        spans = _find(folded, terms, lambda at: at, lambda end: end, words)
        # Case folding alone made the fold (the usual case): it changed no character's place.
        if text.casefold() != folded and any(fold(text[start:end]) != folded[start:end] for start, end in spans):
            spans = None
    if spans is None:
        folded, origin = fold_with_spans(text)
        spans = _find(folded, terms, lambda at: origin[at][0], lambda end: origin[end - 1][1], words)
    if stems:
        spans += [match.span() for match in WORD.finditer(text) if _stem_of(match.group()) in stems]
    merged = []
    for start, end in sorted(spans):
        if merged and (start <= merged[-1][1] or not text[merged[-1][1] : start].strip()):
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


@lru_cache(maxsize=50_000)
def _stem_of(word):
    return None if CJK_LETTER.search(word) else stem(fold(word))


def _find(folded, terms, start_of, end_of, words=()):
    spans = []
    for term in [*terms, *words]:
        whole = term in words and term not in terms
        at = folded.find(term) if term else -1
        while at != -1:
            end = at + len(term)
            if not whole or not (at > 0 and folded[at - 1].isalnum() or end < len(folded) and folded[end].isalnum()):
                spans.append((start_of(at), end_of(end)))
            at = folded.find(term, end)
    return spans


def _window(text, anchor, language):
    """The part of `text` to show: WIDTH characters or so, starting a little before the anchor (start, end)."""
    width, before = WIDTH.get(language, 120), BEFORE.get(language, 30)
    if len(text) <= width:
        return 0, len(text)
    first, last = anchor or (0, 0)
    start = max(0, min(first - before, len(text) - width))
    end = min(len(text), max(start + width, last))
    if language == "en":  # don't cut words in half
        space = text.find(" ", start, first) if start > 0 else -1
        start = space + 1 if space != -1 else start
        space = text.rfind(" ", max(start, end - 25), end) if end < len(text) else -1
        end = space if space >= last else end
    return start, end


def snippet(text, terms, language, folded=None, stems=(), words=()):
    """The text around the matches, marked: `terms` anywhere, `words` (small ones: "to", の) where whole words."""
    spans = matched_spans(text, terms, folded, stems, words)
    # Start near the most telling match: the first of the longest term found ("Sphinx", not "of").
    found = [term for term in terms if term and term in (folded if folded is not None else fold(text))]
    # (a stem's word, "of" of a name's stems, never anchors it when a term is found)
    longest = matched_spans(text, [max(found, key=len)], folded) if found else spans
    start, end = _window(text, longest[0] if longest else None, language)
    out = [ELLIPSIS] if start > 0 else []
    cursor = start
    for span_start, span_end in spans:
        if span_start < end < span_end:  # a match the window would cut: end before it
            end = max(span_start, cursor)
        span_start, span_end = max(span_start, start), min(span_end, end)
        if span_start >= span_end or span_start < cursor:
            continue
        out.append(escape(text[cursor:span_start]))
        out.append(f"<mark>{escape(text[span_start:span_end])}</mark>")
        cursor = span_end
    out.append(escape(text[cursor:end]))
    if end < len(text):
        out.append(ELLIPSIS)
    return mark_safe("".join(out))
