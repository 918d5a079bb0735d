"""Cleaning: what a PDF, a paste or a markup leaves in the text, taken out before the text is read.

- Running headers and footers, and page numbers ("Magic Infraction Procedure Guide", "Page 3 of 46"): lines that
  repeat at the edges of a PDF's pages, or, in a paste, short lines that repeat (or stand beside a page number).
  They become `RUNNING` blocks: not text, and never a section's start.
- Hard wraps: lines of a PDF, or of text pasted from one, are joined into paragraphs where the line was full
  (the next line's first word would not have fitted); a word split by a hyphen at a line end is joined again in
  English (never in Chinese or Japanese) unless the document writes it with its hyphen elsewhere.
- Markup left in a paste (`**bold**`, DokuWiki's `//italic//` and `\\\\`).

Text that was not wrapped (a line per paragraph) is joined only where a line does not end a sentence, as before.
"""

import re
import unicodedata
from collections import Counter
from dataclasses import replace

from ipgsite.documents.blocks import LINE, RUNNING
from ipgsite.ipg.text import CJK_RADICALS, KATAKANA, KATAKANA_MARKS

from .vocabulary import (
    BOX_START,
    BULLET,
    SECTION_TITLE,
    display_width,
    ends_sentence,
    heading,
    inline_heading,
    is_cjk,
    is_penalty_line,
    label_of,
    marker_of,
)

PAGE_NUMBER = re.compile(
    r"^(?:(?:page|p\.|pg\.?)\s*\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?|[-–—]?\s*\d{1,4}\s*[-–—]?|\d{1,4}\s*/\s*\d{1,4}|"
    r"第\s*\d{1,4}\s*[页頁]|\d{1,4}\s*(?:页|頁|ページ)|\d{1,4}\s*(?:of)\s*\d{1,4})$",
    re.IGNORECASE,
)
# A PDF's text gives a Kangxi radical (⼿) for the ideograph it looks like (手), and ligatures (ﬁ) for letters.
RADICALS_AND_LIGATURES = re.compile(f"[{CJK_RADICALS}\ufb00-\ufb06]")
KATAKANA_LETTER = f"[{KATAKANA}{KATAKANA_MARKS}]"
KATAKANA_DOT = re.compile(f"(?<={KATAKANA_LETTER})\u2027|\u2027(?={KATAKANA_LETTER})")  # ‧ for ・ between katakana
LATIN_DASH = re.compile("(?<=[A-Za-z ])[\u2015\u2012](?=[A-Za-z ])")  # ― and ‒ a CJK font gives for — and –
PAGE_WORDS = re.compile(r"page|\bp\.|\d\s*(?:of|/)\s*\d|页|頁|ページ")  # a running line that holds a page number
HYPHENS = ("-", "\u00ad", "\u2010", "\u2011")
MARKUP = [
    (re.compile(r"\*\*(\S(?:.*?\S)?)\*\*"), r"\1"),
    (re.compile(r"__(\S(?:.*?\S)?)__"), r"\1"),
    (re.compile(r"(?<![:/\w])//(\S(?:.*?\S)?)//(?!\w)"), r"\1"),
    (re.compile(r"\s*\\\\\s*$"), ""),
    (re.compile(r"<br\s*/?>", re.IGNORECASE), " "),
]
WORD = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)*")
SHORT = 100  # display columns: a running header is a short line


def clean(blocks, known_words=frozenset()):
    """The blocks with running lines marked and wrapped lines joined. `known_words` are English words (lower
    case) known to be words, such as the stored English's, to tell a compound from a split word."""
    for block in blocks:
        block.text = _tidy(block.text, block.kind == LINE)
    blocks = [block for block in blocks if block.text or block.cells]
    _mark_running(blocks)
    return _join_wrapped(blocks, known_words)


def _tidy(text, markup):
    text = RADICALS_AND_LIGATURES.sub(lambda match: unicodedata.normalize("NFKC", match.group(0)), text)
    text = KATAKANA_DOT.sub("・", text)
    text = LATIN_DASH.sub(lambda match: {"\u2015": "\u2014", "\u2012": "\u2013"}[match.group(0)], text)
    if markup:
        for pattern, replacement in MARKUP:
            text = pattern.sub(replacement, text)
    return text.rstrip()


# Running headers, footers and page numbers


def _key(text):
    """A line as running lines are compared: width, case and spacing aside, and a page number's digits aside."""
    text = unicodedata.normalize("NFKC", text).lower()
    if PAGE_WORDS.search(text):
        text = re.sub(r"\d+", "#", text)
    return re.sub(r"\s+", " ", text).strip()


def is_page_number(text):
    return bool(PAGE_NUMBER.match(unicodedata.normalize("NFKC", text).strip()))


def _may_run(text):
    """Whether a line could be a running header: short, not a sentence, not a part heading or a labelled line."""
    stripped = text.strip()
    if display_width(stripped) > SHORT or heading(stripped) or is_penalty_line(stripped):
        return False
    if label_of(stripped)[0] or BULLET.match(text) or marker_of(stripped)[0]:
        return False
    return not stripped.rstrip("\"'”’」』）)").endswith((".", "。", "！", "？", "!", "?"))


