"""Printing in headless Chromium (print media, then the PDF Chromium prints): a section on portrait A4 with its
commentary breaking across pages, a compare view side by side on landscape A4, each naming its address and release."""

import io

import pytest
from pypdf import PdfReader

from pages import RELEASE

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
A4 = (210, 297)
A4_LANDSCAPE = (297, 210)


def printed(page):
    """The PDF Chromium prints of the page: each page's size in millimetres and its text."""
    reader = PdfReader(io.BytesIO(page.pdf(prefer_css_page_size=True)))
    sizes = [
        (round(float(p.mediabox.width) / 72 * 25.4), round(float(p.mediabox.height) / 72 * 25.4)) for p in reader.pages
    ]
    return sizes, [" ".join(p.extract_text().split()) for p in reader.pages]


def open_for_print(page, url):
    page.goto(url)
    source = page.locator(".print-source")
    assert not source.is_visible()  # on screen, the address bar says it
    page.emulate_media(media="print")
    return source


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_section_prints_on_a4_with_its_address_and_release_and_commentary_that_breaks(live_ipg, new_page, viewport):
    page = new_page(viewport)
    url = f"{live_ipg.url}/en/ipg/2.3/"
    source = open_for_print(page, url)
    assert source.is_visible()
    assert source.inner_text() == f"The IPG of {RELEASE} · {url}"
    # Long commentary runs on to the next page instead of leaving this one mostly blank.
    for selector in ["details.notes", "aside.note", ".note-body"]:
        assert page.evaluate(f"getComputedStyle(document.querySelector('{selector}')).breakInside") == "auto"
    sizes, texts = printed(page)
    assert set(sizes) == {A4}
    assert f"The IPG of {RELEASE}" in texts[0] and url in texts[0].replace(" ", "")
    # Every page but the last is filled: none holds less than half the text of the fullest.
    fullest = max(len(text) for text in texts)
    assert all(len(text) > fullest / 2 for text in texts[:-1]), [len(text) for text in texts]


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize(("langs", "columns"), [("ja,en", 2), ("en,zh-hans,ja", 3)])
def test_a_compare_view_prints_side_by_side_on_landscape_a4(live_ipg, new_page, viewport, langs, columns):
    page = new_page(viewport)
    code = langs.split(",")[0]
    url = f"{live_ipg.url}/{code}/ipg/2.3/?langs={langs}"
    source = open_for_print(page, url)
    assert source.is_visible() and source.inner_text().endswith(url)
    tracks = page.evaluate("getComputedStyle(document.querySelector('.part .row')).gridTemplateColumns")
    assert len(tracks.split()) == columns
    tops = page.evaluate("[...document.querySelectorAll('#example-c > .text')].map(t => t.getBoundingClientRect().top)")
    assert len(tops) == columns and len(set(tops)) == 1  # one row, the languages side by side
    heads = page.locator(".column-heads")
    assert heads.is_visible() and heads.locator("span").count() == columns
    sizes, texts = printed(page)
    assert set(sizes) == {A4_LANDSCAPE}
    # Stacked on portrait A4 it took 11 pages; side by side, about as many as the section alone.
    assert len(sizes) <= 8, len(sizes)
    assert RELEASE in texts[0] and url in texts[0].replace(" ", "")
