"""The phone screen belongs to the text (390×844, headless Chromium): the first line of a section's first paragraph in
the top 40% of the screen in every language and compare choice, with the title and penalty; fixed chrome of at most
64 px at the top and at the bottom, covering nothing the reader just opened; the offline state as a mark; section
numbers that never break; search results first."""

import itertools

import pytest
from playwright.sync_api import expect

from ipgsite.ipg import languages
from pages import PAGE_TYPES

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
FIRST_SCREEN = int(PHONE["height"] * 0.4)  # 338 px
CHROME = 64  # px of fixed chrome at the top, and at the bottom
SECTIONS = ["2.1", "2.3", "2.4"]
# Every choice the compare form offers: no `langs`, then one, two or three languages in every order.
CHOICES = [""] + [",".join(p) for n in (1, 2, 3) for p in itertools.permutations(languages.CODES, n)]

# The first line of the first paragraph: the first line box of the first text the reader reads in it (a column's
# name is a label, not the paragraph); the title's and the penalty's bottoms.
FIRST_SCREEN_JS = """() => {
  const text = document.querySelector('article.section .row[id] .text');
  const walker = document.createTreeWalker(text, NodeFilter.SHOW_TEXT);  // no filter callback: pages without script
  let node = walker.nextNode();
  while (node && !(node.textContent.trim() && !node.parentElement.closest('.column-name')
      && node.parentElement.getClientRects().length)) node = walker.nextNode();
  const range = document.createRange();
  range.selectNodeContents(node);
  const line = range.getClientRects()[0];
  const bottom = (selector) => document.querySelector(selector).getBoundingClientRect().bottom;
  return { line: line.bottom, top: line.top, title: bottom('h1'), penalty: bottom('.penalty-line .penalty') };
}"""

# Every element fixed or sticky to the screen and shown: its box, as the screen shows it now.
FIXED_JS = """() => [...document.querySelectorAll('body *')].filter((e) => {
    const style = getComputedStyle(e);
    return ['fixed', 'sticky'].includes(style.position) && style.visibility !== 'hidden' && e.getClientRects().length
      && !e.closest('[popover]:popover-open, dialog[open]');
  }).map((e) => { const r = e.getBoundingClientRect(); return { name: e.className, top: r.top, bottom: r.bottom }; })
  .filter((r) => r.bottom > 0 && r.top < innerHeight)"""


def chrome(page):
    """(px at the top, px at the bottom) of the screen that fixed or sticky elements cover."""
    boxes = page.evaluate(FIXED_JS)
    height = page.viewport_size["height"]
    top = max([b["bottom"] for b in boxes if b["top"] <= 0] or [0])
    bottom = height - min([b["top"] for b in boxes if b["bottom"] >= height] or [height])
    return top, bottom


def covered(page, locator):
    """Whether a fixed or sticky element overlaps what `locator` shows on the screen."""
    box = locator.bounding_box()
    return [
        b
        for b in page.evaluate(FIXED_JS)
        if b["top"] < box["y"] + box["height"] and b["bottom"] > box["y"] and box["y"] < page.viewport_size["height"]
    ]


def assert_the_bottom_bar_never_clips_its_part_links(page):
    bar = page.locator(".section-tools")
    assert bar.evaluate("e => e.scrollWidth <= e.clientWidth"), "the bar scrolls sideways"
    for control in bar.locator(":scope > :visible").all():
        box = control.bounding_box()
        assert 0 <= box["x"] and box["x"] + box["width"] <= PHONE["width"], control.inner_text()
    page.click(".parts-button")
    links = page.locator(".section-nav .parts a")
    assert links.count() > 1
    for link in links.all():
        expect(link).to_be_in_viewport(ratio=1)
        assert link.evaluate("a => a.scrollWidth <= a.clientWidth"), link.inner_text()
        assert not link.evaluate("a => getComputedStyle(a).textOverflow === 'ellipsis'")
    links.last.click()
    expect(page.locator(".section-nav")).to_be_hidden()  # the panel closes on the part it opened
    assert page.url.endswith(links.last.get_attribute("href"))


