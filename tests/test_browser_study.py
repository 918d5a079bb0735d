"""Study tools in headless Chromium on a phone: a reading list built with the ¶ menu, opened elsewhere."""

import pytest

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def overflow(page):
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


def add_to_list(page, key):
    page.click(f"#{key} > a.permalink")
    menu = page.locator(f"#{key} > .paragraph-menu")
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


def test_the_shared_paragraph_is_in_view_and_highlighted(live_ipg, new_page):
    page = new_page(PHONE)
    page.goto(live_ipg.url + "/ja/ipg/2.3/example-d/")
    row = page.locator("#example-d.shared-paragraph")
    assert row.is_visible()
    top = page.evaluate("document.getElementById('example-d').getBoundingClientRect().top")
    assert 0 <= top < PHONE["height"] / 2
    assert overflow(page) <= 0


def test_the_quiz_is_answered_by_following_links(live_ipg, new_page):
    page = new_page(PHONE)
    page.goto(live_ipg.url + "/en/quiz/?seed=11&chapter=2")
    assert page.locator("h2#question-title").is_visible()
    assert overflow(page) <= 0
    page.locator("ul.quiz-choices a").first.click()
    assert page.locator("section.quiz-result").is_visible()
    assert "a=" in page.url
    assert "Score:" in page.locator(".quiz-score").inner_text()
