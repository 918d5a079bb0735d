"""Markdown for assistants: every section and paragraph page as Markdown (`…/index.md`, or the page's own address
with `Accept: text/markdown`), official text and commentary apart and marked, a missing translation said missing,
with citations and links; and /llms.txt listing them."""

import re

import pytest
from django.test import Client

from ipgsite.ipg.models import Note, Paragraph
from people import editor

MARKDOWN = "text/markdown; charset=utf-8"


def markdown(client, url, **headers):
    response = client.get(url, **headers)
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == MARKDOWN
    return response.content.decode()


def blocks(text):
    return [block for block in text.split("\n\n") if block.strip()]


def test_a_section_with_a_missing_translation_and_a_note(client, ipg):
    """2.1 is in Japanese only, with one commentary box (seed 004): in English, each paragraph is said missing and
    the commentary is quoted as commentary, in its own language."""
    text = markdown(client, "/en/ipg/2.1/index.md")
    assert text.startswith("# IPG 2.1 Game Play Error — Missed Trigger\n")
    assert "- Penalty: No Penalty" in text and "- Page: <http://testserver/en/ipg/2.1/>" in text
    paragraphs = Paragraph.objects.filter(section__number="2.1").count()
    assert text.count("*Not yet translated into English. Available in: Japanese (ja).*") == paragraphs
    assert "ゲーム上の誤り" not in text.split("> **Commentary")[0]  # no Japanese official text stands in for English
    note = Note.objects.get(paragraph__section__number="2.1")
    quoted = [b for b in blocks(text) if b.startswith("> **Commentary, not official text")]
    assert len(quoted) == 1
    head, *body = quoted[0].splitlines()
    assert head == "> **Commentary, not official text · Japanese edition, commentary box · Japanese (ja)**"
    assert "\n".join(line.removeprefix("> ").removeprefix(">") for line in body).strip() == note.body_ja.strip()
    # Each paragraph with its citation and permanent link, under its part.
    assert "## Examples" in text and f"### Example A · `{note.paragraph.key}`" in text
    assert "Cite: IPG 2.1 Example A (2024-09-23) — <http://testserver/en/ipg/2.1/example-a/?release=2024-09-23>" in text


def test_languages_side_by_side_each_exact_or_said_missing(client, ipg):
    text = markdown(client, "/ja/ipg/2.4/index.md?langs=ja,en")
    english = Paragraph.objects.get(section__number="2.4", key="definition-1").text_en
    assert f"**英語 (en) · 公式テキスト**\n\n{english}\n" in text
    # 2.4 has no Japanese: each paragraph says so, in Japanese, naming the languages it is in.
    paragraphs = Paragraph.objects.filter(section__number="2.4").count()
    assert text.count("*日本語には未翻訳です。") == paragraphs
    assert "*日本語には未翻訳です。英語 (en)で読めます。*" in text  # 2.4 definition-2: English only
    assert text.startswith("# IPG 2.4 ゲーム上の誤り ─ マリガン手順の誤り\n\n- 懲罰: 警告\n- 現行の本文\n")


def test_a_paragraph_page_as_markdown(client, ipg):
    text = markdown(client, "/en/ipg/2.3/example-c/index.md?langs=en,ja")
    paragraph = Paragraph.objects.get(section__number="2.3", key="example-c")
    assert text.startswith("# IPG 2.3 Example C\n")
    assert "- Section: 2.3 Game Play Error — Hidden Card Error — <http://testserver/en/ipg/2.3/>" in text
    assert "Cite: IPG 2.3 Example C (2024-09-23) — <http://testserver/en/ipg/2.3/example-c/?release=2024-09-23>" in text
    assert f"**English (en) · official text**\n\n{paragraph.text_en}\n" in text
    assert f"**Japanese (ja) · official text**\n\n{paragraph.text_ja}\n" in text
    assert "> **Commentary, not official text · Japanese annotated edition · Japanese (ja)**" in text


def test_a_translation_that_follows_an_older_english_says_so(client, ipg):
    text = markdown(client, "/en/ipg/2.3/upgrade-1/index.md?langs=en,ja")
    assert "**Japanese (ja) · official text · translated from an older original that no release here holds**" in text


