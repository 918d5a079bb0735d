"""A paragraph is named for a reader as the section page names it ("Example C", "例C", "Definition, paragraph 2"), in
the page's language: its key ("example-c", "definition-1") is an address, kept in URLs and anchors, never shown."""

import re

import pytest

from pages import PAGE_TYPES, parse

# A paragraph key, as the content names paragraphs: `definition-1`, `example-c`, `upgrade-1`.
RAW_KEY = re.compile(r"\b(?:definition|philosophy|example|remedy|upgrade|additional|downgrade|text)-(?:\d+|[a-z])\b")
HIDDEN = {"script", "style", "template", "head"}
URL = re.compile(r"https?://\S+")  # an address written out (a citation's permanent link) holds its key


def visible_text(node):
    """The text a reader sees (attributes, URLs and scripts left out)."""
    if getattr(node, "tag", None) in HIDDEN or (hasattr(node, "attrs") and "hidden" in node.attrs):
        return ""
    return " ".join(c if isinstance(c, str) else visible_text(c) for c in node.children)


@pytest.mark.parametrize("page", [p for p in PAGE_TYPES if p.status == 200], ids=lambda p: p.name)
def test_no_page_shows_a_paragraph_key(client, ipg, page):
    response = client.get(page.url)
    assert response.status_code == 200
    text = URL.sub(" ", visible_text(parse(response.content)))
    shown = sorted({m.group(0) for m in RAW_KEY.finditer(text)})
    assert not shown, f"{page.url} shows the keys {shown}"


def texts(client, url, class_):
    """The texts of the elements of a class, without the spaces the parser puts beside the tags of its links."""
    found = [n.text() for n in parse(client.get(url).content).find_all(class_=class_)]
    return [re.sub(r"\s+([;)])", r"\1", re.sub(r"\(\s+", "(", t)) for t in found]


def test_each_place_names_a_paragraph_in_the_pages_language(client, ipg):
    # Search results: "例D", "理念 第4段落", "格上げ" (a part of one paragraph), in Japanese.
    where = texts(client, "/ja/search/?q=%E6%89%8B%E6%9C%AD", "result-where")
    assert any(w.startswith("例D ") for w in where) and any(w.startswith("理念 第4段落 ") for w in where)
    assert any(w.startswith("格上げ ") for w in where)
    # The finder's citations: the section's number, then the paragraph's name; a list of them split by "; " in
    # English, where a name may hold a comma.
    assert "2.4 Definition, paragraph 1" in texts(client, "/en/finder/", "finder-cite-ref")
    assert "2.4 定義 第1段落" in texts(client, "/ja/finder/", "finder-cite-ref")
    assert any(
        "(2.4 Definition, paragraph 1; 2.4 Philosophy, paragraph 1; 2.3 Example F)" in t
        for t in texts(client, "/en/finder/in-game/not-shown/", "finder-by")
    )
    # The glossary, where a term is defined; "Mentioned in" on a section page.
    assert any(
        t.startswith("定义出处：IPG 2.4 定义第 1 段")
        for t in texts(client, "/zh-hans/glossary/", "term-definition-source")
    )
    mentioned = parse(client.get("/en/ipg/2.4/").content).find("section", class_="mentioned-in")
    assert "Example F" in mentioned.text()
    # A shared paragraph's page and its title.
    page = parse(client.get("/ja/ipg/2.3/example-c/").content)
    assert "例C" in page.find("p", class_="shared-notice").text() and "例C" in page.find("title").text()
