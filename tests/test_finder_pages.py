"""The infraction finder's pages: every path walked in every language, the way back, citations, and bad URLs."""

import re
from collections import Counter

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ipgsite.finder.graph import Graph
from ipgsite.finder.models import Question
from ipgsite.ipg import languages
from ipgsite.ipg.models import Section
from pages import parse

HCE = "/en/finder/in-game/no-trigger/no/no/no/yes/"


def ids_on(client, url, cache):
    if url not in cache:
        response = client.get(url)
        assert response.status_code == 200, url
        cache[url] = {node.attrs.get("id") for node in parse(response.content).iter() if node.attrs.get("id")}
    return cache[url]


@pytest.mark.parametrize("code", languages.CODES)
def test_every_path_is_walked_by_its_links_in_every_language(client, ipg, code):
    """From the first question, follow every answer link; every step renders, every end names a Game Play Error, and
    every citation is a paragraph id on its section's page."""
    graph = Graph.stored()
    section_ids, outcomes_seen, steps_seen = {}, set(), 0
    pending = [f"/{code}/finder/"]
    while pending:
        url = pending.pop()
        response = client.get(url)
        assert response.status_code == 200, url
        steps_seen += 1
        page = parse(response.content)
        article = page.find("article", class_="finder")
        assert article is not None, url
        guidance = article.find("p", class_="finder-guidance")
        assert guidance is not None and guidance.text().strip(), url
        citations = article.find_all("blockquote", class_="finder-citation")
        assert citations, f"{url} cites nothing"
        for quote in citations:
            href = quote.find("a").attrs["href"]
            section_url, key = href.split("#")
            assert section_url.startswith(f"/{code}/ipg/"), href
            assert key in ids_on(client, section_url, section_ids), f"{url}: {href} is no paragraph on its page"
            assert all(div.attrs.get("lang") for div in quote.find_all("div", class_="text")), url
        answers = article.find_all("a", class_="finder-answer")
        if answers:
            question = response.context["step"].node
            assert [a.attrs["href"] for a in answers] == [f"{url}{c['key']}/" for c in question.choices]
            assert all(a.text().strip() and a.attrs.get("lang") == languages.html_lang(code) for a in answers), url
            assert article.find("h1").attrs["lang"] == languages.html_lang(code)
            pending.extend(a.attrs["href"] for a in answers)
        elif response.context["step"].node.section is None:  # the IPG says it is no infraction
            assert "finder-no-infraction" in article.find("h1").classes, url
            assert article.find("p", class_="penalty-line").find("span", class_="penalty") is None, url
            outcomes_seen.add(response.context["step"].node.key)
        else:
            outcome = response.context["step"].node
            assert outcome.section.chapter.number == "2" and outcome.section.number.startswith("2."), url
            assert outcome.section.title_en.startswith("Game Play Error — ")
            h1 = article.find("h1")
            assert outcome.section.number in h1.text() and outcome.section.get_absolute_url() == h1.find("a").attrs[
                "href"
            ].split("?")[0].replace("/en/", f"/{code}/")
            assert article.find("span", class_="penalty") is not None, url
            outcomes_seen.add(outcome.key)
    assert outcomes_seen == set(graph.outcomes)
    assert steps_seen == len(graph.steps())


def test_every_question_has_wording_in_every_language(ipg):
    for question in Question.objects.all():
        for code in languages.CODES:
            assert question.text_in(code) and all(question.answers_in(code)), (question.key, code)


def test_the_hidden_card_error_outcome_shows_penalty_citation_section_and_what_was_ruled_out(client, ipg):
    response = client.get(HCE)
    page = parse(response.content)
    outcome = page.find("section", class_="finder-outcome")
    assert "Hidden Card Error" in outcome.find("h1").text()
    assert outcome.find("span", class_="penalty").text() == "Warning"
    assert "cannot be corrected by only publicly available information" in outcome.find("blockquote").text()
    assert outcome.find("a", class_="finder-section-link").attrs["href"] == "/en/ipg/2.3/"
    ruled = outcome.find("ul", class_="finder-ruled-out").find_all("li")
    by_section = {li.find("span", class_="number").text(): li for li in ruled}
    assert set(by_section) == {"2.1", "2.2", "2.4", "2.5"}
    lec = by_section["2.2"]
    assert [a.attrs["href"] for a in lec.find_all("a")][-1] == "/en/ipg/2.3/#definition-2"
    assert lec.find("a", href="/en/finder/in-game/no-trigger/") is not None  # the question that ruled it out


