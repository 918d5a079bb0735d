"""What a PDF, a paste or a markup leaves in the text is taken out before it is read: running headers, footers and
page numbers, hard wraps, words split by a line-end hyphen, markup; and each reader gives the same blocks."""

import io

import pytest

from ipgsite.documents import docx as docx_reader
from ipgsite.documents import dokuwiki, html, markdown, text
from ipgsite.documents.blocks import BOX, HEADING, ITEM, LINE, PARAGRAPH, ROW, RUNNING
from ipgsite.importing.cleaning import clean, is_page_number


def texts(raw, known=frozenset()):
    return [(block.kind, block.text) for block in clean(text.read(raw), known)]


def test_running_headers_and_page_numbers_of_a_paste_are_not_text():
    page = "Magic Infraction Procedure Guide\n{part}\nA paragraph of page {n}.\nPage {n} of 3\n"
    parts = ["Definition", "Examples", "Philosophy"]
    found = texts("".join(page.format(n=n, part=part) for n, part in enumerate(parts, 1)))
    assert [t for kind, t in found if kind != RUNNING] == [
        "Definition",
        "A paragraph of page 1.",
        "Examples",
        "A paragraph of page 2.",
        "Philosophy",
        "A paragraph of page 3.",
    ]


@pytest.mark.parametrize("line", ["Page 3 of 46", "3", "- 12 -", "3 / 46", "第3页", "12ページ", "p. 4"])
def test_page_numbers(line):
    assert is_page_number(line)


@pytest.mark.parametrize("line", ["2.3 Hidden Card Error", "3 cards", "Page the judge."])
def test_page_numbers_near_misses(line):
    assert not is_page_number(line)


WRAPPED = (
    "Though the game state cannot be reversed to the correct state, this error\n"
    "can be mitigated by giving the opponent sufficient knowledge and infor-\n"
    "mation to offset the error so that it is less likely to generate advan-\n"
    "tage. It is a publicly-correctable error if the player can see the cards\n"
    "and the opponent can see them too, which makes the error publicly-\n"
    "correctable again.\n"
    "Short paragraph.\n"
    "Another paragraph follows here, and it too is wrapped at the same width\n"
    "as the others were.\n"
)


def test_hard_wraps_are_joined_and_a_split_word_is_whole_again_but_a_compound_keeps_its_hyphen():
    found = texts(WRAPPED)
    assert [t for _kind, t in found] == [
        "Though the game state cannot be reversed to the correct state, this error can be mitigated by giving the "
        "opponent sufficient knowledge and information to offset the error so that it is less likely to generate "
        "advantage. It is a publicly-correctable error if the player can see the cards and the opponent can see "
        "them too, which makes the error publicly-correctable again.",
        "Short paragraph.",
        "Another paragraph follows here, and it too is wrapped at the same width as the others were.",
    ]


def test_a_line_end_hyphen_is_never_removed_between_cjk_lines():
    raw = "".join(f"{chr(0x3042 + n) * 30}ー\nいう{n}。\n" for n in range(6))
    assert texts(raw)[0] == (LINE, f"{'あ' * 30}ーいう0。")


def test_markup_left_in_a_paste_is_not_text():
    assert texts("Definition\n**A player** draws //four// cards. \\\\\n") == [
        (LINE, "Definition"),
        (LINE, "A player draws four cards."),
    ]


def test_dokuwiki_source_is_structure():
    blocks = dokuwiki.read(
        "====== 2.3 Hidden Card Error ======\n\n  - First //card//. \\\\ 第一张。\n  - Second.\n\n"
        "^ English ^ 中文 ^\n| One | 一 |\n\n<WRAP box>Comment.</WRAP>\n"
    )
    assert [(b.kind, b.text, b.label) for b in blocks] == [
        (HEADING, "2.3 Hidden Card Error", ""),
        (ITEM, "First card.\n第一张。", "1"),
        (ITEM, "Second.", "2"),
        (ROW, "English 中文", ""),
        (ROW, "One 一", ""),
        (BOX, "Comment.", ""),
    ]


def test_markdown_is_structure():
    blocks = markdown.read("# 2.3 Hidden Card Error\n\n## Examples\n\n1. A *player* draws.  \n   牌手抓牌。\n2. B.\n")
    assert [(b.kind, b.text, b.label) for b in blocks] == [
        (HEADING, "2.3 Hidden Card Error", ""),
        (HEADING, "Examples", ""),
        (ITEM, "A player draws.\n牌手抓牌。", "1"),
        (ITEM, "B.", "2"),
    ]


def test_a_web_page_gives_its_main_content_only():
    page = b"""<html><body><header>Site</header><nav><a href="/">Home</a></nav>
    <div id="toc"><a href="#d">Definition</a></div>
    <main><h1>2.3 Hidden Card Error</h1><p><a href="/2.2">2.2</a> | <a href="/">Back to the IPG index</a></p>
    <h2>Definition</h2><p>First line.<br>Second line.</p><blockquote><p>A comment.</p></blockquote>
    <ul><li>A bullet.</li></ul></main><footer>Last changed 2023</footer></body></html>"""
    assert [(b.kind, b.text) for b in html.read(page)] == [
        (HEADING, "2.3 Hidden Card Error"),
        (HEADING, "Definition"),
        (PARAGRAPH, "First line.\nSecond line."),
        (BOX, "A comment."),
        (ITEM, "A bullet."),
    ]


def test_a_word_file_gives_headings_lists_boxes_and_tables():
    import docx

    document = docx.Document()
    document.add_heading("2.3 Hidden Card Error", level=1)
    document.add_paragraph("A. A player draws.", style="List Bullet")
    document.add_paragraph("A comment.", style="Intense Quote")
    table = document.add_table(rows=1, cols=2)
    table.rows[0].cells[0].text, table.rows[0].cells[1].text = "One", "一"
    data = io.BytesIO()
    document.save(data)
    assert [(b.kind, b.text) for b in docx_reader.read(data.getvalue())] == [
        (HEADING, "2.3 Hidden Card Error"),
        (ITEM, "A. A player draws."),
        (BOX, "A comment."),
        (ROW, "One 一"),
    ]
