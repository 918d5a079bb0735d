"""What changed: the whole cycle (publish, edit, publish again) as the changes pages, feed and API show it."""

import datetime
import xml.etree.ElementTree as ET

import pytest
from django.conf import settings
from django.utils import timezone

from edits import delete
from ipgsite.contentfiles.releases import load_releases
from ipgsite.ipg.models import Note, Paragraph, Section
from ipgsite.releases.diffing import diff_html
from ipgsite.releases.models import Release
from ipgsite.releases.publishing import publish
from ipgsite.releases.snapshots import changes_between
from pages import parse
from people import client_for, editor, translator
from test_releases_files import FIRST, NEW_PARAGRAPH_EN, SECOND, edit_for_second_release

ATOM = "{http://www.w3.org/2005/Atom}"


@pytest.fixture
def first(ipg):
    load_releases(settings.CONTENT_DIR)
    return Release.objects.get(date=FIRST)


@pytest.fixture
def cycle(first):
    """The shipped release, the edits, and a second release; returns the texts as they were before."""
    before = {
        "definition": Paragraph.objects.get(section__number="2.3", key="definition-1"),
        "note": Note.objects.get(paragraph__section__number="2.3", paragraph__key="example-c").body_ja,
        "removed": Paragraph.objects.get(section__number="2.3", key="example-e").text_en,
    }
    edit_for_second_release()
    publish(SECOND)
    return before


def changes_page(client, code="en", date="2025-02-10", query=""):
    response = client.get(f"/{code}/changes/{date}/{query}")
    assert response.status_code == 200
    return response, parse(response.content)


def test_the_changes_list_shows_the_releases_newest_first_with_their_counts(client, cycle):
    page = parse(client.get("/en/changes/").content)
    items = page.find_all("li", class_="release-item")
    assert [i.find("time").attrs["datetime"] for i in items] == ["2025-02-10", "2024-09-23"]
    assert "2 sections changed" in items[0].text()
    assert "The first release recorded here" in items[1].text()
    assert items[0].find("a").attrs["href"] == "/en/changes/2025-02-10/"


def test_a_release_shows_exactly_the_changed_sections_paragraphs_and_notes(client, cycle):
    _response, page = changes_page(client)
    sections = page.find_all("section", class_="changed-section")
    assert [s.attrs["id"] for s in sections] == ["section-2.3", "section-2.4"]
    hidden, mulligan = sections
    changes = hidden.find_all("div", class_="change")
    heads = [(c.find("code").text(), c.find("strong", class_="change-status").text()) for c in changes]
    assert heads == [
        ("definition-1", "Changed"),
        ("example-c", "Changed"),  # its note
        ("example-e", "Removed"),
        ("example-g", "Added"),
    ]
    assert "change-note" in changes[1].classes and "Commentary 1" in changes[1].find("p", class_="change-head").text()
    # A Japanese note on the English page: shown in Japanese, saying so.
    note = changes[1].find("div", class_="diff")
    assert note.attrs["lang"] == "ja" and note.find("del") and note.find("ins")
    assert "No text in English; shown in Japanese." in note.text()
    for change in changes:
        key = change.find("code").text()
        assert change.find("p", class_="change-head").find("a").attrs["href"] == f"/en/ipg/2.3/#{key}"
    assert "Penalty: Warning → Game Loss" in mulligan.find("p", class_="change-penalty").text()
    assert mulligan.find("div", class_="change") is None


def test_english_changes_are_word_diffs(client, cycle):
    response, page = changes_page(client)
    body = response.content.decode()
    assert "A player <del>commits an error</del><ins>makes a TESTWORD mistake</ins> in the game" in body
    removed, added = page.find_all("div", class_="change")[2:4]
    assert removed.find("del").text() == " ".join(cycle["removed"].split())
    assert added.find("ins").text() == NEW_PARAGRAPH_EN
    assert removed.find("div", class_="diff").attrs["lang"] == "en"


def test_chinese_changes_are_character_diffs(client, cycle):
    response, page = changes_page(client, "zh-hans")
    body = response.content.decode()
    assert "<del>牌</del><ins>选</ins>手在游戏中发生失误" in body
    definition = page.find_all("div", class_="change")[0]
    assert definition.find("div", class_="diff").attrs["lang"] == "zh-Hans"
    # The new paragraph has no Chinese: said so, and shown in English, marked as English.
    added = page.find_all("div", class_="change")[3]
    cell = added.find("div", class_="diff")
    assert cell.attrs["lang"] == "en" and cell.find("ins").text() == NEW_PARAGRAPH_EN
    assert cell.find("p", class_="diff-note").text() == "没有简体中文文本；以英文显示。"
    assert cell.find("p", class_="diff-note").attrs["lang"] == "zh-Hans"


