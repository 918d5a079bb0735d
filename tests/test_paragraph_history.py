"""A paragraph across the releases: each release that changed it or its notes, the key it had then, what it said
before, and whether each translation followed the English of that release (the page, the API)."""

from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from edits import write, write_note
from ipgsite.editing import writing
from ipgsite.ipg.models import Note, Paragraph
from pages import parse
from people import editor

NEW_ENGLISH = (
    "A player resolves a Dark Confidant trigger, but forgets to reveal the TESTCARD before putting it into hand."
)
NEW_JAPANESE = "プレイヤーが《闇の腹心》の誘発型能力を解決して、そのテストカードを公開せずに手札に入れた。"


def publish(date):
    call_command("publishrelease", date, stdout=StringIO())


@pytest.fixture
def renamed(ipg):
    """2024-09-23 (shipped); 2025-02-10: the English of 2.3 example-c edited; 2025-06-01: example-c renamed to
    example-c-confidant in the admin's write path, its Japanese translated again and its note edited."""
    write("2.3", "example-c", "en", NEW_ENGLISH)
    publish("2025-02-10")
    paragraph = Paragraph.objects.get(section__number="2.3", key="example-c")
    writing.save_structure(paragraph, {"key": "example-c-confidant"}, by=editor())
    write("2.3", "example-c-confidant", "ja", NEW_JAPANESE)
    note = Note.objects.get(paragraph__section__number="2.3", paragraph__key="example-c-confidant")
    write_note(note, "ja", note.body_ja + "（テスト追記）")
    publish("2025-06-01")


def history_page(client, url):
    response = client.get(url)
    assert response.status_code == 200, response.status_code
    return parse(response.content)


def entries(page):
    return page.find_all("li", class_="history-entry")


def following(entry):
    return {li.attrs["data-language"]: li.text() for li in entry.find_all("li")}


def test_the_history_lists_each_release_that_changed_the_paragraph_newest_first_under_its_key_then(client, renamed):
    page = history_page(client, "/en/ipg/2.3/example-c-confidant/history/?langs=en,zh-hans,ja")
    found = entries(page)
    assert [e.attrs["id"] for e in found] == ["release-2025-06-01", "release-2025-02-10", "release-2024-09-23"]
    newest, middle, first = found
    assert "Key in this release: example-c-confidant" in newest.text()
    assert "renamed from example-c" in newest.text()
    assert "Key in this release: example-c" in middle.text() and "renamed" not in middle.text()
    assert "As first recorded here" in first.text()


def test_each_entry_shows_what_changed_as_the_changes_page_does(client, renamed):
    newest, middle, first = entries(history_page(client, "/en/ipg/2.3/example-c-confidant/history/?langs=en,ja"))
    english = middle.find("div", class_="diff", lang="en")
    assert [d.text() for d in english.find_all("del")] == ["card", "their"]
    assert [i.text() for i in english.find_all("ins")] == ["TESTCARD"]
    assert "Unchanged in Japanese" in middle.find("div", class_="diff", lang="ja").text()
    japanese = newest.find("div", class_="diff", lang="ja")
    assert [i.text() for i in japanese.find_all("ins")] == ["テスト"] and japanese.find("del") is None
    note = newest.find("div", class_="change-note")
    assert "Commentary 1, not official text" in note.text() and "（テスト追記）" in note.find("ins").text()
    # What it said before: the first release's text, whole.
    assert "forgets to reveal the card before putting it into their hand" in first.find("div", lang="en").text()


def test_each_translation_says_whether_it_followed_the_english_of_that_release(client, renamed):
    newest, middle, first = entries(
        history_page(client, "/en/ipg/2.3/example-c-confidant/history/?langs=en,zh-hans,ja")
    )
    # Chinese: never translated again; its status says it follows the first release's English.
    assert following(first)["zh-hans"] == "简体中文 · followed the English of this release"
    assert following(middle)["zh-hans"] == "简体中文 · followed the English of 2024-09-23, an older release"
    assert following(newest)["zh-hans"] == "简体中文 · followed the English of 2024-09-23, an older release"
    # Japanese: its first text is no longer today's and no release records its status; left behind by the English
    # of 2025-02-10; translated again for 2025-06-01.
    assert following(first)["ja"] == "日本語 · not known: no release records whether it followed the English then"
    assert following(middle)["ja"] == "日本語 · followed an older English than this release's"
    assert following(newest)["ja"] == "日本語 · followed the English of this release"
    assert "en" not in following(newest)


