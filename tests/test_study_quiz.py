"""The quiz: every question is one of the IPG's examples as written, and its answer is its own section."""

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from edits import write
from ipgsite.ipg.markup import render_markdown
from ipgsite.ipg.models import Paragraph, Part, Section
from pages import parse

pytestmark = pytest.mark.django_db


def examples():
    return Paragraph.objects.filter(part=Part.EXAMPLE).select_related("section")


def page(client, url):
    response = client.get(url)
    assert response.status_code == 200, url
    return parse(response.content)


def asked(html):
    """The question's example: which paragraph it is, found by its text in the language it is shown in."""
    quote = html.find("blockquote", class_="example-text")
    shown = " ".join(p.text() for p in quote.find_all("p") if "missing-label" not in p.classes)
    lang = {"en": "en", "zh-Hans": "zh-hans", "ja": "ja"}[quote.attrs["lang"]]
    matches = [e for e in examples() if parse(render_markdown(e.text_in(lang))).text() == shown]
    assert len(matches) == 1, shown
    return matches[0], lang


def choices(html):
    return {
        a.find(class_="number").text(): a.attrs["href"] for a in html.find("ul", class_="quiz-choices").find_all("a")
    }


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_question_is_an_example_and_every_answer_its_own_section(client, ipg, lang):
    total = examples().count()
    assert total >= 10
    html = page(client, f"/{lang}/quiz/?seed=42")
    seen, score = [], 0
    for number in range(1, total + 1):
        question = html.find("section", class_="quiz-question")
        assert (question.attrs["data-question"], question.attrs["data-total"]) == (str(number), str(total))
        example, shown_in = asked(html)
        seen.append(example.pk)
        chapter_sections = list(
            Section.objects.filter(chapter=example.section.chapter).values_list("number", flat=True)
        )
        offered = choices(html)
        assert list(offered) == chapter_sections
        if example.languages() and lang not in example.languages():
            assert shown_in != lang and html.find("blockquote").find(class_="missing-label") is not None
        # Half the time the right answer, else a wrong one: each is judged against the example's own section.
        right = number % 2 == 1
        answer = example.section.number if right else next(n for n in offered if n != example.section.number)
        html = page(client, offered[answer])
        result = html.find("section", class_="quiz-result")
        assert ("right" in result.classes) is right
        assert result.find(class_="quiz-answer").find(class_="number").text() == example.section.number
        # One link to the section's Definition part, named in words (never a paragraph's key).
        definitions = [a.attrs["href"] for a in result.find(class_="quiz-definitions").find_all("a")]
        assert example.section.paragraphs.filter(part=Part.DEFINITION).exists()
        assert [h.rsplit("#", 1)[1] for h in definitions] == ["part-definition"]
        score += right
        shown = html.find(class_="quiz-score")
        assert (shown.attrs["data-score"], shown.attrs["data-answered"]) == (str(score), str(number))
        if lang == "en":
            assert shown.text() == f"Score: {score} of {number} answered ({total} questions)."
    assert sorted(seen) == sorted(examples().values_list("pk", flat=True))  # each example once
    assert html.find("section", class_="quiz-question") is None
    assert html.find(class_="quiz-done") is not None


def test_a_seed_gives_the_same_order_to_everyone(ipg):
    def order(seed):
        client, url, keys = Client(), f"/en/quiz/?seed={seed}", []
        html = page(client, url)
        for _ in range(5):
            example, _lang = asked(html)
            keys.append((example.section.number, example.key))
            html = page(client, choices(html)[example.section.number])
        return keys

    assert order(7) == order(7)
    assert len({tuple(order(seed)) for seed in (1, 2, 3)}) > 1


def test_a_quiz_can_be_restricted_to_a_chapter_or_to_sections(client, ipg):
    html = page(client, "/en/quiz/?seed=3&section=2.3&section=2.4")
    total = examples().filter(section__number__in=["2.3", "2.4"]).count()
    assert f"of {total}" in html.find("h2", id="question-title").text()
    for _ in range(total):
        example, _lang = asked(html)
        assert example.section.number in ("2.3", "2.4")
        html = page(client, choices(html)[example.section.number])
    assert "quiz-done" in html.find(class_="quiz-done").classes
    html = page(client, "/en/quiz/?seed=3&chapter=2")
    assert (
        f"of {examples().filter(section__chapter__number='2').count()}" in html.find("h2", id="question-title").text()
    )


