"""The changes pages in headless Chromium on a phone (390 px): no sideways scrolling, diffs readable without JavaScript."""

import pytest
from django.conf import settings

from ipgsite.contentfiles.releases import load_releases
from ipgsite.ipg.models import Paragraph
from ipgsite.releases.publishing import publish
from test_releases_files import SECOND, edit_for_second_release

pytestmark = [pytest.mark.browser, pytest.mark.writes]  # a second release is published

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
# A made-up unbreakable string: a diff of it must wrap, not widen the page.
LONG_WORD = "TEST" + "unbreakable" * 20


def overflow(page):
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


@pytest.fixture
def two_releases(live_ipg):
    load_releases(settings.CONTENT_DIR)
    edit_for_second_release()
    Paragraph.objects.filter(section__number="2.3", key="example-a").update(text_en=f"TEST {LONG_WORD} made-up.")
    publish(SECOND)
    return live_ipg


@pytest.mark.parametrize("viewport", [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")])
def test_the_changes_pages_never_scroll_sideways(two_releases, new_page, viewport):
    page = new_page(viewport)
    urls = [
        "/en/changes/",
        "/en/changes/2025-02-10/",
        "/ja/changes/2025-02-10/",
        "/zh-hans/changes/2025-02-10/?langs=zh-hans,en,ja",
        "/en/changes/2024-09-23/",
        # Any two releases compared, and a paragraph's history (with the long word's diff).
        "/en/changes/?from=2024-09-23&to=2025-02-10",
        "/ja/changes/?from=2024-09-23&to=2025-02-10&langs=ja,en,zh-hans",
        "/en/changes/?from=2024-09-23&to=2024-09-23",  # a 400 that says why
        "/en/ipg/2.3/example-a/history/",
        "/zh-hans/ipg/2.3/definition-1/history/?langs=zh-hans,en,ja",
    ]
    for url in urls:
        page.goto(two_releases.url + url)
        assert page.locator("h1").is_visible()
        assert overflow(page) <= 0, url
    page.goto(two_releases.url + "/en/changes/2025-02-10/")
    assert LONG_WORD in page.locator("ins", has_text=LONG_WORD).inner_text()


def test_the_diffs_read_without_javascript(two_releases, new_page):
    page = new_page(PHONE, java_script_enabled=False)
    page.goto(two_releases.url + "/en/changes/2025-02-10/")
    removed = page.locator("#section-2\\.3 del").first
    added = page.locator("#section-2\\.3 ins").first
    assert removed.is_visible() and added.is_visible()
    assert removed.inner_text() == "commits an error"
    assert added.inner_text() == "makes a TESTWORD mistake"
    # Removed text is struck through, added text underlined: visible as such without colour.
    assert "line-through" in removed.evaluate("e => getComputedStyle(e).textDecorationLine")
    assert "underline" in added.evaluate("e => getComputedStyle(e).textDecorationLine")
    page.goto(two_releases.url + "/ja/changes/2025-02-10/")
    assert page.locator("#section-2\\.3 del").first.inner_text() == "誤り"
    page.click(".compare-button")  # on a phone the compare form is a panel, opened without the script (popover)
    page.select_option("select[name=langs] >> nth=0", "ja")
    page.select_option("select[name=langs] >> nth=1", "en")
    page.click("form.compare button[type=submit]")
    page.wait_for_load_state()
    assert page.url == f"{two_releases.url}/ja/changes/2025-02-10/?langs=ja,en"
    page.click("a[href='/ja/ipg/2.3/#definition-1']")
    page.wait_for_load_state()
    assert page.url == f"{two_releases.url}/ja/ipg/2.3/#definition-1"
    assert page.locator("#definition-1").is_visible()


def test_two_releases_are_compared_from_the_list_without_javascript(two_releases, new_page):
    page = new_page(PHONE, java_script_enabled=False)
    page.goto(two_releases.url + "/en/changes/")
    page.select_option("form.compare-releases select[name=from]", "2024-09-23")
    page.select_option("form.compare-releases select[name=to]", "2025-02-10")
    page.click("form.compare-releases button[type=submit]")
    page.wait_for_load_state()
    assert page.url == f"{two_releases.url}/en/changes/?from=2024-09-23&to=2025-02-10"
    assert page.locator("#section-2\\.3 del").first.inner_text() == "commits an error"


def test_a_paragraphs_history_opens_from_its_paragraph_menu(two_releases, new_page):
    page = new_page(PHONE)
    page.goto(two_releases.url + "/en/ipg/2.3/?langs=en,ja")
    page.click("#definition-1 a.permalink")
    page.click(".paragraph-menu .history-link")
    page.wait_for_load_state()
    assert page.url == f"{two_releases.url}/en/ipg/2.3/definition-1/history/?langs=en,ja"
    entries = page.locator("li.history-entry")
    assert entries.count() == 2
    assert entries.first.locator("del").first.inner_text() == "commits an error"
    assert overflow(page) <= 0
