"""A section shown as a link, the same on every page: number, title in the page's language with its `lang`, penalty."""

import pytest
from django.utils import translation

from ipgsite.ipg import languages
from ipgsite.ipg.models import Penalty, Section
from pages import parse

CODES = ["en", "zh-hans", "ja"]


def page(client, url):
    response = client.get(url)
    assert response.status_code == 200, url
    return parse(response.content)


def links(node):
    return node.find_all("a", class_="section-link")


def assert_names(link, section, code, query=""):
    """The link goes to the section in the page's language and names it by number and title, with the title's `lang`."""
    assert link.attrs["href"] == f"/{code}/ipg/{section.number}/{query}"
    assert link.find("span", class_="number").text() == section.number
    title = section.title_in(code)
    if title:
        shown = link.find("span", lang=languages.html_lang(code))
        assert shown is not None and shown.text() == title
        assert link.find("small", class_="fallback-mark") is None
    else:
        shown = link.find("span", class_="fallback")
        assert shown.attrs["lang"] == "en" and shown.text() == section.title_en
        assert link.find("small", class_="fallback-mark").text() == "EN"


def badge_after(link):
    """The penalty badge that follows the link, if any (a sibling, never inside the link)."""
    assert link.find("span", class_="penalty") is None
    return next((n for n in link.next_siblings() if "penalty" in n.classes), None)


def assert_badge(link, section, code):
    badge = badge_after(link)
    if section.penalty:
        assert badge.classes == ["penalty", f"penalty-{section.penalty}"]
        with translation.override(code):
            assert badge.text() == str(Penalty(section.penalty).label)
    else:
        assert badge is None


@pytest.mark.parametrize("code", CODES)
def test_the_outline_links_every_section_with_its_penalty_and_no_text_mark(client, ipg, code):
    html = page(client, f"/{code}/")
    with_text = set(Section.objects.with_text().values_list("number", flat=True))
    shown = links(html)
    # Each chapter lists its sections with text first (on a phone the first screen), then those without, folded.
    ordered = list(Section.objects.in_reading_order())
    chapter_at = {s.chapter_id: i for i, s in reversed(list(enumerate(ordered)))}
    sections = sorted(ordered, key=lambda s: (chapter_at[s.chapter_id], s.number not in with_text, ordered.index(s)))
    assert [a.find("span", class_="number").text() for a in shown] == [s.number for s in sections]
    for link, section in zip(shown, sections, strict=True):
        assert_names(link, section, code)
        assert_badge(link, section, code)
        marks = [n for n in link.next_siblings() if "no-text" in n.classes]
        if section.number in with_text:
            assert marks == [] and link.parent.classes == []
        else:
            assert len(marks) == 1 and link.parent.classes == ["stub"]
    assert {"2.1", "2.3", "2.4"} == with_text


@pytest.mark.parametrize("code", CODES)
def test_the_quick_reference_links_each_infraction_with_its_penalty_in_the_next_cell(client, ipg, code):
    html = page(client, f"/{code}/penalties/")
    infractions = list(Section.objects.infractions().in_reading_order())
    rows = [tr for table in html.find_all("table", class_="penalties") for tr in table.find("tbody").find_all("tr")]
    assert len(rows) == len(infractions) == 23
    for row, section in zip(rows, infractions, strict=True):
        name, penalty = row.find_all("td")
        (link,) = links(name)
        assert_names(link, section, code)
        assert badge_after(link) is None
        assert penalty.find("span", class_="penalty").classes == ["penalty", f"penalty-{section.penalty}"]


@pytest.mark.parametrize("code", CODES)
def test_a_section_links_the_outline_and_its_neighbours(client, ipg, code):
    crumbs = page(client, f"/{code}/ipg/2.3/").find("nav", class_="crumbs")
    first, *rest = crumbs.find_all("a")
    assert first.attrs["href"] == f"/{code}/"
    previous, following = rest
    assert previous.attrs["rel"] == "prev" and previous.text().startswith("← 2.2")
    assert following.attrs["rel"] == "next" and following.text().endswith("→")
    assert_names(previous, Section.objects.get(number="2.2"), code)
    assert_names(following, Section.objects.get(number="2.4"), code)
    assert badge_after(previous) is None and badge_after(following) is None


def test_the_neighbours_carry_the_compare_choice(client, ipg):
    query = "?langs=ja,en"
    crumbs = page(client, f"/zh-hans/ipg/2.3/{query}").find("nav", class_="crumbs")
    previous, following = links(crumbs)
    assert_names(previous, Section.objects.get(number="2.2"), "zh-hans", query)
    assert_names(following, Section.objects.get(number="2.4"), "zh-hans", query)


def test_the_first_and_last_sections_have_one_neighbour(client, ipg):
    sections = list(Section.objects.in_reading_order())
    first = page(client, f"/en/ipg/{sections[0].number}/").find("nav", class_="crumbs")
    assert [a.attrs["rel"] for a in links(first)] == ["next"]
    last = page(client, f"/en/ipg/{sections[-1].number}/").find("nav", class_="crumbs")
    assert [a.attrs["rel"] for a in links(last)] == ["prev"]


@pytest.mark.parametrize("code", CODES)
def test_mentioned_in_names_each_section_that_mentions_this_one(client, ipg, code):
    mentioned = page(client, f"/{code}/ipg/4.8/").find("section", class_="mentioned-in")
    (link,) = links(mentioned)
    assert_names(link, Section.objects.get(number="2.1"), code)
    assert badge_after(link) is None


@pytest.mark.parametrize("code", CODES)
def test_search_names_matching_sections_with_their_penalty(client, ipg, code):
    html = page(client, f"/{code}/search/?q=Game+Play+Error")
    shown = links(html.find("section", class_="matching-sections"))
    assert [a.find("span", class_="number").text() for a in shown] == ["2.1", "2.2", "2.3", "2.4", "2.5", "2.6"]
    for link in shown:
        section = Section.objects.get(number=link.find("span", class_="number").text())
        assert_names(link, section, code)
        assert_badge(link, section, code)


@pytest.mark.parametrize("code", CODES)
def test_search_results_are_headed_by_their_section(client, ipg, code):
    html = page(client, f"/{code}/search/?q=mulligan")
    groups = html.find_all("section", class_="result-group")
    assert groups
    for group in groups:
        (link,) = links(group.find("h2"))
        assert_names(link, Section.objects.get(number=link.find("span", class_="number").text()), code)
        assert badge_after(link) is None


@pytest.mark.parametrize("code", CODES)
def test_a_section_renamed_is_linked_by_its_new_title_and_penalty_on_the_next_page(client, ipg, code):
    """A link is rendered once and given again while its section shows the same number, titles and penalty."""
    from ipgsite.editing import writing

    def link_to_2_5():
        (link,) = [a for a in links(page(client, f"/{code}/")) if a.find("span", class_="number").text() == "2.5"]
        return link

    section = Section.objects.get(number="2.5")
    assert_names(link_to_2_5(), section, code)
    title = languages.column("title", code)
    writing.save_structure(
        section, {title: "TEST (made up for this test)", "penalty": Penalty.GAME_LOSS}, by=writing.CONTENT_FILES
    )
    section.refresh_from_db()
    link = link_to_2_5()
    assert_names(link, section, code)
    assert link.find("span", lang=languages.html_lang(code)).text() == "TEST (made up for this test)"
    assert_badge(link, section, code)