def test_the_quiz_grows_as_sections_get_text(client, ipg):
    before = examples().count()
    html = page(client, "/en/quiz/")
    assert f"({before} questions)" in html.find("a", class_="start-quiz").text()
    # A new example only through the write path: the content files' example-e of 2.3 exists; give 2.1's a text.
    write("2.1", "example-a", "en", "A player forgets a trigger.")
    assert examples().count() == before  # the same paragraphs; now one more has English
    html = page(client, "/en/quiz/?seed=1&section=2.1")
    texts = set()
    for _ in range(examples().filter(section__number="2.1").count()):
        example, lang = asked(html)
        texts.add((example.key, lang))
        html = page(client, choices(html)["2.1"])
    assert ("example-a", "en") in texts


def test_the_start_page_offers_chapters_and_sections(client, ipg):
    html = page(client, "/zh-hans/quiz/")
    assert html.find("a", class_="start-quiz").attrs["href"].startswith("/zh-hans/quiz/?seed=")
    boxes = [i.attrs["value"] for i in html.find("form", class_="quiz-sections").find_all("input", type="checkbox")]
    assert boxes == list(
        Section.objects.filter(paragraphs__part=Part.EXAMPLE)
        .distinct()
        .in_reading_order()
        .values_list("number", flat=True)
    )


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("seed=x", "seed"),
        ("seed=-1", "seed"),
        ("seed=1e5", "seed"),
        ("seed=99999999999999999999", "seed"),
        ("seed=", "seed"),
        ("seed=１２", "seed"),
        ("seed=1&a=9.9", "not one of its question"),
        ("seed=1&a=zz", "not one of its question"),
        ("seed=1&a=4.8", "not one of its question"),  # a section of another chapter than the question's
        ("seed=1&section=9.9", "section that does not exist"),
        ("seed=1&chapter=42", "chapter that does not exist"),
    ],
)
def test_bad_values_get_a_404_with_a_clear_message(client, ipg, query, message):
    response = client.get(f"/en/quiz/?{query}")
    assert response.status_code == 404
    assert message in parse(response.content).find(class_="quiz-problem").text()


def test_more_answers_than_questions_is_a_404(client, ipg):
    html = page(client, "/en/quiz/?seed=1&section=2.4")
    url = "/en/quiz/?seed=1&section=2.4"
    for _ in range(examples().filter(section__number="2.4").count()):
        url = choices(html)["2.4"]
        html = page(client, url)
    response = client.get(url + "&a=2.4")
    assert response.status_code == 404
    assert "more answers than questions" in parse(response.content).find(class_="quiz-problem").text()


@pytest.mark.database  # PostgreSQL cannot compare a text holding NUL
@pytest.mark.parametrize(
    "name, says", [("chapter", "a chapter that does not exist"), ("section", "a section that does not exist")]
)
def test_a_nul_in_a_chapter_or_section_gets_the_quizs_own_404(client, ipg, name, says):
    """PostgreSQL cannot compare a text holding NUL: no number holds one, so it is a quiz that names nothing."""
    response = client.get("/en/quiz/", {"seed": "7", name: "2\x00"})
    assert response.status_code == 404
    assert says in parse(response.content).find(class_="quiz-problem").text()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    seed=st.one_of(st.integers(-(10**12), 10**12).map(str), st.text(max_size=12)),
    answers=st.lists(st.one_of(st.sampled_from(["2.1", "2.3", "2.4", "4.8", "A"]), st.text(max_size=6)), max_size=4),
    extra=st.dictionaries(st.sampled_from(["chapter", "section", "langs"]), st.text(max_size=6), max_size=2),
)
def test_no_quiz_url_is_a_server_error(client, ipg, seed, answers, extra):
    response = client.get("/en/quiz/", {"seed": seed, "a": answers, **extra})
    assert response.status_code in (200, 404)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(references=st.lists(st.text(max_size=20), max_size=6), langs=st.text(max_size=12))
def test_no_reading_list_url_is_a_server_error(client, ipg, references, langs):
    response = client.get("/ja/list/", {"p": references, "langs": langs}, follow=True)  # `langs` normalized first
    assert response.status_code == 200
