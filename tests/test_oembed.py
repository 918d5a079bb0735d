"""oEmbed: a paragraph's card for blogs and chat tools, announced by its share page."""

import re
from html.parser import HTMLParser
from urllib.parse import parse_qs, urlsplit

import pytest

from ipgsite.editing import writing


def oembed(client, url, **params):
    return client.get("/oembed/", {"url": url, "format": "json", **params})


def test_a_share_page_announces_its_oembed(client, ipg):
    html = client.get("/ja/ipg/2.3/example-c/").content.decode()
    link = re.search(r'<link rel="alternate" type="application/json\+oembed" href="([^"]+)"', html)
    assert link, "no oEmbed discovery link"
    href = link.group(1).replace("&amp;", "&")
    parts = urlsplit(href)
    assert parts.path == "/oembed/"
    assert parse_qs(parts.query) == {
        "url": ["http://testserver/ja/ipg/2.3/example-c/?release=2024-09-23"],
        "format": ["json"],
    }
    data = client.get(href).json()
    assert data["type"] == "rich" and "闇の腹心" in data["html"]


def test_the_card_is_rich_with_the_text_in_the_pages_language_its_section_and_a_link(client, ipg):
    response = oembed(client, "http://testserver/zh-hans/ipg/2.3/example-c/")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    data = response.json()
    assert data["version"] == "1.0" and data["type"] == "rich"
    assert isinstance(data["width"], int) and isinstance(data["height"], int) and data["width"] > 0 < data["height"]
    card = data["html"]
    english = ipg.get(number="2.3").paragraphs.get(key="example-c").text_en
    assert "牌手结算了黑暗亲信" in card and english[:30] not in card
    assert "非公开牌张失误" in card and "2.3" in card and "范例 C" in card
    assert 'href="http://testserver/zh-hans/ipg/2.3/example-c/"' in card
    assert 'lang="zh-Hans"' in card
    assert data["title"] == "2.3 非公开牌张失误 · 范例 C"


def test_a_missing_translation_is_said_missing_in_the_pages_language_never_in_english(client, ipg):
    english = ipg.get(number="2.4").paragraphs.get(key="remedy-1").text_en
    card = oembed(client, "http://testserver/ja/ipg/2.4/remedy-1/").json()["html"]
    assert "日本語には未翻訳です。" in card
    assert english[:40] not in card


def test_a_section_page_with_a_fragment_names_the_paragraph_too(client, ipg):
    data = oembed(client, "http://testserver/en/ipg/2.3/#example-c").json()
    assert "Dark Confidant" in data["html"]


def test_a_release_url_gives_the_text_that_release_held(client, ipg):
    paragraph = ipg.get(number="2.3").paragraphs.get(key="example-c")
    before = paragraph.text_en
    writing.write_text(paragraph, "en", "A rewritten example.", by=writing.CONTENT_FILES, base_revision=writing.LATEST)
    held = oembed(client, "http://testserver/en/ipg/2.3/example-c/?release=2024-09-23").json()["html"]
    assert before[:40] in held and "A rewritten example." not in held and "2024-09-23" in held
    assert "A rewritten example." in oembed(client, "http://testserver/en/ipg/2.3/example-c/").json()["html"]


def test_maxwidth_and_maxheight_are_honoured(client, ipg):
    free = oembed(client, "http://testserver/en/ipg/2.3/definition-1/").json()
    narrow = oembed(client, "http://testserver/en/ipg/2.3/definition-1/", maxwidth=300).json()
    assert narrow["width"] == 300 < free["width"] and narrow["height"] > free["height"]
    short = oembed(client, "http://testserver/en/ipg/2.3/definition-1/", maxwidth=300, maxheight=120).json()
    assert short["width"] <= 300 and short["height"] <= 120
    assert "max-width:300px" in short["html"] and "max-height:120px" in short["html"]
    wide = oembed(client, "http://testserver/en/ipg/2.3/definition-1/", maxwidth=5000).json()
    assert wide["width"] == free["width"]


@pytest.mark.parametrize("value", ["wide", "-5", "0", "1e3", "99999"])
def test_a_bad_size_is_a_clear_400(client, ipg, value):
    response = oembed(client, "http://testserver/en/ipg/2.3/definition-1/", maxwidth=value)
    assert response.status_code == 400 and "maxwidth" in response.json()["error"]


