"""/<lang>/glossary/: every term with its three names side by side, grouped by kind, its definition, where used."""

import pytest

import edits
from ipgsite.editing import writing
from ipgsite.terms.models import Term
from pages import parse, term_mark


def glossary(client, url="/en/glossary/"):
    response = client.get(url)
    assert response.status_code == 200
    return parse(response.content.decode())


def entry(root, key):
    found = root.by_id(key)
    assert found is not None, key
    return found


def names(article):
    return {
        div.find("dt").text(): (div.find("dd").text(), div.find("dd").attrs.get("lang"), div.find("dd").classes)
        for div in article.find("dl", class_="term-names").find_all("div")
    }


def test_every_term_is_listed_once_grouped_by_kind(client, ipg):
    root = glossary(client)
    groups = root.find_all("section", class_="glossary-kind")
    assert [g.attrs["id"] for g in groups] == ["kind-infraction", "kind-game-term", "kind-card"]
    listed = [a.attrs["id"] for g in groups for a in g.find_all("article")]
    assert sorted(listed) == sorted(Term.objects.values_list("key", flat=True))
    infractions = [a.attrs["id"] for a in groups[0].find_all("article")]
    assert "hidden-card-error" in infractions and "mulligan" not in infractions
    assert "dark-confidant" in [a.attrs["id"] for a in groups[2].find_all("article")]


def test_an_entry_shows_the_three_names_side_by_side_each_with_its_lang(client, ipg):
    article = entry(glossary(client, "/ja/glossary/"), "mulligan")
    shown = names(article)
    assert shown["英語"][:2] == ("mulligan", "en")  # each language as Japanese calls it (W2)
    assert shown["簡体字中国語"][:2] == ("再调度", "zh-Hans")
    assert shown["日本語"][:2] == ("マリガン", "ja")
    assert article.find("h3").text() == "マリガン" and article.find("h3").attrs["lang"] == "ja"


def test_a_missing_name_is_shown_as_missing(client, ipg):
    shown = names(entry(glossary(client, "/zh-hans/glossary/"), "disguise"))
    value, lang, classes = shown["日文"]
    assert "missing" in classes and lang is None and value == "缺失"
    assert shown["英文"][0] == "disguise"


def test_the_definition_is_the_defining_paragraphs_text_in_the_page_language_linked(client, ipg):
    article = entry(glossary(client, "/zh-hans/glossary/"), "hidden-card-error")
    definition = article.find("div", class_="term-definition")
    assert definition.find("a").attrs["href"] == "/zh-hans/ipg/2.3/#definition-1"
    quote = definition.find("blockquote")
    assert quote.attrs["lang"] == "zh-Hans"
    assert quote.text().startswith("牌手在游戏中发生失误")


def test_a_definition_missing_in_the_page_language_says_which_language_it_is_shown_in(client, ipg):
    article = entry(glossary(client, "/en/glossary/"), "missed-trigger")
    definition = article.find("div", class_="term-definition")
    assert definition.find("blockquote").attrs["lang"] == "ja"
    assert "Not yet translated into English; shown in Japanese." in definition.text()


def test_a_term_without_a_defining_paragraph_says_so_and_invents_nothing(client, ipg):
    article = entry(glossary(client), "library")
    assert article.find("div", class_="term-definition") is None
    assert "No paragraph of the IPG on this site defines it." in article.text()


def test_the_sections_that_use_a_term_are_listed_and_linked(client, ipg):
    article = entry(glossary(client), "mulligan")
    links = [a.attrs["href"] for a in article.find("p", class_="term-sections").find_all("a")]
    assert links == ["/en/ipg/2.4/#definition-1"]  # 2.3 names it only inside 〔マリガン手順の誤り〕, a note
    scry = [a.attrs["href"] for a in entry(glossary(client), "scry").find("p", class_="term-sections").find_all("a")]
    assert [href.split("#")[0] for href in scry] == ["/en/ipg/2.3/", "/en/ipg/2.4/"]
    cheating = entry(glossary(client), "cheating")
    assert [a.attrs["href"] for a in cheating.find("p", class_="term-sections").find_all("a")][0].startswith(
        "/en/ipg/2.1/#"
    )


def test_commentary_that_uses_a_term_adds_no_section_to_where_it_is_used(client, ipg):
    edits.add_note("2.1", "example-a", "en", en="Compare a mulligan.")
    page = parse(client.get("/en/ipg/2.1/").content.decode())
    assert term_mark(page, "mulligan") is not None  # the note marks it
    article = entry(glossary(client), "mulligan")
    assert [a.attrs["href"] for a in article.find("p", class_="term-sections").find_all("a")] == [
        "/en/ipg/2.4/#definition-1"
    ]


def test_a_term_no_official_text_uses_says_so(client, ipg):
    term = writing.save_structure(Term(key="test-term"), {"kind": "card", "order": 99}, by=writing.CONTENT_FILES)
    writing.write_text(term, "en", "Zzyzx Test Card", by=writing.CONTENT_FILES, base_revision=term.revision)
    article = entry(glossary(client), "test-term")
    assert "No official text on this site uses it yet." in article.text()


def test_the_kind_filter_and_bad_input(client, ipg):
    root = glossary(client, "/en/glossary/?kind=card")
    assert [g.attrs["id"] for g in root.find_all("section", class_="glossary-kind")] == ["kind-card"]
    # (the longest the site reads: over MAX_URL_LENGTH the address is a 414, tests/test_security.py)
    for bad in ("?kind=spell", "?kind=%00", "?kind=" + "x" * 3_900):
        assert client.get("/en/glossary/" + bad).status_code == 404
    assert client.get("/xx/glossary/").status_code == 404
    assert client.post("/en/glossary/").status_code == 405


