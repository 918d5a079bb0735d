"""Each seed pasted as it is, and in the shapes a paste takes on the way (CRLF, doubled or missing blank lines, page
text before the title), proposes what content/ holds: its paragraphs and its notes, each in the right place."""

import json
from io import StringIO

import pytest
from django.core.management import call_command

from edits import delete, write
from importing_measure import (
    SEED_SECTIONS,
    after_page_text,
    crlf,
    doubled_blank_lines,
    languages_of,
    scores,
    seed,
    without_blank_lines,
)
from ipgsite.ipg.models import Note, Section
from people import SEEDS

pytestmark = pytest.mark.skipif(not SEEDS.is_dir(), reason=f"the seeds are not at {SEEDS}")

SHAPES = {
    "as it is": lambda text: text,
    "CRLF": crlf,
    "doubled blank lines": doubled_blank_lines,
    "no blank lines": without_blank_lines,
    "page text before the title": after_page_text,
}


def proposed(tmp_path, raw, *arguments):
    path = tmp_path / "paste.txt"
    path.write_bytes(raw.encode("utf-8"))
    out = StringIO()
    call_command("importtext", str(path), "--json", *arguments, stdout=out)
    return json.loads(out.getvalue())["sections"]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("prefix", sorted(SEED_SECTIONS))
def test_each_seed_proposes_what_content_holds(ipg, tmp_path, prefix, shape):
    number = SEED_SECTIONS[prefix]
    (section,) = proposed(tmp_path, SHAPES[shape](seed(prefix)), "--section", number)
    (paragraph_precision, paragraph_recall), (note_precision, note_recall) = scores(section, languages_of(prefix))
    assert paragraph_precision >= 0.95 and paragraph_recall >= 0.95, (paragraph_precision, paragraph_recall)
    assert note_precision >= 0.9 and note_recall >= 0.9, (note_precision, note_recall)


def test_the_annotated_edition_gives_its_19_notes_each_on_its_paragraph(ipg, tmp_path):
    (section,) = proposed(tmp_path, seed("001"), "--section", "2.3")
    notes = [(note["paragraph"], note["text"][:8]) for note in section["notes"]]
    assert len(notes) == 19 and {note["language"] for note in section["notes"]} == {"ja"}
    assert ("example-c", "例(C)は、プレ") in notes  # written under example F, about example C
    assert notes.count(("definition-1", "この文は、対戦相")) == 1
    definition = next(p for p in section["paragraphs"] if p["key"] == "definition-1")["text"]
    assert len(definition) == 202 and "です" not in definition  # three official sentences, no commentary
    assert not section["unplaced"]


def test_the_annotated_edition_needs_no_stored_japanese(ipg, tmp_path):
    # Take the Japanese and its notes away: the import places the official text by the English alone.
    section = Section.objects.get(number="2.3")
    for paragraph in section.paragraphs.all():
        write("2.3", paragraph.key, "ja", "")
    for note in Note.objects.filter(paragraph__section=section):
        delete(note)
    (proposal,) = proposed(tmp_path, seed("001"), "--section", "2.3")
    assert scores(proposal, ["ja"]) == ((1.0, 1.0), (1.0, 1.0))
    assert {p["change"] for p in proposal["paragraphs"]} == {"new"}


def test_a_commentary_box_is_a_note_and_a_section_without_english_says_how_it_was_aligned(ipg, tmp_path):
    (section,) = proposed(tmp_path, seed("004"), "--section", "2.1")
    assert [(n["paragraph"], n["text"][:6]) for n in section["notes"]] == [("example-a", "この状況では")]
    assert section["warnings"] == [
        "This section has no English text to align to: paragraphs were aligned by part and order."
    ]
    keys = [p["key"] for p in section["paragraphs"]]
    assert keys == list(Section.objects.get(number="2.1").paragraphs.order_by("order").values_list("key", flat=True))


def test_headings_without_kana_propose_no_chinese(ipg, tmp_path):
    # 定義, 例 and 追加措置 have no kana; the section's kana make the whole paste Japanese.
    for prefix in ("001", "004"):
        (section,) = proposed(tmp_path, seed(prefix), "--section", SEED_SECTIONS[prefix])
        assert {p["language"] for p in section["paragraphs"]} == {"ja"}
    # The near miss: the Chinese wiki page stays Chinese.
    (section,) = proposed(tmp_path, seed("000"), "--section", "2.3")
    assert {p["language"] for p in section["paragraphs"]} == {"en", "zh-hans"}