def test_japanese_changes_are_character_diffs_for_text_and_notes(client, cycle):
    response, page = changes_page(client, "ja")
    body = response.content.decode()
    assert "修正できない<del>誤り</del><ins>間違い</ins>を犯した。" in body
    note_before = cycle["note"]
    note_after = Note.objects.get(paragraph__section__number="2.3", paragraph__key="example-c").body_ja
    assert str(diff_html(note_before, note_after)) in body
    assert "<del>忘れなかったものの</del>" not in body


def test_a_language_that_did_not_change_says_so(client, first):
    Paragraph.objects.filter(section__number="2.3", key="definition-1").update(text_en="TEST made-up English only.")
    publish(SECOND)
    _response, page = changes_page(client, "ja")
    cell = page.find("div", class_="diff")
    assert "unchanged" in cell.classes and "日本語では変更なし。" in cell.text()


def test_moved_paragraphs_titles_and_parts_are_shown(client, first):
    hidden = Section.objects.get(number="2.3")
    a, b = hidden.paragraphs.get(key="example-a"), hidden.paragraphs.get(key="example-b")
    Paragraph.objects.filter(pk=a.pk).update(order=b.order)
    Paragraph.objects.filter(pk=b.pk).update(order=a.order)
    Paragraph.objects.filter(section=hidden, key="philosophy-1").update(part="upgrade")
    Section.objects.filter(number="2.5").update(title_en="TEST made-up title")
    publish(SECOND)
    response, page = changes_page(client)
    statuses = {
        c.find("code").text(): c.find("p", class_="change-head").text()
        for c in page.find_all("div", class_="change")
        if c.find("code")
    }
    moved = [key for key, head in statuses.items() if "Moved" in head]
    assert moved in (["example-a"], ["example-b"])
    assert "Part: Philosophy → Upgrade" in statuses["philosophy-1"]
    title = page.by_id("section-2.5").find("div", class_="change-title")
    assert "<ins>TEST made-up title</ins>" in response.content.decode()
    assert title.find("div", class_="diff").attrs["lang"] == "en"


def test_langs_shows_several_languages_side_by_side(client, cycle):
    _response, page = changes_page(client, "en", query="?langs=en,ja")
    article = page.find("article")
    assert "comparing" in article.classes and "columns-2" in article.classes
    cells = page.find_all("div", class_="change")[0].find_all("div", class_="diff")
    assert [c.attrs["lang"] for c in cells] == ["en", "ja"]
    assert [c.find("span", class_="column-name").text() for c in cells] == ["English", "日本語"]
    assert cells[1].find("del").text() == "誤り"


@pytest.mark.parametrize(
    "query, location",
    [
        ("?langs=xx,ja,ja", "/en/changes/2025-02-10/?langs=ja"),
        ("?langs=JP,en", "/en/changes/2025-02-10/?langs=ja,en"),
        ("?langs=%00%ff", "/en/changes/2025-02-10/"),
        ("?langs=en&langs=ja", "/en/changes/2025-02-10/?langs=en,ja"),
    ],
)
def test_langs_garbage_is_normalized(client, cycle, query, location):
    response = client.get(f"/en/changes/2025-02-10/{query}")
    assert response.status_code == 302 and response["Location"] == location


def test_the_first_release_says_it_is_the_first(client, first):
    _response, page = changes_page(client, "en", "2024-09-23")
    assert "first release recorded here" in page.find("p", class_="release-first").text()
    assert page.find("section", class_="changed-section") is None


@pytest.mark.parametrize(
    "date",
    [
        "2024-09-24",
        "2024-13-01",
        "2024-9-23",
        "2024-W39-1",
        "20240923",
        "latest",
        "2024-02-30",
        "%00",
        "%ff%fe",
        "２０２４-09-23",
        "2024-09-23%0a",
    ],
)
def test_an_unknown_or_malformed_release_date_is_a_404(client, cycle, date):
    assert client.get(f"/en/changes/{date}/").status_code == 404


def test_a_release_dated_in_the_future_is_not_shown_yet(client, first):
    future = timezone.localdate() + datetime.timedelta(days=30)
    publish(future)
    assert client.get(f"/en/changes/{future.isoformat()}/").status_code == 404
    assert future.isoformat() not in client.get("/en/changes/").content.decode()
    assert future.isoformat() not in client.get("/en/changes/feed/").content.decode()
    assert [r["date"] for r in client.get("/api/releases/").json()["releases"]] == ["2024-09-23"]
    # The rule's counterpart: once its date has come, it is shown.
    Release.objects.filter(date=future).update(date=timezone.localdate())
    assert client.get(f"/en/changes/{timezone.localdate().isoformat()}/").status_code == 200


