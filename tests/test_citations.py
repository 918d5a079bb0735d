"""Citations fixed to a release: a paragraph's page as a release held it, and the Cite control."""

import re

import pytest

from ipgsite.editing import writing


def rewrite(ipg, number, key, code, text):
    paragraph = ipg.get(number=number).paragraphs.get(key=key)
    before = writing.text_in(paragraph, code)
    writing.write_text(paragraph, code, text, by=writing.CONTENT_FILES, base_revision=writing.LATEST)
    return before


def cite_block(html):
    match = re.search(r'<div class="cite" id="cite">(.*?)</div>', html, re.S)
    assert match, "no Cite control"
    return match.group(1)


def test_a_release_shows_the_paragraph_as_that_release_held_it_marked_as_such(client, ipg):
    before = rewrite(ipg, "2.3", "example-c", "en", "A rewritten example.")
    html = client.get("/en/ipg/2.3/example-c/?release=2024-09-23").content.decode()
    assert before in html and "A rewritten example." not in html
    assert "You are reading this paragraph as it was in the IPG of 2024-09-23." in html
    assert '<meta name="robots" content="noindex">' in html
    assert 'href="/en/ipg/2.3/example-c/">Read the current text</a>' in html
    assert 'href="/en/changes/2024-09-23/">What changed in that release</a>' in html
    assert 'class="row shared-paragraph" id="example-c"' in html
    # The current page shows the current text, without the mark.
    current = client.get("/en/ipg/2.3/example-c/").content.decode()
    assert "A rewritten example." in current and "You are reading this paragraph" not in current


def test_a_release_page_in_japanese_is_marked_in_japanese(client, ipg):
    html = client.get("/ja/ipg/2.3/example-c/?release=2024-09-23").content.decode()
    assert "この段落を2024-09-23版のIPGの時点の内容で表示しています。" in html
    assert "闇の腹心" in html


@pytest.mark.parametrize("release", ["2020-01-01", "2024-02-30", "soon", ""])
def test_a_release_that_does_not_exist_is_a_404(client, ipg, release):
    assert client.get(f"/en/ipg/2.3/example-c/?release={release}").status_code == 404


def test_a_paragraph_a_release_did_not_hold_is_a_404_there(client, ipg):
    from ipgsite.ipg.models import Paragraph

    section = ipg.get(number="2.3")
    paragraph = writing.save_structure(
        Paragraph(section=section, key="example-z"), {"part": "example", "order": 99}, by=writing.CONTENT_FILES
    )
    writing.write_text(paragraph, "en", "A new example.", by=writing.CONTENT_FILES, base_revision=writing.LATEST)
    assert client.get("/en/ipg/2.3/example-z/").status_code == 200
    assert client.get("/en/ipg/2.3/example-z/?release=2024-09-23").status_code == 404


@pytest.mark.parametrize(
    ("code", "citation"),
    [
        ("en", "IPG 2.3 Example C (2024-09-23)"),
        ("zh-hans", "IPG 章节 2.3 范例 C（2024-09-23 版）"),
        ("ja", "IPG 2.3節 例C（2024-09-23の版）"),
    ],
)
def test_the_cite_control_reads_without_javascript_in_the_pages_language(client, ipg, code, citation):
    block = cite_block(client.get(f"/{code}/ipg/2.3/example-c/").content.decode())
    permanent = f"http://testserver/{code}/ipg/2.3/example-c/?release=2024-09-23"
    assert f'<cite class="citation">{citation}</cite>' in block
    assert f'<a class="cite-link" href="{permanent}">{permanent}</a>' in block
    assert f'data-citation="{citation} {permanent}"' in block
    assert "hidden" in block  # the copy button, shown by study.js


def test_other_parts_are_cited_by_their_place_in_the_part(client, ipg):
    assert "IPG 2.3 Definition, paragraph 2 (2024-09-23)" in client.get("/en/ipg/2.3/definition-2/").content.decode()
    assert "IPG 2.3 Upgrade (2024-09-23)" in client.get("/en/ipg/2.3/upgrade-1/").content.decode()
    assert "IPG 2.3節 定義 第2段落（2024-09-23の版）" in client.get("/ja/ipg/2.3/definition-2/").content.decode()


def test_a_text_changed_since_the_release_is_cited_as_the_current_text(client, ipg):
    rewrite(ipg, "2.3", "example-c", "ja", "書き直した例。")
    block = cite_block(client.get("/ja/ipg/2.3/example-c/").content.decode())
    assert "IPG 2.3節 例C（現行の本文）" in block
    assert 'href="http://testserver/ja/ipg/2.3/example-c/"' in block and "release=" not in block
    # The English text did not change: its citation still names the release.
    assert "(2024-09-23)" in cite_block(client.get("/en/ipg/2.3/example-c/").content.decode())
    # And a release's page cites that release, whatever changed since.
    assert "（2024-09-23の版）" in cite_block(client.get("/ja/ipg/2.3/example-c/?release=2024-09-23").content.decode())


def test_section_pages_offer_cite_in_the_paragraph_menu(client, ipg):
    """The page's one ¶ menu offers Cite; study.js points it at the tapped paragraph's share page (#cite), as
    tests/test_browser_citations.py shows."""
    html = client.get("/en/ipg/2.3/").content.decode()
    assert html.count('class="cite-link"') == 1
    assert 'data-share="/en/ipg/2.3/{key}/"' in html and ">Cite</a>" in html
    zh = client.get("/zh-hans/ipg/2.3/").content.decode()
    assert 'data-share="/zh-hans/ipg/2.3/{key}/"' in zh and 'class="cite-link"' in zh and ">引用</a>" in zh


def test_a_release_page_is_cached_apart_from_the_current_one(client, ipg):
    client.get("/en/ipg/2.3/example-c/?release=2024-09-23")
    rewrite(ipg, "2.3", "example-c", "en", "A rewritten example.")
    response = client.get("/en/ipg/2.3/example-c/?release=2024-09-23")
    assert response["X-Cache"] == "hit"  # a release never changes: edits leave its pages cached
    assert "A rewritten example." not in response.content.decode()
    assert "A rewritten example." in client.get("/en/ipg/2.3/example-c/").content.decode()
