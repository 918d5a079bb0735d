"""Reading lists: `/<lang>/list/?p=2.3:example-c&p=2.4:definition-1`, the listed paragraphs in order."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from edits import paragraph
from ipgsite.study.lists import MAX_PARAGRAPHS
from pages import parse

pytestmark = pytest.mark.django_db


def entries(response):
    html = parse(response.content)
    return html, html.find_all("section", class_="list-entry")


def test_a_list_shows_its_paragraphs_in_order_with_section_penalty_and_notes(client, ipg):
    response = client.get("/en/list/?p=2.4:definition-1&p=2.3:example-c&p=2.3:definition-1")
    assert response.status_code == 200
    html, found = entries(response)
    assert [e.attrs["data-ref"] for e in found] == ["2.4:definition-1", "2.3:example-c", "2.3:definition-1"]
    first, second, third = found
    assert "2.4" in first.find("h2").text() and "Mulligan Procedure Error" in first.find("h2").text()
    assert first.find(class_="penalty").text() == "Warning"
    assert paragraph("2.4", "definition-1").text_en[:60] in first.text()
    assert "Dark Confidant" in second.text()
    assert second.find(class_="example-label").text() == "C."
    # 2.3's definition-1 has three notes of the Japanese annotated edition, marked as commentary.
    notes = third.find_all("aside", class_="note")
    assert len(notes) == 3
    assert all("Commentary, not official text" in n.text() for n in notes)
    assert html.find(class_="list-count").text() == "3 paragraphs"


def test_a_list_is_read_in_the_readers_languages(client, ipg):
    response = client.get("/en/list/?p=2.3:example-c&p=2.4:definition-2&langs=zh-hans,en")
    html, (hidden_card, mulligan) = entries(response)
    assert html.find("article", class_="comparing") is not None
    texts = hidden_card.find_all(class_="text")
    assert [t.attrs["lang"] for t in texts] == ["zh-Hans", "en"]
    assert paragraph("2.3", "example-c").text_zh_hans[:20] in texts[0].text()
    # 2.4's definition-2 has no Chinese: shown as missing, never as English in the Chinese column.
    chinese, english = mulligan.find_all(class_="text")
    assert "missing" in chinese.classes
    assert "Not yet translated into" in chinese.text()
    assert paragraph("2.4", "definition-2").text_en[:40] not in chinese.text()
    assert paragraph("2.4", "definition-2").text_en[:40] in english.text()
    # The list's link keeps the languages.
    assert (
        html.find("a", class_="list-url")
        .attrs["href"]
        .endswith("/en/list/?p=2.3:example-c&p=2.4:definition-2&langs=zh-hans,en")
    )


def text_langs(entry):
    return [t.attrs["lang"] for t in entry.find_all(class_="text")]


LIST = "/en/list/?p=2.3:example-c&p=2.4:definition-2"


def test_a_readers_remembered_languages_open_a_list_whose_url_names_none(client, ipg):
    client.cookies["ipg_langs"] = "en,ja"
    response = client.get(LIST)
    # As on section pages: to the URL that says so, which is also the link the list gives to share.
    assert response.status_code == 302
    assert response["Location"] == LIST + "&langs=en,ja"
    html, (hidden_card, mulligan) = entries(client.get(response["Location"]))
    assert "comparing" in html.find("article", class_="reading-list").classes
    assert text_langs(hidden_card) == text_langs(mulligan) == ["en", "ja"]
    assert paragraph("2.3", "example-c").text_ja[:20] in hidden_card.text()
    assert html.find("a", class_="list-url").attrs["href"].endswith(LIST + "&langs=en,ja")
    # An empty list too, so that the list the reader then builds opens in their languages.
    assert client.get("/ja/list/")["Location"] == "/ja/list/?langs=en,ja"


def test_the_lists_url_wins_over_the_remembered_languages(client, ipg):
    client.cookies["ipg_langs"] = "en,ja"
    response = client.get(LIST + "&langs=zh-hans,en")
    assert response.status_code == 200
    _html, (hidden_card, _mulligan) = entries(response)
    assert text_langs(hidden_card) == ["zh-Hans", "en"]
    # One language named in the URL is one language, under an English interface; the choice is kept.
    response = client.get(LIST + "&langs=ja")
    assert response.status_code == 200
    html, (hidden_card, mulligan) = entries(response)
    assert text_langs(hidden_card) == ["ja"]
    assert text_langs(mulligan) == ["en"]  # 2.4's definition-2 has no Japanese: English, labelled
    assert mulligan.find(class_="missing-label") is not None
    assert html.find("a", class_="list-url").attrs["href"].endswith(LIST + "&langs=ja")
    # The list never changes the remembered choice; the section pages do.
    assert not response.cookies
    assert client.cookies["ipg_langs"].value == "en,ja"


@pytest.mark.parametrize("remembered", ["ja", "made-up", "", "zh,xx"])
def test_a_remembered_choice_of_fewer_than_two_languages_leaves_the_list_as_it_is(client, ipg, remembered):
    client.cookies["ipg_langs"] = remembered
    response = client.get(LIST)
    assert response.status_code == 200
    _html, (hidden_card, _mulligan) = entries(response)
    assert text_langs(hidden_card) == ["en"]


@pytest.mark.parametrize(
    "langs",
    ["langs=xx", "langs=", "langs=EN,Ja", "langs=en,en,ja,de", "langs=en&langs=&langs=ja", "langs=%00%ff,jp"],
)
@pytest.mark.parametrize("remembered", [None, "zh-hans,en"])
def test_bad_langs_in_a_lists_url_are_treated_as_on_section_pages(client, ipg, langs, remembered):
    if remembered:
        client.cookies["ipg_langs"] = remembered
    on_list, on_section = client.get(f"{LIST}&{langs}"), client.get(f"/en/ipg/2.3/?{langs}")
    assert on_list.status_code == on_section.status_code == 302
    assert on_list["Location"] == LIST + on_section["Location"].removeprefix("/en/ipg/2.3/").replace("?", "&")
    final, section = client.get(on_list["Location"], follow=True), client.get(on_section["Location"], follow=True)
    assert final.status_code == section.status_code == 200
    _html, (hidden_card, _mulligan) = entries(final)
    assert text_langs(hidden_card) == text_langs(parse(section.content).by_id("example-c"))


def test_one_language_falls_back_with_a_label(client, ipg):
    _html, (entry,) = entries(client.get("/zh-hans/list/?p=2.4:definition-2"))
    text = entry.find(class_="text")
    assert text.attrs["lang"] == "en"
    assert "missing" in text.classes
    assert text.find(class_="missing-label") is not None


def test_unknown_references_are_shown_as_such_among_the_good_ones(client, ipg):
    response = client.get(
        "/en/list/?p=2.3:example-c&p=2.3:example-z&p=9.9:definition-1&p=not-a-reference&p=2.4:example-a"
    )
    assert response.status_code == 200
    _html, found = entries(response)
    assert [e.attrs["data-ref"] for e in found] == [
        "2.3:example-c",
        "2.3:example-z",
        "9.9:definition-1",
        "not-a-reference",
        "2.4:example-a",
    ]
    assert [("list-problem" in e.classes) for e in found] == [False, True, True, True, False]
    assert "Section 2.3 has no paragraph “example-z”." in found[1].text()
    assert "The IPG has no section 9.9" in found[2].text()
    assert "is not a paragraph reference" in found[3].text()
    assert found[4].find(class_="row") is not None


def test_more_than_fifty_paragraphs_get_a_clear_message(client, ipg):
    keys = list(paragraph("2.3", "example-c").section.paragraphs.values_list("key", flat=True))
    references = [f"2.3:{keys[i % len(keys)]}" for i in range(MAX_PARAGRAPHS + 7)]
    response = client.get("/en/list/", {"p": references})
    assert response.status_code == 200
    html, found = entries(response)
    assert html.find(class_="list-too-long").text() == (
        "A reading list holds at most 50 paragraphs; this one names 57. The first 50 are shown."
    )
    assert len(found) == MAX_PARAGRAPHS
    # Exactly fifty is fine.
    html, found = entries(client.get("/en/list/", {"p": references[:MAX_PARAGRAPHS]}))
    assert html.find(class_="list-too-long") is None
    assert len(found) == MAX_PARAGRAPHS


def test_a_list_reads_each_section_once_however_long(client, ipg):
    references = [f"2.3:example-{c}" for c in "abcde"] * 10
    with CaptureQueriesContext(connection) as fifty:
        client.get("/en/list/", {"p": references})
    with CaptureQueriesContext(connection) as five:
        client.get("/en/list/", {"p": references[:5]})
    assert len(fifty) == len(five)


def test_an_empty_list_explains_how_to_make_one(client, ipg):
    html, found = entries(client.get("/ja/list/"))
    assert found == []
    assert html.find(class_="empty-list") is not None


@pytest.mark.parametrize(
    "query",
    [
        "p=2.3:",
        "p=:",
        "p=2.3:example-c:x",
        "p=%00",
        "p=2.3%3Aexample-c%00",
        "p=" + "9" * 3_900,  # as long as an address may be (MAX_URL_LENGTH)
        "langs=xx&p=2.3:example-c",
        "p=A:definition-1",
        "p=\u202e2.3:example-c",
    ],
)
def test_bad_references_never_error(client, ipg, query):
    response = client.get(f"/en/list/?{query}", follow=True)  # a bad `langs` redirects, as on section pages
    assert response.status_code == 200
