"""The IPG's own examples as the finder's recorded cases: each walked through the real pages to its own section,
checked by checkcontent and loadcontent, and offered on the finder's first page as worked examples."""

import shutil
import tomllib
from io import StringIO

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from ipgsite.finder.models import Example
from ipgsite.ipg.models import Paragraph, Part
from pages import parse

RECORDED = tomllib.loads((settings.CONTENT_DIR / "finder.toml").read_text())["examples"]


@pytest.fixture
def content(tmp_path):
    copy = tmp_path / "content"
    shutil.copytree(settings.CONTENT_DIR, copy)
    return copy


def test_every_example_paragraph_of_every_section_with_text_is_a_recorded_case(ipg):
    examples = {
        f"{number}#{key}"
        for number, key in Paragraph.objects.filter(part=Part.EXAMPLE).values_list("section__number", "key")
    }
    assert len(examples) == 14 and {e.split("#")[0] for e in examples} == {"2.1", "2.3", "2.4"}
    assert {e["paragraph"] for e in RECORDED} == examples
    assert set(Example.objects.values_list("paragraph", flat=True)) == examples


@pytest.mark.parametrize("case", RECORDED, ids=[e["paragraph"] for e in RECORDED])
def test_each_recorded_case_walks_the_pages_by_their_links_to_its_own_section(client, ipg, case):
    """From the first question, tap the recorded answer on each page; the last page names the example's section."""
    url = "/en/finder/"
    for answer in case["answers"]:
        page = parse(client.get(url).content)
        hrefs = [a.attrs["href"] for a in page.find_all("a", class_="finder-answer")]
        assert f"{url}{answer}/" in hrefs, (url, answer, hrefs)
        url = f"{url}{answer}/"
    response = client.get(url)
    assert response.status_code == 200 and response.context["step"].is_outcome, url
    number = case["paragraph"].split("#")[0]
    assert (
        parse(response.content).find("section", class_="finder-outcome").find("h1").find("span", class_="number").text()
        == number
    )


def edit(path, old, new):
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


