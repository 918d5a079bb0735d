"""Terms in the text of reading pages: the first occurrence in a paragraph is marked, with the other languages'
names in the page; occurrences are stored, found as cross-links are."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from ipgsite.ipg.models import Paragraph
from ipgsite.terms.models import Occurrence, Term
from ipgsite.translations import writing
from pages import parse


def row(client, url, key):
    response = client.get(url)
    assert response.status_code == 200
    found = parse(response.content.decode()).by_id(key)
    assert found is not None
    return found


def marks(node):
    return [(a.attrs["data-term"], a.text()) for a in node.find_all("a", class_="term")]


def test_a_terms_first_occurrence_in_a_paragraph_is_marked_and_links_to_the_glossary(client, ipg):
    node = row(client, "/en/ipg/2.4/", "example-d")  # "… to not take a mulligan then takes a mulligan after …"
    assert marks(node).count(("mulligan", "mulligan")) == 1
    mark = node.find("a", class_="term", **{"data-term": "mulligan"})
    assert mark.attrs["href"] == "/en/glossary/#mulligan"
    assert "take a mulligan then takes a mulligan" in node.find("div", class_="text").text()  # the text is intact


def test_the_other_languages_names_are_in_the_page_each_with_its_lang(client, ipg):
    node = row(client, "/en/ipg/2.3/", "example-b")
    mark = node.find("a", class_="term", **{"data-term": "scry"})
    assert mark.text() == "scries"
    card = node.by_id(mark.attrs["aria-controls"])
    assert "hidden" in card.attrs and card.attrs["lang"] == "en"
    names = {span.attrs["lang"]: span.text() for span in card.find_all("span", class_="term-name")}
    assert names == {"zh-Hans": "占卜", "ja": "占術"}


def test_a_mark_in_japanese_offers_english_and_chinese_and_the_definition(client, ipg):
    node = row(client, "/ja/ipg/2.3/", "definition-1")
    mark = node.find("a", class_="term", **{"data-term": "hidden-set"})
    assert mark.text() == "非公開のカード群"
    card = node.by_id(mark.attrs["aria-controls"])
    assert {s.attrs["lang"]: s.text() for s in card.find_all("span", class_="term-name")} == {
        "en": "hidden set",
        "zh-Hans": "非公开牌叠",
    }
    example = row(client, "/ja/ipg/2.3/", "example-c")
    mark = example.find("a", class_="term", **{"data-term": "dark-confidant"})
    assert mark.text() == "闇の腹心"
    card = example.by_id(mark.attrs["aria-controls"])
    assert {s.attrs["lang"]: s.text() for s in card.find_all("span", class_="term-name")} == {
        "en": "Dark Confidant",
        "zh-Hans": "黑暗亲信",
    }


def test_a_term_with_a_defining_paragraph_links_to_it(client, ipg):
    # "…则这不是一个非公开牌张失误。": its own section's name, which is no cross-link
    node = row(client, "/zh-hans/ipg/2.3/", "definition-1")
    mark = node.find("a", class_="term", **{"data-term": "hidden-card-error"})
    card = node.by_id(mark.attrs["aria-controls"])
    assert card.find("a").attrs["href"] == "/zh-hans/ipg/2.3/#definition-1"
    assert card.attrs["lang"] == "zh-Hans"


def test_the_compare_view_marks_each_language_with_its_own_ids(client, ipg):
    node = row(client, "/en/ipg/2.3/?langs=en,zh-hans,ja", "example-c")
    assert ("dark-confidant", "Dark Confidant") in marks(node)
    assert ("dark-confidant", "黑暗亲信") in marks(node)
    assert ("dark-confidant", "闇の腹心") in marks(node)
    ids = [a.attrs["aria-controls"] for a in node.find_all("a", class_="term")]
    assert len(ids) == len(set(ids))


def test_a_section_title_that_is_a_link_is_not_marked_inside(client, ipg):
    node = row(client, "/en/ipg/2.3/", "definition-2")  # "… is Game Play Error — Looking at Extra Cards."
    link = node.find("a", class_="xref")
    assert link is not None and link.find("a", class_="term") is None


def test_occurrences_are_stored_and_follow_an_edit_of_the_text(ipg):
    paragraph = Paragraph.objects.get(section__number="2.4", key="example-c")
    before = set(Occurrence.objects.in_text_of(paragraph).filter(language="en").values_list("term__key", "text"))
    assert ("scry", "scries") in before and ("mulligan", "mulligans") in before and ("hand", "hand") in before
    writing.write_text(
        paragraph,
        "en",
        "A player keeps her hand, then mulligans again.",
        by=writing.CONTENT_FILES,
        base_revision=paragraph.revision,
    )
    after = set(Occurrence.objects.in_text_of(paragraph).filter(language="en").values_list("term__key", "text"))
    assert after == {("hand", "hand"), ("mulligan", "mulligans")}


def test_occurrences_follow_a_new_name_in_every_paragraph(ipg):
    term = Term.objects.get(key="shuffle")
    assert not Occurrence.objects.of_term(term).filter(language="zh-hans").exists()
    writing.write_text(term, "zh-hans", "洗回", by=writing.CONTENT_FILES, base_revision=term.revision)
    found = Occurrence.objects.of_term(term).filter(language="zh-hans")
    assert found.filter(paragraph__section__number="2.3").exists()


def test_reading_the_page_only_reads_the_stored_occurrences(client, ipg):
    with CaptureQueriesContext(connection) as queries:
        client.get("/ja/ipg/2.3/?langs=en,zh-hans,ja")
    occurrence_queries = [q["sql"] for q in queries if "terms_occurrence" in q["sql"]]
    assert len(occurrence_queries) == 1
    assert not [q for q in queries if q["sql"].lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE"))]


def test_an_older_versions_text_is_not_marked(client, ipg):
    from ipgsite.releases.models import Release

    release = Release.objects.order_by("date").first()
    html = client.get(f"/en/ipg/2.3/?release={release.date.isoformat()}").content.decode()
    assert 'class="term"' not in html
