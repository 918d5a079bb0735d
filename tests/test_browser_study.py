"""Study tools in headless Chromium on a phone: a reading list built with the ¶ menu, opened elsewhere."""

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def overflow(page):
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


def add_to_list(page, key):
    page.click(f"#{key} > a.permalink")
    menu = page.locator(f".paragraph-menu[data-ref$=':{key}']")
    assert menu.is_visible()
    menu.locator("button.add-to-list").click()
    assert menu.locator("button.add-to-list").get_attribute("aria-pressed") == "true"


def test_a_list_of_three_paragraphs_from_two_sections_opens_in_a_fresh_browser(live_ipg, new_page):
    page = new_page(PHONE)
    page.goto(live_ipg.url + "/en/ipg/2.3/")
    add_to_list(page, "example-c")
    add_to_list(page, "definition-1")
    page.goto(live_ipg.url + "/en/ipg/2.4/")
    bar = page.locator(".reading-list-bar")
    assert bar.is_visible()
    assert "2 paragraphs" in bar.locator(".reading-list-count").inner_text()
    add_to_list(page, "example-a")
    assert "3 paragraphs" in bar.locator(".reading-list-count").inner_text()
    assert overflow(page) <= 0
    list_url = bar.locator("a.reading-list-open").get_attribute("href")
    assert list_url == "/en/list/?p=2.3:example-c&p=2.3:definition-1&p=2.4:example-a"

    fresh = new_page(PHONE)  # another context: nothing of this device's list
    fresh.goto(live_ipg.url + list_url)
    entries = fresh.locator("section.list-entry")
    assert entries.count() == 3
    assert [entries.nth(i).get_attribute("data-ref") for i in range(3)] == [
        "2.3:example-c",
        "2.3:definition-1",
        "2.4:example-a",
    ]
    for i in range(3):
        assert entries.nth(i).locator(".row").is_visible()
    assert "Dark Confidant" in entries.nth(0).inner_text()
    assert "Mulligan Procedure Error" in entries.nth(2).locator("h2").inner_text()
    assert overflow(fresh) <= 0
    assert fresh.locator(".reading-list-bar").is_hidden()  # the fresh browser has no list of its own


DESKTOP = {"width": 1280, "height": 800}
LAYOUTS = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]


def in_view(page, selector):
    """Whether the element is wholly on screen, above the bar at the bottom of a phone's screen."""
    return page.evaluate(
        """(selector) => {
          const box = document.querySelector(selector).getBoundingClientRect();
          const bar = document.querySelector('.section-tools');
          const fixed = bar && getComputedStyle(bar).position === 'fixed';
          const bottom = innerHeight - (fixed ? bar.getBoundingClientRect().height : 0);
          return box.top >= 0 && box.bottom <= bottom;
        }""",
        selector,
    )


def assert_the_title_is_in_view(page):
    """The section's title, or the bar that keeps it above the paragraph once the header has scrolled away."""
    if in_view(page, "#section-title"):
        return
    bar = page.locator(".shared-title > p")
    assert bar.is_visible() and in_view(page, ".shared-title > p")
    assert bar.inner_text().startswith("2.3 ")


@pytest.mark.parametrize("viewport", LAYOUTS)
@pytest.mark.parametrize("langs", ["", "?langs=en,zh-hans,ja"])
def test_the_shared_paragraph_is_in_view_and_highlighted(live_ipg, new_page, langs, viewport):
    page = new_page(viewport)
    page.goto(live_ipg.url + "/ja/ipg/2.3/example-d/" + langs)
    row = page.locator("#example-d.shared-paragraph")
    assert row.is_visible()
    assert row.locator(".text").count() == (3 if langs else 1)  # stacked on a phone when compared
    top = page.evaluate("document.getElementById('example-d').getBoundingClientRect().top")
    assert 0 <= top < viewport["height"] / 2
    assert_the_title_is_in_view(page)
    assert overflow(page) <= 0


