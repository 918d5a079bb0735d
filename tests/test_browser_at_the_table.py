"""At the table, on a 390×844 phone in headless Chromium: the text first, a paragraph in the player's language in
place, show mode, pinned paragraphs that last and read offline, controls big enough for a thumb."""

from html import unescape

import pytest
from django.core.signals import request_started
from django.utils.html import strip_tags
from playwright.sync_api import expect

from ipgsite.ipg import languages
from ipgsite.ipg.markup import render_markdown
from ipgsite.ipg.models import Paragraph

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
SAVING_TIMEOUT = 60_000  # ms: the first visit saves every section in the background

# (url, section, the languages the page shows, the player's language offered first)
PAGES = [
    pytest.param("/ja/ipg/2.3/", "2.3", ["ja"], "en", id="ja-2.3"),
    pytest.param("/en/ipg/2.3/?langs=en,ja", "2.3", ["en", "ja"], "zh-hans", id="en-2.3-compare"),
    pytest.param("/zh-hans/ipg/2.4/", "2.4", ["zh-hans"], "en", id="zh-hans-2.4"),
]


def words(html):
    return " ".join(unescape(strip_tags(html)).split())


def text_of(number, key, code):
    return words(render_markdown(Paragraph.objects.get(section__number=number, key=key).text_in(code)))


def keys_with(number, *codes):
    """The section's paragraph keys, in order, that have a text in each of these languages."""
    paragraphs = Paragraph.objects.filter(section__number=number).order_by("order")
    return [p.key for p in paragraphs if all(p.text_in(code) for code in codes)]


def first_key(number, *codes):
    return keys_with(number, *codes)[0]


def overflow(page):
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


def first_paragraph_top(page):
    return page.evaluate("document.querySelector('article.section .row[id]').getBoundingClientRect().top")


# Every control a thumb may need; links inside a paragraph's sentences are text, not controls.
SMALL_CONTROLS = """() => {
  const controls = document.querySelectorAll('a[href], button, input, select, summary, textarea');
  const small = [];
  for (const el of controls) {
    if (el.closest('.text, .note-body, .in-place, .diff')) continue;
    if (!el.getClientRects().length || getComputedStyle(el).visibility === 'hidden') continue;
    const box = el.getBoundingClientRect();
    if (box.width < 43.5 || box.height < 43.5) {
      small.push(`${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 20)}" ${Math.round(box.width)}x${Math.round(box.height)}`);
    }
  }
  return small;
}"""


@pytest.fixture
def server_requests():
    paths = []

    def record(sender, environ=None, **kwargs):
        paths.append(environ.get("PATH_INFO") if environ else "?")

    request_started.connect(record)
    yield paths
    request_started.disconnect(record)


def assert_first_paragraph_in_the_top_half_and_nothing_scrolls_sideways(page):
    top = first_paragraph_top(page)
    assert 0 < top <= PHONE["height"] / 2, f"the first paragraph starts {top}px down"
    assert overflow(page) <= 0


def assert_the_parts_are_reachable_from_the_bar(page):
    """The parts and the notes stay reachable: in the bar at the bottom of the screen, the parts in its panel."""
    expect(page.locator(".section-tools .parts-button")).to_be_in_viewport()
    page.click(".section-tools .parts-button")
    parts = page.locator(".section-tools .parts a")
    assert parts.count() > 1
    expect(parts.first).to_be_in_viewport()
    parts.last.click()
    assert page.url.endswith(parts.last.get_attribute("href"))


def assert_every_control_is_at_least_44_by_44(page):
    assert page.locator(".row-tools button").count() > 0
    assert page.evaluate(SMALL_CONTROLS) == []
    page.click(".reading-settings summary")  # its panel's controls too
    expect(page.locator(".text-size button").first).to_be_visible()
    assert page.evaluate(SMALL_CONTROLS) == []
    assert overflow(page) <= 0
    page.click(".reading-settings summary")  # folded again


