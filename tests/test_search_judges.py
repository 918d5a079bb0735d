"""Search as judges type: inflected English, traditional Chinese characters, near misses. Each query with the
section and paragraph it must find (run on SQLite, and on PostgreSQL with DATABASE_URL)."""

from io import StringIO

import pytest
from django.core.management import call_command

from edits import write
from ipgsite.search.models import Entry
from pages import parse

pytestmark = pytest.mark.database  # the entries kept in memory are read from either database


def get(client, q, reader="en", **params):
    return client.get(f"/{reader}/search/", {"q": q, **params})


def page(client, q, reader="en", **params):
    response = get(client, q, reader, **params)
    assert response.status_code == 200, (q, response.status_code, response.get("Location"))
    return parse(response.content)


def found(html):
    """(href, lang) of every result, in order."""
    return [
        (r.find("p", class_="result-where").find("a").attrs["href"], r.find("p", class_="snippet").attrs["lang"])
        for r in html.find_all("li", class_="result")
    ]


def hrefs(html):
    return [href for href, _lang in found(html)]


def marks(html, href, lang="en"):
    """The marked words of the result in `lang` that links to `href`."""
    for result in html.find_all("li", class_="result"):
        snippet = result.find("p", class_="snippet")
        if result.find("p", class_="result-where").find("a").attrs["href"] == href and snippet.attrs["lang"] == lang:
            return [m.text() for m in snippet.find_all("mark")]
    raise AssertionError(f"no result in {lang} links to {href}")


def missing(html):
    """The words each result lacks, in order."""
    return [[s.text() for s in r.find_all("s")] for r in html.find_all("li", class_="result")]


def suggestions(html):
    box = html.find("p", class_="did-you-mean")
    return [(a.text(), a.attrs["href"], a.attrs["lang"]) for a in box.find_all("a")] if box else []


# Inflection: Snowball's English stems (SQLite: computed by the index; PostgreSQL: its `english` configuration)


@pytest.mark.parametrize(
    "query, target, marked",
    [
        ("scry two cards", "2.3/#example-b", ["scries two cards", "scried"]),
        ("scries", "2.3/#example-b", ["scries", "scried"]),
        ("scried", "2.3/#example-b", ["scries", "scried"]),
        ("scrying", "2.3/#example-b", ["scries", "scried"]),
        ("mulligans", "2.4/#example-d", ["mulligan"] * 3),  # the text says only "mulligan"
        ("mulliganed", "2.4/#example-d", ["mulligan"] * 3),
        ("shuffling", "2.4/#remedy-1", ["shuffled"]),
        ("revealing the card", "2.3/#example-c", ["reveal the card"]),  # not "the" in "their": a small word, whole
    ],
)
def test_an_inflected_query_finds_the_other_forms_of_its_words(client, ipg, query, target, marked):
    html = page(client, query)
    assert (f"/en/ipg/{target}", "en") in found(html)
    assert marks(html, f"/en/ipg/{target}") == marked


def test_irregular_forms_come_from_the_termbase(client, ipg):
    # "drew" is a variant of the term "draw" (content/terms.toml); no stemmer makes "draw" of it.
    html = page(client, "drew four cards")
    assert ("/en/ipg/2.3/#example-a", "en") in found(html)
    assert marks(html, "/en/ipg/2.3/#example-a") == ["draws four cards"]
    # A word that is no term's form is stemmed, not guessed at: every result lacks it.
    assert set(map(tuple, missing(page(client, "drewx four cards")))) == {("drewx",)}


def test_inflected_words_still_must_all_match(client, ipg):
    both = hrefs(page(client, "scried mulligans"))
    assert "/en/ipg/2.4/#example-c" in both  # "keeps her hand, scries, then mulligans again"
    assert "/en/ipg/2.3/#example-b" not in both  # scries, but no mulligan


def test_stems_match_whole_words_only(client, ipg):
    # "discarding" finds "discarding" (and "discard"), not every word that starts with "card"; "scrim" begins
    # like the stem "scri" of "scries" and finds nothing.
    assert "/en/ipg/2.3/#remedy-1" in hrefs(page(client, "discarding"))
    assert "/en/ipg/2.3/#example-b" not in hrefs(page(client, "discarding"))
    assert hrefs(page(client, "scrim")) == []


# Across languages: a query naming a term finds the term's names in every language


