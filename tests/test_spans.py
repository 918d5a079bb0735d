"""Cross-links and term marks are stored as their words and which occurrence of them each is (`ipgsite.ipg.spans`),
not as offsets into the text of one render: a page still shows them when the renderer writes other HTML for the same
text. And every range of CJK characters the site uses is defined once, in `ipgsite/ipg/text.py`."""

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.core.cache import cache
from django.utils.safestring import mark_safe

from ipgsite.ipg import reading, spans
from pages import parse, term_key

ROOT = Path(__file__).resolve().parent.parent


def xrefs(node):
    return [(a.text(), a.attrs["href"]) for a in node.find_all("a", class_="xref")]


def marks(node):
    return [(term_key(a), a.text()) for a in node.find_all("a", class_="term")]


# What a later Markdown or nh3 might write for the same text.


def attribute_on_every_paragraph(html):
    return html.replace("<p>", '<p data-renderer="next">')


def blank_line_between_blocks(html):
    return re.sub(r">\n<", ">\n\n<", html)


def both(html):
    return blank_line_between_blocks(attribute_on_every_paragraph(html))


@pytest.mark.parametrize("change", [attribute_on_every_paragraph, blank_line_between_blocks, both])
def test_links_and_term_marks_survive_a_change_in_how_the_page_is_rendered(client, ipg, monkeypatch, change):
    url = "/ja/ipg/2.3/"
    before = parse(client.get(url).content.decode())
    # The links and occurrences were stored by loadcontent, with the renderer of the day; the page is now rendered
    # by another one (reading pages call the renderer through `reading.render_markdown`).
    rendered = reading.render_markdown
    monkeypatch.setattr(reading, "render_markdown", lambda text: mark_safe(change(str(rendered(text)))))
    cache.clear()  # the page as rendered before
    html = client.get(url).content.decode()
    assert ('<p data-renderer="next">' in html) == (change is not blank_line_between_blocks)
    assert ("</p>\n\n<p" in html) == (change is not attribute_on_every_paragraph)
    after = parse(html)

    # The second note on 2.3's definition 1 names 2.5 twice and uses 占術 for the first time in its second block.
    note = after.by_id("definition-1").next_siblings()[0].find_all("aside", class_="note")[1]
    second_block = note.find("div", class_="note-body").find_all("p")[1]
    assert xrefs(second_block) == [("その他一般のゲームルール抵触行為", "/ja/ipg/2.5/")] * 2
    assert ("scry", "占術") in marks(second_block)
    # And every link and mark of the page is where it was.
    assert xrefs(after) == xrefs(before) and len(xrefs(before)) > 10
    assert marks(after) == marks(before) and len(marks(before)) > 50
    assert after.text() == before.text()


def words_of(pattern):
    """A finder for `spans.find`: every match of `pattern`."""
    return lambda text: ((m.start(), m.end(), None) for m in re.finditer(pattern, text))


def bold(_span, words):
    return f"<b>{words}</b>"


def test_a_span_is_its_words_and_their_rank_in_the_linkable_text():
    found = list(spans.find("<p>hand and <code>hand</code></p>\n<p>a hand, the <em>hand</em></p>", words_of("hand")))
    assert [(span.words, span.nth) for span in found] == [("hand", 0), ("hand", 1), ("hand", 2)]  # not in code
    stored = [SimpleNamespace(text=span.words, nth=span.nth) for span in found]
    # Rendered otherwise: an attribute, no newline between the blocks, an entity, a line break written as <br>.
    other = '<p class="x">hand &amp; <code>hand</code></p><p>a hand,<br>the <em>hand</em></p>'
    assert spans.splice(other, spans.place(stored, other), bold) == (
        '<p class="x"><b>hand</b> &amp; <code>hand</code></p><p>a <b>hand</b>,<br>the <em><b>hand</b></em></p>'
    )


def test_a_span_of_several_words_is_found_whatever_space_separates_them():
    found = list(spans.find("<p>See Hidden Card\nError and Hidden Card Error.</p>", words_of(r"Hidden\s+Card\s+Error")))
    assert [(span.words, span.nth) for span in found] == [("Hidden Card\nError", 0), ("Hidden Card Error", 1)]
    other = "<p>See Hidden Card Error and Hidden  Card Error.</p>"
    placed = spans.place([SimpleNamespace(text=span.words, nth=span.nth) for span in found], other)
    assert spans.splice(other, placed, bold) == "<p>See <b>Hidden Card Error</b> and <b>Hidden  Card Error</b>.</p>"


def test_a_span_whose_words_the_text_no_longer_holds_is_left_as_text():
    stored = [SimpleNamespace(text="hand", nth=1), SimpleNamespace(text="Card Error", nth=0)]
    html = "<p>a hand, <code>hand</code>, Card <em>Error</em></p>"  # one hand outside code; Card Error split by a tag
    assert spans.place(stored, html) == []
    assert spans.splice(html, spans.place(stored, html), bold) == html


# Where the CJK ranges are defined

ESCAPE = r"\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8}"
CJK_ESCAPE = re.compile(ESCAPE)
RANGE = re.compile(rf"({ESCAPE}|[^\s\\])-({ESCAPE}|[^\s\\])")
# Radicals to the unified ideographs (punctuation, kana, bopomofo, enclosed forms, Han), Hangul syllables,
# compatibility ideographs and forms, full-width forms, and the supplementary ideographic planes.
CJK_BLOCKS = [(0x2E80, 0x9FFF), (0xAC00, 0xD7AF), (0xF900, 0xFAFF), (0xFE30, 0xFE4F), (0xFF00, 0xFFEF)]
CJK_BLOCKS += [(0x20000, 0x3FFFF)]


def is_cjk(written):
    code = int(written[2:], 16) if written.startswith("\\") else ord(written)
    return any(low <= code <= high for low, high in CJK_BLOCKS)


def cjk_ranges(source):
    """The CJK code points a module writes as escapes ("\\u4e00"), and its ranges of CJK characters ("一-龥")."""
    escapes = [m.group() for m in CJK_ESCAPE.finditer(source) if is_cjk(m.group())]
    ranges = [m.group() for m in RANGE.finditer(source) if is_cjk(m.group(1)) or is_cjk(m.group(2))]
    return escapes + ranges


def test_cjk_character_ranges_are_defined_in_one_module():
    found = {}
    for path in sorted((ROOT / "ipgsite").rglob("*.py")):
        if "migrations" not in path.parts and (literals := cjk_ranges(path.read_text(encoding="utf-8"))):
            found[path.relative_to(ROOT).as_posix()] = literals
    assert list(found) == ["ipgsite/ipg/text.py"], {path: found[path][:3] for path in found}
    assert {"\\u3040", "\\u4e00", "\\u3400", "\\uf900", "\\uff66"} <= set(found["ipgsite/ipg/text.py"])


def test_the_check_finds_ranges_written_either_way():
    assert cjk_ranges(r'KANA = re.compile("[\u3041-\u309f]")') == ["\\u3041", "\\u309f", "\\u3041-\\u309f"]
    assert cjk_ranges('HAN = re.compile("[一-龥]")') == ["一-龥"]
    assert cjk_ranges('WORD = re.compile(r"[A-Za-z0-9-]+")  # "face-down", 游戏行动失误~额外看牌') == []
