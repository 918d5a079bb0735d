"""Search: the queries judges type, in three languages, find the paragraph they need; names and numbers go
straight to their section; results are grouped, ranked, highlighted and filtered; the index follows the text."""

import io

import pytest
from django.core.management import call_command
from django.db import connection

from edits import add_note, change, delete, write
from ipgsite.editing import writing
from ipgsite.editing.writing import CONTENT_FILES
from ipgsite.ipg.models import Alias, Paragraph, Part, Section
from ipgsite.search.finding import PAGE_SIZE, find
from ipgsite.search.index import reindex
from ipgsite.search.models import Entry
from ipgsite.search.query import Query
from pages import parse
from scan import scan, searched_terms

pytestmark = pytest.mark.database  # the entries kept in memory are read from either database

PHONE = {"width": 390, "height": 844}


def search(client, q, reader="en", **filters):
    response = client.get(f"/{reader}/search/", {"q": q, **filters})
    assert response.status_code == 200, (q, response.status_code, response.get("Location"))
    return parse(response.content)


def hits(html):
    """(href, language of the snippet, kind label) of every result, in order."""
    found = []
    for result in html.find_all("li", class_="result"):
        link = result.find("p", class_="result-where").find("a")
        meta = result.find("span", class_="result-meta").text()
        found.append((link.attrs["href"], result.find("p", class_="snippet").attrs["lang"], meta))
    return found


def results(html):
    """Each result as the reader tells it apart: where it links, its kind and language, and its snippet."""
    return [
        (r.find("a").attrs["href"], r.find("span", class_="result-meta").text(), r.find("p", class_="snippet").text())
        for r in html.find_all("li", class_="result")
    ]


def urls(html):
    return [href for href, _lang, _meta in hits(html)]


# Real judge queries, each with the paragraph it must find


@pytest.mark.parametrize(
    "query, target, lang",
    [
        # English
        ("Dark Confidant", "2.3/#example-c", "en"),
        ("Ancestral Recall", "2.3/#example-a", "en"),
        ("scries two cards", "2.3/#example-b", "en"),
        ("Collected Company", "2.3/#philosophy-5", "en"),
        ("Sphinx of Jwar Isle", "2.3/#remedy-5", "en"),
        ("morph disguise", "2.3/#upgrade-1", "en"),
        ("forced mulligan", "2.4/#philosophy-1", "en"),
        ("eight cards", "2.4/#example-a", "en"),
        ("top card library mulligan", "2.4/#philosophy-2", "en"),
        # Simplified Chinese
        ("占卜", "2.3/#example-b", "zh-Hans"),
        ("黑暗亲信", "2.3/#example-c", "zh-Hans"),
        ("爪尔岛史芬斯", "2.3/#remedy-5", "zh-Hans"),
        ("脑力激荡", "2.3/#philosophy-3", "zh-Hans"),
        ("再调度", "2.4/#definition-1", "zh-Hans"),
        ("八张牌", "2.4/#example-a", "zh-Hans"),
        ("手牌", "2.3/#example-d", "zh-Hans"),
        # Japanese
        ("手札", "2.3/#example-d", "ja"),
        ("警告", "2.1/#definition-16", "ja"),
        ("闇の腹心", "2.3/#example-c", "ja"),
        ("占術", "2.3/#example-b", "ja"),
        ("渦まく知識", "2.3/#philosophy-3", "ja"),
        ("ナーセット", "2.3/#definition-1", "ja"),  # in a note
        ("賛美", "2.1/#example-a", "ja"),
        ("誘発 忘れ", "2.1/#definition-9", "ja"),
        ("腹", "2.3/#example-c", "ja"),  # a single character
    ],
)
def test_judge_queries_find_their_paragraph(client, ipg, query, target, lang):
    results = hits(search(client, query))
    assert (f"/en/ipg/{target}", lang) in [(href, found_lang) for href, found_lang, _ in results], results