@pytest.mark.parametrize("viewport", LAYOUTS)
def test_the_shared_paragraph_page_is_a_table_page_opening_with_the_title_in_view(live_ipg, new_page, viewport):

    page = new_page(viewport)
    page.goto(live_ipg.url + "/ja/ipg/2.3/example-c/")
    row = page.locator("#example-c.shared-paragraph")
    assert in_view(page, "#example-c")
    assert_the_title_is_in_view(page)
    # The highlight has room inside: the text does not touch its edges.
    inset = row.evaluate(
        """(row) => {
          const r = row.getBoundingClientRect(), t = row.querySelector('.text').getBoundingClientRect();
          return [t.left - r.left, r.right - t.right, t.top - r.top];
        }"""
    )
    assert min(inset) >= 8, inset
    # The section page's tools: the player's language in place, Show, ☆.
    row.locator("a.in-other-language").click()
    expect(row.locator(":scope > .in-place")).to_have_attribute("lang", "en")
    assert page.url == live_ipg.url + "/ja/ipg/2.3/example-c/"
    expect(row.locator("button.pin-paragraph")).to_have_attribute("aria-pressed", "false")
    row.locator("button.show-paragraph").click()
    expect(page.locator("dialog.show-mode .show-player")).to_have_attribute("lang", "en")
    page.keyboard.press("Escape")
    # The bar (on a phone at the bottom of the screen) and the compare choice, as on the section page.
    tools = page.locator(".section-tools")
    expect(tools.locator(".reading-settings summary")).to_be_visible()
    if viewport == PHONE:
        assert tools.evaluate("e => getComputedStyle(e).position") == "fixed"
        expect(tools).to_be_in_viewport()
        page.click(".compare-button")
    expect(page.locator(".compare-pairs a").nth(1)).to_be_visible()
    page.locator(".compare-pairs a").nth(1).click()  # 日本語 + English
    page.wait_for_url("**/ja/ipg/2.3/example-c/?langs=ja,en")
    assert [row.locator(".text").nth(i).get_attribute("lang") for i in range(2)] == ["ja", "en"]
    assert_the_title_is_in_view(page)
    assert overflow(page) <= 0


@pytest.mark.parametrize("viewport", LAYOUTS)
def test_without_javascript_the_shared_page_opens_at_its_title_with_the_section_pages_tools(
    live_ipg, new_page, viewport
):
    page = new_page(viewport, java_script_enabled=False)
    page.goto(live_ipg.url + "/ja/ipg/2.3/example-c/")
    assert in_view(page, "#section-title")
    assert page.locator(".shared-title").is_hidden()
    page.click("#example-c a.in-other-language")
    page.wait_for_url("**/ja/ipg/2.3/example-c/?langs=ja,en#example-c")
    texts = page.locator("#example-c > .text")
    assert [texts.nth(i).get_attribute("lang") for i in range(2)] == ["ja", "en"]
    assert overflow(page) <= 0


def test_the_link_copied_from_a_compare_page_opens_the_paragraph_in_its_languages(live_ipg, new_page):
    page = new_page(PHONE, permissions=["clipboard-read", "clipboard-write"])
    page.goto(live_ipg.url + "/en/ipg/2.3/?langs=ja,en")
    page.click("#example-c > a.permalink")
    expect(page.locator("#copy-status")).not_to_be_empty()
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == f"{live_ipg.url}/en/ipg/2.3/example-c/?langs=ja,en"
    menu = page.locator(".paragraph-menu[data-ref='2.3:example-c']")
    assert menu.is_visible()
    assert menu.locator("a.share-link").get_attribute("href") == "/en/ipg/2.3/example-c/?langs=ja,en"

    fresh = new_page(PHONE)  # the recipient: no cookie, nothing remembered
    fresh.goto(copied)
    row = fresh.locator("#example-c.shared-paragraph")
    assert row.is_visible()
    assert [row.locator(".text").nth(i).get_attribute("lang") for i in range(2)] == ["ja", "en"]
    assert overflow(fresh) <= 0


def test_the_quiz_is_answered_by_following_links(live_ipg, new_page):
    page = new_page(PHONE)
    page.goto(live_ipg.url + "/en/quiz/?seed=11&chapter=2")
    assert page.locator("h2#question-title").is_visible()
    assert overflow(page) <= 0
    page.locator("ul.quiz-choices a").first.click()
    assert page.locator("section.quiz-result").is_visible()
    assert "a=" in page.url
    assert "Score:" in page.locator(".quiz-score").inner_text()


def test_a_reading_list_once_opened_reads_offline(live_ipg, new_page):

    page = new_page(PHONE, service_workers="allow")
    url = f"{live_ipg.url}/ja/list/?p=2.3:example-c&p=2.4:definition-1&langs=ja,en"
    page.goto(url)
    expect(page.locator("#offline-status")).to_have_attribute("data-state", "ready", timeout=60_000)
    page.wait_for_function(
        "url => caches.open('ipg-pages').then(c => c.match(url)).then(r => !!r)", arg=url, timeout=10_000
    )
    page.context.set_offline(True)
    response = page.goto(url)
    assert response.ok and response.from_service_worker
    expect(page.locator("section.list-entry")).to_have_count(2)
    expect(page.locator("section.list-entry").first).to_contain_text("闇の腹心")
    # Its stylesheet came from the saved copy too: the menu and bar styles apply.
    assert page.evaluate("getComputedStyle(document.querySelector('.list-entry')).borderTopStyle") == "solid"
    # A list never opened was not saved: the offline page says so.
    response = page.goto(f"{live_ipg.url}/ja/list/?p=2.3:example-a")
    assert response.status == 503


