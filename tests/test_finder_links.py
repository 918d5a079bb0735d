"""The finder from the rest of the site: section pages link the steps that lead to them, search lists matching
steps, and the offline copy holds every step."""

import json
from io import StringIO

import pytest
from django.core.management import call_command

from ipgsite.finder.graph import Graph
from ipgsite.ipg import languages
from pages import parse


def finder_links(client, url):
    aside = parse(client.get(url).content).find("aside", class_="finder-leads-here")
    return [a.attrs["href"] for a in aside.find("ul").find_all("a")] if aside else []


def test_a_section_page_links_every_finder_step_that_ends_there(client, ipg):
    assert finder_links(client, "/en/ipg/2.3/") == [
        "/en/finder/pre-game/more-than-one/",
        "/en/finder/pre-game-noticed-later/",
        "/en/finder/in-game/no-trigger/no/no/no/yes/",
        "/en/finder/in-game/shown/yes/yes/",
    ]
    assert finder_links(client, "/ja/ipg/2.1/") == ["/ja/finder/in-game/not-shown/", "/ja/finder/in-game/lore-counter/"]
    assert len(finder_links(client, "/zh-hans/ipg/2.5/")) == 5
    for url in finder_links(client, "/en/ipg/2.5/"):
        assert client.get(url).context["step"].node.section.number == "2.5"


def test_a_section_no_finder_path_ends_at_shows_no_finder_block(client, ipg):
    assert finder_links(client, "/en/ipg/3.1/") == []
    assert "finder-leads-here" not in client.get("/en/ipg/2.6/").content.decode()


def test_the_links_on_a_section_page_are_worded_in_the_page_language_and_marked_as_guidance(client, ipg):
    aside = parse(client.get("/ja/ipg/2.3/").content).find("aside", class_="finder-leads-here")
    assert "公式テキストではありません" in aside.find("p", class_="finder-guidance").text()
    spans = aside.find("ul").find_all("span")
    assert spans and all(span.attrs["lang"] == "ja" for span in spans)


def search_steps(client, url):
    section = parse(client.get(url).content).find("section", class_="finder-matches")
    return [a.attrs["href"] for a in section.find_all("a")] if section else []


@pytest.mark.parametrize(
    "url, first",
    [
        ("/en/search/?q=drew+an+extra+card", "/en/finder/in-game/no-trigger/no/no/no/"),
        ("/zh-hans/search/?q=多抓了一张牌", "/zh-hans/finder/in-game/no-trigger/no/no/no/"),
        ("/ja/search/?q=対戦相手がその場で認めていた", "/ja/finder/in-game/no-trigger/no/no/"),
        ("/en/search/?q=scried+after+a+mulligan", "/en/finder/pre-game/"),
    ],
)
def test_searching_a_situation_lists_the_matching_finder_steps(client, ipg, url, first):
    steps = search_steps(client, url)
    assert steps and steps[0] == first
    assert client.get(first).status_code == 200


@pytest.mark.parametrize("url", ["/en/search/?q=Sphinx+of+Jwar+Isle", "/en/search/?q=", "/ja/search/?q=%00%3C"])
def test_a_search_the_finder_has_nothing_for_shows_no_finder_block(client, ipg, url):
    response = client.get(url)
    assert response.status_code == 200 and search_steps(client, url) == []


def test_the_paragraph_results_are_still_listed_beside_the_finder_steps(client, ipg):
    page = parse(client.get("/en/search/?q=extra+cards").content)
    assert page.find("section", class_="finder-matches") is not None
    assert page.find("ol", class_="results") is not None


@pytest.mark.parametrize("query", ["?lang=ja", "?lang=en&langs=en,zh-hans"])
def test_the_offline_copy_holds_every_finder_step(client, ipg, query):
    data = json.loads(client.get(f"/offline/pages.json{query}").content)
    code = data["language"]
    steps = [f"/{code}/finder/" + "".join(f"{key}/" for key in answers) for answers in Graph.stored().steps()]
    assert set(steps) <= set(data["pages"])
    if data["langs"]:
        assert {f"{url}?langs={data['langs']}" for url in steps} <= set(data["pages"])


def test_a_question_without_wording_in_the_page_language_is_shown_in_english_and_labelled(client, ipg, tmp_path):
    import shutil

    from django.conf import settings

    content = tmp_path / "content"
    shutil.copytree(settings.CONTENT_DIR, content)
    path = content / "finder.toml"
    path.write_text(
        path.read_text().replace(
            'ja = "その誤りは、誘発型能力か、英雄譚の伝承カウンターに関わるものですか?"\n', 'missing = ["ja"]\n', 1
        )
    )
    call_command("loadcontent", str(content), stdout=StringIO())
    page = parse(client.get("/ja/finder/in-game/").content)
    h1 = page.find("h1")
    assert (
        h1.attrs["lang"] == "en"
        and h1.text() == "Does the error involve a triggered ability, or a Saga's lore counter?"
    )
    assert page.find("p", class_="missing-label") is not None
    # its answers still have Japanese wording
    assert {a.attrs["lang"] for a in page.find_all("a", class_="finder-answer")} == {"ja"}


HEADER_LINKS = {
    "en": ("Finder", "Glossary"),
    "zh-hans": ("违规查找", "术语表"),
    "ja": ("ファインダー", "用語集"),
}


@pytest.mark.parametrize("code", languages.CODES)
@pytest.mark.parametrize(
    "path",
    [
        "",
        "ipg/2.3/",
        "ipg/3.1/",
        "penalties/",
        "glossary/",
        "search/?q=draw",
        "finder/in-game/",
        "quiz/",
        "changes/",
        "list/",
        "ipg/2.3/example-c/",
        "no-such-page/",
    ],
)
def test_every_page_header_links_the_finder_and_the_glossary_in_its_language(client, ipg, code, path):
    response = client.get(f"/{code}/{path}")
    assert response.status_code in (200, 404), path
    header = parse(response.content).find("header", class_="site-header")
    finder, glossary = header.find("a", class_="finder-link"), header.find("a", class_="glossary-link")
    assert finder is not None and glossary is not None, path
    assert (finder.attrs["href"], glossary.attrs["href"]) == (f"/{code}/finder/", f"/{code}/glossary/")
    assert (finder.text(), glossary.text()) == HEADER_LINKS[code]