@pytest.mark.parametrize("query", ["Dark Confidant", "黑暗亲信", "闇の腹心"])
def test_a_card_name_in_any_script_finds_its_example(client, ipg, query):
    assert "/en/ipg/2.3/#example-c" in urls(search(client, query))


@pytest.mark.parametrize(
    "query", ["DARK CONFIDANT", "dark confidant", "Ｄａｒｋ　Ｃｏｎｆｉｄａｎｔ", "ＤＡＲＫ confidant"]
)
def test_case_and_width_do_not_matter(client, ipg, query):
    assert ("/en/ipg/2.3/#example-c", "en") in [(h, lang) for h, lang, _ in hits(search(client, query))]


def test_half_width_katakana_finds_full_width(client, ipg):
    assert "/en/ipg/2.3/#definition-1" in urls(search(client, "ﾅｰｾｯﾄ"))


def test_results_link_to_the_paragraph_in_the_readers_language(client, ipg):
    assert "/ja/ipg/2.3/#example-c" in urls(search(client, "Dark Confidant", reader="ja"))
    assert "/zh-hans/ipg/2.3/#example-c" in urls(search(client, "闇の腹心", reader="zh-hans"))


def test_a_query_that_matches_nothing_says_so(client, ipg):
    html = search(client, "Black Lotus")
    assert hits(html) == []
    assert "Nothing found" in html.find("p", class_="no-results").text()


def test_every_term_must_match_or_the_results_say_which_they_lack(client, ipg):
    html = search(client, "Dark Confidant mulligan")  # no paragraph or note names both
    assert html.find("p", class_="result-count").text().startswith("No paragraph or note contains every word")
    for result in html.find_all("li", class_="result"):
        lacks = [s.text() for s in result.find("p", class_="missing").find_all("s")]
        assert lacks in (["dark confidant"], ["mulligan"])
    html = search(client, "Dark Confidant resolves")
    assert urls(html) == ["/en/ipg/2.3/#example-c"] and html.find("p", class_="missing") is None


# Section numbers and names go straight to the section


@pytest.mark.parametrize(
    "query, number",
    [
        ("2.3", "2.3"),
        ("２．５", "2.5"),
        ("2.5節", "2.5"),
        ("section 2.4", "2.4"),
        ("Hidden Card Error", "2.3"),
        ("hidden card error", "2.3"),
        ("Game Play Error — Hidden Card Error", "2.3"),
        ("Game Play Error - Hidden Card Error", "2.3"),
        ("非公開カードに関する誤り", "2.3"),
        ("非公开牌张失误", "2.3"),
        ("游戏行动失误~额外抓牌", "2.3"),  # its former name
        ("GRV", "2.5"),
        ("“违反游戏规则”", "2.5"),
        ("〔ゲーム上の誤り ― 過剰なカードを見た〕", "2.2"),
        ("Tournament Error — Marked Cards", "3.8"),
        ("Appendix A", "A"),
    ],
)
def test_a_section_number_or_name_goes_straight_to_the_section(client, ipg, query, number):
    for reader in ("en", "ja"):
        response = client.get(f"/{reader}/search/", {"q": query})
        assert response.status_code == 302
        assert response["Location"] == f"/{reader}/ipg/{number}/"


def test_an_unknown_section_number_is_an_ordinary_search(client, ipg):
    html = search(client, "9.9")
    assert hits(html) == []


def test_part_of_a_name_lists_the_sections_it_names(client, ipg):
    html = search(client, "Marked")
    sections = html.find("section", class_="matching-sections")
    assert [a.attrs["href"] for a in sections.find_all("a")] == ["/en/ipg/3.8/"]


# Grouped, ranked, highlighted