def test_the_feed_is_atom_with_one_entry_per_release(client, cycle):
    response = client.get("/ja/changes/feed/")
    assert response["Content-Type"].startswith("application/atom+xml")
    feed = ET.fromstring(response.content)
    assert feed.tag == f"{ATOM}feed"
    entries = feed.findall(f"{ATOM}entry")
    links = [e.find(f"{ATOM}link").get("href") for e in entries]
    assert links == ["http://testserver/ja/changes/2025-02-10/", "http://testserver/ja/changes/2024-09-23/"]
    assert [e.find(f"{ATOM}updated").text for e in entries] == [
        "2025-02-10T00:00:00+00:00",
        "2024-09-23T00:00:00+00:00",
    ]
    assert all(e.find(f"{ATOM}id").text.startswith("http://") for e in entries)
    for url in ("/ja/changes/", "/ja/changes/2025-02-10/"):
        link = parse(client.get(url).content).find("link", type="application/atom+xml")
        assert (link.attrs["rel"], link.attrs["href"]) == ("alternate", "/ja/changes/feed/")


def test_the_api_lists_the_releases(client, cycle):
    Release.objects.filter(date=SECOND).update(title_ja="TEST タイトル", announcement_en="https://example.org/test")
    data = client.get("/api/releases/").json()["releases"]
    assert [r["date"] for r in data] == ["2025-02-10", "2024-09-23"]
    assert data[0]["title"] == {"en": None, "zh-hans": None, "ja": "TEST タイトル"}
    assert data[0]["announcement"]["en"] == "https://example.org/test"
    assert (data[0]["changed_sections"], data[0]["first"]) == (2, False)
    assert (data[1]["changed_sections"], data[1]["first"]) == (None, True)
    assert data[0]["changes"]["zh-hans"] == "http://testserver/zh-hans/changes/2025-02-10/"


def test_changes_between_pairs_paragraphs_by_key(cycle):
    second = Release.objects.get(date=SECOND)
    changes = changes_between(Release.objects.get(date=FIRST), second)
    assert [c.number for c in changes] == ["2.3", "2.4"]
    assert [(c.key, c.note, c.status) for c in changes[0].changes] == [
        ("definition-1", None, "changed"),
        ("example-c", 1, "changed"),
        ("example-e", None, "removed"),
        ("example-g", None, "added"),
    ]
    assert changes[0].changes[0].changed_in() == ["en", "zh-hans", "ja"]
    assert changes[1].penalty_change == ("warning", "game-loss")
    assert changes_between(None, second) == []