def assert_the_paragraph_control_shows_the_other_language_in_place(page, base, url, number, shown, player):
    key = first_key(number, *shown, player)
    row = page.locator(f"[id='{key}']")
    control = row.locator("a.in-other-language")
    expect(control).to_contain_text(languages.name(player))
    control.click()
    in_place = row.locator(":scope > .in-place")
    expect(in_place).to_have_attribute("lang", languages.html_lang(player))
    expect(in_place).not_to_have_attribute("aria-busy", "true")
    assert text_of(number, key, player) in " ".join(in_place.inner_text().split())
    assert page.url == base + url, "the page did not change"
    # What the page showed is still there, in its own language.
    for i, code in enumerate(shown):
        assert row.locator(":scope > .text").nth(i).get_attribute("lang") == languages.html_lang(code)
    control.click()
    expect(in_place).to_have_count(0)


def assert_show_mode_opens_large_and_one_tap_closes_it(page, number, shown, player):
    key = first_key(number, *shown, player)
    row = page.locator(f"[id='{key}']")
    row.locator("a.in-other-language").click()
    expect(row.locator(".in-place")).not_to_have_attribute("aria-busy", "true")
    show = row.locator("button.show-paragraph")
    show.click()
    dialog = page.locator("dialog.show-mode")
    expect(dialog).to_be_visible()
    box = dialog.bounding_box()
    assert box["width"] == PHONE["width"] and box["height"] == PHONE["height"], "the whole screen"
    body = " ".join(dialog.inner_text().split())
    assert text_of(number, key, shown[0]) in body
    assert text_of(number, key, player) in body, "the translation shown in place comes along"
    assert dialog.locator(f"[lang='{languages.html_lang(player)}']").count() >= 1
    size = lambda locator: float(locator.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))  # noqa: E731
    assert size(dialog.locator(".show-player")) >= 1.4 * size(row.locator(".text").first)
    # Chromium supports the Screen Wake Lock API: the screen stays awake while the player reads.
    expect(dialog).to_have_attribute("data-wake-lock", "on")
    dialog.locator(".text").first.click()  # one tap anywhere
    expect(dialog).to_have_count(0)
    expect(show).to_be_focused()
    # The button and Escape close it too.
    show.click()
    page.locator("dialog.show-mode .show-close").click()
    expect(dialog).to_have_count(0)
    show.click()
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)


@pytest.mark.parametrize("url,number,shown,player", PAGES)
def test_at_the_table_the_text_comes_first_with_thumb_sized_controls_the_other_language_in_place_and_show_mode(
    live_ipg, new_page, url, number, shown, player
):
    """One page load, in the order a player at the table meets it: the first paragraph in the top half and nothing
    scrolling sideways; every control at least 44×44; the paragraph control showing the other language in place;
    show mode, large, closed by one tap; the parts reachable from the bar."""
    page = new_page(PHONE)
    page.goto(live_ipg.url + url)
    assert_first_paragraph_in_the_top_half_and_nothing_scrolls_sideways(page)
    assert_every_control_is_at_least_44_by_44(page)
    assert_the_paragraph_control_shows_the_other_language_in_place(page, live_ipg.url, url, number, shown, player)
    assert_show_mode_opens_large_and_one_tap_closes_it(page, number, shown, player)
    assert_the_parts_are_reachable_from_the_bar(page)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_show_mode_puts_the_players_language_first_and_alone_if_asked_the_judges_text_a_tap_away(
    live_ipg, new_page, viewport
):
    page = new_page(viewport)
    page.goto(live_ipg.url + "/ja/ipg/2.3/")
    page.click("#example-c button.show-paragraph")  # the translation was never shown in place: fetched for the player
    dialog = page.locator("dialog.show-mode")
    player = dialog.locator(".show-player")
    expect(player).to_have_attribute("lang", "en")
    expect(player).to_contain_text(text_of("2.3", "example-c", "en")[:40])
    judge = dialog.locator("details.show-judge")
    # The player's text first, large, at the top of the screen; the judge's after it, smaller.
    order = dialog.evaluate(
        "d => [...d.querySelectorAll('.show-player, .show-judge')].map((e) => e.classList.contains('show-player'))"
    )
    assert order == [True, False]
    assert player.bounding_box()["y"] < viewport["height"] / 3
    size = lambda locator: float(locator.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))  # noqa: E731
    assert size(player) > size(judge.locator(".text"))
    expect(judge.locator("summary")).to_have_text("このページの本文")
    expect(judge.locator(".text[lang='ja']")).to_be_visible()
    # The player's language alone: the judge's text folded, a tap away; the dialog stays open.
    alone = dialog.locator("button.show-alone")
    alone.click()
    expect(alone).to_have_attribute("aria-pressed", "true")
    expect(judge.locator(".text[lang='ja']")).to_be_hidden()
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")
    # Remembered on the device: the next paragraph shown opens alone too; one tap on the summary shows the judge's.
    page.reload()
    page.click("#definition-1 button.show-paragraph")
    expect(dialog.locator(".show-player")).to_contain_text(text_of("2.3", "definition-1", "en")[:40])
    expect(dialog.locator("button.show-alone")).to_have_attribute("aria-pressed", "true")
    expect(judge.locator(".text[lang='ja']")).to_be_hidden()
    judge.locator("summary").click()
    expect(judge.locator(".text[lang='ja']")).to_be_visible()
    expect(dialog).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth") <= 0
    dialog.locator(".show-player").click()  # one tap on the text returns to the page
    expect(dialog).to_have_count(0)