def test_results_are_grouped_by_section_in_rank_order(client, ipg):
    html = search(client, "mulligan")
    groups = html.find_all("section", class_="result-group")
    assert groups[0].find("h2").find("a").attrs["href"] == "/en/ipg/2.4/"
    first_hits = [a.attrs["href"] for a in groups[0].find_all("a") if "#" in a.attrs["href"]]
    # The example that says "mulligan" three times in one sentence comes first.
    assert first_hits[0] == "/en/ipg/2.4/#example-d"
    sections = [g.find("h2").find("a").attrs["href"] for g in groups]
    assert len(sections) == len(set(sections)), "each section is one group"


def test_official_text_outranks_a_note_that_says_the_same_as_often(client, ipg):
    html = search(client, "闇の腹心", language="ja")
    assert hits(html)[0][2].startswith("Examples")
    assert hits(html)[1][2].startswith("Commentary")


def test_the_match_is_highlighted_in_its_original_form(client, ipg):
    html = search(client, "dark confidant")
    snippet = next(
        r for r in html.find_all("li", class_="result") if r.find("p", class_="snippet").attrs["lang"] == "en"
    )
    assert [m.text() for m in snippet.find_all("mark")] == ["Dark Confidant"]
    html = search(client, "ＤＡＲＫ")
    assert "Dark" in [m.text() for m in html.find_all("mark")]


def test_a_long_text_is_cut_around_the_match(client, ipg):
    html = search(client, "Sphinx of Jwar Isle")
    snippet = next(
        r for r in html.find_all("li", class_="result") if r.find("p", class_="snippet").attrs["lang"] == "en"
    )
    text = snippet.find("p", class_="snippet").text()
    assert text.startswith("…") and len(text) < 250
    assert "Sphinx of Jwar Isle" in [m.text() for m in snippet.find_all("mark")]


def test_snippets_are_escaped_then_marked(client, ipg):
    write("2.4", "definition-2", "en", "Never type `<b>Dark Confidant</b>` & friends here.")
    body = client.get("/en/search/", {"q": "Dark Confidant"}).content.decode()
    assert "Never type &lt;b&gt;<mark>Dark Confidant</mark>&lt;/b&gt; &amp; friends here." in body
    body = client.get("/en/search/", {"q": "<b>Dark Confidant"}).content.decode()
    assert "&lt;<mark>b&gt;Dark Confidant</mark>&lt;/b&gt;" in body and "<b>" not in body


@pytest.mark.parametrize(
    "text, marked",
    [
        ("Reveal the Dark Confidant card.", "Reveal the <mark>Dark Confidant</mark> card."),  # case alone folds
        ("Ｄａｒｋ Ｃｏｎｆｉｄａｎｔ reveals.", "<mark>Ｄａｒｋ Ｃｏｎｆｉｄａｎｔ</mark> reveals."),  # widths too
        ("Die Straße: Dark Confidant.", "Die Straße: <mark>Dark Confidant</mark>."),  # ß folds to two letters
        # as long folded, but shifted: the ligature unfolds to two letters, the accent joins its letter
        ("\ufb02oor: Dark Confidant, cafe\u0301.", "\ufb02oor: <mark>Dark Confidant</mark>, cafe\u0301."),
    ],
)
def test_the_mark_is_on_the_words_found_however_the_text_folds(client, ipg, text, marked):
    write("2.4", "definition-2", "en", text)
    body = client.get("/en/search/", {"q": "dark confidant", "lang": "en"}).content.decode()
    assert marked in body


def test_a_small_word_is_marked_only_where_it_is_a_whole_word(client, ipg):
    """ "to" and "of" in a longer query mark "to" and "of", not the end of "into" or the start of "often"; a query of
    small words alone still marks them wherever they match."""
    write("2.4", "definition-2", "en", "Put the Dark Confidant into the library on top of it, often to reveal it.")
    body = client.get("/en/search/", {"q": "Confidant into top of to", "language": "en"}).content.decode()
    assert (
        "Put the Dark <mark>Confidant into</mark> the library on <mark>top of</mark> it, often <mark>to</mark> rev"
        in body
    )
    body = client.get("/en/search/", {"q": "Confidant to", "language": "en"}).content.decode()
    assert "Dark <mark>Confidant</mark> into the library on top of it, often <mark>to</mark> reveal" in body
    body = client.get("/en/search/", {"q": "of", "language": "en"}).content.decode()
    assert "top <mark>of</mark> it, <mark>of</mark>ten" in body


