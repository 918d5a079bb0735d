"""The admin import page shows the importer's proposal, notes included; nothing that would change stored text is
ticked, each such row shows its diff, and the ticked rows are applied in one transaction."""

import re

import pytest

from edits import delete, write
from importing_measure import DOCUMENTS, seed
from ipgsite.ipg.models import Note, Paragraph, Section
from people import SEEDS, client_for, editor, translator

pytestmark = pytest.mark.skipif(not SEEDS.is_dir(), reason=f"the seeds are not at {SEEDS}")
URL = "/admin/translate/2.3/import/"


def ticked(html):
    return re.findall(r'name="take" value="([^"]+)"[^>]* checked', html)


def revisions(html):
    return dict(re.findall(r'name="(revision-[^"]+)" value="(\d+)"', html))


def without_japanese_notes():
    for note in Note.objects.filter(paragraph__section__number="2.3"):
        delete(note)


def test_the_page_proposes_the_notes_and_applies_them(ipg):
    without_japanese_notes()
    ja = client_for(translator("ja"))
    page = ja.post(URL, {"raw": seed("001"), "cjk": "auto", "propose": "1"})
    html = page.content.decode()
    assert page.status_code == 200 and "Proposed notes" in html
    assert html.count('data-note-on="') == 19 and 'data-note-on="example-c"' in html
    assert sorted(ticked(html)) == sorted(f"1:note:{index}" for index in range(19))  # the official text is the same
    response = ja.post(
        URL,
        {
            "raw": seed("001"),
            "cjk": "auto",
            "source": "Japanese annotated edition",
            "apply": "1",
            "take": ticked(html),
            **revisions(html),
        },
    )
    assert response.status_code == 302
    assert Note.objects.filter(paragraph__section__number="2.3", source="Japanese annotated edition").count() == 19


def test_a_change_to_stored_text_is_not_ticked_and_shows_its_diff(ipg):
    write("2.3", "example-b", "ja", "プレイヤーが占術1を行う際に、3枚のカードを占術した。")
    ja = client_for(translator("ja"))
    html = ja.post(URL, {"raw": seed("001"), "cjk": "auto", "propose": "1"}).content.decode()
    row = re.search(r'<tr class="tr-proposal-changed" data-key="example-b" data-language="ja">.*?</tr>', html, re.S)
    assert row and "<del>3</del><ins>2</ins>" in row.group(0)
    assert 'value="1:example-b:ja"' in row.group(0) and "checked" not in row.group(0)
    assert "1:example-b:ja" not in ticked(html)


def test_the_ticked_rows_are_applied_together_or_not_at_all(ipg):
    without_japanese_notes()
    write("2.3", "example-b", "ja", "")
    write("2.3", "upgrade-1", "ja", "")
    ja = client_for(translator("ja"))
    html = ja.post(URL, {"raw": seed("001"), "cjk": "auto", "propose": "1"}).content.decode()
    chosen = ticked(html)
    assert {"1:example-b:ja", "1:upgrade-1:ja", "1:note:0"} <= set(chosen)
    write("2.3", "upgrade-1", "ja", "誰かが先に書いた。")  # someone else, after the proposal was shown
    response = ja.post(URL, {"raw": seed("001"), "cjk": "auto", "apply": "1", "take": chosen, **revisions(html)})
    assert response.status_code == 409 and "Nothing was imported." in response.content.decode()
    assert Paragraph.objects.get(section__number="2.3", key="upgrade-1").text_ja == "誰かが先に書いた。"
    assert Paragraph.objects.get(section__number="2.3", key="example-b").text_ja is None  # written first, rolled back
    assert not Note.objects.filter(paragraph__section=Section.objects.get(number="2.3")).exists()


# Files as they are, and documents of several sections.

UPLOADS = [
    ("2.3-en.pdf", "en"),
    ("2.3-ja-annotated.blog-post.html", "ja"),
    ("2.3-en.docx", "en"),
    ("2.3-en-zh.md", "zh-hans"),
    ("2.3-en-zh.dokuwiki.txt", "zh-hans"),
    ("2.3-en-zh.tsv", "zh-hans"),
    ("2.4-en-zh.csv", "en"),
    ("2.3-ja-annotated.pdf-paste.txt", "ja"),
]