@pytest.mark.parametrize(
    "query, language, target, marked",
    [
        ("scry", "ja", "2.3/#example-b", ["占術", "占術"]),
        ("scried", "ja", "2.3/#example-b", ["占術", "占術"]),
        ("scry", "zh-hans", "2.3/#example-b", ["占卜", "占卜"]),
        ("Dark Confidant", "ja", "2.3/#example-c", ["闇の腹心"]),
        ("Dark Confidant", "zh-hans", "2.3/#example-c", ["黑暗亲信", "Dark Confidant"]),
        ("黑暗親信", "ja", "2.3/#example-c", ["闇の腹心"]),  # traditional characters, to Japanese
        ("mulligan", "zh-hans", "2.4/#example-d", ["再调度", "再调度", "再调度"]),
        ("mulliganed", "zh-hans", "2.4/#example-d", ["再调度", "再调度", "再调度"]),
        ("占術", "en", "2.3/#example-b", ["scries", "scried"]),
        ("マリガン", "en", "2.4/#example-d", ["mulligan"] * 3),
        ("Brainstorm", "ja", "2.3/#philosophy-3", ["渦まく知識"]),
        ("library", "ja", "2.3/#remedy-5", ["ライブラリー"]),
    ],
)
def test_a_term_finds_its_names_in_every_language(client, ipg, query, language, target, marked):
    html = page(client, query, language=language)
    assert {lang for _href, lang in found(html)} == {"zh-Hans" if language == "zh-hans" else language}
    lang = "zh-Hans" if language == "zh-hans" else language
    assert (f"/en/ipg/{target}", lang) in found(html)
    assert set(marks(html, f"/en/ipg/{target}", lang)) == set(marked)


@pytest.mark.parametrize("reader, lang", [("en", "en"), ("zh-hans", "zh-Hans"), ("ja", "ja")])
def test_the_readers_language_comes_first(client, ipg, reader, lang):
    html = page(client, "scry", reader=reader)
    assert {found_lang for _href, found_lang in found(html)} == {"en", "zh-Hans", "ja"}
    for group in html.find_all("section", class_="result-group"):
        languages = [snippet.attrs["lang"] for snippet in group.find_all("p", class_="snippet")]
        assert languages == sorted(languages, key=lambda found_lang: found_lang != lang), languages
    assert found(html)[0][1] == lang


def test_words_that_name_no_term_stay_in_their_language(client, ipg):
    assert {lang for _href, lang in found(page(client, "four cards"))} == {"en"}
    # Two words that are a name together are that name: "dark" alone is no term.
    assert {lang for _href, lang in found(page(client, "Dark"))} == {"en", "zh-Hans"}


@pytest.mark.parametrize(
    "query, reader, also",
    [
        ("scry", "en", [("占卜", "zh-Hans"), ("占術", "ja")]),
        ("scried", "ja", [("scry", "en"), ("占卜", "zh-Hans"), ("占術", "ja")]),
        ("黑暗親信", "zh-hans", [("黑暗亲信", "zh-Hans"), ("Dark Confidant", "en"), ("闇の腹心", "ja")]),
        ("再調度", "en", [("再调度", "zh-Hans"), ("mulligan", "en"), ("マリガン", "ja")]),
    ],
)
def test_the_page_says_what_else_it_searched_for(client, ipg, query, reader, also):
    line = page(client, query, reader).find("p", class_="also-searched")
    assert [(span.text(), span.attrs["lang"]) for span in line.find_all("span")] == also


def test_nothing_else_is_named_for_a_plain_query(client, ipg):
    assert page(client, "four cards").find("p", class_="also-searched") is None
    assert page(client, "闇の腹心").find("p", class_="also-searched").text().count("闇の腹心") == 0


# Traditional Chinese: the query is converted (OpenCC), the text never is


@pytest.mark.parametrize(
    "traditional, simplified, target",
    [
        ("黑暗親信", "黑暗亲信", "2.3/#example-c"),
        ("再調度", "再调度", "2.4/#definition-1"),
        ("非公開牌張", "非公开牌张", "2.3/#definition-1"),
        ("額外的牌", "额外的牌", "2.3/#definition-2"),
    ],
)
def test_traditional_characters_find_the_simplified_text(client, ipg, traditional, simplified, target):
    html = page(client, traditional)
    assert (f"/en/ipg/{target}", "zh-Hans") in found(html)
    assert simplified in marks(html, f"/en/ipg/{target}", "zh-Hans")
    # The same results and sections as the simplified query, in the same order.
    same = page(client, simplified)
    assert found(html) == found(same)
    listed = html.find("section", class_="matching-sections")
    assert (listed and listed.text()) == (
        same.find("section", class_="matching-sections") and same.find("section", class_="matching-sections").text()
    )


def test_traditional_and_simplified_list_the_sections_they_name(client, ipg):
    html = page(client, "再調度")
    assert [a.attrs["href"] for a in html.find("section", class_="matching-sections").find_all("a")] == ["/en/ipg/2.4/"]
    html = page(client, "非公開牌張")
    assert [a.attrs["href"] for a in html.find("section", class_="matching-sections").find_all("a")] == ["/en/ipg/2.3/"]


@pytest.mark.parametrize(
    "traditional, number",
    [
        ("額外看牌", "2.2"),
        ("非公開牌張失誤", "2.3"),
        ("遊戲行動失誤~額外看牌", "2.2"),
        ("遊戲行動失誤~再調度失誤", "2.4"),
    ],
)
def test_a_section_name_in_traditional_characters_goes_to_the_section(client, ipg, traditional, number):
    for reader in ("en", "zh-hans"):
        response = get(client, traditional, reader)
        assert response.status_code == 302
        assert response["Location"] == f"/{reader}/ipg/{number}/"