def test_snippets_carry_their_language(client, ipg):
    languages = {lang for _, lang, _ in hits(search(client, "Dark Confidant"))}
    assert languages == {"en", "zh-Hans", "ja"}  # the card is a term: its Chinese and Japanese names are found too


# Filters


def test_filter_by_language(client, ipg):
    html = search(client, "Dark Confidant", language="zh-hans")
    assert {lang for _, lang, _ in hits(html)} == {"zh-Hans"}
    assert "checked" in html.find("input", name="language", value="zh-hans").attrs
    assert "checked" not in html.find("input", name="language", value="en").attrs


def test_filter_by_kind(client, ipg):
    notes = hits(search(client, "手札", kind="note", language="ja"))
    assert notes and all(meta.startswith("Commentary") for _, _, meta in notes)
    examples = hits(search(client, "手札", kind="example", language="ja"))
    assert examples and all("#example-" in href for href, _, _ in examples)
    official = hits(search(client, "手札", kind="text", language="ja"))
    assert official and all(meta.startswith("Official text") for _, _, meta in official)
    assert len(notes) + len(examples) + len(official) == len(hits(search(client, "手札", language="ja")))


def test_filters_combine_and_unknown_values_are_ignored(client, ipg):
    both = hits(search(client, "警告", language="ja", kind=["note", "nonsense"]))
    assert both and all(lang == "ja" and meta.startswith("Commentary") for _, lang, meta in both)
    assert hits(search(client, "占卜", language="xx")) == hits(search(client, "占卜"))


def test_many_results_come_a_page_at_a_time(client, ipg):
    first = search(client, "の")
    link = first.find("a", rel="next")
    assert link is not None
    second = parse(client.get(f"/en/search/{link.attrs['href']}").content)
    assert hits(second) and not set(results(first)) & set(results(second))
    assert second.find("a", rel="prev") is not None


# The index follows the text


def test_an_edit_in_the_admin_is_found_at_once(admin_client, client, ipg):
    from people import admin_form_data

    p = Paragraph.objects.get(section__number="2.4", key="definition-2")
    form = admin_client.get(f"/admin/ipg/paragraph/{p.pk}/change/")
    data = admin_form_data(form)
    data["text_en"] = "Trivial process errors, such as shuffling a Quokka, are not an infraction."
    response = admin_client.post(f"/admin/ipg/paragraph/{p.pk}/change/", data)
    assert response.status_code == 302, response.content[:3000]
    assert urls(search(client, "quokka")) == ["/en/ipg/2.4/#definition-2"]
    assert "/en/ipg/2.4/#definition-2" not in urls(search(client, "declaring an intent"))


def test_a_new_note_is_found_and_a_deleted_one_is_not(client, ipg):
    note = add_note("2.4", "example-a", "ja", ja="ウーパールーパー")
    assert urls(search(client, "ウーパールーパー")) == ["/en/ipg/2.4/#example-a"]
    assert urls(search(client, "ウー")) == ["/en/ipg/2.4/#example-a"]  # two characters: the other index
    delete(note)
    assert urls(search(client, "ウーパールーパー")) == []
    assert urls(search(client, "ウー")) == []


def test_a_note_moved_to_another_section_is_found_there(client, ipg):
    note = add_note("2.4", "example-a", "ja", ja="ウーパールーパー")
    writing.change_note(note, paragraph=Paragraph.objects.get(section__number="2.3", key="example-a"), by=CONTENT_FILES)
    assert urls(search(client, "ウーパールーパー")) == ["/en/ipg/2.3/#example-a"]


def test_an_edit_is_indexed_as_soon_as_it_is_committed(transactional_db):
    p = write("2.4", "definition-2", "ja", "カピバラ")  # autocommit: committed at once
    assert Entry.objects.get(folded__contains="カピバラ").paragraph == p