@pytest.mark.parametrize("url,number,shown,player", PAGES)
def test_without_javascript_the_first_paragraph_starts_in_the_top_half_and_nothing_scrolls_sideways(
    live_ipg, new_page, url, number, shown, player
):
    page = new_page(PHONE, java_script_enabled=False)
    page.goto(live_ipg.url + url)
    assert_first_paragraph_in_the_top_half_and_nothing_scrolls_sideways(page)
    assert_the_parts_are_reachable_from_the_bar(page)


def test_the_outline_and_other_pages_have_44px_controls_too(live_ipg, new_page):
    page = new_page(PHONE)
    for url in ["/en/", "/ja/penalties/", "/zh-hans/search/?q=%E8%AD%A6%E5%91%8A", "/en/changes/"]:
        page.goto(live_ipg.url + url)
        assert page.evaluate(SMALL_CONTROLS) == [], url
        assert overflow(page) <= 0, url


def test_the_players_language_is_picked_once_and_remembered(live_ipg, new_page):
    page = new_page(PHONE)
    page.goto(live_ipg.url + "/ja/ipg/2.3/")
    page.click(".reading-settings summary")
    page.select_option(".player-language select", "zh-hans")
    page.reload()
    assert page.locator(".player-language select").input_value() == "zh-hans"
    control = page.locator("#example-c a.in-other-language")
    expect(control).to_contain_text("简体中文")
    assert control.get_attribute("href") == "?langs=ja,zh-hans#example-c"
    control.click()
    in_place = page.locator("#example-c > .in-place")
    expect(in_place).to_have_attribute("lang", "zh-Hans")
    expect(in_place).to_contain_text(text_of("2.3", "example-c", "zh-hans")[:20])
    # Another section remembers it too; the page's own language is never offered.
    page.goto(live_ipg.url + "/zh-hans/ipg/2.4/")
    options = page.locator(".player-language option").all_inner_texts()
    assert "简体中文" not in options
    assert page.locator(".player-language select").input_value() == "en"  # zh-hans is shown already


def test_a_missing_translation_says_so_in_the_readers_language(live_ipg, new_page):
    missing = next(
        p for p in Paragraph.objects.filter(section__number="2.4").order_by("order") if not p.text_in("zh-hans")
    )
    page = new_page(PHONE)
    page.goto(live_ipg.url + "/en/ipg/2.4/")
    page.click(".reading-settings summary")
    page.select_option(".player-language select", "zh-hans")
    page.click(f"[id='{missing.key}'] a.in-other-language")
    in_place = page.locator(f"[id='{missing.key}'] > .in-place")
    expect(in_place.locator(".missing-label")).to_have_text("Not yet translated into Simplified Chinese.")
    assert in_place.locator(".missing-label").get_attribute("lang") == "en"
    assert missing.text_en[:30] not in in_place.inner_text(), "English passed off as Chinese"