def test_an_outcome_without_text_says_so_and_links_to_the_section(client, ipg):
    page = parse(client.get("/ja/finder/in-game/no-trigger/seen-only/").content)
    notice = page.find("p", class_="no-text")
    assert notice is not None and notice.find("a").attrs["href"] == "/ja/ipg/2.2/"
    assert "過剰なカードを見た" in page.find("h1").text()


def test_the_path_back_links_every_answer_to_its_question_and_offers_a_restart(client, ipg):
    page = parse(client.get("/zh-hans/finder/in-game/no-trigger/no/").content)
    path = page.find("nav", class_="finder-path")
    links = [li.find("a").attrs["href"] for li in path.find("ol").find_all("li")]
    assert links == ["/zh-hans/finder/", "/zh-hans/finder/in-game/", "/zh-hans/finder/in-game/no-trigger/"]
    texts = [li.text() for li in path.find("ol").find_all("li")]
    assert "失误发生在什么时候" in texts[0] and "在游戏开始之后,哪怕" in texts[0]
    assert path.find("a", class_="finder-restart").attrs["href"] == "/zh-hans/finder/"
    assert parse(client.get("/zh-hans/finder/").content).find("nav", class_="finder-path") is None


def test_the_readers_languages_carry_through_every_link(client, ipg):
    url = "/en/finder/in-game/?langs=ja,en"
    page = parse(client.get(url).content)
    quote = page.find("blockquote", class_="finder-citation")
    assert [div.attrs["lang"] for div in quote.find_all("div", class_="text")] == ["ja", "en"]
    # 2.1 has no English: shown as missing, naming the language that has it, not replaced
    english = quote.find_all("div", class_="text")[1]
    assert "missing" in english.classes and "Japanese" in english.text()
    hrefs = [a.attrs["href"] for a in page.find_all("a", class_="finder-answer")]
    assert hrefs and all(h.endswith("?langs=ja,en") for h in hrefs)
    assert page.find("a", class_="finder-restart").attrs["href"] == "/en/finder/?langs=ja,en"


@pytest.mark.parametrize(
    "query, target",
    [("?langs=JA,,en", "?langs=ja,en"), ("?langs=xx", ""), ("?langs=en&langs=ja", "?langs=en,ja")],
)
def test_a_misspelled_language_choice_redirects_to_its_normal_form(client, ipg, query, target):
    response = client.get("/en/finder/in-game/" + query)
    assert response.status_code == 301 and response["Location"] == "/en/finder/in-game/" + target


@pytest.mark.parametrize(
    "url",
    [
        "/en/finder/nonsense/",  # no such answer to the first question
        "/ja/finder/in-game/yes/",  # an answer of another question
        "/en/finder/pre-game/more-than-one/more-than-one/",  # past an outcome: no node there
        HCE + "yes/",
        "/zh-hans/finder/in-game//no/",
        "/en/finder/In-Game/",
        "/en/finder/" + "in-game/" * 200,
    ],
)
def test_an_unknown_node_or_answer_in_the_url_is_a_404(client, ipg, url):
    assert client.get(url).status_code == 404


def test_the_known_step_beside_each_404_is_found(client, ipg):
    for url in ["/en/finder/", "/ja/finder/in-game/", "/en/finder/pre-game/more-than-one/", HCE]:
        assert client.get(url).status_code == 200


@pytest.mark.parametrize("url", ["/en/finder/", HCE, "/ja/finder/in-game/?langs=ja,en"])
def test_reading_a_finder_page_writes_nothing(client, ipg, url):
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    writes = [q["sql"] for q in queries if q["sql"].lstrip().split()[0].upper() in ("INSERT", "UPDATE", "DELETE")]
    assert writes == []