def test_a_renamed_section_is_found_by_its_new_name_at_once(transactional_db, client):
    """Committed, as in production: the sections' names are read once per content version and kept (a test
    inside a transaction reads them afresh every time), and a rename through the write path is a new version."""
    old = "Game Play Error — Mulligan Procedure Error"
    assert client.get("/en/search/", {"q": "Quokka Procedure Error"}).status_code == 200  # names read and kept
    assert client.get("/en/search/", {"q": old})["Location"] == "/en/ipg/2.4/"
    change(Section.objects.get(number="2.4"), title_en="Quokka Procedure Error")
    assert client.get("/en/search/", {"q": "Quokka Procedure Error"})["Location"] == "/en/ipg/2.4/"
    assert client.get("/en/search/", {"q": old}).status_code == 200  # the old name is gone
    change(Alias(section=Section.objects.get(number="2.5"), name="Quokka Rule", language="en"))
    assert client.get("/en/search/", {"q": "Quokka Rule"})["Location"] == "/en/ipg/2.5/"


def test_a_section_written_around_the_write_path_still_lists_its_results(transactional_db, client):
    """A write by other means does not change the content version, so the names kept from before do not know its
    section; indexing its paragraph changes the version, so the entries kept are read again: its results are listed
    under it all the same, its section read from the database."""
    assert urls(search(client, "capybara")) == []  # names and entries read and kept
    chapter = Section.objects.get(number="2.4").chapter
    section = Section.objects.create(number="9.9", chapter=chapter, order=9999, title_en="Capybara Error")
    (paragraph,) = Paragraph.objects.bulk_create(
        [Paragraph(section=section, key="definition-1", part=Part.DEFINITION, order=1, text_en="A capybara.")]
    )
    reindex(paragraph_ids=[paragraph.pk])
    html = search(client, "capybara")
    assert urls(html) == ["/en/ipg/9.9/#definition-1"]
    assert "Capybara Error" in html.find("section", class_="result-group").find("h2").text()


def test_a_rebuilt_index_is_ranked_by_its_new_entries(transactional_db, client):
    """Committed, as in production: what ranks an entry (its language, kind, paragraph) is kept per content version.
    `rebuildsearch`, run around the write path, gives every entry a new id, and the entries kept are read again: the
    page's language still comes first, in the same order."""
    before = hits(search(client, "Dark Confidant"))  # entries read and kept
    Paragraph.objects.filter(section__number="2.1").update(text_en="")
    call_command("rebuildsearch", stdout=io.StringIO())
    after = hits(search(client, "Dark Confidant"))
    languages = [lang for _href, lang, _meta in after]
    assert languages == sorted(languages, key=lambda lang: lang != "en") and languages[0] == "en"
    assert [hit for hit in after if hit[1] == "en"] == [hit for hit in before if hit[1] == "en"]


def test_a_renamed_paragraph_is_found_under_its_new_key_at_once(transactional_db, client):
    """Committed, as in production: the entries kept in memory are those of one content version, and renaming a key
    makes a new version, so the next search links the paragraph's new address."""
    assert "/en/ipg/2.3/#example-c" in urls(search(client, "Dark Confidant"))  # entries read and kept
    paragraph = Paragraph.objects.get(section__number="2.3", key="example-c")
    writing.save_structure(paragraph, {"key": "example-c-confidant"}, by=CONTENT_FILES)
    found = urls(search(client, "Dark Confidant"))
    assert "/en/ipg/2.3/#example-c-confidant" in found and "/en/ipg/2.3/#example-c" not in found


