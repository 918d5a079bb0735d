"""The infraction finder in headless Chromium on a phone: walked by tapping, nothing wider than the screen."""

import re

import pytest

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def overflow(page):
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


@pytest.mark.parametrize(
    "code, taps",
    [
        ("en", ["Once the game had begun", "No, neither is involved", "No", "No", "No", "Yes"]),
        ("ja", ["ゲーム開始後に起きました", "いいえ、どちらも関係しません", "いいえ", "いいえ", "いいえ", "はい"]),
        ("zh-hans", ["在游戏开始之后", "否,两者都不涉及", "否", "不能", "否", "是"]),
    ],
)
def test_tapping_through_to_the_hidden_card_error_at_390px(live_ipg, new_page, code, taps):
    page = new_page(PHONE, has_touch=True, is_mobile=True)
    page.goto(f"{live_ipg.url}/{code}/finder/")
    for n, label in enumerate(taps):
        assert overflow(page) <= 0, page.url
        answer = page.locator("a.finder-answer", has_text=re.compile("^" + re.escape(label)))
        assert answer.count() == 1 and answer.is_visible()
        with page.expect_navigation():
            answer.tap()
        assert page.locator("nav.finder-path li").count() == n + 1
    assert page.url.endswith(f"/{code}/finder/in-game/no-trigger/no/no/no/yes/")
    assert overflow(page) <= 0
    assert page.locator("section.finder-outcome h1 .number").inner_text() == "2.3"
    quote = page.locator("blockquote.finder-citation").first
    quote.scroll_into_view_if_needed()
    assert quote.is_visible()
    box = quote.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert quote.locator(".finder-cite-ref a").get_attribute("href").endswith("/ipg/2.3/#definition-1")
    # the cited paragraph's text is on screen when scrolled to, in the page's language
    assert quote.locator(f"div.text[lang='{ {'zh-hans': 'zh-Hans'}.get(code, code) }']").inner_text().strip()


def test_changing_an_earlier_answer_by_tapping_the_path_back(live_ipg, new_page):
    page = new_page(PHONE, has_touch=True, is_mobile=True)
    page.goto(f"{live_ipg.url}/en/finder/in-game/no-trigger/no/no/no/yes/")
    with page.expect_navigation(url="**/en/finder/in-game/no-trigger/"):
        page.locator("nav.finder-path li a").nth(2).tap()
    assert page.locator("h1").inner_text().startswith("Did a card the player should not have seen")
    with page.expect_navigation(url="**/en/finder/in-game/no-trigger/seen-only/"):
        page.locator("a.finder-answer", has_text="Yes: it was only seen").tap()
    assert "Looking at Extra Cards" in page.locator("h1").inner_text()
    assert overflow(page) <= 0
    with page.expect_navigation(url="**/en/finder/"):
        page.locator("a.finder-restart").tap()
    assert page.locator("nav.finder-path").count() == 0


def test_a_worked_example_is_walked_from_the_first_page_at_390px(live_ipg, new_page):
    page = new_page(PHONE, has_touch=True, is_mobile=True)
    page.goto(f"{live_ipg.url}/en/finder/")
    examples = page.locator("section.finder-worked blockquote")
    assert examples.count() == 14 and overflow(page) <= 0
    confidant = page.locator("a.finder-worked-link", has_text="Example C of 2.3")
    confidant.scroll_into_view_if_needed()
    box = confidant.bounding_box()
    assert box["height"] >= 44 and box["x"] >= 0 and box["x"] + box["width"] <= 390
    assert "Dark Confidant" in examples.nth(6).inner_text()
    with page.expect_navigation(url="**/en/finder/in-game/shown/yes/yes/"):
        confidant.tap()
    assert page.locator("section.finder-outcome h1 .number").inner_text() == "2.3"
    assert page.locator("nav.finder-path li").count() == 4
    assert overflow(page) <= 0


@pytest.mark.parametrize("code", ["en", "zh-hans", "ja"])
@pytest.mark.parametrize("path", ["", "ipg/2.3/"])
def test_the_header_links_to_the_finder_and_glossary_are_tappable_at_390px(
    live_ipg, new_page, code, path, keep_screenshot
):
    page = new_page(PHONE, has_touch=True, is_mobile=True)
    page.goto(f"{live_ipg.url}/{code}/{path}")
    assert overflow(page) <= 0
    menu = page.locator("header.site-header .menu-button")  # on a phone the links are in the header's menu
    box = menu.bounding_box()
    assert box["height"] >= 44 and box["width"] >= 44 and box["x"] + box["width"] <= 390, box
    menu.tap()
    for name in ("finder-link", "glossary-link"):
        link = page.locator(f"header.site-header a.{name}")
        box = link.bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44, (name, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390 and box["y"] < 844, (name, box)
    keep_screenshot(page, f"header-{code}-{path.replace('/', '-') or 'outline'}.png")
    with page.expect_navigation(url=f"**/{code}/glossary/"):
        page.locator("header.site-header a.glossary-link").tap()
    page.locator("header.site-header .menu-button").tap()
    with page.expect_navigation(url=f"**/{code}/finder/"):
        page.locator("header.site-header a.finder-link").tap()


def test_a_case_in_the_sites_words_is_walked_from_the_first_page_at_390px(live_ipg, new_page):
    """The eight-card opening hand noticed on turn 2: made before the game, noticed in it, a Hidden Card Error."""
    page = new_page(PHONE, has_touch=True, is_mobile=True)
    page.goto(f"{live_ipg.url}/en/finder/")
    cases = page.locator("section.finder-cases li")
    assert cases.count() == 3 and overflow(page) <= 0
    link = cases.nth(0).locator("a.finder-case-link")
    link.scroll_into_view_if_needed()
    box = link.bounding_box()
    assert box["height"] >= 44 and box["x"] >= 0 and box["x"] + box["width"] <= 390
    with page.expect_navigation(url="**/en/finder/pre-game-noticed-later/"):
        link.tap()
    assert page.locator("section.finder-outcome h1 .number").inner_text() == "2.3"
    assert "becomes a Hidden Card Error" in page.locator("section.finder-outcome blockquote").first.inner_text()
    assert overflow(page) <= 0