def test_the_text_is_shown_as_written_not_converted(client, ipg):
    body = get(client, "黑暗親信").content.decode()
    assert "<mark>黑暗亲信</mark>" in body
    assert body.count("黑暗親信") == body.count('value="黑暗親信"') + body.count("<title>黑暗親信")


def test_japanese_kanji_are_not_taken_for_traditional_chinese(client, ipg):
    # 闇 is also a traditional character (simplified 暗): a Japanese query keeps it, and finds the Japanese text.
    html = page(client, "闇の腹心")
    assert ("/en/ipg/2.3/#example-c", "ja") in found(html)
    assert "闇の腹心" in marks(html, "/en/ipg/2.3/#example-c", "ja")


# Near misses: "Did you mean", as links


@pytest.mark.parametrize(
    "query, suggestion, lang",
    [
        ("mulligna", "mulligan", "en"),
        ("Hiden Card Eror", "Hidden Card Error", "en"),
        ("Markd Cards", "Marked Cards", "en"),
        ("非公開カードに関する誤リ", "非公開カードに関する誤り", "ja"),
        # The termbase's names and variants, in any language; a variant suggests its term's name.
        ("scyr", "scry", "en"),
        ("Brainstrom", "Brainstorm", "en"),
        ("Dark Confidnt", "Dark Confidant", "en"),
        ("闇の腹芯", "闇の腹心", "ja"),
        ("mulliagn", "mulligan", "en"),
    ],
)
def test_a_near_miss_offers_what_it_nearly_spells(client, ipg, query, suggestion, lang):
    html = page(client, query, reader="ja", language="en")
    offered = suggestions(html)
    assert offered[0][0] == suggestion and offered[0][2] == lang
    # The link searches for it, with the same filters.
    assert offered[0][1].startswith("?q=") and offered[0][1].endswith("&language=en")


def test_following_a_suggestion_finds_the_paragraph_or_goes_to_the_section(client, ipg):
    (_text, href, _lang), *_ = suggestions(page(client, "mulligna"))
    assert "/en/ipg/2.4/#example-d" in hrefs(parse(client.get(f"/en/search/{href}").content))
    (_text, href, _lang), *_ = suggestions(page(client, "Hiden Card Eror"))
    response = client.get(f"/en/search/{href}")
    assert response.status_code == 302 and response["Location"] == "/en/ipg/2.3/"


def test_a_word_that_finds_nothing_is_corrected_in_its_query(client, ipg):
    offered = suggestions(page(client, "mulligna procedure"))
    assert "mulligan procedure" in [text for text, _href, _lang in offered]


@pytest.mark.parametrize(
    "query", ["mulligan", "mulligans", "Hidden Card", "scries", "scryed", "手札", "黑暗親信", "xq", "zzzzzzzzzzzz"]
)
def test_no_suggestion_for_a_query_spelled_right_or_too_far_from_any_name(client, ipg, query):
    assert suggestions(page(client, query)) == []


def test_suggestions_are_translated(client, ipg):
    assert page(client, "mulligna", reader="ja").find("p", class_="did-you-mean").text().startswith("もしかして")
    assert page(client, "mulligna", reader="zh-hans").find("p", class_="did-you-mean").text().startswith("您是不是要找")


# The index follows the text: stems too


def test_an_edit_is_found_by_the_inflections_of_its_words(client, ipg):
    write("2.4", "definition-2", "en", "A player shuffles the quokkas back.")
    assert hrefs(page(client, "shuffling quokka")) == ["/en/ipg/2.4/#definition-2"]
    html = page(client, "intent to mulligan")  # the old text is gone: "mulligan" is still found elsewhere
    assert "/en/ipg/2.4/#definition-2" not in hrefs(html)
    assert set(map(tuple, missing(html))) == {("intent",)}


def test_rebuildsearch_indexes_the_stems_of_every_entry(client, ipg):
    Entry.objects.all().delete()
    call_command("rebuildsearch", stdout=StringIO())
    entry = Entry.objects.get(paragraph__section__number="2.3", paragraph__key="example-b", language="en", note=None)
    assert entry.stems == " a player scri two card when they should onli have scri one "
    # "casts" is no term: its stem finds "casting".
    assert ("/en/ipg/2.3/#example-a", "en") in found(page(client, "casts Ancestral Recall"))


def test_following_a_suggestion_on_a_phone_without_javascript(live_ipg, new_page):
    browser_page = new_page(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    browser_page.goto(f"{live_ipg.url}/en/search/?q=mulligna")
    browser_page.locator(".did-you-mean a").first.click()
    browser_page.wait_for_url("**/en/search/?q=mulligan")
    assert browser_page.locator(".result mark").first.inner_text().lower() == "mulligan"
    assert browser_page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