@pytest.mark.parametrize(
    "q, languages",
    [
        ("library", ()),  # one term with many forms: each of its conditions a list of ids on PostgreSQL
        ("scry", ()),
        ("scry", ("ja",)),
        ("penalties", ()),  # no term of the termbase: "penalty" is found by its stem only
        ("reveals", ()),  # a term: its names in every language, and its stems
        ("手札", ()),
        ("占", ()),
        ("闇の腹心", ()),
        ("再調度", ()),
        ("of", ()),  # no index holds two Latin letters: compared on every entry
        ("scry two cards", ()),  # several terms: one bitmap of the entries that have them all
        ("top card library mulligan", ()),
        ("of library", ()),
        ("Hidden Card Error", ()),  # a name: its definition first, then official text before commentary
        ("hidden set", ("ja",)),
        ("opponent", ()),  # many matches: on PostgreSQL ranked in memory, by the scan in SQL
    ],
)
def test_the_index_counts_what_a_scan_finds(ipg, q, languages):
    """The entries kept in memory and their index find and count exactly what a scan of every entry does (tests/scan.py),
    on both databases; the page shows the first PAGE_SIZE of them."""
    query = Query.parse(q, languages)
    found = find(query, "en")
    terms = searched_terms(query)[0]
    assert found.total == len(scan(terms, languages)) > 0
    assert found.shown == min(found.total, PAGE_SIZE)


def test_loading_content_rebuilds_the_index(client, ipg):
    Entry.objects.all().delete()
    assert urls(search(client, "Dark Confidant")) == []
    call_command("loadcontent", verbosity=0)
    assert "/en/ipg/2.3/#example-c" in urls(search(client, "Dark Confidant"))


def test_the_database_keeps_no_text_index_of_its_own(ipg):
    """Search finds in the entries kept in memory: no FTS5 table, trigger, pg_trgm index or tsvector (search 0006)."""
    with connection.cursor() as cursor:
        tables = connection.introspection.table_names(cursor)
        columns = [c.name for c in connection.introspection.get_table_description(cursor, "search_entry")]
        indexes = connection.introspection.get_constraints(cursor, "search_entry")
    assert not [table for table in tables if table.startswith("search_entry_")]
    assert not {"grams", "grams_words", "english_words"} & set(columns)
    assert not [name for name in indexes if "trigram" in name or "words" in name]


# The search box


@pytest.mark.parametrize("url", ["/en/", "/zh-hans/ipg/2.3/", "/ja/ipg/4.8/", "/en/penalties/", "/en/search/?q=x"])
def test_every_page_has_a_search_box_in_its_header(client, ipg, url):
    html = parse(client.get(url).content)
    form = html.find("header").find("form", role="search")
    prefix = url.split("/")[1]
    assert form.attrs["action"] == f"/{prefix}/search/" and form.attrs["method"] == "get"
    box = form.find("input", name="q")
    assert form.find("label").attrs["for"] == box.attrs["id"]


def test_an_empty_search_is_a_plain_page(client, ipg):
    html = search(client, "")
    assert hits(html) == [] and html.find("input", id="search-q") is not None


def test_searching_on_a_phone_without_javascript(live_ipg, new_page):
    page = new_page(viewport=PHONE, java_script_enabled=False)
    page.goto(f"{live_ipg.url}/ja/")
    page.fill("#site-search-q", "手札")
    page.press("#site-search-q", "Enter")
    page.wait_for_url("**/ja/search/?q=*")
    assert page.locator(".result mark").first.inner_text() == "手札"
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    page.locator(".result-where a").first.click()
    page.wait_for_url("**/ja/ipg/2.3/#*")
    key = page.url.rsplit("#", 1)[1]
    assert page.locator(f"#{key}").is_visible()


def test_text_in_the_readers_language_comes_first(client, ipg):
    # Sphinx of Jwar Isle is a card of the termbase: its Chinese name, 爪尔岛史芬斯, finds the Chinese too
    assert [lang for _, lang, _ in hits(search(client, "Sphinx of Jwar Isle"))] == ["en", "ja", "zh-Hans"]
    assert [lang for _, lang, _ in hits(search(client, "Sphinx of Jwar Isle", reader="ja"))] == ["ja", "en", "zh-Hans"]