@pytest.mark.parametrize(
    "url",
    [
        "http://elsewhere.example/en/ipg/2.3/example-c/",  # another site
        "http://testserver/en/ipg/2.3/",  # a section, not a paragraph
        "http://testserver/en/ipg/2.3/example-z/",  # no such paragraph
        "http://testserver/en/ipg/7.7/example-a/",  # no such section
        "http://testserver/en/",  # the outline
        "http://testserver/xx/ipg/2.3/example-c/",  # no such language
        "http://testserver/en/ipg/2.3/example-c/?release=2020-01-01",  # no such release
        "javascript:alert(1)",
        "http://testserver/admin/",
        "http://[::1/en/ipg/2.3/example-c/",  # not an address at all
        "http://testserver:99999/en/ipg/2.3/example-c/",
        "http://testserver/en/ipg/2.3/example-c/?release=" + "9" * 5_000,
        "http://testserver/en/ipg/" + "9" * 5_000 + "/example-c/",
        "http://testserver/en/ipg/2\x00.3/example-c/",
    ],
)
def test_a_url_that_is_not_a_paragraph_of_this_site_is_a_404(client, ipg, settings, url):
    settings.MAX_URL_LENGTH = 100_000
    response = oembed(client, url)
    assert response.status_code == 404
    assert response.json() == {"error": "This URL is not a paragraph of this site."}


PARAGRAPH = "http://testserver/en/ipg/2.3/example-c/"
# What an answer must never show a consumer: how Python read (or failed to read) a parameter.
INTERNALS = ("int()", "literal", "Traceback", "limit", "ValueError", "Exception", "sys.", "base 10")


@pytest.mark.parametrize(
    "params,status,said",
    [
        ({"maxwidth": "²"}, 400, "maxwidth is a whole number of pixels, from 1 to 10000."),
        ({"maxwidth": "9" * 5_000}, 400, "maxwidth is a whole number of pixels, from 1 to 10000."),
        ({"maxwidth": "１２０"}, 400, "maxwidth is a whole number of pixels, from 1 to 10000."),  # full-width digits
        ({"maxheight": "١٢"}, 400, "maxheight is a whole number of pixels, from 1 to 10000."),  # Arabic-Indic
        ({"maxheight": "300px"}, 400, "maxheight is a whole number of pixels, from 1 to 10000."),
        ({"maxheight": " 300"}, 400, "maxheight is a whole number of pixels, from 1 to 10000."),
        ({"maxheight": "0x10"}, 400, "maxheight is a whole number of pixels, from 1 to 10000."),
        ({"url": ""}, 400, "url is required: the address of a paragraph's page on this site."),
        ({"url": None}, 400, "url is required: the address of a paragraph's page on this site."),
        ({"url": "http://[::1/en/ipg/2.3/example-c/"}, 404, "This URL is not a paragraph of this site."),
        ({"url": PARAGRAPH + "?release=" + "9" * 5_000}, 404, "This URL is not a paragraph of this site."),
        ({"format": "xml"}, 501, "Only format=json is served."),
        ({"format": "x" * 5_000}, 501, "Only format=json is served."),
    ],
)
def test_a_bad_parameter_is_named_with_what_it_may_be_and_nothing_of_python(
    client, ipg, settings, params, status, said
):
    settings.MAX_URL_LENGTH = 100_000  # the view's own answers, whatever the site's bound on addresses (tested apart)
    query = {name: value for name, value in {"url": PARAGRAPH, "format": "json", **params}.items() if value is not None}
    response = client.get("/oembed/", query)
    assert response.status_code == status
    text = response.content.decode()
    assert (response.json()["error"] if response["Content-Type"] == "application/json" else text) == said
    assert not any(internal in text for internal in INTERNALS), text


def test_errors_are_in_the_language_of_the_request(client, ipg):
    response = client.get("/oembed/", {"url": PARAGRAPH, "maxwidth": "²"}, HTTP_ACCEPT_LANGUAGE="ja")
    assert response.status_code == 400 and response.json()["error"].startswith("maxwidthは")


def test_xml_is_not_implemented_as_the_specification_says(client, ipg):
    response = client.get("/oembed/", {"url": "http://testserver/en/ipg/2.3/example-c/", "format": "xml"})
    assert response.status_code == 501


class Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.found = []

    def handle_starttag(self, tag, attrs):
        self.found.append((tag, dict(attrs)))


def test_the_card_is_safe_whatever_a_translator_wrote(client, ipg):
    paragraph = ipg.get(number="2.3").paragraphs.get(key="example-c")
    hostile = (
        'Text <script>alert(1)</script><img src=x onerror="alert(2)"> [link](javascript:alert(3)) '
        '<a href="https://example.org" onclick="alert(4)">x</a> <iframe src="https://evil.example"></iframe>'
    )
    writing.write_text(paragraph, "ja", hostile, by=writing.CONTENT_FILES, base_revision=writing.LATEST)
    card = oembed(client, "http://testserver/ja/ipg/2.3/example-c/").json()["html"]
    parser = Tags()
    parser.feed(card)
    assert {tag for tag, _ in parser.found} <= {"blockquote", "p", "a", "strong", "span", "div", "em"}
    for _tag, attrs in parser.found:
        assert not any(name.startswith("on") for name in attrs)
        assert not any("javascript:" in (value or "") for value in attrs.values())
    assert "<script" not in card and "alert(1)" not in card.replace("&lt;script&gt;alert(1)", "")
