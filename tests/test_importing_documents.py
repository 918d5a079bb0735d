"""A document of several sections is split at its real section headings (a number and a title the outline knows, in
any language), and each section proposed; a heading of a section the IPG does not have is an error naming it."""

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from importing_measure import languages_of, scores, seed
from ipgsite.documents import text
from ipgsite.documents.blocks import HEADING, LINE, Block
from ipgsite.importing import cleaning
from ipgsite.importing.proposals import Stored
from ipgsite.importing.sections import heading_of, split
from people import SEEDS

pytestmark = pytest.mark.skipif(not SEEDS.is_dir(), reason=f"the seeds are not at {SEEDS}")


def proposed(tmp_path, raw, *arguments):
    path = tmp_path / "document.txt"
    path.write_text(raw, encoding="utf-8")
    out = StringIO()
    call_command("importtext", str(path), "--json", *arguments, stdout=out)
    return json.loads(out.getvalue())["sections"]


def test_a_document_of_several_sections_proposes_each(ipg, tmp_path):
    document = "\n\n".join([seed("003"), seed("000"), seed("002"), seed("004")])
    sections = proposed(tmp_path, document)
    assert [section["number"] for section in sections] == ["2.3", "2.3", "2.4", "2.1"]
    for section, prefix in zip(sections, ["003", "000", "002", "004"], strict=True):
        (paragraph_precision, paragraph_recall), notes = scores(section, languages_of(prefix))
        assert paragraph_precision >= 0.95 and paragraph_recall >= 0.95, prefix
        assert notes[0] >= 0.9 and notes[1] >= 0.9, prefix


def test_section_picks_one_section_of_a_document(ipg, tmp_path):
    document = "\r\n\r\n".join([seed("003"), seed("002")]).replace("\n", "\r\n")
    (section,) = proposed(tmp_path, document, "--section", "2.4")
    assert section["number"] == "2.4" and scores(section, ["en", "zh-hans"])[0] == (1.0, 1.0)


@pytest.mark.parametrize(
    "line, number",
    [
        ("2.3 Hidden Card Error", "2.3"),
        ("IPG 2.3 Game Play Error — Hidden Card Error", "2.3"),
        ("2.3. Hidden Card Error", "2.3"),
        ("2.3 Hidden Card Error 非公开牌张失误", "2.3"),
        ("2.3 非公開カードに関する誤り", "2.3"),
        ("２.３ 非公开牌张失误", "2.3"),
        ("2.3. 游戏行动失误~额外抓牌", "2.3"),  # its former name
        ("IPG 2.1 ゲーム上の誤り ─ 誘発忘れ", "2.1"),
        ("2.5", "2.5"),
        # Near misses: page navigation, a date, an example's letter, a sentence, a known number with another title.
        ("2.2. 游戏行动失误~额外看牌 | 返回IPG目录 | 2.4. 游戏行动失误~再调度失误", ""),
        ("2023.12 更新", ""),
        ("A. A player draws four cards after casting Ancestral Recall.", ""),
        ("Appendices are listed at the end.", ""),
        ("2.5 players may draw cards", ""),
        ("9.9 is not a section.", ""),
    ],
)
def test_section_headings(ipg, line, number):
    assert heading_of(Block(LINE, line, line=1), Stored().outline()) == (number, "")


def test_a_heading_with_a_number_the_outline_does_not_know_is_an_error_naming_it(ipg, tmp_path):
    assert heading_of(Block(LINE, "2.9 Game Play Error — Unknown", line=7), Stored().outline()) == (
        "",
        "Line 7: “2.9 Game Play Error — Unknown” is a section heading, but the IPG has no section 2.9.",
    )
    assert heading_of(Block(HEADING, "5.1 Something", line=3), Stored().outline())[1].startswith("Line 3:")
    document = seed("003") + "\n\n2.9 Game Play Error — Unknown\n\nDefinition\n\nText.\n"
    with pytest.raises(CommandError, match="the IPG has no section 2.9"):
        proposed(tmp_path, document)


def test_page_text_before_the_first_heading_is_dropped_and_line_ends_made_plain(ipg):
    raw = "Home | Contents\r\nUpdated 2024\r\n\r\nIPG 2.3 Hidden Card Error\r\n\r\nDefinition\r\nText.\r\n"
    (only,), problems = split(cleaning.clean(text.read(raw)), Stored().outline())
    assert only.number == "2.3" and only.title == "IPG 2.3 Hidden Card Error" and not problems
    texts = [block.text for block in only.blocks]
    assert texts == ["Definition", "Text."]


def test_a_running_header_that_names_the_section_does_not_start_sections(ipg):
    page = "2.1 Game Play Error — Missed Trigger\n{part}\nText of page {n}.\nPage {n} of 4\n"
    parts = ["Definition", "Examples", "Philosophy", "Additional Remedy"]
    raw = "".join(page.format(n=n, part=part) for n, part in enumerate(parts, 1))
    found, problems = split(cleaning.clean(text.read(raw)), Stored().outline())
    assert [document.number for document in found] == ["2.1"] and not problems


def test_a_document_without_heading_needs_its_section_named(ipg, tmp_path):
    with pytest.raises(CommandError, match="no section heading"):
        proposed(tmp_path, seed("001"))
    (section,) = proposed(tmp_path, seed("001"), "--section", "2.3")
    assert section["number"] == "2.3"