def test_without_javascript_the_control_is_a_link_to_the_compare_view(live_ipg, new_page):
    page = new_page(PHONE, java_script_enabled=False)
    page.goto(live_ipg.url + "/ja/ipg/2.3/")
    assert page.locator(".row-tools button").count() == 0  # nothing that needs the script
    assert not page.locator(".reading-settings").is_visible()
    page.click("#example-c a.in-other-language")
    page.wait_for_url("**/ja/ipg/2.3/?langs=ja,en#example-c")
    texts = page.locator("#example-c > .text")
    assert [texts.nth(i).get_attribute("lang") for i in range(2)] == ["ja", "en"]
    assert 0 <= page.evaluate("document.getElementById('example-c').getBoundingClientRect().top") <= 40
    # Three languages shown already: no link to a fourth.
    page.goto(live_ipg.url + "/ja/ipg/2.3/?langs=ja,en,zh-hans")
    assert page.locator("a.in-other-language").count() == 0


def test_the_wake_lock_is_let_go_when_show_mode_closes(live_ipg, new_page):
    page = new_page(PHONE)
    page.add_init_script(
        """(() => {
          const request = navigator.wakeLock.request.bind(navigator.wakeLock);
          window.locks = [];
          navigator.wakeLock.request = (type) => request(type).then((lock) => { window.locks.push(lock); return lock; });
        })()"""
    )
    page.goto(live_ipg.url + "/ja/ipg/2.3/")
    page.click("#example-c button.show-paragraph")
    expect(page.locator("dialog.show-mode")).to_have_attribute("data-wake-lock", "on")
    assert page.evaluate("window.locks.map((l) => l.released)") == [False]
    page.keyboard.press("Escape")
    for _ in range(50):  # wait_for_function would evaluate a string, which the page's CSP refuses
        if page.evaluate("window.locks[0].released"):
            break
        page.wait_for_timeout(100)
    assert page.evaluate("window.locks[0].released") is True


def wait_until_saved(page):
    expect(page.locator("#offline-status")).to_have_attribute("data-state", "ready", timeout=SAVING_TIMEOUT)


@pytest.mark.parametrize("url,number,shown,player", PAGES)
def test_pinned_paragraphs_last_across_a_reload_and_read_offline(
    live_ipg, new_page, server_requests, url, number, shown, player
):
    page = new_page(PHONE, service_workers="allow")
    page.goto(live_ipg.url + url)
    wait_until_saved(page)
    key = keys_with(number, shown[0])[-1]
    pin = page.locator(f"[id='{key}'] button.pin-paragraph")
    expect(pin).to_have_attribute("aria-pressed", "false")
    server_requests.clear()
    pin.click()
    expect(pin).to_have_attribute("aria-pressed", "true")
    assert server_requests == [], "pinning is kept on the device, nothing is sent"

    page.reload()
    expect(page.locator(f"[id='{key}'] button.pin-paragraph")).to_have_attribute("aria-pressed", "true")

    interface = url.split("/")[1]
    page.context.set_offline(True)
    response = page.goto(f"{live_ipg.url}/{interface}/")
    assert response.from_service_worker
    pinned = page.locator("#on-this-device .pinned li")
    expect(pinned).to_have_count(1)
    expect(pinned).to_contain_text(number)
    expect(pinned.locator(f"[lang='{languages.html_lang(shown[0])}']")).to_contain_text(
        text_of(number, key, shown[0])[:15]
    )
    pinned.locator("a").click()
    page.wait_for_url(f"**/{interface}/ipg/{number}/#{key}")
    expect(page.locator(f"[id='{key}']")).to_contain_text(text_of(number, key, shown[0])[:15])
    expect(page.locator(f"[id='{key}'] button.pin-paragraph")).to_have_attribute("aria-pressed", "true")


