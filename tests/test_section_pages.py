"""The outline and the section pages, in each language, as a reader receives them."""

import re
from html import unescape

import pytest

from ipgsite.ipg.models import Paragraph
from pages import parse


def page(client, url):
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def element(html, key):
    """The opening tag of the element whose id is `key`."""
    match = re.search(rf'<[^>]*\bid="{re.escape(key)}"[^>]*>', html)
    assert match, f"no element with id {key}"
    return match.group(0)


def plain(html):
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", "", html)))


def test_outline_shows_every_section_with_its_penalty_and_marks_stubs(client, ipg):
    html = page(client, "/en/")
    for number in ["1.1", "1.5", "2.1", "2.6", "3.1", "3.9", "4.1", "4.8", "A", "B"]:
        assert f'href="/en/ipg/{number}/"' in html
    assert html.count('class="penalty penalty-') == 23
    assert 'penalty-disqualification">Disqualification' in html
    stubs = re.findall(r'<li class="stub">\s*<a href="/en/ipg/([^/]+)/', html)
    assert "2.2" in stubs and "2.3" not in stubs and "2.4" not in stubs and len(stubs) == 27
    assert html.count("no text yet") == 27


def test_the_outline_lists_the_sections_with_text_first_the_rest_folded_per_chapter(client, ipg):
    html = parse(page(client, "/ja/"))
    chapters = html.find_all("section", class_="chapter")
    with_text, folded = [], []
    for chapter in chapters:
        for child in chapter.children:
            if getattr(child, "tag", None) == "ol":
                with_text += [a.attrs["href"] for a in child.find_all("a")]
            elif getattr(child, "tag", None) == "details":
                assert "open" not in child.attrs  # folded, a <details>: opens without JavaScript
                links = child.find_all("a")
                assert child.find("summary").text() == f"{len(links)}件の節（本文なし）"
                folded += [a.attrs["href"] for a in links]
    assert with_text == ["/ja/ipg/2.1/", "/ja/ipg/2.3/", "/ja/ipg/2.4/"]
    assert len(folded) == 27 and "/ja/ipg/2.2/" in folded and "/ja/ipg/1.1/" in folded  # still listed
    # Chapter 1 has no text yet: its heading, then its folded sections.
    assert chapters[0].find("ol", class_="outline").parent.tag == "details"


@pytest.mark.parametrize("code,lang", [("en", "en"), ("zh-hans", "zh-Hans"), ("ja", "ja")])
def test_hidden_card_error_reads_in_each_language(client, ipg, code, lang):
    html = page(client, f"/{code}/ipg/2.3/")
    assert f'<html lang="{lang}">' in html
    for paragraph in Paragraph.objects.filter(section__number="2.3"):
        tag = element(html, paragraph.key)
        assert f'lang="{lang}"' in tag
        assert plain(paragraph.text_in(code))[:60] in plain(html)
    assert html.count('<aside class="note"') == 19


def test_every_paragraph_key_is_an_id_exactly_once(client, ipg):
    html = page(client, "/en/ipg/2.3/")
    for paragraph in Paragraph.objects.filter(section__number="2.3"):
        assert html.count(f'id="{paragraph.key}"') == 1


def test_notes_are_asides_after_their_paragraph_and_labelled_as_commentary(client, ipg):
    html = page(client, "/en/ipg/2.3/")
    after_c = html.split('id="example-c"', 1)[1].split('id="example-d"', 1)[0]
    assert '<aside class="note"' in after_c
    assert "例(C)は" in after_c
    assert "Commentary, not official text" in after_c and "Japanese annotated edition" in after_c
    note = after_c.split('<aside class="note"', 1)[1]
    assert '<div class="note-body" lang="ja">' in note
    before_first = html.split('id="definition-1"', 1)[0]
    assert '<aside class="note"' not in before_first


def test_a_missing_paragraph_says_so_and_labels_the_language_it_is_shown_in(client, ipg):
    html = page(client, "/zh-hans/ipg/2.4/")
    tag = element(html, "remedy-1")
    assert 'lang="en"' in tag
    row = html.split('id="remedy-1"', 1)[1].split('id="remedy-2"', 1)[0]
    assert "missing-label" in row and 'lang="zh-Hans"' in row
    assert "If the player has too many cards in hand" in plain(row)
    translated = html.split('id="example-a"', 1)[1].split('id="example-b"', 1)[0]
    assert "missing-label" not in translated


def test_a_section_without_text_in_the_language_offers_the_languages_it_has(client, ipg):
    html = page(client, "/ja/ipg/2.4/")
    notice = html.split('class="notice missing-languages"', 1)[1].split("</div>", 1)[0]
    assert 'href="/en/ipg/2.4/"' in notice and 'href="/zh-hans/ipg/2.4/"' in notice
    assert 'href="/ja/ipg/2.4/"' not in notice
    assert 'lang="en"' in element(html, "definition-1")

    html = page(client, "/en/ipg/2.1/")
    assert 'href="/ja/ipg/2.1/"' in html.split('class="notice missing-languages"', 1)[1]
    assert 'lang="ja"' in element(html, "definition-1")