def queries_repeated_per_row(client, url):
    """The statements a page ran more than three times with only their values changed: one query per paragraph."""
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    shapes = Counter(re.sub(r"\b\d+\b|'[^']*'", "?", q["sql"]) for q in queries)
    return {shape: count for shape, count in shapes.items() if count > 3}


@pytest.mark.parametrize(
    "url", ["/ja/finder/in-game/no-effect/", "/en/finder/in-game/shown/no/", "/en/ipg/2.3/", "/ja/ipg/2.3/?langs=ja,en"]
)
def test_a_page_naming_many_paragraphs_reads_them_together(client, ipg, url):
    """A finder step quoting a dozen paragraphs and naming them ("Example C") read each section's paragraphs once;
    it had read each paragraph's section again, one query per paragraph (643 for one step)."""
    assert queries_repeated_per_row(client, url) == {}


def test_answers_are_plain_links_and_pages_carry_no_inline_script_or_style(client, ipg):
    html = client.get("/en/finder/in-game/").content.decode()
    page = parse(html)
    assert page.find("article", class_="finder").find("form") is not None  # only the language form
    assert "<script>" not in html and "style=" not in html and "onclick" not in html


def test_every_outcome_section_is_an_infraction_with_its_own_penalty(ipg):
    graph = Graph.stored()
    for outcome in graph.outcomes.values():
        if outcome.section is None:
            assert outcome.key.startswith("not-an-infraction")
            continue
        assert outcome.section.penalty == Section.objects.get(number=outcome.section.number).penalty != ""


def test_a_section_deleted_in_the_admin_takes_its_outcomes_and_their_steps_with_it(client, ipg):
    from ipgsite.editing import writing
    from people import editor

    writing.delete(Section.objects.get(number="2.2"), by=editor())
    assert client.get("/en/finder/in-game/no-trigger/seen-only/").status_code == 404
    assert client.get("/en/finder/in-game/no-trigger/").status_code == 200  # the question is still asked
    assert client.get(HCE).status_code == 200


def test_a_cited_paragraphs_commentary_is_offered_folded_and_marked_as_commentary(client, ipg):
    page = parse(client.get("/en/finder/in-game/no-trigger/").content)
    quote = page.find("blockquote", class_="finder-citation")
    details = quote.find("details", class_="notes")
    assert details is not None and details.attrs.get("open") is None
    aside = details.find("aside", class_="note")
    assert "Commentary, not official text" in aside.find("p", class_="note-source").text()
    body = aside.find("div", class_="note-body")
    assert body.attrs["lang"] == "ja" and "過剰なカードを見た" in body.text()
    # a paragraph without commentary has no fold
    page = parse(client.get("/en/finder/pre-game/").content)
    assert page.find("blockquote", class_="finder-citation").find("details") is None


def test_the_finder_is_in_the_sitemap_in_every_language_and_its_steps_are_not(client, ipg):
    xml = client.get("/sitemap.xml").content.decode()
    for code in languages.CODES:
        assert f"/{code}/finder/</loc>" in xml
    assert "/finder/in-game/" not in xml


def outcome_number(client, url):
    return client.get(url).context["step"].node.section.number


def test_a_trigger_handled_in_time_goes_on_to_the_hidden_card_questions(client, ipg):
    """2.3 example C: a Dark Confidant trigger resolved, the card not revealed; a Hidden Card Error, not a Game Rule
    Violation. Its near miss, a handled trigger whose later mistake is of another kind, is a GRV (2.1 definition-8),
    and the question that asks quotes both."""
    page = parse(client.get("/en/finder/in-game/shown/").content)
    assert page.find("section", class_="finder-question") is not None
    refs = [q.find("a").attrs["href"] for q in page.find_all("blockquote", class_="finder-citation")]
    assert refs == ["/en/ipg/2.1/#definition-8", "/en/ipg/2.3/#example-c"]
    assert outcome_number(client, "/en/finder/in-game/shown/yes/yes/") == "2.3"
    assert outcome_number(client, "/en/finder/in-game/shown/yes/public-zone/") == "2.5"
    assert outcome_number(client, "/en/finder/in-game/shown/no/") == "2.5"
    page = parse(client.get("/en/finder/in-game/shown/no/").content)
    assert page.find("blockquote", class_="finder-citation").find("a").attrs["href"] == "/en/ipg/2.1/#definition-8"


