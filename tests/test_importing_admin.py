"""The admin import page shows the importer's proposal, notes included; nothing that would change stored text is
ticked, each such row shows its diff, and the ticked rows are applied in one transaction."""

import re

import pytest

from edits import delete, write
from importing_measure import seed
from ipgsite.ipg.models import Note, Paragraph, Section
from people import SEEDS, client_for, translator

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
