"""The finder reasons as the IPG does: from when an error was made *and* when it was found, to "not an infraction"
where the IPG says so, and every quote says what its step concludes (read from the paragraphs' own text)."""

import shutil
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from ipgsite.finder.conclusions import NOT_AN_INFRACTION, stored_reader
from ipgsite.finder.graph import Graph, cited_paragraphs
from ipgsite.finder.models import Case
from ipgsite.ipg import languages
from pages import parse


def texts_of(paragraph):
    return list(languages.translations(paragraph, "text").values())


def conclusion_of(outcome):
    return outcome.section.number if outcome.section_id else NOT_AN_INFRACTION


def test_every_outcomes_quotes_name_what_it_concludes_or_the_page_marks_it_as_guidance(client, ipg):
    reader, graph = stored_reader(), Graph.stored()
    steps = {graph.walk(path).node.key: path for path in graph.paths()}
    for outcome in graph.outcomes.values():
        cited = cited_paragraphs(outcome.cites)
        said = set().union(*(reader.concluded(texts_of(p)) for p in cited)) | {p.section.number for p in cited}
        url = "/en/finder/" + "".join(f"{a}/" for a in steps[outcome.key])
        mark = parse(client.get(url).content).find("p", class_="finder-outcome-guidance")
        if conclusion_of(outcome) in said:
            assert not outcome.guidance and mark is None, outcome.key
        else:
            assert outcome.guidance and mark is not None, (
                f"{outcome.key}: its quotes do not say {conclusion_of(outcome)}"
            )
            assert mark.find("small", class_="finder-mark") is not None


def test_the_game_rule_violation_outcomes_quote_paragraphs_that_name_it(ipg):
    """F4: 2.3 definition-1 and philosophy-3 never say Game Rule Violation; 2.3 philosophy-2 and 2.1 definition-8 do."""
    reader, graph = stored_reader(), Graph.stored()
    for outcome in graph.outcomes.values():
        if outcome.section_id and outcome.section.number == "2.5" and not outcome.guidance:
            named = [p for p in cited_paragraphs(outcome.cites) if "2.5" in reader.concluded(texts_of(p))]
            assert named, outcome.key
    assert graph.outcomes["game-rule-violation-public"].cites == ["2.3#philosophy-2", "2.3#philosophy-3"]
    assert graph.outcomes["game-rule-violation-acknowledged"].guidance  # the commentary says it, not the IPG


def test_no_question_quotes_a_conclusion_that_none_of_its_answers_ends_at(ipg):
    """F3: the in-game question quoted 2.1 definition-8 ("further problems are a Game Rule Violation") while its answer
    for a handled trigger goes on to the hidden-card questions."""
    reader, graph = stored_reader(), Graph.stored()
    for question in graph.questions.values():
        ends = {conclusion_of(graph.outcomes[c["next"]]) for c in question.choices if c["next"] in graph.outcomes}
        for paragraph in cited_paragraphs(question.cites):
            stray = reader.concluded(texts_of(paragraph)) - ends
            assert not stray, f"{question.key} quotes {paragraph.section.number}#{paragraph.key}, concluding {stray}"
    assert "2.1#definition-8" not in graph.questions["trigger"].cites
    assert graph.questions["after-shown"].cites == ["2.1#definition-8", "2.3#example-c"]


def test_the_reader_tells_a_conclusion_from_a_name_ruled_out(ipg):
    reader = stored_reader()
    assert reader.concluded(["It is not a Hidden Card Error if the opponent acknowledges the action."]) == set()
    assert reader.concluded(["〔非公開カードに関する誤り〕とはならない。"]) == set()
    assert reader.concluded(["则这不是一个非公开牌张失误。"]) == set()
    assert reader.concluded(
        ["“Scrying” for more than one card after taking a mulligan is treated as a Hidden Card Error."]
    ) == {"2.3"}
    assert reader.concluded(
        ["それ以降の問題は〔ゲーム上の誤り ― その他一般のゲームルール抵触行為〕として扱われる"]
    ) == {"2.5"}
    assert reader.concluded(["Trivial process errors that provide no advantage are not an infraction."]) == {
        NOT_AN_INFRACTION
    }
    assert reader.concluded(["A player draws four cards after casting Ancestral Recall."]) == set()


def test_an_error_made_before_the_game_and_noticed_after_it_began_is_a_hidden_card_error(client, ipg):
    """F1: the first question asks when the error was noticed as well as when it was made; an eight-card opening
    hand noticed on turn 2 is a Hidden Card Error (2.4 philosophy-1), not a Mulligan Procedure Error."""
    page = parse(client.get("/en/finder/").content)
    assert "noticed" in page.find("h1").text()
    answers = {a.attrs["href"]: a.text() for a in page.find_all("a", class_="finder-answer")}
    assert "eight-card opening hand noticed on turn 2" in answers["/en/finder/pre-game-noticed-later/"]
    response = client.get("/en/finder/pre-game-noticed-later/")
    assert response.context["step"].node.section.number == "2.3"
    quotes = parse(response.content).find("section", class_="finder-outcome").find_all("blockquote")
    assert [q.find("a").attrs["href"] for q in quotes] == ["/en/ipg/2.4/#philosophy-1", "/en/ipg/2.3/#example-d"]
    assert "becomes a Hidden Card Error" in quotes[0].text()
    # the near miss: made and noticed before the game began, it is still a Mulligan Procedure Error
    assert client.get("/en/finder/pre-game/other-error/").context["step"].node.section.number == "2.4"


