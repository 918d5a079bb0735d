"""Any two releases compared: `/<lang>/changes/?from=DATE&to=DATE` and `/api/changes/`, section by section, with the
changes pages' diffs, computed once per pair and kept."""

from io import StringIO

import pytest
from django.core.management import call_command

from edits import delete, write
from ipgsite.ipg.models import Paragraph, Section
from ipgsite.releases.models import Comparison
from pages import parse

FIRST, SECOND, THIRD = "2024-09-23", "2025-02-10", "2025-06-01"


def publish(date):
    call_command("publishrelease", date, stdout=StringIO())


@pytest.fixture
def three(ipg):
    """Three releases: the shipped one; 2.3 definition-1's English edited and 2.4's example-a deleted; then 2.3
    definition-1 edited again, 2.1's Japanese edited, and an edit of 2.4 example-b made and undone."""
    definition = Paragraph.objects.get(section__number="2.3", key="definition-1")
    english = definition.text_en
    write("2.3", "definition-1", "en", english.replace("commits an error", "makes a TESTONE error"))
    delete(Paragraph.objects.get(section__number="2.4", key="example-a"))
    original_b = Paragraph.objects.get(section__number="2.4", key="example-b").text_en
    write("2.4", "example-b", "en", original_b + " TESTGONE")
    publish(SECOND)
    write("2.3", "definition-1", "en", english.replace("commits an error", "makes a TESTTWO error"))
    write("2.4", "example-b", "en", original_b)
    missed = Paragraph.objects.get(section__number="2.1", key="definition-1")
    write("2.1", "definition-1", "ja", missed.text_ja + "（テスト）")
    publish(THIRD)
    return english


def page(client, query, code="en"):
    response = client.get(f"/{code}/changes/{query}")
    assert response.status_code == 200, response.status_code
    return parse(response.content)


def test_the_first_and_last_of_three_releases_compared_section_by_section(client, three):
    found = page(client, f"?from={FIRST}&to={THIRD}")
    sections = found.find_all("section", class_="changed-section")
    assert [s.attrs["id"] for s in sections] == ["section-2.1", "section-2.3", "section-2.4"]
    hidden = found.by_id("section-2.3")
    diff = hidden.find("div", class_="diff")
    # From the first release's words straight to the last's: the middle release's wording is in neither.
    assert [d.text() for d in diff.find_all("del")] == ["commits an"] and diff.find("ins").text() == "makes a TESTTWO"
    assert "TESTONE" not in hidden.text()
    mulligan = found.by_id("section-2.4")
    assert "example-a" in mulligan.text() and "Removed" in mulligan.text()
    assert "example-b" not in mulligan.text()  # changed and changed back: nothing between the two
    assert "2 sections changed" not in found.text() and "3 sections changed" in found.text()
    between = [a.text() for a in found.find("p", class_="release-summary").find_all("a")]
    assert between == [SECOND, THIRD]


def test_two_neighbours_read_what_publishing_stored(client, three):
    found = page(client, f"?from={SECOND}&to={THIRD}&langs=en,ja")
    assert [s.attrs["id"] for s in found.find_all("section", class_="changed-section")] == [
        "section-2.1",
        "section-2.3",
        "section-2.4",
    ]
    assert "TESTONE" in found.by_id("section-2.3").find("del").text()
    assert not Comparison.objects.exists()


def test_a_pair_is_computed_once_and_kept(client, three):
    page(client, f"?from={FIRST}&to={THIRD}")
    kept = Comparison.objects.get()
    assert (kept.older.date.isoformat(), kept.newer.date.isoformat()) == (FIRST, THIRD)
    assert [s["number"] for s in kept.sections] == ["2.1", "2.3", "2.4"]
    from django.core.cache import cache

    cache.clear()
    page(client, f"?from={FIRST}&to={THIRD}", code="ja")
    client.get(f"/api/changes/?from={FIRST}&to={THIRD}")
    assert Comparison.objects.get().computed_at == kept.computed_at


def test_a_release_replaced_since_is_compared_again(client, three):
    page(client, f"?from={FIRST}&to={THIRD}")
    frozen = Comparison.objects.get().newer.sections.get(number="2.1")
    content = frozen.content
    content["paragraphs"][0]["texts"]["ja"] += "TESTREPLACED"
    from ipgsite.releases.models import digest

    frozen.content, frozen.digest = content, digest(content)
    frozen.save()
    from django.core.cache import cache

    cache.clear()
    assert "TESTREPLACED" in page(client, f"?from={FIRST}&to={THIRD}&langs=ja").by_id("section-2.1").text()


def test_dates_newest_first_redirect_to_the_same_comparison_in_order(client, three):
    response = client.get(f"/ja/changes/?from={THIRD}&to={FIRST}&langs=en,ja")
    assert response.status_code == 301
    assert response["Location"] == f"/ja/changes/?from={FIRST}&to={THIRD}&langs=en,ja"


@pytest.mark.parametrize(
    ("query", "status", "message"),
    [
        (f"?from={FIRST}", 400, "Choose the two releases"),
        (f"?to={FIRST}&from=", 400, "Choose the two releases"),
        (f"?from={FIRST}&to=2025-13-40", 400, "is not a date written as YYYY-MM-DD"),
        (f"?from={FIRST}&to=yesterday", 400, "is not a date written as YYYY-MM-DD"),
        (f"?from={FIRST}&to=%00", 400, "is not a date"),
        (f"?from={FIRST}&to={'9' * 3000}", 400, "is not a date"),
        (f"?from={FIRST}&to={FIRST}", 400, "two different releases"),
        (f"?from={FIRST}&to=2025-01-01", 404, ""),
        (f"?from={FIRST}&to=2999-01-01", 404, ""),
    ],
)
def test_bad_or_unknown_dates_get_a_clear_answer(client, three, query, status, message):
    response = client.get(f"/en/changes/{query}")
    assert response.status_code == status
    assert message in response.content.decode()
    if status == 400:
        assert parse(response.content).find("form", class_="compare-releases") is not None
    api = client.get(f"/api/changes/{query}")
    assert api.status_code == status and api.json()["error"]


def test_the_list_of_releases_offers_the_comparison(client, three):
    form = parse(client.get("/en/changes/").content).find("form", class_="compare-releases")
    assert form.attrs["action"] == "/en/changes/"
    selected = [o.attrs["value"] for o in form.find_all("option") if "selected" in o.attrs]
    assert selected == [FIRST, THIRD]


def test_the_api_gives_the_same_comparison(client, three):
    data = client.get(f"/api/changes/?from={FIRST}&to={THIRD}").json()
    assert (data["from"], data["to"], data["releases"]) == (FIRST, THIRD, [SECOND, THIRD])
    assert [s["number"] for s in data["sections"]] == ["2.1", "2.3", "2.4"]
    hidden = data["sections"][1]
    (change,) = hidden["changes"]
    assert change["key"] == "definition-1" and change["changed_in"] == ["en"]
    assert "<del>commits an</del>" in change["text"]["en"]["diff"] and change["text"]["ja"]["unchanged"]
    assert data["pages"]["ja"] == f"http://testserver/ja/changes/?from={FIRST}&to={THIRD}"


def test_a_comparison_stays_cached_through_edits_of_the_working_text(client, three):
    url = f"/en/changes/?from={FIRST}&to={THIRD}"
    assert client.get(url)["X-Cache"] == "miss"
    write("2.3", "definition-1", "en", "TESTLATER")
    assert client.get(url)["X-Cache"] == "hit"
    Section.objects.get(number="2.3")  # the working text changed; the releases did not