def upload(name):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, (DOCUMENTS / name).read_bytes())


@pytest.mark.parametrize("name, code", UPLOADS)
def test_each_kind_of_file_can_be_uploaded_and_is_proposed_whole(ipg, name, code):
    staff = client_for(editor())
    number = name[:3]
    response = staff.post(f"/admin/translate/{number}/import/", {"file": upload(name), "cjk": "auto", "propose": "1"})
    html = response.content.decode()
    assert response.status_code == 200 and "Proposed alignment for " + number in html
    keys = set(Section.objects.get(number=number).paragraphs.values_list("key", flat=True))
    shown = set(re.findall(rf'data-key="([^"]+)" data-language="{code}"', html))
    assert shown == keys  # every paragraph of the section, in the file's language
    assert 'name="document" value="' in html  # the file is kept for the apply


def test_a_document_of_two_sections_shows_both_and_applies_the_ticked_rows_of_each(ipg):
    # 2.1's Japanese is new; 2.3's text is stored (which is how its part without a heading is recognised), its
    # notes are not.
    without_japanese_notes()
    for p in Section.objects.get(number="2.1").paragraphs.all():
        write("2.1", p.key, "ja", "")
    ja = client_for(translator("ja"))
    name = "whole.2.1-then-2.3-no-heading.txt"
    page = ja.post(URL, {"file": upload(name), "cjk": "auto", "propose": "1"})
    html = page.content.decode()
    assert "Proposed alignment for 2.1" in html and "Proposed alignment for 2.3" in html
    assert "have no section heading; by their text they are section 2.3" in html
    chosen = ticked(html)
    assert any(take.startswith("1:") for take in chosen) and any(take.startswith("2:") for take in chosen)
    document = re.search(r'name="document" value="([^"]+)"', html).group(1)
    response = ja.post(URL, {"document": document, "cjk": "auto", "apply": "1", "take": chosen, **revisions(html)})
    assert response.status_code == 302
    assert Paragraph.objects.get(section__number="2.1", key="example-a").text_ja.startswith("《悪名の騎士》")
    assert Note.objects.filter(paragraph__section__number="2.3").count() == 19


@pytest.mark.parametrize(
    "name, content, message",
    [
        ("empty.txt", b"", "is empty"),
        ("broken.pdf", b"%PDF-1.4 broken", "not a PDF that can be read"),
        (
            "heading.txt",
            "2.9 Game Play Error — Unknown\n\nDefinition\n\nText.\n".encode(),
            "the IPG has no section 2.9",
        ),
        ("latin1.txt", "Définition".encode("latin-1"), "is not UTF-8 text"),
    ],
)
def test_a_file_that_cannot_be_read_or_placed_gets_a_clear_message(ipg, name, content, message):
    from django.core.files.uploadedfile import SimpleUploadedFile

    staff = client_for(editor())
    response = staff.post(URL, {"file": SimpleUploadedFile(name, content), "cjk": "auto", "propose": "1"})
    assert response.status_code == 200 and message in response.content.decode()


def test_a_file_over_the_size_limit_is_refused_before_it_is_read(ipg):
    from django.core.files.uploadedfile import SimpleUploadedFile

    staff = client_for(editor())
    big = SimpleUploadedFile("big.pdf", b"%PDF-1.4\n" + b"0" * 4_000_001)
    response = staff.post(URL, {"file": big, "cjk": "auto", "propose": "1"})
    html = response.content.decode()
    assert response.status_code == 200 and "ig.pdf is 4.0 MB; the importer takes documents up to 4 MB" in html
    assert "Proposed alignment" not in html


def test_a_document_sent_back_altered_is_refused(ipg):
    staff = client_for(editor())
    response = staff.post(URL, {"document": "forged-token", "cjk": "auto", "apply": "1", "take": ["1:note:0"]})
    assert response.status_code == 200 and "is not the one proposed" in response.content.decode()