@pytest.mark.parametrize(("langs", "columns"), [("", 1), ("&langs=zh-hans,en", 2)])
def test_a_reading_list_prints_as_an_a4_handout_one_column_per_language(live_ipg, new_page, langs, columns):
    import re

    page = new_page(PHONE)
    page.goto(f"{live_ipg.url}/en/list/?p=2.3:example-c&p=2.4:definition-1{langs}")
    page.emulate_media(media="print")
    tracks = page.evaluate("getComputedStyle(document.querySelector('.list-entry .row')).gridTemplateColumns")
    assert (len(tracks.split()) if tracks != "none" else 1) == columns
    for hidden in [".site-header", ".compare", ".list-link", ".site-footer"]:
        assert page.evaluate(f"getComputedStyle(document.querySelector('{hidden}')).display") == "none", hidden
    # The columns' first lines level: the second language's text no lower than the first's.
    tops = page.evaluate(
        "[...document.querySelectorAll('.list-entry .row > .text')].map(t => t.querySelector('p').getBoundingClientRect().top)"
    )
    for row in range(0, len(tops), columns):
        assert len(set(tops[row : row + columns])) == 1, tops
    assert page.locator(".print-source").is_visible()  # the handout names its address and release
    pdf = page.pdf(prefer_css_page_size=True)
    width, height = map(float, re.search(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", pdf).groups())
    assert (round(width / 72 * 25.4), round(height / 72 * 25.4)) == (210, 297)  # A4, in millimetres


DESKTOP = {"width": 1280, "height": 800}
# How many lines an element's text takes: the distinct tops of its text's line boxes.
LINES_JS = """(el) => {
  const range = document.createRange();
  range.selectNodeContents(el);
  return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
}"""
BACKGROUND_JS = "(el) => getComputedStyle(el).backgroundColor"
TRANSPARENT = "rgba(0, 0, 0, 0)"


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_quizs_main_action_is_the_prominent_button(live_ipg, new_page, viewport):
    page = new_page(viewport)
    page.goto(live_ipg.url + "/zh-hans/quiz/")
    start = page.locator("a.start-quiz")
    box = start.bounding_box()
    assert box["y"] + box["height"] < viewport["height"] and box["height"] >= 44  # in the first screen, a control
    assert start.evaluate(BACKGROUND_JS) != TRANSPARENT  # filled: the prominent one
    assert page.locator(".quiz-sections button[type=submit]").evaluate(BACKGROUND_JS) == TRANSPARENT  # outlined
    # The English title shown for want of a Chinese one keeps its "EN" badge whole.
    for badge in page.locator(".fallback-mark").all():
        assert badge.evaluate(LINES_JS) == 1
    assert overflow(page) <= 0
    start.click()
    page.locator("ul.quiz-choices a").first.click()
    result = page.locator("section.quiz-result")
    definition = result.locator(".quiz-definitions a")
    assert definition.inner_text() == "阅读其定义" and definition.get_attribute("href").endswith("#part-definition")
    for badge in page.locator(".fallback-mark").all():
        assert badge.evaluate(LINES_JS) == 1
    assert overflow(page) <= 0


def test_a_reading_list_names_its_paragraphs_and_its_link_in_words(live_ipg, new_page):
    page = new_page(PHONE, permissions=["clipboard-read", "clipboard-write"])
    url = "/zh-hans/list/?p=2.3:example-c&p=2.4:definition-1&p=2.1:example-a&langs=zh-hans"
    page.goto(live_ipg.url + url)
    assert page.locator(".entry-part").all_inner_texts() == ["范例 C", "定义第 1 段", "范例 A"]
    assert "·" not in " ".join(page.locator(".entry-title").all_inner_texts())
    link = page.locator("a.list-url")
    assert link.inner_text() == "本清单的链接" and link.get_attribute("href") == live_ipg.url + url
    page.locator("button.copy-list-link").click()
    expect(page.locator(".copy-status")).not_to_be_empty()
    assert page.evaluate("navigator.clipboard.readText()") == live_ipg.url + url
    assert "http" not in page.locator(".list-link").inner_text()  # said done, the address not shown
    for badge in page.locator(".fallback-mark").all():
        assert badge.evaluate(LINES_JS) == 1
    assert overflow(page) <= 0