@pytest.mark.parametrize(
    "url, cited, words",
    [
        ("/en/finder/pre-game/trivial/", ["/en/ipg/2.4/#definition-2"], "are not an infraction"),
        (
            "/ja/finder/in-game/no-effect/",
            ["/ja/ipg/2.1/#definition-13", "/ja/ipg/2.1/#definition-14"],
            "違反とはならない",
        ),
    ],
)
def test_not_an_infraction_is_an_outcome_where_the_ipg_says_so(client, ipg, url, cited, words):
    """F2: a trivial slip in the mulligan procedure (2.4 definition-2) and a trigger that would have changed nothing
    (2.1) end at "not an infraction", with no penalty, quoting the paragraph that says so."""
    response = client.get(url)
    assert response.context["step"].node.section is None
    outcome = parse(response.content).find("section", class_="finder-outcome")
    assert "finder-no-infraction" in outcome.find("h1").classes
    assert outcome.find("p", class_="penalty-line").find("span", class_="penalty") is None
    quotes = outcome.find_all("blockquote", class_="finder-citation")
    assert [q.find("a").attrs["href"] for q in quotes] == cited
    assert words in quotes[0].text()
    ruled = {s.text() for s in outcome.find("ul", class_="finder-ruled-out").find_all("span", class_="number")}
    assert "2.4" in ruled or "2.1" in ruled


def test_the_not_an_infraction_pages_are_in_the_readers_language(client, ipg):
    assert parse(client.get("/ja/finder/pre-game/trivial/").content).find("h1").text() == "違反ではありません"
    assert parse(client.get("/zh-hans/finder/pre-game/trivial/").content).find("h1").text() == "不构成违规"


def test_the_recorded_cases_are_offered_on_the_first_page_and_walk_to_what_their_paragraphs_say(client, ipg):
    reader, graph = stored_reader(), Graph.stored()
    cases = list(Case.objects.order_by("order"))
    assert [c.key for c in cases] == [
        "eight-cards-noticed-on-turn-2",
        "mulligan-announced-early",
        "trigger-with-no-effect",
    ]
    listed = parse(client.get("/ja/finder/").content).find("section", class_="finder-cases").find_all("li")
    assert len(listed) == 3
    for case, item in zip(cases, listed, strict=True):
        link = item.find("a", class_="finder-case-link")
        assert link.attrs["lang"] == "ja" and link.text() == case.text_in("ja")
        assert item.find("small", class_="finder-mark") is not None
        end = graph.walk(tuple(case.answers)).node
        assert link.attrs["href"] == "/ja/finder/" + "".join(f"{a}/" for a in case.answers)
        said = set().union(*(reader.concluded(texts_of(p)) for p in cited_paragraphs(case.cites)))
        said |= {p.section.number for p in cited_paragraphs(case.cites)}
        assert conclusion_of(end) in said, case.key
    assert conclusion_of(graph.walk(("pre-game", "trivial")).node) == NOT_AN_INFRACTION
    # the near miss: a later step lists no cases
    assert parse(client.get("/ja/finder/in-game/").content).find("section", class_="finder-cases") is None


@pytest.fixture
def content(tmp_path):
    copy = tmp_path / "content"
    shutil.copytree(settings.CONTENT_DIR, copy)
    return copy


def edit(path, old, new):
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


# The defects as they were in content/finder.toml, each refused with what is wrong.
REFUSED = {
    "an outcome whose quotes do not name it (F4)": (
        'key = "game-rule-violation-public"\nsection = "2.5"\ncites = ["2.3#philosophy-2", "2.3#philosophy-3"]',
        'key = "game-rule-violation-public"\nsection = "2.5"\ncites = ["2.3#definition-1", "2.3#philosophy-3"]',
        "node 'game-rule-violation-public': none of the paragraphs it cites is of its section or name 2.5",
    ),
    "a question quoting a conclusion its answers go past (F3)": (
        'cites = ["2.1#definition-1", "2.1#definition-9", "2.1#definition-13"]',
        'cites = ["2.1#definition-1", "2.1#definition-8", "2.1#definition-9", "2.1#definition-13"]',
        "node 'trigger': cites 2.1#definition-8, which concludes 2.5, but no answer here ends there",
    ),
    "guidance claimed where the quotes name the infraction": (
        'section = "2.5"\ncites = ["2.3#philosophy-2"]\n',
        'section = "2.5"\ncites = ["2.3#philosophy-2"]\nguidance = true\n',
        "node 'game-rule-violation-public-zone': its quotes name its infraction themselves",
    ),
    "a case whose paragraphs do not say where it ends": (
        'answers = ["pre-game", "trivial"]\ncites = ["2.4#definition-2"]',
        'answers = ["pre-game", "trivial"]\ncites = ["2.4#example-a"]',
        "case 'mulligan-announced-early': the path ends at not-an-infraction (outcome 'not-an-infraction-trivial'), "
        "which none of the paragraphs it cites says",
    ),
    "an outcome with both a section and a verdict": (
        'key = "not-an-infraction-trivial"\nverdict = "not-an-infraction"',
        'key = "not-an-infraction-trivial"\nsection = "2.4"\nverdict = "not-an-infraction"',
        "node 'not-an-infraction-trivial': an outcome has a section or verdict",
    ),
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_checkcontent_and_loadcontent_refuse_a_quote_that_does_not_say_its_steps_conclusion(ipg, content, case):
    old, new, reason = REFUSED[case]
    path = content / "finder.toml"
    edit(path, old, new)
    err = StringIO()
    with pytest.raises(CommandError):
        call_command("checkcontent", str(content), stdout=StringIO(), stderr=err)
    assert str(path) in err.getvalue() and reason in err.getvalue(), err.getvalue()
    with pytest.raises(CommandError) as refused:
        call_command("loadcontent", str(content), stdout=StringIO())
    assert reason in str(refused.value)
