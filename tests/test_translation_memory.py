"""Translation memory on the translate page: similar source texts already translated elsewhere, with their translation."""

import json
import re
from pathlib import Path

import pytest

from edits import add_note, write, write_note
from ipgsite.ipg import languages
from ipgsite.ipg.models import Note, Paragraph
from ipgsite.workspace import memory
from people import client_for, paragraph, translate_url, translator

pytestmark = pytest.mark.database  # the entries kept in memory are read from either database

DARK_CONFIDANT = (
    "A player resolves a Dark Confidant trigger, but forgets to reveal the card before putting it into their hand."
)
DARK_CONFIDANT_JA = "プレイヤーが《闇の腹心》の誘発型能力を解決して、そのカードを公開せずに手札に入れた。"


def suggestion_blocks(html, key):
    row = re.search(rf'<section class="tr-row[^"]*" id="{key}".*?</section>', html, re.S).group(0)
    return re.findall(r'<li class="tr-suggestion.*?</li>', row, re.S)


def test_a_near_duplicate_and_an_exact_duplicate_translated_elsewhere_are_suggested(ipg):
    assert paragraph("2.3", "example-c").text_in("ja") == DARK_CONFIDANT_JA
    write("2.4", "example-a", "en", DARK_CONFIDANT)  # the same sentence as 2.3's example C
    write("2.4", "example-b", "en", DARK_CONFIDANT.replace("their hand", "her hand"))  # one word differs
    html = client_for(translator("ja")).get(translate_url("2.4", "ja")).content.decode()

    exact = suggestion_blocks(html, "example-a")
    assert 1 <= len(exact) <= 3
    assert 'class="tr-suggestion tr-exact"' in exact[0] and "Exact match" in exact[0]
    assert "2.3 #example-c" in exact[0] and DARK_CONFIDANT_JA in exact[0]
    assert f'data-text="{DARK_CONFIDANT_JA}"' in exact[0]  # what the button copies into the field

    near = suggestion_blocks(html, "example-b")
    assert "2.3 #example-c" in near[0] and "tr-exact" not in near[0] and "Exact match" not in near[0]
    assert re.search(r"\d+% similar", near[0])
    # What differs between the suggestion's source and this one is marked: "their" out, "her" in.
    assert "<del>their</del>" in near[0] and "<ins>her</ins>" in near[0]
    # Nothing is written by showing suggestions: the field stays empty until the translator saves.
    assert paragraph("2.4", "example-b").text_in("ja") == ""


def test_suggestions_are_only_texts_translated_into_the_target_language(ipg):
    write("2.4", "example-a", "en", DARK_CONFIDANT)
    write("2.3", "example-c", "zh-hans", "")  # 2.3's example C is no longer in Chinese
    found = memory.suggest(paragraph("2.4", "example-a"), "en", "zh-hans")
    assert all(s.obj != paragraph("2.3", "example-c") for s in found)
    found = memory.suggest(paragraph("2.4", "example-a"), "en", "ja")
    assert (
        found[0].obj == paragraph("2.3", "example-c") and found[0].exact and found[0].translation == DARK_CONFIDANT_JA
    )


def test_a_japanese_note_finds_a_similar_japanese_note_translated_into_english_with_characters_marked(ipg):
    original = Note.objects.filter(paragraph__section__number="2.3", language="ja").order_by("pk").first()
    body = original.body_in("ja")
    write_note(original, "en", "An English translation of this note.")
    changed = body[:20] + "X" + body[21:]
    note = add_note("2.4", "example-a", "ja", ja=changed)
    found = memory.suggest(note, "ja", "en")
    assert found and found[0].obj == original and found[0].translation == "An English translation of this note."
    assert not found[0].exact and found[0].percent >= 90
    assert f"<del>{body[20]}</del>" in found[0].diff and "<ins>X</ins>" in found[0].diff  # one character, not a word


def identify(obj):
    p = obj.paragraph if isinstance(obj, Note) else obj
    return [p.section.number, p.key] + (["note", obj.language, obj.order] if isinstance(obj, Note) else [])


def test_every_suggestion_on_the_whole_content_is_the_one_the_text_indexes_gave(ipg):
    """tests/fixtures/memory_suggestions.json: every paragraph's and note's suggestions, from each language into each
    other, as SQLite's FTS5 trigram index gave them before memory moved to the kept entries (the same as comparing every
    translated text; PostgreSQL's pg_trgm missed 3 of them)."""
    expected = json.loads((Path(__file__).parent / "fixtures" / "memory_suggestions.json").read_text(encoding="utf-8"))
    objects = list(Paragraph.objects.select_related("section").order_by("section__order", "order"))
    objects += Note.objects.select_related("paragraph__section").order_by(
        "paragraph__section__order", "paragraph__order", "language", "order", "pk"
    )
    found = [
        {
            "of": identify(obj),
            "from": source,
            "into": target,
            "suggestions": [
                [*identify(s.obj), round(s.similarity, 6), s.translation] for s in memory.suggest(obj, source, target)
            ],
        }
        for obj in objects
        for source in languages.CODES
        for target in languages.CODES
        if source != target
    ]
    assert len(found) == len(expected) and sum(bool(x["suggestions"]) for x in found) >= 16
    assert found == expected


def test_a_text_with_nothing_similar_gets_no_suggestions(ipg):
    write("2.4", "example-a", "en", "Zebras quietly juggle marmalade beyond Saturn's rings.")
    assert memory.suggest(paragraph("2.4", "example-a"), "en", "ja") == []
    html = client_for(translator("ja")).get(translate_url("2.4", "ja")).content.decode()
    assert suggestion_blocks(html, "example-a") == []
