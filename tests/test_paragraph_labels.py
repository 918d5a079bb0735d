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
