"""Translation lag shown to readers: a translation that follows an older English is marked inside its
paragraph, in the reader's language; statuses and what each translation follows live in content/."""

import shutil
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from edits import write
from ipgsite.translations.models import State, Status
from pages import parse
from people import CONTENT, client_for, paragraph, translate_form, translate_url, translator

FIRST = "2024-09-23"


def marks(client, url):
    """{paragraph key: [the text of each lag mark in it]}."""
    page = parse(client.get(url).content.decode())
    found = {}
    for mark in page.find_all("div", class_="lag"):
        row = mark.parent
        while "row" not in row.classes:
            row = row.parent
        found.setdefault(row.attrs["id"], []).append(mark)
    return found


def test_the_seeds_japanese_upgrade_follows_an_older_english_and_says_so(client, ipg):
    found = marks(client, "/ja/ipg/2.3/")
    assert list(found) == ["upgrade-1"]
    mark = found["upgrade-1"][0]
    assert mark.attrs["lang"] == "ja" and "古い英語" in mark.text()
    assert mark.find("details") is None, "its older English is unknown: no diff is offered"
    assert Status.objects.get(paragraph=paragraph("2.3", "upgrade-1"), language="ja").state == State.OUTDATED


@pytest.mark.parametrize("url", ["/en/ipg/2.3/", "/zh-hans/ipg/2.3/", "/zh-hans/ipg/2.4/", "/ja/ipg/2.1/"])
def test_translations_that_follow_the_current_english_carry_no_mark(client, ipg, url):
    assert marks(client, url) == {}


def test_an_english_edit_marks_both_translations_with_the_release_they_follow_and_the_diff(client, ipg):
    before = paragraph("2.3", "example-b").text_en
    write("2.3", "example-b", "en", before.replace("two cards", "three cards"))
    for lang, words in (("ja", f"{FIRST}"), ("zh-hans", f"{FIRST}"), ("en", "follows the English of the IPG of")):
        url = f"/{lang}/ipg/2.3/" + ("?langs=en,ja" if lang == "en" else "")
        found = marks(client, url)
        assert "example-b" in found, (lang, list(found))
        mark = found["example-b"][0]
        assert words in mark.text()
        diff = mark.find("p", class_="diff")
        assert diff.attrs["lang"] == "en"
        assert [d.text() for d in diff.find_all("del")] == ["two"] and [i.text() for i in diff.find_all("ins")] == [
            "three"
        ]


def test_confirming_the_translation_removes_its_mark_and_only_its(client, ipg):
    before = paragraph("2.3", "example-b").text_en
    write("2.3", "example-b", "en", before.replace("two cards", "three cards"))
    ja = client_for(translator("ja"))
    form = translate_form(ja, "2.3", "ja")
    assert ja.post(translate_url("2.3", "ja"), {**form, "confirm": "p-example-b"}).status_code == 302
    assert "example-b" not in marks(client, "/ja/ipg/2.3/")
    assert "example-b" in marks(client, "/zh-hans/ipg/2.3/")


def test_an_old_version_of_the_page_carries_no_lag_marks(client, ipg):
    assert marks(client, f"/ja/ipg/2.3/?release={FIRST}") == {}


def test_what_each_translation_follows_survives_export_and_load(ipg, tmp_path):
    content = tmp_path / "content"
    shutil.copytree(CONTENT, content)
    before = paragraph("2.3", "example-b").text_en
    write("2.3", "example-b", "en", before.replace("two cards", "three cards"))
    call_command("exportcontent", str(content), stdout=StringIO())
    text = (content / "sections" / "2.3.toml").read_text()
    assert f'follows = {{ zh-hans = "{FIRST}", ja = "{FIRST}" }}' in text
    assert 'follows = { ja = "unknown" }' in text

    # A fresh load of those files gives the same statuses, and the same bytes back.
    Status.objects.all().delete()
    call_command("loadcontent", str(content), stdout=StringIO())
    for code in ("zh-hans", "ja"):
        status = Status.objects.get(paragraph=paragraph("2.3", "example-b"), language=code)
        assert (status.state, status.confirmed_source) == (State.OUTDATED, before)
    again = tmp_path / "again"
    shutil.copytree(content, again)
    call_command("exportcontent", str(again), stdout=StringIO())
    assert (again / "sections" / "2.3.toml").read_bytes() == (content / "sections" / "2.3.toml").read_bytes()


@pytest.mark.parametrize(
    "line, message",
    [
        ('follows = { en = "unknown" }', "not a translation it has"),
        ('follows = { ja = "last year" }', "must be a release date"),
        ("follows = { ja = 2024 }", "must be a release date"),
        ('follows = { ja = "2020-01-01" }', "no release of which holds its English"),
        ('reviewed = ["ja", "ja"]', "each once"),
        ('reviewed = ["en"]', "not a current translation"),
    ],
)
def test_a_wrong_status_in_content_is_refused_and_nothing_is_loaded(ipg, tmp_path, line, message):
    content = tmp_path / "content"
    shutil.copytree(CONTENT, content)
    path = content / "sections" / "2.3.toml"
    text = path.read_text().replace('follows = { ja = "unknown" }', line)
    path.write_text(text)
    status = Status.objects.get(paragraph=paragraph("2.3", "upgrade-1"), language="ja")
    with pytest.raises(CommandError, match=message):
        call_command("loadcontent", str(content), stdout=StringIO())
    assert Status.objects.get(pk=status.pk).state == State.OUTDATED


def test_translators_see_what_each_outdated_translation_follows(ipg):
    from people import editor

    before = paragraph("2.3", "example-b").text_en
    write("2.3", "example-b", "en", before.replace("two cards", "three cards"))
    staff = client_for(editor())
    dashboard = staff.get("/admin/translate/").content.decode()
    line = parse(dashboard).find("p", class_="tr-following-older").text()
    assert "日本語 2" in line and "简体中文 1" in line  # ja: upgrade-1 (unknown English) and example-b

    page = parse(staff.get(translate_url("2.3", "ja")).content.decode())
    outdated = {div.parent.attrs.get("id"): div.text() for div in page.find_all("div", class_="tr-outdated")}
    texts = " ".join(outdated.values())
    assert f"follows the English of the IPG of {FIRST}" in texts
    assert "follows an older English text, which this site does not hold" in texts
    diffs = page.find_all("p", class_="tr-diff")
    assert len(diffs) == 1 and [d.text() for d in diffs[0].find_all("del")] == ["two"]