def test_unpinning_on_the_outline_unpins_the_paragraph(live_ipg, new_page):
    page = new_page(PHONE)
    page.goto(live_ipg.url + "/en/")
    assert page.locator("#on-this-device").is_hidden()  # nothing kept yet: nothing shown
    page.goto(live_ipg.url + "/en/ipg/2.3/")
    page.click("#example-a button.pin-paragraph")
    page.click("#example-b button.pin-paragraph")
    page.goto(live_ipg.url + "/en/")
    pinned = page.locator("#on-this-device .pinned li")
    expect(pinned).to_have_count(2)
    expect(pinned.first).to_contain_text("Example B")  # the newest first, named as the section names it
    assert "example-" not in " ".join(pinned.all_inner_texts())  # never by its key
    pinned.first.locator("button.unpin").click()
    expect(pinned).to_have_count(1)
    page.goto(live_ipg.url + "/en/ipg/2.3/")
    expect(page.locator("#example-b button.pin-paragraph")).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#example-a button.pin-paragraph")).to_have_attribute("aria-pressed", "true")


def test_recently_read_sections_and_paragraphs_are_on_the_outline(live_ipg, new_page):
    page = new_page(PHONE)
    page.goto(live_ipg.url + "/ja/ipg/2.4/")
    page.goto(live_ipg.url + "/ja/ipg/2.3/#example-c")
    page.goto(live_ipg.url + "/ja/")
    sections = page.locator("#on-this-device .recent-sections a")
    assert sections.evaluate_all("links => links.map((a) => a.getAttribute('href'))") == [
        "/ja/ipg/2.3/",
        "/ja/ipg/2.4/",
    ]
    paragraph = page.locator("#on-this-device .recent-paragraphs a")
    assert paragraph.get_attribute("href") == "/ja/ipg/2.3/#example-c"
    expect(page.locator("#on-this-device .recent-paragraphs [lang='ja']")).to_contain_text("闇の腹心")
    expect(page.locator("#on-this-device .recent-paragraphs .device-title")).to_have_text("例C")  # not its key


def test_the_text_size_is_remembered_on_the_device(live_ipg, new_page):
    page = new_page(PHONE)
    page.goto(live_ipg.url + "/ja/ipg/2.3/")

    def font_size():
        return page.evaluate("parseFloat(getComputedStyle(document.querySelector('#example-c .text')).fontSize)")

    normal = font_size()
    page.click(".reading-settings summary")
    page.click(".text-size button[data-step='1']")
    page.click(".text-size button[data-step='1']")
    expect(page.locator(".text-size output")).to_have_text("130%")
    assert font_size() == pytest.approx(normal * 1.3, rel=0.02)
    page.goto(live_ipg.url + "/ja/ipg/2.4/")
    assert font_size() == pytest.approx(normal * 1.3, rel=0.02)
    page.goto(live_ipg.url + "/ja/")  # every page, not only sections
    assert page.evaluate("document.documentElement.className") == "text-size-2"
    page.goto(live_ipg.url + "/ja/ipg/2.3/")
    page.click(".reading-settings summary")
    for _ in range(5):
        page.click(".text-size button[data-step='-1']")
    expect(page.locator(".text-size output")).to_have_text("90%")  # and no smaller
    assert font_size() == pytest.approx(normal * 0.9, rel=0.02)