def _mark_running(blocks):
    lines = [block for block in blocks if block.kind == LINE]
    for block in lines:
        if is_page_number(block.text):
            block.kind = RUNNING
    paged = [block for block in lines if block.page]
    if paged:
        _mark_page_edges(paged)
        _page_tops(paged)
    plain = [block for block in lines if not block.page and block.kind == LINE]
    if plain:
        _mark_repeated(plain, blocks)


def _mark_page_edges(lines):
    """In a PDF: lines that stand among the first or last three of two pages or more (a third of them at least)."""
    pages = {}
    for block in lines:
        pages.setdefault(block.page, []).append(block)
    edges = Counter()
    for on_page in pages.values():
        text_lines = [block for block in on_page if block.kind == LINE]
        edge = {_key(block.text) for block in text_lines[:3] + text_lines[-3:]}
        edges.update(edge)
    needed = max(2, len(pages) // 3)
    for on_page in pages.values():
        text_lines = [block for block in on_page if block.kind == LINE]
        for block in text_lines[:3] + text_lines[-3:]:
            if edges[_key(block.text)] >= needed and _may_run(block.text):
                block.kind = RUNNING


def _full_line(block, full):
    """A line as wide as the paste's text is wrapped at: text, not a running header."""
    width = full.get(is_cjk(block.text), 0)
    return bool(width) and display_width(block.text.strip()) >= 0.9 * width


def _page_tops(lines):
    """A page's first line of text, under its running header, may go on from the page before: the space above it
    (the header's) says nothing."""
    seen = set()
    for block in lines:
        if block.kind == LINE and block.page not in seen:
            block.gap = 0
        if block.kind == LINE:
            seen.add(block.page)


def _mark_repeated(lines, blocks):
    """In a paste: short lines that repeat, beside other lines each time. Where the paste has page numbers, a line
    that stands beside one every time it comes (twice or more), but maybe at the top of the first page, and, for a
    section's title, before other text each time; where it has none, a line that comes three
    times or more and is not a section's title. A document that holds a text twice repeats its lines beside the same
    lines."""
    keys = [_key(block.text) if _may_run(block.text) else None for block in lines]
    counts = Counter(key for key in keys if key)
    once = [block for block, key in zip(lines, keys, strict=True) if counts.get(key, 0) < 2]
    full = {cjk: _full_width([b for b in once if is_cjk(b.text) == cjk]) for cjk in (True, False)}
    keys = [None if key and _full_line(block, full) else key for block, key in zip(lines, keys, strict=True)]
    counts = Counter(key for key in keys if key)
    neighbours, nexts = {}, {}  # key → the (line before, line after) pairs it stands between; the lines after
    for index, key in enumerate(keys):
        if key and counts[key] >= 2:
            before = _key(lines[index - 1].text) if index else ""
            after = _key(lines[index + 1].text) if index + 1 < len(lines) else ""
            neighbours.setdefault(key, set()).add((before, after))
            nexts.setdefault(key, set()).add(after)
    near_number = set()
    for index, block in enumerate(blocks):
        if block.kind == RUNNING and not block.page:
            for other in blocks[max(0, index - 2) : index + 3]:
                if other.kind == LINE:
                    near_number.add(id(other))
    near = Counter(key for block, key in zip(lines, keys, strict=True) if key and id(block) in near_number)
    for block, key in zip(lines, keys, strict=True):
        count = counts.get(key, 0) if key else 0
        varied = len(neighbours.get(key, ()))
        title = bool(SECTION_TITLE.match(unicodedata.normalize("NFKC", block.text)))
        if near_number:  # a paste with page numbers: its running lines stand beside them (but on the first page)
            # A section's title that a document holds twice is followed by its text: a running one is not.
            varied_after = not title or len(nexts.get(key, ())) * 2 > count
            if count >= 2 and varied >= 2 and near[key] >= count - 1 and varied_after:
                block.kind = RUNNING
        elif count >= 3 and varied * 2 >= count and not title:
            block.kind = RUNNING


# Hard wraps


def _join_wrapped(blocks, known_words):
    lines = [block for block in blocks if block.kind == LINE]
    paged = any(block.page for block in lines)
    full = {} if paged else {cjk: _full_width([b for b in lines if is_cjk(b.text) == cjk]) for cjk in (True, False)}
    measures = _measures([b for b in lines if is_cjk(b.text)], full.get(True, 0)) if not paged else set()
    spaced = paged and sum(bool(block.gap) for block in lines) * 20 >= len(lines)
    words, compounds = _vocabulary(lines, known_words)
    kept, previous, last = [], None, None  # the paragraph being joined (a running line between does not end it),
    for block in blocks:  # and its last line
        if block.kind == RUNNING:
            kept.append(block)
            continue
        if block.kind != LINE:
            kept.append(block)
            previous = None
            continue
        if previous is not None and _continues(previous, last, block, paged, full, spaced, measures):
            previous.text = _joined(previous.text, block.text, words, compounds)
            last = block
            continue
        kept.append(block)
        previous = last = replace(block)
        kept[-1] = previous
    return kept


def _full_width(lines):
    """The width a paste was wrapped at, in display columns, or 0 where its lines were not wrapped."""
    widths = sorted(display_width(block.text.strip()) for block in lines)
    if len(widths) < 5:
        return 0
    full = widths[int(0.95 * (len(widths) - 1))]
    if full > 200 or full < 30:
        return 0
    near = sum(0.8 * full <= width <= full * 1.02 for width in widths)
    return full if near * 10 >= 4 * len(widths) else 0


def _measures(lines, full):
    """The widths CJK lines of a paste were wrapped at: the full width, and narrower ones (an indented list) that
    three lines or more share."""
    if not full:
        return set()
    counts = Counter(display_width(block.text.strip()) for block in lines)
    return {width for width, count in counts.items() if count >= 3 and width >= 0.75 * full}


def _opens_unit(text):
    """A line that opens a paragraph of its own whatever came before: a bullet, a label, a heading, a marker, a
    section's title."""
    stripped = text.strip()
    return bool(
        BULLET.match(text)
        or (SECTION_TITLE.match(unicodedata.normalize("NFKC", stripped)) and not ends_sentence(stripped))
        or label_of(stripped)[0]
        or heading(stripped)
        or is_penalty_line(stripped)
        or marker_of(stripped)[0]
        or BOX_START.match(stripped)
        or inline_heading(stripped)[0]
    )


def _continues(previous, last, block, paged, full, spaced=False, measures=()):
    """Whether `block` is the next line of `previous`'s paragraph, whose last line is `last`. In a PDF whose
    paragraphs stand apart (`spaced`), a line close under another on its page is its paragraph's."""
    new_page = paged and block.page != last.page
    if block.gap and not new_page:
        return False
    if _opens_unit(block.text) or heading(previous.text.strip()) or is_penalty_line(previous.text.strip()):
        return False
    if is_cjk(previous.text) != is_cjk(block.text):
        return False
    if BOX_START.match(previous.text.strip()) and "[/alert]" in previous.text:
        return False
    if spaced and not new_page:
        return True  # a title too, wrapped on two lines
    if SECTION_TITLE.match(unicodedata.normalize("NFKC", previous.text)) and previous is last:
        return False  # a section's title line
    wrapped_at = full.get(is_cjk(last.text), 0)
    if not paged and not wrapped_at:
        return not ends_sentence(last.text)
    filled = (
        _filled(last.width, last.text, block.text, 1.0)
        if paged
        else _filled(display_width(last.text.strip()), last.text, block.text, wrapped_at)
    )
    if is_cjk(last.text):
        width = display_width(last.text.strip())
        return filled or any(measure - 3 <= width <= measure for measure in measures)
    return filled or not ends_sentence(last.text)


def _filled(width, text, following, full):
    """Whether a line was full: the first word of the line after it would not have fitted (greedy wrapping)."""
    columns = max(display_width(text.strip()), 1)
    per_column = width / columns
    first = following.strip().split(" ", 1)[0] if not is_cjk(following) else following.strip()[:1]
    room = (display_width(first) + (2 if is_cjk(text) else 1)) * per_column  # CJK: a character's room for 、。
    return width + room > full * 0.98


def _vocabulary(lines, known_words):
    """How often the document writes each English word (the known words as if twice), and its hyphenated words."""
    words, compounds = Counter(), set()
    for block in lines:
        for word in WORD.findall(block.text):
            if "-" in word:
                compounds.add(word.lower())
                words.update(word.lower().split("-"))
            else:
                words[word.lower()] += 1
    for word in known_words:
        words[word] += 2
    return words, compounds


def _joined(first, second, words, compounds):
    first, second = first.rstrip(), second.strip()
    if is_cjk(first[-1:]) or is_cjk(second[:1]):
        return first.rstrip("\u00ad") + second
    if first.endswith(HYPHENS) and first[-2:-1].isalpha() and second[:1].isalpha():
        return _hyphenated(first, second, words, compounds)
    return f"{first} {second}"


def _hyphenated(first, second, words, compounds):
    """A line ending in a hyphen, and the next: a compound keeps its hyphen, a split word is joined again.

    A compound where the document (or the known words) writes it so, or writes both halves as words elsewhere;
    a split word where it writes the word whole elsewhere, or else its halves are not both words."""
    left = re.search(r"[A-Za-z]+$", first[:-1]).group(0).lower()
    right = re.match(r"[A-Za-z]+", second).group(0).lower()
    if first.endswith("\u00ad"):
        return first[:-1] + second
    if f"{left}-{right}" in compounds:
        return f"{first[:-1]}-{second}"
    if words[left + right] >= 1:
        return first[:-1] + second
    if words[left] >= 2 and words[right] >= 2:
        return f"{first[:-1]}-{second}"
    return first[:-1] + second