def test_a_forgotten_lore_counter_on_a_saga_reaches_missed_trigger_citing_2_1(client, ipg):
    page = parse(client.get("/en/finder/in-game/").content)
    lore = page.find("a", class_="finder-answer", href="/en/finder/in-game/lore-counter/")
    assert lore is not None and "lore counter" in lore.text()
    assert "lore counter" in page.find("h1").text()
    response = client.get("/en/finder/in-game/lore-counter/")
    assert response.context["step"].node.section.number == "2.1"
    quote = parse(response.content).find("blockquote", class_="finder-citation")
    assert quote.find("a").attrs["href"] == "/en/ipg/2.1/#definition-9"
    assert "伝承カウンター" in quote.text()  # 2.1 is in Japanese only: its sentence on the lore counter
    # the near miss: "neither is involved" no longer reaches 2.1
    ruled = parse(client.get("/en/finder/in-game/no-trigger/no/no/no/yes/").content).find(
        "ul", class_="finder-ruled-out"
    )
    assert "2.1" in [s.text() for s in ruled.find_all("span", class_="number")]


def ruled_out_by(client, url):
    """{section number: the step URL of the question credited with ruling it out}."""
    ruled = parse(client.get(url).content).find("ul", class_="finder-ruled-out")
    return {
        li.find("span", class_="number").text(): li.find("span", class_="finder-by").find("a").attrs["href"]
        for li in ruled.find_all("li")
    }


def test_ruled_out_credits_the_question_after_whose_answer_the_infraction_was_out_of_reach(client, ipg):
    # Looking at Extra Cards: a Hidden Card Error is still reachable after "the game had begun"; the question on
    # what was only seen is the one that turns it away.
    assert ruled_out_by(client, "/en/finder/in-game/no-trigger/seen-only/") == {
        "2.1": "/en/finder/in-game/",
        "2.3": "/en/finder/in-game/no-trigger/",
        "2.4": "/en/finder/",
        "2.5": "/en/finder/in-game/no-trigger/",
    }
    page = parse(client.get("/en/finder/in-game/no-trigger/seen-only/").content)
    hce = next(li for li in page.find("ul", class_="finder-ruled-out").find_all("li") if "2.3" in li.text())
    assert [a.attrs["href"] for a in hce.find_all("a")][-1] == "/en/ipg/2.3/#definition-2"
    assert "/en/ipg/2.3/#example-f" not in [a.attrs["href"] for a in hce.find_all("a")]
    assert ruled_out_by(client, "/en/finder/in-game/shown/yes/yes/") == {
        "2.1": "/en/finder/in-game/",
        "2.2": "/en/finder/in-game/",
        "2.4": "/en/finder/",
        "2.5": "/en/finder/in-game/shown/yes/",
    }
    # the near miss: before the game, Hidden Card Error stays reachable until the scry question
    assert ruled_out_by(client, "/en/finder/pre-game/other-error/") == {
        "2.1": "/en/finder/",
        "2.2": "/en/finder/",
        "2.3": "/en/finder/pre-game/",
        "2.5": "/en/finder/",
    }


def test_the_guidance_mark_stands_beside_each_question(client, ipg):
    page = parse(client.get("/ja/finder/in-game/").content)
    h1 = page.find("h1")
    mark = page.find("section", class_="finder-question").find("p", class_="finder-mark")
    assert mark is not None and "公式テキストではありません" in mark.text() and mark.attrs["lang"] == "ja"
    children = [c for c in h1.parent.children if not isinstance(c, str)]
    assert children[children.index(h1) + 1] is mark
    page = parse(client.get("/en/finder/in-game/no-trigger/no/no/no/yes/").content)
    for li in page.find("nav", class_="finder-path").find("ol").find_all("li"):
        assert li.find("small", class_="finder-mark").text() == "site's guidance, not official text"
    for li in page.find("ul", class_="finder-ruled-out").find_all("li"):
        assert li.find("small", class_="finder-mark") is not None