def test_the_offline_state_does_not_push_the_text_down_and_speaks_up_when_it_changes(live_ipg, new_page):
    """The offline state is a mark in the header (its words in a panel, on a tap): nothing floats over the text."""
    page = new_page(PHONE, service_workers="allow")
    page.goto(live_ipg.url + "/ja/ipg/2.3/")
    top_before = first_paragraph_top(page)
    status = page.locator("#offline-status")
    wait_until_saved(page)
    mark = page.locator(".offline-mark")
    expect(mark).to_be_visible()
    assert mark.evaluate("e => getComputedStyle(e).position") == "static"
    assert first_paragraph_top(page) == top_before
    mark.click()
    expect(status).to_be_visible()
    page.keyboard.press("Escape")
    expect(status).to_be_hidden()
    # Something new to say shows on the mark, and in its words.
    page.context.set_offline(True)
    expect(status).to_have_attribute("data-state", "offline")
    expect(mark).to_have_attribute("data-state", "offline")
    mark.click()
    expect(status).to_contain_text("オフライン")


def test_a_high_contrast_preference_is_honoured(live_ipg, new_page):
    page = new_page(PHONE)
    page.goto(live_ipg.url + "/ja/ipg/2.3/")

    def look():
        return page.evaluate(
            """() => {
              const s = (sel) => getComputedStyle(document.querySelector(sel));
              return [s('.notes-total').color, s('.permalink').opacity, s('.row-tools button').borderColor];
            }"""
        )

    normal = look()
    page.emulate_media(contrast="more")
    more = look()
    assert more[0] != normal[0] and more[1] == "1" and normal[1] != "1" and more[2] != normal[2]


def test_at_a_desk_everything_stays_in_view(live_ipg, new_page):
    page = new_page(DESKTOP)
    page.goto(live_ipg.url + "/ja/ipg/2.3/")
    for selector in [
        ".crumbs .section-title",
        ".compare legend",
        ".compare .column-label",
        ".section-tools .parts",
        ".notes-total",
        "button.toggle-notes",
    ]:
        expect(page.locator(selector).first).to_be_visible()
    tools = page.locator(".section-tools")
    assert tools.evaluate("e => getComputedStyle(e).position") != "fixed"
    assert tools.bounding_box()["y"] < page.locator("#definition-1").bounding_box()["y"]
    assert overflow(page) <= 0


def test_the_players_language_reads_offline_too(live_ipg, new_page):
    page = new_page(PHONE, service_workers="allow")
    page.goto(live_ipg.url + "/ja/ipg/2.3/")
    wait_until_saved(page)  # every language's sections are saved with the page's: ⇄ need not be used online first

    page.context.set_offline(True)
    response = page.goto(live_ipg.url + "/ja/ipg/2.3/")
    assert response.from_service_worker
    page.click("#definition-1 a.in-other-language")
    in_place = page.locator("#definition-1 > .in-place")
    expect(in_place).to_have_attribute("lang", "en")
    assert text_of("2.3", "definition-1", "en") in " ".join(in_place.inner_text().split())
    # Any other player's language, chosen offline, reads too.
    page.click(".reading-settings summary")
    page.select_option(".player-language select", "zh-hans")
    expect(in_place).to_have_attribute("lang", "zh-Hans")
    assert text_of("2.3", "definition-1", "zh-hans") in " ".join(in_place.inner_text().split())


def test_crafted_storage_lists_only_this_sites_pages(live_ipg, new_page):
    page = new_page(PHONE)
    page.goto(live_ipg.url + "/en/")
    page.evaluate(
        """() => {
          const pin = (path) => ({ number: '2.3', key: 'example-a', path: path, text: 'x', lang: 'en' });
          localStorage.setItem('ipg-pins', JSON.stringify([
            pin('//evil.example/'), pin('javascript:alert(1)'), pin('/\\\\evil.example/'), pin('/en/ipg/2.3/'),
          ]));
          localStorage.setItem('ipg-player-language', JSON.stringify("x'] , *"));
        }"""
    )
    page.reload()
    links = page.locator("#on-this-device .pinned a")
    assert links.evaluate_all("links => links.map((a) => a.getAttribute('href'))") == ["/en/ipg/2.3/#example-a"]
    page.goto(live_ipg.url + "/en/ipg/2.3/")
    assert page.locator(".player-language select").input_value() == "zh-hans"  # the first offered
    expect(page.locator("#example-a button.pin-paragraph")).to_have_attribute("aria-pressed", "true")
