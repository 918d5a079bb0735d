"""content/ holds the seeds (tests/fixtures/seeds/) faithfully, both ways, and the pages show them intact.

The checks are in tests/fidelity.py; tests/test_fidelity_mutations.py shows that each kind of wrong
edit makes them fail.
"""

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

import fidelity
from ipgsite.contentfiles.sections import read_content

CONTENT_DOCS = Path(__file__).resolve().parents[1] / "docs" / "content.md"


@pytest.fixture(scope="module")
def content():
    return read_content(settings.CONTENT_DIR)


def test_the_seeds_are_fixtures_of_the_project():
    names = sorted(p.name for p in fidelity.SEEDS.glob("*.txt"))
    assert names == [
        "000_449ccffc2367b9a5.txt",
        "001_8f471a1f5a05ee6e.txt",
        "002_7f86c0e867c117e2.txt",
        "003_b11ae6048e247c9d.txt",
        "004_7aec39355cc68af1.txt",
    ]


def test_the_seeds_read_this_way_agree_with_one_another():
    assert fidelity.check_seeds() == []
    sections = fidelity.seeded()
    assert {n: len(s.paragraphs) for n, s in sections.items()} == {"2.1": 43, "2.3": 19, "2.4": 11}
    assert {n: len(s.notes) for n, s in sections.items()} == {"2.1": 1, "2.3": 19, "2.4": 0}
    assert [p.key for p in sections["2.1"].paragraphs if p.bullet] == [
        "definition-3",
        "definition-4",
        "definition-6",
        "definition-7",
    ]
    assert [p.key for p in sections["2.4"].paragraphs if "zh-hans" not in p.texts] == [
        "definition-2",
        "philosophy-1",
        "philosophy-2",
        "remedy-1",
        "remedy-2",
        "remedy-3",
    ]


def test_every_paragraph_is_the_seeds_paragraph_in_its_part_order_and_languages(content):
    _chapters, sections = content
    assert fidelity.check_paragraphs(sections) == []


def test_notes_are_the_seeds_commentary_on_the_paragraph_they_follow(content):
    _chapters, sections = content
    assert fidelity.check_notes(sections) == []


def test_every_sentence_traces_to_a_seed_and_every_seed_sentence_is_there_as_often(content):
    _chapters, sections = content
    assert fidelity.check_sentences(sections) == []


def test_titles_aliases_former_names_and_penalties_follow_the_outline_and_the_seeds(content):
    chapters, sections = content
    assert fidelity.check_names(chapters, sections) == []


def test_official_japanese_is_plain_form_and_commentary_polite(content):
    _chapters, sections = content
    for doc in sections:
        for paragraph in doc.paragraphs:
            assert not fidelity.POLITE.search(paragraph.texts.get("ja", "")), (doc.number, paragraph.key)
        for note in doc.notes:
            if note.language == "ja":
                assert fidelity.POLITE.search(note.bodies["ja"]), (doc.number, note.paragraph)


def test_the_docs_list_exactly_the_documented_readings():
    text = CONTENT_DOCS.read_text(encoding="utf-8")
    section = text.split("## How content follows the seeds", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^- “([^”]+)” for “([^”]+)” \(seed (\d{3})\)", section, re.M)
    assert sorted(listed) == sorted((r.content_text, r.seed_text, r.seed) for r in fidelity.READINGS)


PAGES = [(number, lang) for number in ("2.1", "2.3", "2.4") for lang in ("en", "zh-hans", "ja")]


@pytest.mark.parametrize("number,lang", PAGES)
def test_the_page_shows_each_text_intact_and_notes_as_notes(ipg, number, lang):
    response = Client().get(f"/{lang}/ipg/{number}/")
    assert response.status_code == 200
    assert fidelity.check_page(response.content.decode(), number, [lang]) == []


@pytest.mark.parametrize("number", ["2.1", "2.3", "2.4"])
def test_the_compare_page_shows_each_text_intact(ipg, number):
    response = Client().get(f"/en/ipg/{number}/?langs=en,zh-hans,ja")
    assert response.status_code == 200
    assert fidelity.check_page(response.content.decode(), number, ["en", "zh-hans", "ja"]) == []


def test_every_term_name_is_in_a_seed_in_its_language_where_found_says(content):
    from ipgsite.contentfiles.terms import read_terms

    _chapters, sections = content
    terms = read_terms(settings.CONTENT_DIR, sections)
    assert len(terms) >= 20
    assert fidelity.check_terms(terms, sections) == []
