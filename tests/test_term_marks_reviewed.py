"""Every term mark the reading pages show, against a reviewed list kept in tests/term_marks.txt: a mark gained or lost
anywhere shows in a diff that someone reads before the list is rewritten (UPDATE_TERM_MARKS=1)."""

import difflib
import os
from pathlib import Path

from ipgsite.ipg import languages
from ipgsite.ipg.models import Section
from pages import parse, term_key

REVIEWED = Path(__file__).resolve().parent / "term_marks.txt"
HEADER = (
    "# Every term mark the section pages show, reviewed by a person: page language, place, language of the text,\n"
    "# term, the words marked. Written by tests/test_term_marks_reviewed.py with UPDATE_TERM_MARKS=1.\n"
)


def _place(mark):
    """(section#paragraph, or section#paragraph note N for the Nth note shown after it; the text's language)."""
    node, lang, note = mark, None, None
    while node is not None and node.tag != "#document":
        lang = lang or node.attrs.get("lang")
        if "note" in node.classes and node.tag == "aside":
            note = node
        if "notes" in node.classes and node.tag == "details":
            siblings = [c for c in node.parent.children if not isinstance(c, str)]
            row = [c for c in siblings[: siblings.index(node)] if "row" in c.classes][-1]
            asides = node.find_all("aside", class_="note")
            return f"{row.attrs['id']} note {asides.index(note) + 1}", lang
        if "row" in node.classes:
            return node.attrs["id"], lang
        node = node.parent
    raise AssertionError(f"a mark outside any paragraph: {mark.text()!r}")


def rendered_marks(client):
    lines = []
    for section in Section.objects.with_text().in_reading_order():
        for code in languages.CODES:
            response = client.get(f"/{code}/ipg/{section.number}/")
            assert response.status_code == 200
            for mark in parse(response.content.decode()).find_all("a", class_="term"):
                place, lang = _place(mark)
                lines.append(f"{code}\t{section.number}#{place}\t{lang}\t{term_key(mark)}\t{mark.text()}")
    return HEADER + "".join(f"{line}\n" for line in sorted(lines))


def test_the_marks_on_every_section_page_are_the_reviewed_ones(client, ipg):
    rendered = rendered_marks(client)
    if os.environ.get("UPDATE_TERM_MARKS"):
        REVIEWED.write_text(rendered, encoding="utf-8")
    kept = REVIEWED.read_text(encoding="utf-8") if REVIEWED.exists() else ""
    diff = "".join(
        difflib.unified_diff(
            kept.splitlines(keepends=True), rendered.splitlines(keepends=True), str(REVIEWED), "rendered"
        )
    )
    assert not diff, f"The term marks differ from the reviewed list; review, then UPDATE_TERM_MARKS=1:\n{diff}"
