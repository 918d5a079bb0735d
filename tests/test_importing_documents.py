"""A paste or a file of several sections is split at its section headings, and each section proposed."""

import json
from io import StringIO

import pytest
from django.core.management import call_command

from importing_measure import languages_of, scores, seed
from ipgsite.importing.documents import heading_number, split
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
        ("Appendix A — Penalty Quick Reference", "A"),
        ("IPG 2.1 ゲーム上の誤り ─ 誘発忘れ", "2.1"),
        # Near misses: page navigation, a date, an example's letter, a sentence that starts with a number.
        ("2.2. 游戏行动失误~额外看牌 | 返回IPG目录 | 2.4. 游戏行动失误~再调度失误", ""),
        ("2023.12 更新", ""),
        ("A. A player draws four cards after casting Ancestral Recall.", ""),
        ("Appendices are listed at the end.", ""),
    ],
)
def test_section_headings(line, number):
    assert heading_number(line) == number


def test_page_text_before_the_first_heading_is_dropped_and_line_ends_made_plain():
    (only,) = split("Home | Contents\r\nUpdated 2024\r\n\r\nIPG 2.3 Hidden Card Error\r\n\r\nDefinition\r\nText.\r\n")
    assert only.number == "2.3" and only.title == "IPG 2.3 Hidden Card Error"
    assert "\r" not in only.text and "Home" not in only.text and "Updated" not in only.text


def test_a_heading_of_a_section_the_site_does_not_have_is_text_not_a_section():
    documents = split("2.3 Hidden Card Error\nDefinition\n9.9 is not a section.\n", known={"2.3"})
    assert [d.number for d in documents] == ["2.3"] and "9.9 is not a section." in documents[0].text


def test_a_document_without_heading_needs_its_section_named(ipg, tmp_path):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="no section heading"):
        proposed(tmp_path, seed("001"))
    (section,) = proposed(tmp_path, seed("001"), "--section", "2.3")
    assert section["number"] == "2.3"