@pytest.mark.parametrize("number", SECTIONS)
@pytest.mark.parametrize("code", languages.CODES)
def test_the_first_line_title_and_penalty_are_on_the_first_screen_in_every_compare_choice(
    live_ipg, new_page, code, number
):
    """And, on the section as the reader first opens it (no compare choice), the bar at the bottom never clips its
    part links."""
    page = new_page(PHONE)
    found = {}
    for choice in CHOICES:
        page.context.clear_cookies()  # no remembered choice: the page is the one its URL names
        page.goto(f"{live_ipg.url}/{code}/ipg/{number}/" + (f"?langs={choice}" if choice else ""))
        where = page.evaluate(FIRST_SCREEN_JS)
        found[choice or "-"] = round(where["line"])
        assert where["top"] > 0, choice
        assert where["title"] < where["top"] and where["penalty"] < where["top"], choice
        top, bottom = chrome(page)
        assert top == 0 and bottom <= CHROME, choice
        if not choice:
            assert_the_bottom_bar_never_clips_its_part_links(page)
    late = {choice: line for choice, line in found.items() if line > FIRST_SCREEN}
    assert late == {}, f"first lines (px from the top): {found}"


@pytest.mark.parametrize("url", ["/en/ipg/2.3/", "/zh-hans/ipg/2.4/?langs=zh-hans,ja,en", "/ja/ipg/2.1/"])
def test_without_javascript_the_first_line_is_on_the_first_screen_too(live_ipg, new_page, url):
    page = new_page(PHONE, java_script_enabled=False)
    page.goto(live_ipg.url + url)
    assert page.evaluate(FIRST_SCREEN_JS)["line"] <= FIRST_SCREEN


@pytest.mark.parametrize(
    "url",
    [
        "/en/",
        "/ja/ipg/2.3/",
        "/en/ipg/2.3/?langs=en,zh-hans,ja",
        "/zh-hans/search/?q=%E8%AD%A6%E5%91%8A",
        "/ja/glossary/",
    ],
)
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_fixed_chrome_takes_at_most_64px_at_the_top_and_at_the_bottom(live_ipg, new_page, url, viewport):
    page = new_page(viewport)
    page.goto(live_ipg.url + url)
    for y in (0, 1500):  # at the top of the page, and scrolled into the text (sticky heads stick)
        page.evaluate(f"window.scrollTo(0, {y})")
        top, bottom = chrome(page)
        assert top <= CHROME and bottom <= CHROME, (y, page.evaluate(FIXED_JS))


def test_a_translation_opened_in_place_is_never_under_the_bar(live_ipg, new_page):
    page = new_page(PHONE)
    page.goto(live_ipg.url + "/en/ipg/2.3/")
    control = page.locator("#example-a a.in-other-language")
    # The control just above the bar: what it opens would fall under the bar if nothing moved it.
    control.evaluate("(a) => window.scrollBy(0, a.getBoundingClientRect().bottom - (innerHeight - 70))")
    control.click()
    in_place = page.locator("#example-a > .in-place")
    expect(in_place).not_to_have_attribute("aria-busy", "true")
    expect(in_place).to_be_in_viewport(ratio=1)
    assert covered(page, in_place) == []


def test_the_second_language_of_a_compare_page_is_never_covered(live_ipg, new_page):
    page = new_page(PHONE)
    page.goto(live_ipg.url + "/ja/ipg/2.3/?langs=ja,en#example-c")
    second = page.locator("#example-c > .text").nth(1)
    assert second.get_attribute("lang") == "en"
    second.evaluate("(e) => e.scrollIntoView({ block: 'end' })")
    expect(second).to_be_in_viewport(ratio=1)
    assert covered(page, second) == []


def test_nothing_found_is_never_covered_even_when_the_offline_state_shows(live_ipg, new_page):
    page = new_page(PHONE, service_workers="allow")
    page.goto(live_ipg.url + "/en/ipg/2.3/")
    expect(page.locator("#offline-status")).to_have_attribute("data-state", "ready", timeout=60_000)
    page.goto(live_ipg.url + "/en/search/?q=zzzzzz-nothing")
    nothing = page.locator(".no-results")
    expect(nothing).to_be_visible()
    expect(page.locator(".offline-mark")).to_be_visible()
    assert covered(page, nothing) == []


