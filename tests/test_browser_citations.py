"""The Cite control in headless Chromium: the paragraph's page copies its citation with its permanent link."""

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_cite_copies_the_citation_and_its_permanent_link(live_ipg, new_page):
    page = new_page(permissions=["clipboard-read", "clipboard-write"])
    page.goto(live_ipg.url + "/ja/ipg/2.3/example-c/")
    button = page.locator("button.copy-citation")
    assert button.is_visible()  # shown by study.js; without it the citation and link are the text above
    button.click()
    expect(page.locator(".cite-status")).not_to_be_empty()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == f"IPG 2.3節 例C（2024-09-23の版） {live_ipg.url}/ja/ipg/2.3/example-c/?release=2024-09-23"
    assert page.locator(".cite-status").inner_text().startswith("引用をコピーしました")


def test_the_menus_cite_leads_to_the_paragraphs_citation(live_ipg, new_page):
    page = new_page()
    page.goto(live_ipg.url + "/en/ipg/2.3/")
    page.click("#example-c > a.permalink")
    page.locator(".paragraph-menu[data-ref='2.3:example-c'] a.cite-link").click()
    page.wait_for_url("**/en/ipg/2.3/example-c/#cite")
    assert page.locator("#cite .citation").inner_text() == "IPG 2.3 Example C (2024-09-23)"