# Each refused record: the edit of content/finder.toml, and what the error says.
REFUSED = {
    "a path ending at another section": (
        'paragraph = "2.3#example-c"\nanswers = ["in-game", "shown", "yes", "yes"]',
        'paragraph = "2.3#example-c"\nanswers = ["in-game", "shown", "no"]',
        "example 2.3#example-c: the path ends at section 2.5 (outcome 'game-rule-violation-after-trigger'), not at its "
        "own section 2.3",
    ),
    "an unknown answer": (
        'paragraph = "2.1#example-b"\nanswers = ["in-game", "not-shown"]',
        'paragraph = "2.1#example-b"\nanswers = ["in-game", "forgot"]',
        "example 2.1#example-b: 'forgot' is no answer to the question 'trigger' (its answers: not-shown, no-effect, "
        "lore-counter, no-trigger, shown)",
    ),
    "a path that stops at a question": (
        'paragraph = "2.4#example-c"\nanswers = ["pre-game", "other-error"]',
        'paragraph = "2.4#example-c"\nanswers = ["pre-game"]',
        "example 2.4#example-c: the path stops at the question 'scry-after-mulligan'",
    ),
    "a path that goes on past its outcome": (
        'paragraph = "2.4#example-c"\nanswers = ["pre-game", "other-error"]',
        'paragraph = "2.4#example-c"\nanswers = ["pre-game", "other-error", "yes"]',
        "example 2.4#example-c: the path has reached the outcome 'mulligan-procedure-error' before 'yes'",
    ),
    "a paragraph that is no example": (
        'paragraph = "2.4#example-c"',
        'paragraph = "2.4#definition-1"',
        "example 2.4#definition-1: section 2.4 has no example paragraph 'definition-1'",
    ),
    "an example with no recorded path": (
        '\n[[examples]]\nparagraph = "2.3#example-c"\nanswers = ["in-game", "shown", "yes", "yes"]\n',
        "",
        "example 2.3#example-c (2.3.toml) has no recorded path: add an [[examples]] table",
    ),
    "an example recorded twice": (
        'paragraph = "2.3#example-d"',
        'paragraph = "2.3#example-c"',
        "example 2.3#example-c: recorded twice",
    ),
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_checkcontent_and_loadcontent_refuse_a_wrong_record_naming_file_and_example(ipg, content, case):
    old, new, reason = REFUSED[case]
    path = content / "finder.toml"
    edit(path, old, new)
    err = StringIO()
    with pytest.raises(CommandError):
        call_command("checkcontent", str(content), stdout=StringIO(), stderr=err)
    assert str(path) in err.getvalue() and reason in err.getvalue(), err.getvalue()
    before = list(Example.objects.values_list("paragraph", "order", "answers"))
    with pytest.raises(CommandError) as refused:
        call_command("loadcontent", str(content), stdout=StringIO())
    assert str(path) in str(refused.value) and reason in str(refused.value)
    assert list(Example.objects.values_list("paragraph", "order", "answers")) == before


def test_a_new_example_paragraph_needs_its_recorded_path_and_is_accepted_with_one(ipg, content):
    """The near miss of the refusals: the same copy, once the new example has its path, checks and loads clean."""
    section = content / "sections" / "2.4.toml"
    edit(
        section,
        '[[paragraphs]]\nkey = "philosophy-1"',
        '[[paragraphs]]\nkey = "example-e"\npart = "example"\nen = "A player draws nine cards."\n\n'
        '[[paragraphs]]\nkey = "philosophy-1"',
    )
    err = StringIO()
    with pytest.raises(CommandError):
        call_command("checkcontent", str(content), stdout=StringIO(), stderr=err)
    assert "example 2.4#example-e (2.4.toml) has no recorded path" in err.getvalue()
    with (content / "finder.toml").open("a") as f:
        f.write('\n[[examples]]\nparagraph = "2.4#example-e"\nanswers = ["pre-game", "other-error"]\n')
    out = StringIO()
    call_command("checkcontent", str(content), stdout=out)
    assert "15 worked examples" in out.getvalue()
    call_command("loadcontent", str(content), stdout=StringIO())
    assert Example.objects.get(paragraph="2.4#example-e").answers == ["pre-game", "other-error"]


def test_the_examples_are_exported_back_as_written(ipg, tmp_path):
    out = tmp_path / "out"
    call_command("exportcontent", str(out), stdout=StringIO())
    exported = tomllib.loads((out / "finder.toml").read_text())["examples"]
    assert exported == RECORDED


def worked(client, url):
    section = parse(client.get(url).content).find("section", class_="finder-worked")
    return section.find_all("blockquote", class_="finder-worked-example") if section else []


def test_the_first_page_offers_every_recorded_case_as_a_worked_example_linking_its_path(client, ipg):
    quotes = worked(client, "/en/finder/")
    hrefs = [q.find("a", class_="finder-worked-link").attrs["href"] for q in quotes]
    assert hrefs == ["/en/finder/" + "".join(f"{a}/" for a in e["answers"]) for e in RECORDED]
    for quote, example in zip(quotes, RECORDED, strict=True):
        number, key = example["paragraph"].split("#")
        assert quote.attrs["cite"] == f"/en/ipg/{number}/#{key}"
    by_ref = {q.find("a", class_="finder-worked-link").text(): q for q in quotes}
    confidant = by_ref["Example C of 2.3"]
    text = confidant.find("div", class_="text")
    assert text.attrs["lang"] == "en" and "Dark Confidant trigger" in text.text()
    # 2.1 has no English: its examples are shown in Japanese, marked as such
    knight = by_ref["Example A of 2.1"].find("div", class_="text")
    assert "missing" in knight.classes and knight.attrs["lang"] == "ja" and "悪名の騎士" in knight.text()
    assert "Not yet translated into English; shown in Japanese." in knight.find("p", class_="missing-label").text()


def test_the_worked_examples_are_in_the_readers_language_and_only_on_the_first_page(client, ipg):
    quotes = worked(client, "/ja/finder/")
    refs = [q.find("p", class_="finder-worked-ref") for q in quotes]
    assert refs[6].text() == "2.3の例C" and all(r.attrs["lang"] == "ja" for r in refs)
    assert quotes[6].find("div", class_="text").attrs["lang"] == "ja"
    # 2.4 has no Japanese: shown as missing
    assert "missing" in quotes[10].find("div", class_="text").classes
    compared = worked(client, "/zh-hans/finder/?langs=zh-hans,ja")
    assert [d.attrs["lang"] for d in compared[6].find_all("div", class_="text")] == ["zh-Hans", "ja"]
    assert compared[6].find("a").attrs["href"].endswith("?langs=zh-hans,ja")
    # the near miss: a later step is a question, not the list
    assert worked(client, "/en/finder/in-game/") == []
    assert worked(client, "/en/finder/in-game/not-shown/") == []
