"""Reading a section as a release froze it: `?release=<date>` on the section page."""

import datetime

import pytest
from django.utils import timezone

from edits import write
from ipgsite.releases.models import Release
from ipgsite.releases.publishing import publish
from pages import parse

FIRST = "2024-09-23"


def html(client, url):
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return response.content.decode()


def test_the_shipped_release_is_loaded_with_the_content(ipg):
    assert [r.date.isoformat() for r in Release.objects.all()] == [FIRST]


def test_an_old_release_shows_the_text_as_it_was_and_says_so(client, ipg):
    before = html(client, "/en/ipg/2.3/")
    old = parse(before).by_id("example-b").text(skip=["term-cards"])  # not the marked terms' other names
    write("2.3", "example-b", "en", "A player scries three cards (edited after the release).")
    assert "edited after the release" in html(client, "/en/ipg/2.3/")

    page = html(client, f"/en/ipg/2.3/?release={FIRST}")
    assert "edited after the release" not in page
    assert parse(page).by_id("example-b").text(skip=["term-cards"]) == old
    assert f"as it was in the IPG of {FIRST}" in page
    assert '<meta name="robots" content="noindex">' in page
    assert '<link rel="canonical" href="http://testserver/en/ipg/2.3/">' in page
    assert 'href="/en/ipg/2.3/">Read the current text</a>' in page
    assert f'href="/en/changes/{FIRST}/"' in page


def test_the_current_page_is_indexed_and_carries_no_old_version_notice(client, ipg):
    page = html(client, "/en/ipg/2.3/")
    assert "noindex" not in page and "as it was in the IPG of" not in page


def test_an_old_release_compares_languages_as_they_were(client, ipg):
    write("2.3", "example-c", "ja", "書き換えた日本語(テスト)。")
    page = html(client, f"/en/ipg/2.3/?langs=en,ja&release={FIRST}")
    assert "書き換えた日本語" not in page and "闇の腹心" in page
    assert f'<input type="hidden" name="release" value="{FIRST}">' in page


def test_the_japanese_page_of_an_old_release_is_in_japanese(client, ipg):
    page = html(client, f"/ja/ipg/2.3/?release={FIRST}")
    assert 'lang="ja"' in page and "闇の腹心" in page


@pytest.mark.parametrize(
    "value",
    ["", "2024-09-24", "2024-13-01", "2024-02-30", "yesterday", "2024-09-23%00", "２０２４-０９-２３", "9" * 40],
)
def test_an_unknown_or_malformed_release_is_a_404(client, ipg, value):
    assert client.get(f"/en/ipg/2.3/?release={value}").status_code == 404


def test_a_release_whose_date_has_not_come_is_a_404(client, ipg):
    future = timezone.localdate() + datetime.timedelta(days=30)
    publish(future)
    assert client.get(f"/en/ipg/2.3/?release={future.isoformat()}").status_code == 404
    assert client.get(f"/en/ipg/2.3/?release={FIRST}").status_code == 200


def test_the_api_gives_a_section_as_a_release_froze_it(client, ipg):
    write("2.3", "example-b", "en", "A player scries three cards (edited after the release).")
    current = client.get("/api/ipg/2.3/").json()
    old = client.get(f"/api/ipg/2.3/?release={FIRST}").json()
    text = {p["key"]: p["text"]["en"] for p in current["paragraphs"]}
    old_text = {p["key"]: p["text"]["en"] for p in old["paragraphs"]}
    assert "edited after the release" in text["example-b"] and "edited" not in old_text["example-b"]
    assert old["release"] == FIRST and "release" not in current
    assert [n["body"]["ja"] for p in old["paragraphs"] for n in p["notes"]] == [
        n["body"]["ja"] for p in current["paragraphs"] for n in p["notes"]
    ]


@pytest.mark.parametrize("value", ["2030-01-01", "nope", "2024-09-22"])
def test_the_api_answers_an_unknown_release_with_a_json_404(client, ipg, value):
    response = client.get(f"/api/ipg/2.3/?release={value}")
    assert response.status_code == 404 and "error" in response.json()


def test_the_section_page_names_the_first_release_while_nothing_has_changed(client, ipg):
    page = parse(html(client, "/en/ipg/2.3/"))
    line = page.find("p", class_="release-line")
    assert f"As in the IPG of {FIRST}, the first release on this site" in line.text()
    assert line.find("a").attrs["href"] == f"/en/changes/{FIRST}/#section-2.3"
    assert page.find("p", class_="changed-mark") is None


