"""Terms as a judge meets them in headless Chromium: a marked term opens its names in the other languages in place;
without JavaScript it is a link to the glossary entry."""

import pytest

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def overflow(page):
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


@pytest.mark.parametrize("viewport", [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")])
def test_activating_a_term_shows_its_names_in_the_other_languages_and_its_definition(live_ipg, new_page, viewport):
    page = new_page(viewport)
    page.goto(live_ipg.url + "/ja/ipg/2.3/#example-c")
    mark = page.locator("#example-c a.term[href$='#dark-confidant']")
    card = page.locator("#" + mark.get_attribute("aria-controls"))
    assert not card.is_visible()
    mark.click()
    assert card.is_visible()
    assert mark.get_attribute("aria-expanded") == "true"
    assert page.locator("#example-c .term-card").count() == 1  # the page's one card, under the text
    assert card.locator("[lang='en']").inner_text() == "Dark Confidant"
    assert card.locator("[lang='zh-Hans']").inner_text() == "黑暗亲信"
    assert page.url.endswith("/ja/ipg/2.3/#example-c")  # the page stays where it was
    assert overflow(page) <= 0
    mark.click()
    assert not card.is_visible()
    # The definition link of a term that has one goes to its paragraph.
    page.goto(live_ipg.url + "/zh-hans/ipg/2.3/#definition-1")
    mark = page.locator("#definition-1 a.term[href$='#hidden-card-error']")
    mark.click()
    card = page.locator("#" + mark.get_attribute("aria-controls"))
    card.locator("a").click()
    page.wait_for_url("**/ipg/2.3/#definition-1")


def test_without_javascript_a_term_is_a_link_to_its_glossary_entry(live_ipg, new_page):
    page = new_page(PHONE, java_script_enabled=False)
    page.goto(live_ipg.url + "/en/ipg/2.3/#example-b")
    page.locator("#example-b a.term[href$='#scry']").click()
    page.wait_for_url("**/en/glossary/#scry")
    entry = page.locator("#scry")
    assert entry.is_visible()
    assert entry.locator("dd[lang='zh-Hans']").inner_text() == "占卜"
    assert entry.locator("dd[lang='ja']").inner_text() == "占術"
    assert overflow(page) <= 0


@pytest.mark.parametrize("code", ["en", "zh-hans", "ja"])
def test_the_glossary_never_scrolls_sideways_on_a_phone(live_ipg, new_page, code):
    page = new_page(PHONE)
    page.goto(f"{live_ipg.url}/{code}/glossary/")
    assert page.locator("article.term-entry").count() >= 20
    assert overflow(page) <= 0


def test_a_mark_is_announced_as_a_disclosure_only_with_javascript(live_ipg, new_page):
    page = new_page(PHONE, java_script_enabled=False)
    page.goto(live_ipg.url + "/en/ipg/2.3/")
    assert page.locator("a.term[aria-expanded]").count() == 0  # a plain link to the glossary
    page = new_page(PHONE)
    page.goto(live_ipg.url + "/en/ipg/2.3/")
    assert page.locator("a.term[aria-expanded='false']").count() == page.locator("a.term").count() > 0


def test_a_term_in_a_note_opens_its_names_under_the_note(live_ipg, new_page):
    page = new_page(PHONE)
    page.goto(live_ipg.url + "/en/ipg/2.3/#definition-1")
    notes = page.locator("#definition-1 + details.notes")
    notes.locator("summary").click()
    mark = notes.locator("aside.note").nth(2).locator("a.term[href$='#library']")
    card = page.locator("#" + mark.get_attribute("aria-controls"))
    assert not card.is_visible()
    mark.click()
    assert card.is_visible() and mark.get_attribute("aria-expanded") == "true"
    assert card.locator("[lang='zh-Hans']").inner_text() == "牌库"
    assert page.url.endswith("/en/ipg/2.3/#definition-1")
    assert overflow(page) <= 0


# How many lines an element's text takes: the distinct tops of its text's line boxes.
LINES_JS = """(el) => {
  const range = document.createRange();
  range.selectNodeContents(el);
  return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
}"""


@pytest.mark.parametrize("viewport", [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")])
@pytest.mark.parametrize("code", ["en", "ja", "zh-hans"])
def test_a_terms_names_in_its_card_never_split_across_lines(live_ipg, new_page, viewport, code):
    page = new_page(viewport)
    page.goto(f"{live_ipg.url}/{code}/ipg/2.3/#definition-1")
    mark = page.locator("#definition-1 a.term[href$='#hidden-card-error']")
    mark.click()
    names = page.locator("#" + mark.get_attribute("aria-controls") + " .term-name")
    assert names.count() == 3
    for i in range(3):
        assert names.nth(i).evaluate(LINES_JS) == 1, names.nth(i).inner_text()
    assert overflow(page) <= 0