def test_an_editor_publishes_in_the_admin_and_then_edits_only_title_and_links(first, client):
    reader, client = client, client_for(editor())
    form = client.get("/admin/releases/release/add/")
    assert (
        form.status_code == 200
        and 'name="date"' in form.content.decode()
        and 'name="title_ja"' in form.content.decode()
    )
    response = client.post(
        "/admin/releases/release/add/", {"date": "2025-02-10", "title_en": "TEST", "announcement_en": ""}
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    release = Release.objects.get(date=SECOND)
    assert release.sections.count() == Section.objects.count()
    assert "TEST" in reader.get(f"/en/changes/{SECOND}/").content.decode()  # kept in the page cache
    response = client.post(
        f"/admin/releases/release/{release.pk}/change/",
        {"date": "2030-01-01", "title_en": "TEST 2", "title_ja": "TEST 二"},
    )
    assert response.status_code == 302
    assert "TEST 2" in reader.get(f"/en/changes/{SECOND}/").content.decode()  # and rendered again
    release.refresh_from_db()
    assert (release.date, release.title_en, release.title_ja) == (SECOND, "TEST 2", "TEST 二")
    assert 'name="date"' not in client.get(f"/admin/releases/release/{release.pk}/change/").content.decode()
    # An older date than the newest release is refused.
    response = client.post("/admin/releases/release/add/", {"date": "2025-01-01", "title_en": ""})
    assert response.status_code == 200 and "must be newer than the newest one" in response.content.decode()


def test_a_translator_cannot_publish(first):
    client = client_for(translator("ja"))
    assert client.get("/admin/releases/release/add/").status_code == 403
    assert client.post("/admin/releases/release/add/", {"date": "2025-02-10"}).status_code == 403
    assert not Release.objects.filter(date=SECOND).exists()


def test_every_block_of_text_says_its_language(client, cycle):
    _response, page = changes_page(client, "zh-hans", query="?langs=zh-hans,ja")
    assert page.find("html").attrs["lang"] == "zh-Hans"
    for cell in page.find_all("div", class_="diff"):
        assert cell.attrs["lang"] in {"zh-Hans", "ja"}
        for note in cell.find_all("p", class_="diff-note"):
            assert note.attrs["lang"] == "zh-Hans"
    assert page.by_id("section-2.3-title").find("span", lang="zh-Hans").text() == "非公开牌张失误"


def test_the_interface_is_translated(client, cycle):
    assert "2个章节有变更" in client.get("/zh-hans/changes/").content.decode()
    _response, page = changes_page(client, "ja")
    assert "2024-09-23の版から、2件の節が変更されました。" in page.find("p", class_="release-summary").text()


def test_a_removed_section_is_shown_without_links_to_where_it_no_longer_is(client, first):
    keys = list(Paragraph.objects.filter(section__number="2.4").order_by("order").values_list("key", flat=True))
    delete(Section.objects.get(number="2.4"))
    publish(SECOND)
    _response, page = changes_page(client)
    removed = page.by_id("section-2.4")
    assert "Removed" in removed.find("h2").text()
    assert removed.find("a") is None
    changes = [c for c in removed.find_all("div", class_="change") if "change-note" not in c.classes]
    assert [c.find("code").text() for c in changes] == keys
    assert all(c.find("strong", class_="change-status").text() == "Removed" for c in changes)


@pytest.mark.parametrize("url", ["/en/", "/ja/ipg/2.3/", "/zh-hans/penalties/", "/en/search/?q=card", "/ja/changes/"])
def test_every_page_links_the_feed_of_its_language(client, first, url):
    page = parse(client.get(url).content.decode())
    feeds = [
        link for link in page.find_all("link", rel="alternate") if link.attrs.get("type") == "application/atom+xml"
    ]
    lang = url.split("/")[1]
    assert [link.attrs["href"] for link in feeds] == [f"/{lang}/changes/feed/"]


@pytest.mark.parametrize(
    "code, words, lag_words",
    [
        ("zh-hans", "只有英文有变更", "此译文依据2024-09-23版IPG的英文"),
        ("ja", "英語だけが変更され", "2024-09-23版IPGの英語に基づいています"),
    ],
)
def test_a_change_of_the_english_only_shows_the_english_diff_and_that_the_translation_now_lags(
    client, first, code, words, lag_words
):
    """L3: when only the English changed, the Chinese and Japanese pages said "修改 / 変更" and then "no change in
    Chinese / Japanese", with no English diff and no word that the translation now lags."""
    from edits import write

    example = Paragraph.objects.get(section__number="2.3", key="example-b")
    write("2.3", "example-b", "en", example.text_en.replace("scries two cards", "scries three cards"))
    publish(SECOND)
    _response, page = changes_page(client, code)
    change = next(
        c for c in page.find_all("div", class_="change") if "example-b" in c.find("p", class_="change-head").text()
    )
    own = change.find("div", class_="diff")
    assert "unchanged" in own.classes  # the translation itself did not change
    source = change.find("div", class_="source-change")
    assert source is not None and words in source.find("p", class_="diff-note").text()
    english = source.find("div", class_="diff")
    assert (
        english.attrs["lang"] == "en" and english.find("del").text() == "two" and english.find("ins").text() == "three"
    )
    lag = source.find("div", class_="lag")
    assert lag is not None and lag_words in lag.text()
    # the near miss: the English page, where the English is the text, shows no such note
    assert parse(client.get("/en/changes/2025-02-10/").content).find("div", class_="source-change") is None


@pytest.mark.django_db(transaction=True)
def test_a_printout_names_the_release_published_since_the_last_page_once_it_is_in_effect(client):
    """The printed line names the newest release in effect, kept between pages until a release is published."""
    from io import StringIO

    from django.core.management import call_command

    from pages import parse

    def printed():
        return parse(client.get("/en/ipg/2.3/").content).find("p", class_="print-source").text()

    assert "The IPG of 2024-09-23" in printed()
    call_command("publishrelease", "2025-02-10", stdout=StringIO())
    assert "The IPG of 2025-02-10" in printed()
    ahead = (timezone.localdate() + datetime.timedelta(days=30)).isoformat()
    call_command("publishrelease", ahead, stdout=StringIO())
    assert "The IPG of 2025-02-10" in printed() and ahead not in printed()  # not in effect yet