def test_the_section_page_names_the_release_that_changed_it_and_marks_its_paragraphs(client, ipg):
    write("2.3", "example-b", "en", "A player scries three cards (changed in the new release).")
    today = timezone.localdate().isoformat()
    publish(timezone.localdate())
    for lang, words in (("en", "Last changed in the IPG of"), ("ja", today)):
        page = parse(html(client, f"/{lang}/ipg/2.3/"))
        assert words in page.find("p", class_="release-line").text()
        marked = [p.parent.attrs["id"] for p in page.find_all("p", class_="changed-mark")]
        assert marked == ["example-b"]
        assert page.by_id("example-b").find("a").attrs["href"] == "#example-b"
    # 2.4 did not change in the new release: it still names the first
    assert f"As in the IPG of {FIRST}" in parse(html(client, "/en/ipg/2.4/")).find("p", class_="release-line").text()


# A `?release=` address answers from the release alone, whatever the working text did to the section since.

HIDDEN_CARD = "Game Play Error — Hidden Card Error"
MULLIGAN = "Game Play Error — Mulligan Procedure Error"


@pytest.fixture
def moved_on(ipg):
    """The working text after the release: 2.3 renumbered 2.8, 2.5 renumbered 2.3 in its place, 2.4 removed."""
    from edits import change, delete
    from ipgsite.ipg.models import Section

    change(Section.objects.get(number="2.3"), number="2.8")
    change(Section.objects.get(number="2.5"), number="2.3")
    delete(Section.objects.get(number="2.4"))
    assert not Section.objects.filter(number="2.4").exists()
    return ipg


def test_a_renumbered_section_answers_under_the_releases_number(client, moved_on):
    assert HIDDEN_CARD not in parse(html(client, "/en/ipg/2.3/")).find("h1").text()  # 2.3 is another section now
    page = parse(html(client, f"/en/ipg/2.3/?release={FIRST}"))
    assert page.find("h1").text() == f"2.3 {HIDDEN_CARD}"
    assert "scries two cards" in page.by_id("example-b").text()
    # Its neighbours are the release's, and keep to the release.
    links = {a.attrs["rel"]: a.attrs["href"] for a in page.find_all("a", class_="section-link") if "rel" in a.attrs}
    assert links == {"prev": f"/en/ipg/2.2/?release={FIRST}", "next": f"/en/ipg/2.4/?release={FIRST}"}
    # What mentions the working text's 2.3 is not this section's.
    assert page.find("section", class_="mentioned-in") is None


def test_a_removed_section_answers_under_the_releases_number(client, moved_on):
    assert client.get("/en/ipg/2.4/").status_code == 404
    page = html(client, f"/en/ipg/2.4/?release={FIRST}")
    tree = parse(page)
    assert tree.find("h1").text() == f"2.4 {MULLIGAN}"
    assert "mulligan" in tree.find("article").text().lower()
    # There is no current text to send the reader to: the page's own address is its canonical one.
    assert "Read the current text" not in page
    assert f'<link rel="canonical" href="http://testserver/en/ipg/2.4/?release={FIRST}">' in page
    ja = html(client, f"/ja/ipg/2.4/?release={FIRST}")
    assert "マリガン手順の誤り" in ja


def test_the_api_answers_renumbered_and_removed_sections_under_the_releases_number(client, moved_on):
    renumbered = client.get(f"/api/ipg/2.3/?release={FIRST}")
    assert renumbered.status_code == 200
    data = renumbered.json()
    assert (data["number"], data["title"]["en"], data["release"], data["chapter"]) == ("2.3", HIDDEN_CARD, FIRST, "2")
    assert data["url"] == f"http://testserver/api/ipg/2.3/?release={FIRST}"
    assert "scries two cards" in next(p for p in data["paragraphs"] if p["key"] == "example-b")["text"]["en"]
    removed = client.get(f"/api/ipg/2.4/?release={FIRST}").json()
    assert removed["title"]["en"] == MULLIGAN and removed["penalty"] == "warning" and removed["paragraphs"]
    paragraph = client.get(f"/api/ipg/2.4/definition-1/?release={FIRST}")
    assert paragraph.status_code == 200 and paragraph.json()["release"] == FIRST
    assert client.get("/api/ipg/2.4/").status_code == 404
    assert client.get(f"/api/ipg/2.8/?release={FIRST}").status_code == 404  # the release had no 2.8


def test_a_paragraphs_page_and_its_card_answer_under_the_releases_number(client, moved_on):
    page = html(client, f"/en/ipg/2.3/example-b/?release={FIRST}")
    assert HIDDEN_CARD in page and "scries two cards" in page
    assert client.get(f"/en/ipg/2.4/definition-1/?release={FIRST}").status_code == 200
    card = client.get("/oembed/", {"url": f"http://testserver/en/ipg/2.4/definition-1/?release={FIRST}"})
    assert card.status_code == 200 and MULLIGAN in card.json()["title"]