def test_a_translation_that_follows_an_english_no_release_holds_says_so(client, ipg):
    """The shipped Japanese Upgrade of 2.3 translates an older English than any release here (seed 001)."""
    (first,) = entries(history_page(client, "/en/ipg/2.3/upgrade-1/history/?langs=en,ja"))
    assert following(first)["ja"] == "日本語 · followed an older English that no release here holds"


def test_the_page_reads_in_the_readers_language_and_shows_a_missing_translation_as_missing(client, ipg):
    page = history_page(client, "/zh-hans/ipg/2.4/philosophy-1/history/")
    assert page.find("html").attrs["lang"] == "zh-Hans"
    (first,) = entries(page)
    # 2.4 philosophy-1 has no Chinese: shown in English, saying so in Chinese.
    cell = first.find("div", class_="diff")
    assert cell.attrs["lang"] == "en" and cell.find("p", class_="diff-note").attrs["lang"] == "zh-Hans"


def test_an_old_key_redirects_to_the_current_keys_history(client, renamed):
    response = client.get("/ja/ipg/2.3/example-c/history/?langs=en,ja")
    assert (
        response.status_code == 301 and response["Location"] == "/ja/ipg/2.3/example-c-confidant/history/?langs=en,ja"
    )
    api = client.get("/api/ipg/2.3/example-c/history/")
    assert api.status_code == 301 and api["Location"] == "/api/ipg/2.3/example-c-confidant/history/"


@pytest.mark.parametrize(
    "url", ["/en/ipg/2.3/example-q/history/", "/en/ipg/9.9/example-c/history/", "/en/ipg/2.3/example-c/history/x/"]
)
def test_an_unknown_paragraph_is_a_404(client, ipg, url):
    assert client.get(url).status_code == 404


def test_unknown_languages_redirect_to_the_normalized_address(client, ipg):
    response = client.get("/en/ipg/2.3/example-c/history/?langs=JA,xx,en")
    assert response.status_code == 302 and response["Location"] == "/en/ipg/2.3/example-c/history/?langs=ja,en"


def test_the_api_gives_the_same_history(client, renamed):
    data = client.get("/api/ipg/2.3/example-c-confidant/history/").json()
    assert data["key"] == "example-c-confidant" and data["former_keys"] == ["example-c"]
    assert [(e["release"], e["key"], e["renamed_from"], e["status"]) for e in data["history"]] == [
        ("2025-06-01", "example-c-confidant", "example-c", "changed"),
        ("2025-02-10", "example-c", None, "changed"),
        ("2024-09-23", "example-c", None, "first"),
    ]
    middle = data["history"][1]
    assert "<ins>TESTCARD</ins>" in middle["text"]["en"]["diff"] and middle["text"]["ja"]["unchanged"]
    assert middle["following"]["zh-hans"] == {"state": "older", "release": "2024-09-23"}
    assert middle["following"]["ja"] == {"state": "behind", "release": None}
    assert data["history"][0]["notes"][0]["status"] == "changed"
    assert data["pages"]["ja"] == "http://testserver/ja/ipg/2.3/example-c-confidant/history/"


def test_the_paragraph_page_and_the_paragraph_menu_link_the_history(client, ipg):
    page = parse(client.get("/en/ipg/2.3/example-c/").content)
    assert page.find("a", class_="history-link").attrs["href"] == "/en/ipg/2.3/example-c/history/"
    menu = parse(client.get("/en/ipg/2.3/?langs=en,ja").content).find("div", class_="paragraph-menu")
    assert menu.attrs["data-history"] == "/en/ipg/2.3/{key}/history/?langs=en,ja"


def test_the_history_is_kept_in_the_page_cache_and_follows_a_new_release(client, renamed):
    url = "/en/ipg/2.3/example-c-confidant/history/"
    assert client.get(url)["X-Cache"] == "miss"
    assert client.get(url)["X-Cache"] == "hit"
    write("2.3", "example-c-confidant", "en", NEW_ENGLISH + " TESTMORE")
    publish(timezone.localdate().isoformat())
    page = history_page(client, url)
    assert len(entries(page)) == 4 and "TESTMORE" in entries(page)[0].text()