def test_the_offline_state_is_a_small_mark_in_the_header_with_its_details_on_a_tap(live_ipg, new_page):
    page = new_page(PHONE, service_workers="allow")
    page.goto(live_ipg.url + "/ja/ipg/2.3/")
    status = page.locator("#offline-status")
    expect(status).to_have_attribute("data-state", "ready", timeout=60_000)
    mark = page.locator(".offline-mark")
    expect(mark).to_be_visible()
    expect(status).to_be_hidden()  # the words take no room until asked for
    box = mark.bounding_box()
    header = page.locator(".site-header").bounding_box()
    assert box["height"] <= 48 and box["width"] <= 48 and box["y"] + box["height"] <= header["y"] + header["height"]
    assert mark.get_attribute("data-state") == "ready"
    first_line = page.evaluate(FIRST_SCREEN_JS)["line"]
    mark.click()
    expect(status).to_be_visible()
    expect(status).to_have_text("オフラインで利用できます · 2024-09-23版のIPG")
    page.keyboard.press("Escape")
    expect(status).to_be_hidden()
    assert page.evaluate(FIRST_SCREEN_JS)["line"] == first_line  # nothing moved
    page.context.set_offline(True)
    expect(mark).to_have_attribute("data-state", "offline")


# Section numbers never break ------------------------------------------------------------------------------
NUMBERED = [page.url for page in PAGE_TYPES if page.numbers]  # every page type that shows section numbers

# Every section number on the page whose text runs over more than one line.
BROKEN_NUMBERS_JS = """() => [...document.querySelectorAll('.number')].filter((n) => n.getClientRects().length).filter((n) => {
    const range = document.createRange();
    range.selectNodeContents(n);
    const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
    return tops.size > 1;
  }).map((n) => n.textContent)"""


@pytest.mark.parametrize("viewport", [PHONE, {"width": 320, "height": 640}, DESKTOP], ids=["phone", "small", "desktop"])
def test_section_numbers_never_break(live_ipg, new_page, viewport):
    page = new_page(viewport)
    counted = {}
    for url in NUMBERED:
        page.context.clear_cookies()
        page.goto(live_ipg.url + url)
        counted[url] = page.locator(".number").count()
        assert page.evaluate(BROKEN_NUMBERS_JS) == [], url
    assert all(counted.values()), counted  # every page shows numbers


# Search on a phone ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("query", ["drew", "親信"])
def test_search_results_come_first_and_the_filters_are_folded(live_ipg, new_page, query):
    page = new_page(PHONE)
    page.goto(f"{live_ipg.url}/en/search/?q={query}")
    first = page.locator(".result, .matching-sections li").first
    assert first.bounding_box()["y"] < FIRST_SCREEN
    assert not page.locator(".search-filters input[type=checkbox]").first.is_visible()
    assert page.locator("#search-q").count() == 1, "one search box"


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_finder_questions_come_after_the_first_results_folded(live_ipg, new_page, viewport):
    """/ja/search/?q=手札 matches several of the finder's questions: they wait, folded under their count, after the
    first section's results, which stand in the first screen under the count of results."""
    page = new_page(viewport)
    page.goto(f"{live_ipg.url}/ja/search/?q=%E6%89%8B%E6%9C%AD")
    first = page.locator(".result").first
    assert first.bounding_box()["y"] < FIRST_SCREEN
    order = page.evaluate(
        """() => [...document.querySelectorAll('.result-count, .result-group, .finder-matches')]
          .map((e) => e.className.split(' ')[0])"""
    )
    assert order[:3] == ["result-count", "result-group", "finder-matches"], order
    summary = page.locator(".finder-matches summary")
    steps = page.locator(".finder-matches .finder-steps a")
    assert steps.count() >= 4 and not steps.first.is_visible()
    expect(summary).to_have_text(f"違反ファインダー：一致する質問 {steps.count()} 件")
    summary.click()
    expect(steps.first).to_be_visible()
    expect(steps.first).to_have_attribute("lang", "ja")


def test_the_folded_filters_are_a_plain_get_form_without_javascript(live_ipg, new_page):
    page = new_page(PHONE, java_script_enabled=False)
    page.goto(f"{live_ipg.url}/ja/search/?q=%E6%89%8B%E6%9C%AD")
    page.click(".search-filters summary")
    page.check("input[name=language][value=ja]")
    page.check("input[name=kind][value=note]")
    page.click(".search-filters button[type=submit]")
    page.wait_for_url("**/ja/search/?q=*")
    assert "language=ja" in page.url and "kind=note" in page.url
    expect(page.locator(".search-filters summary")).to_contain_text("日本語")
    metas = page.locator(".result-meta").all_inner_texts()
    assert metas and all("日本語" in meta for meta in metas)