def test_a_section_without_any_text_says_so(client, ipg):
    html = page(client, "/en/ipg/3.2/")
    assert "Tournament Error — Outside Assistance" in html
    assert "penalty-match-loss" in html
    assert "not available yet" in html


@pytest.mark.parametrize(
    "url", ["/en/ipg/9.9/", "/en/ipg/2.3.1/", "/ja/ipg/hidden-card-error/", "/en/ipg/%00/", "/xx/ipg/2.3/"]
)
def test_an_unknown_section_is_a_404_page(client, ipg, url):
    response = client.get(url)
    assert response.status_code == 404
    assert b'<a href="/' in response.content and b"/ipg/" not in response.content.split(b"<main", 1)[1]


def test_missed_trigger_bullets_and_commentary_box(client, ipg):
    html = page(client, "/ja/ipg/2.1/")
    assert 'class="row bullet"' in element(html, "definition-3")
    after_a = html.split('id="example-a"', 1)[1].split('id="example-b"', 1)[0]
    assert "日本語版・注釈欄" in after_a  # "Japanese edition, commentary box", in the page's language
    assert "(MTR 4.3節)" in plain(html)


MENU_PAGES = [
    f"/{code}/ipg/{number}/{query}"
    for number in ("2.1", "2.3", "2.4")
    for code in ("en", "zh-hans", "ja")
    for query in ("", "?langs=ja,en", "?langs=en,zh-hans,ja")
]


@pytest.mark.parametrize("url", MENU_PAGES)
def test_the_paragraph_menu_is_in_the_page_once_whatever_the_paragraphs_and_languages(client, ipg, url):
    """Every paragraph's ¶ opens the page's one menu (static/js/site.js moves it under the paragraph tapped): the
    share link, the citation and the reading list button are in the page once, never in a paragraph, whether it
    shows one language or three."""
    html = page(client, url)
    tree = parse(html)
    rows = tree.find_all("div", class_="row")
    assert len(rows) > 1 and all(row.find("a", class_="permalink") for row in rows)  # each paragraph has its ¶
    (menu,) = tree.find_all(class_="paragraph-menu")
    assert "hidden" in menu.attrs and "/{key}/" in menu.attrs["data-share"]
    ancestor = menu.parent
    while ancestor is not None:
        assert "row" not in ancestor.classes and "notes" not in ancestor.classes, url
        ancestor = ancestor.parent
    for control in ("share-link", "cite-link", "add-to-list"):
        # The near miss: one menu, and a copy of its links per paragraph or per language elsewhere in the page.
        assert len(menu.find_all(class_=control)) == 1
        assert len(tree.find_all(class_=control)) == 1 and html.count(f'class="{control}"') == 1, (url, control)
    for row in rows:
        assert row.find(class_="paragraph-menu") is None and row.find(class_="add-to-list") is None


@pytest.mark.parametrize(
    "url, count, words",
    [
        ("/en/ipg/2.1/", 43, "Not yet translated into English; shown in Japanese."),
        ("/zh-hans/ipg/2.1/", 43, "尚未翻译为简体中文；以日文显示。"),
        ("/ja/ipg/2.4/", 11, "日本語には未翻訳のため、英語で表示しています。"),
        ("/zh-hans/ipg/2.4/", 6, "尚未翻译为简体中文；以英文显示。"),
        ("/en/ipg/2.1/?release=2024-09-23", 43, "Not yet translated into English; shown in Japanese."),
        ("/en/ipg/2.1/example-a/", 4, "Not yet translated into English; shown in Japanese."),  # the section shown below
        ("/ja/list/?p=2.4:remedy-1&p=2.1:example-a", 1, "日本語には未翻訳のため、英語で表示しています。"),
        ("/en/finder/in-game/", 3, "Not yet translated into English; shown in Japanese."),
    ],
)
def test_every_paragraph_shown_in_another_language_carries_its_own_label(client, ipg, url, count, words):
    """D1: a deep link to one paragraph lands on a label, not only on a notice at the top of the page: 0 of 43 on
    /en/ipg/2.1/, 0 of 11 on /ja/ipg/2.4/ had one."""
    document = parse(client.get(url).content.decode())
    lang = document.find("html").attrs["lang"]
    shown = [div for div in document.find_all("div", class_="text") if "missing" in div.classes and div.text()]
    assert len(shown) >= count
    for div in shown:
        label = div.find("p", class_="missing-label")
        assert label is not None and label.attrs["lang"] == lang, url
    assert any(words == div.find("p", class_="missing-label").text() for div in shown), url