def test_a_release_and_a_renamed_key(client, ipg):
    from ipgsite.editing import writing

    paragraph = Paragraph.objects.get(section__number="2.3", key="example-c")
    writing.save_structure(paragraph, {"key": "example-c-confidant"}, by=editor())
    moved = client.get("/en/ipg/2.3/example-c/index.md?langs=en,ja")
    assert moved.status_code == 301 and moved["Location"] == "/en/ipg/2.3/example-c-confidant/index.md?langs=en,ja"
    text = markdown(client, "/en/ipg/2.3/example-c/index.md?release=2024-09-23")
    assert "### Example C · `example-c`" in text or "## Example C · `example-c`" in text
    assert "As the release of 2024-09-23 froze it" in markdown(client, "/en/ipg/2.3/index.md?release=2024-09-23")


@pytest.mark.parametrize(
    "url",
    [
        "/en/ipg/9.9/index.md",
        "/en/ipg/2.3/example-q/index.md",
        "/en/ipg/2.3/index.md?release=2001-01-01",
        "/en/ipg/2.3/index.md?release=%00",
        "/en/ipg/2.3/example-c/index.md?release=soon",
    ],
)
def test_unknown_sections_paragraphs_and_releases_are_404s(client, ipg, url):
    assert client.get(url).status_code == 404


def test_the_page_itself_answers_markdown_to_who_asks_for_it(ipg):
    client = Client()
    html = client.get("/en/ipg/2.3/", HTTP_ACCEPT="text/html,application/xhtml+xml,*/*;q=0.8")
    assert html["Content-Type"].startswith("text/html") and html["X-Cache"] == "miss"
    assert html["Vary"] == "Accept-Encoding, Accept"
    asked = client.get("/en/ipg/2.3/", HTTP_ACCEPT="text/markdown, text/html;q=0.5")
    assert (
        asked["Content-Type"] == MARKDOWN and asked["X-Cache"] == "miss" and asked["Vary"] == "Accept-Encoding, Accept"
    )
    assert asked.content == client.get("/en/ipg/2.3/index.md").content
    # Kept apart in the page cache: each answer again, from the cache, to who asks for it.
    again = client.get("/en/ipg/2.3/", HTTP_ACCEPT="text/markdown")
    assert again["Content-Type"] == MARKDOWN and again["X-Cache"] == "hit" and "Accept" in again["Vary"]
    plain = client.get("/en/ipg/2.3/")
    assert plain["Content-Type"].startswith("text/html") and plain["X-Cache"] == "hit" and "Accept" in plain["Vary"]
    assert client.get("/ja/ipg/2.3/example-c/", HTTP_ACCEPT="text/markdown")["Content-Type"] == MARKDOWN
    # Shared caches may keep both: one entry per Accept they send on.
    assert "s-maxage" in again["Cache-Control"] and "public" in again["Cache-Control"]
    # A 304 says Vary too, so that a cache revalidating its copy keeps the variants apart.
    revalidated = client.get("/en/ipg/2.3/", HTTP_ACCEPT="text/markdown", HTTP_IF_NONE_MATCH=again["ETag"])
    assert revalidated.status_code == 304 and "Accept" in revalidated["Vary"]


def test_llms_txt_lists_the_markdown_pages_and_the_promise(client, ipg):
    response = client.get("/llms.txt")
    assert response.status_code == 200 and response["Content-Type"] == "text/plain; charset=utf-8"
    text = response.content.decode()
    lines = text.splitlines()
    assert lines[0] == "# Infraction Procedure Guide (IPG) reference" and lines[2].startswith("> ")
    assert "**Addresses never change.**" in text and "<http://testserver/mcp>" in text
    headings = [line for line in lines if line.startswith("## ")]
    assert headings == ["## English (en)", "## 简体中文 (zh-hans)", "## 日本語 (ja)", "## Optional"]
    links = re.findall(r"^- \[([^\]]+)\]\((http://testserver[^)]+)\)", text, flags=re.M)
    assert ("2.3 Game Play Error — Hidden Card Error", "http://testserver/en/ipg/2.3/index.md") in links
    assert ("2.3 非公开牌张失误", "http://testserver/zh-hans/ipg/2.3/index.md") in links or any(
        url == "http://testserver/zh-hans/ipg/2.3/index.md" for _n, url in links
    )
    for _name, url in [(n, u) for n, u in links if u.endswith("index.md")][::10]:
        assert client.get(url.removeprefix("http://testserver")).status_code == 200
    assert client.get("/llms.txt")["X-Cache"] == "hit"