def test_a_name_a_translator_adds_shows_at_once(client, ipg, django_user_model):
    term = Term.objects.get(key="disguise")
    writing.write_text(term, "ja", "変装", by=writing.CONTENT_FILES, base_revision=term.revision)
    assert names(entry(glossary(client), "disguise"))["Japanese"][:2] == ("変装", "ja")


def test_the_glossary_is_in_the_sitemap_in_every_language(client, ipg):
    xml = client.get("/sitemap.xml").content.decode()
    for code in ("en", "zh-hans", "ja"):
        assert f"/{code}/glossary/</loc>" in xml


@pytest.mark.parametrize("code", ["en", "zh-hans", "ja"])
def test_the_page_is_in_the_interface_language(client, ipg, code):
    root = glossary(client, f"/{code}/glossary/")
    heading = {"en": "Glossary", "zh-hans": "术语表", "ja": "用語集"}[code]
    assert root.find("h1").text() == heading


def test_an_infraction_no_text_names_in_english_has_the_outlines_title(client, ipg):
    # No English text of 2.1 is on the site; the outline calls it Missed Trigger.
    root = glossary(client)
    article = entry(root, "missed-trigger")
    assert article.find("h3").text() == "Missed Trigger" and article.find("h3").attrs["lang"] == "en"
    dd = article.find("div", class_="term-name-en").find("dd")
    assert "missing" not in dd.classes and "from-outline" in dd.classes and dd.attrs["lang"] == "en"
    assert dd.text() == "Missed Trigger (the title in the IPG's outline)"
    assert dd.find("span", class_="name-source").attrs["lang"] == "en"
    assert names(entry(root, "cheating"))["English"][0].startswith("Cheating ")
    # the near misses: a name a text has is shown as it is, and a game term gets nothing from the outline
    assert "from-outline" not in entry(root, "hidden-card-error").find("div", class_="term-name-en").find("dd").classes
    assert names(entry(glossary(client, "/ja/glossary/"), "disguise"))["日本語"][0] == "未翻訳"
    zh = entry(glossary(client, "/zh-hans/glossary/"), "missed-trigger")
    assert names(zh)["简体中文"][0] == "缺失"  # the outline has no Chinese title for 2.1
    assert zh.find("div", class_="term-name-en").find("span", class_="name-source").text() == "（IPG目录中的标题）"


@pytest.mark.parametrize("code", ["en", "zh-hans", "ja"])
def test_each_page_puts_its_languages_headword_first_and_sorts_by_it(client, ipg, code):
    from ipgsite.ipg import languages

    root = glossary(client, f"/{code}/glossary/")
    lang = languages.html_lang(code)
    for group in root.find_all("section", class_="glossary-kind"):
        articles = group.find_all("article")
        for article in articles:
            assert article.find("dl", class_="term-names").find("div").attrs["class"] == f"term-name-{code}"
        named = [a for a in articles if a.find("h3").attrs.get("lang") == lang]
        headings = [a.find("h3").text().casefold() for a in named]
        assert headings == sorted(headings)
        assert articles[: len(named)] == named  # those without a name in the page's language come after
    first = root.find("section", id="kind-infraction").find("article")
    assert first.find("h3").attrs["lang"] == lang  # /en/glossary/ no longer opens on 誘発忘れ


def test_a_former_name_is_shown_as_a_former_name(client, ipg):
    # 2.3 was 游戏行动失误~额外抓牌 in the Chinese texts
    article = entry(glossary(client, "/zh-hans/glossary/"), "hidden-card-error")
    former = article.find("p", class_="term-former")
    assert former.text() == "旧称： 额外抓牌" and former.find("span").attrs["lang"] == "zh-Hans"
    assert article.find("p", class_="term-variants") is None  # not "also written"
    # the near miss: other forms are still "also written"
    english = entry(glossary(client), "mulligan")
    assert english.find("p", class_="term-variants").text() == "Also written: mulligans"
    assert english.find("p", class_="term-former") is None


def test_shuffle_has_its_chinese_name_from_2_3_remedy_5(client, ipg):
    """T4: 洗回 is in the Chinese of 2.3 remedy-5 ("则应将其洗回随机的部分"), where the English says shuffled."""
    shown = names(entry(glossary(client), "shuffle"))
    value, lang, classes = shown["Simplified Chinese"]
    assert (value, lang) == ("洗回", "zh-Hans") and "missing" not in classes


def test_the_cards_the_text_names_are_in_the_glossary_in_every_language_the_text_names_them(client, ipg):
    """T1: Sphinx of Jwar Isle in three languages (2.3 remedy-5); 2.1's cards, named only in Japanese, in Japanese only,
    the other names shown as missing rather than made up."""
    cards = glossary(client).by_id("kind-card")
    assert {"sphinx-of-jwar-isle", "akumei-no-kishi", "sou-no-banjin", "sei-torafuto-no-rei", "hoetakeru-kouzan"} <= {
        a.attrs["id"] for a in cards.find_all("article")
    }
    sphinx = names(entry(cards, "sphinx-of-jwar-isle"))
    assert {label: value[0] for label, value in sphinx.items()} == {
        "English": "Sphinx of Jwar Isle",
        "Simplified Chinese": "爪尔岛史芬斯",
        "Japanese": "ジュワー島のスフィンクス",
    }
    knight = names(entry(cards, "akumei-no-kishi"))
    assert knight["Japanese"][:2] == ("悪名の騎士", "ja")
    assert "missing" in knight["English"][2] and "missing" in knight["Simplified Chinese"][2]
    used = entry(cards, "akumei-no-kishi").find("p", class_="term-sections").find("a")
    assert used.attrs["href"] == "/en/ipg/2.1/#example-a"
