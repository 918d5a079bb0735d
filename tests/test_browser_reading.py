"""What a judge sees in headless Chromium, on a phone (390×844) and at a desk (1280×800)."""

import pytest
from playwright.sync_api import expect

from edits import write_note
from ipgsite.ipg.models import Note, Paragraph

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
LAYOUTS = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]
THREE = "/en/ipg/2.3/?langs=en,zh-hans,ja"


def overflow(page):
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


def top_of(page, key):
    return page.evaluate(f"document.getElementById('{key}').getBoundingClientRect().top")


@pytest.mark.parametrize("viewport", LAYOUTS)
def test_three_languages_never_scroll_sideways(live_ipg, new_page, viewport):
    page = new_page(viewport)
    for url in [THREE, "/ja/ipg/2.1/", "/zh-hans/ipg/2.4/?langs=zh-hans,en", "/en/", "/ja/penalties/"]:
        page.goto(live_ipg.url + url)
        assert overflow(page) <= 0, url


@pytest.mark.parametrize("viewport", LAYOUTS)
def test_each_paragraph_key_appears_once_and_is_visible_and_the_notes_toggle_shows_and_hides_every_note(
    live_ipg, new_page, viewport
):
    page = new_page(viewport)
    page.goto(live_ipg.url + THREE)
    keys = list(Paragraph.objects.filter(section__number="2.3").values_list("key", flat=True))
    assert len(keys) == 19
    for key in keys:
        assert page.locator(f"[id='{key}']").count() == 1
        row = page.locator(f"#{key}")
        assert row.is_visible()
        assert row.locator(":scope > .text").count() == 3
    # The notes toggle, on the same page.
    notes = page.locator("aside.note")
    assert notes.count() == 19
    button = page.locator("button.toggle-notes")
    initially_open = viewport == DESKTOP
    assert notes.first.is_visible() is initially_open
    button.click()
    assert all(notes.nth(i).is_visible() is (not initially_open) for i in range(19))
    button.click()
    assert all(notes.nth(i).is_visible() is initially_open for i in range(19))


@pytest.mark.parametrize("viewport", LAYOUTS)
def test_a_deep_link_lands_on_its_paragraph(live_ipg, new_page, viewport):
    page = new_page(viewport)
    for url in [f"{THREE}#example-c", "/ja/ipg/2.3/#remedy-4", "/zh-hans/ipg/2.3/#upgrade-1"]:
        page.goto(live_ipg.url + url)
        key = url.rsplit("#", 1)[1]
        top = top_of(page, key)
        assert 0 <= top <= 40, f"{url}: #{key} is at {top}px"
        assert page.evaluate("document.querySelector(':target').id") == key


@pytest.mark.parametrize("viewport", LAYOUTS)
def test_switching_language_keeps_the_paragraph(live_ipg, new_page, viewport):
    page = new_page(viewport)
    page.goto(f"{live_ipg.url}/en/ipg/2.3/?langs=en,ja#philosophy-3")
    if viewport == PHONE:  # the languages are in the header's menu on a phone
        page.click(".menu-button")
    page.click("a.switch-language[hreflang='zh-Hans']")
    page.wait_for_url("**/zh-hans/ipg/2.3/?langs=en,ja#philosophy-3")
    assert page.locator("html").get_attribute("lang") == "zh-Hans"
    assert page.locator("#part-definition-title").inner_text() == "定义"
    assert 0 <= top_of(page, "philosophy-3") <= 40


def test_notes_are_collapsed_on_a_phone_with_a_count(live_ipg, new_page):
    page = new_page(PHONE)
    page.goto(live_ipg.url + "/ja/ipg/2.3/")
    summary = page.locator("#definition-1 + details.notes > summary")
    assert summary.inner_text() == "注釈（3）"
    assert not page.locator("#definition-1 + details.notes aside.note").first.is_visible()
    summary.click()
    assert page.locator("#definition-1 + details.notes aside.note").nth(2).is_visible()


@pytest.mark.writes
@pytest.mark.parametrize("viewport", LAYOUTS)
def test_a_lag_mark_in_a_note_fits_and_opens_without_javascript(live_ipg, new_page, viewport):
    note = Note.objects.filter(paragraph__section__number="2.3", paragraph__key="definition-1").order_by("order")[0]
    write_note(note, "en", "The note in English, for this test.")
    write_note(note, "ja", note.body_in("ja") + "追記。" * 40)  # a long change, without a space to break at
    page = new_page(viewport, java_script_enabled=False)
    page.goto(live_ipg.url + THREE)
    page.click("#definition-1 + details.notes > summary")
    mark = page.locator(f"#lag-note-{note.pk}-en")
    assert mark.is_visible() and "follows the note's Japanese original" in mark.inner_text()
    mark.locator("summary").click()
    assert mark.locator("p.diff").is_visible()
    assert overflow(page) <= 0


def test_every_block_of_text_carries_its_language_and_the_link_control_copies_the_paragraphs_address(
    live_ipg, new_page
):
    page = new_page(DESKTOP, permissions=["clipboard-read", "clipboard-write"])
    page.goto(live_ipg.url + THREE)
    wrong = page.evaluate(
        """() => {
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        const bad = [];
        while (walker.nextNode()) {
            const text = walker.currentNode.textContent.trim();
            if (!text) continue;
            const lang = walker.currentNode.parentElement.closest('[lang]').getAttribute('lang');
            if (/[\\u3040-\\u30ff]/.test(text) && lang !== 'ja') bad.push([lang, text.slice(0, 20)]);
            else if (/[\\u4e00-\\u9fff]/.test(text) && !/[\\u3040-\\u30ff]/.test(text) && lang === 'en') bad.push([lang, text.slice(0, 20)]);
        }
        return bad;
    }"""
    )
    assert wrong == []
    # The link control, on the same page.
    page.click("#example-c > a.permalink")
    expect(page.locator("#copy-status")).not_to_be_empty()
    # The link to share is the paragraph's own page (ipgsite/study), whose link preview shows this paragraph,
    # in the languages this page compares.
    assert (
        page.evaluate("navigator.clipboard.readText()") == f"{live_ipg.url}/en/ipg/2.3/example-c/?langs=en,zh-hans,ja"
    )
    assert page.url == f"{live_ipg.url}{THREE}#example-c"


def test_pages_read_without_javascript(live_ipg, new_page):
    page = new_page(PHONE, java_script_enabled=False)
    page.goto(live_ipg.url + THREE + "#example-c")
    assert page.locator("#example-c").is_visible()
    assert "Dark Confidant" in page.locator("#example-c").inner_text()
    assert page.locator("details.notes > summary").first.is_visible()
    assert not page.locator("button.toggle-notes").is_visible()
    page.click(".compare-button")  # the compare form's panel opens without the script (popover)
    page.select_option("select[name=langs] >> nth=2", "")
    page.select_option("select[name=langs] >> nth=0", "ja")
    page.select_option("select[name=langs] >> nth=1", "en")
    page.click("form.compare button[type=submit]")
    page.wait_for_load_state()
    assert page.url.split("#")[0] == f"{live_ipg.url}/en/ipg/2.3/?langs=ja,en"
    assert page.locator("#example-c > .text").first.get_attribute("lang") == "ja"


@pytest.mark.parametrize("javascript", [True, False], ids=["script", "no-script"])
@pytest.mark.parametrize("viewport", LAYOUTS)
def test_one_tap_compares_a_pair_and_one_tap_goes_back_to_one_language(live_ipg, new_page, viewport, javascript):

    page = new_page(viewport, java_script_enabled=javascript)
    page.goto(live_ipg.url + "/ja/ipg/2.3/")
    button = page.locator(".compare-button")

    def open_control():
        if viewport == PHONE:
            expect(button).to_be_visible()
            button.click()
        pairs = page.locator(".compare-pairs a")
        expect(pairs.first).to_be_visible()
        assert overflow(page) <= 0
        return pairs

    pairs = open_control()
    assert pairs.all_inner_texts() == ["日本語", "日本語 + English", "日本語 + 简体中文"]
    expect(pairs.first).to_have_attribute("aria-current", "true")
    for i in range(3):
        box = pairs.nth(i).bounding_box()
        assert box["height"] >= (43.5 if viewport == PHONE else 30)
    pairs.nth(1).click()
    page.wait_for_url("**/ja/ipg/2.3/?langs=ja,en")
    assert [page.locator("#example-c > .text").nth(i).get_attribute("lang") for i in range(2)] == ["ja", "en"]
    if viewport == PHONE:  # the button says what is compared
        assert button.locator("span[lang]").all_inner_texts() == ["English"]  # the page's own language has no span
        assert " ".join(button.inner_text().split()).endswith("日本語 + English")
    expect(page.locator(".compare-pairs a[aria-current='true']")).to_have_text("日本語 + English")
    page.goto(live_ipg.url + "/ja/ipg/2.4/")  # remembered
    page.wait_for_url("**/ja/ipg/2.4/?langs=ja,en")
    pairs = open_control()
    pairs.first.click()  # back to one language, no select blanked
    page.wait_for_url("**/ja/ipg/2.4/?langs=ja")
    assert page.locator("article.section.comparing").count() == 0
    page.goto(live_ipg.url + "/ja/ipg/2.3/")  # forgotten: no redirect
    assert page.url == live_ipg.url + "/ja/ipg/2.3/"
    assert overflow(page) <= 0


@pytest.mark.parametrize("javascript", [True, False], ids=["script", "no-script"])
@pytest.mark.parametrize("viewport", LAYOUTS)
def test_the_outline_shows_the_sections_with_text_first_the_rest_folded(live_ipg, new_page, viewport, javascript):

    from ipgsite.ipg.models import Section

    with_text = [s.number for s in Section.objects.in_reading_order() if s.paragraphs.exists()]
    page = new_page(viewport, java_script_enabled=javascript)
    page.goto(live_ipg.url + "/ja/")
    for number in with_text:  # on the first screen
        link = page.locator(f".outline a[href='/ja/ipg/{number}/']")
        expect(link).to_be_in_viewport(ratio=1)
    folded = page.locator("details.no-text-yet")
    stubs = folded.locator("li.stub a")
    assert stubs.count() == Section.objects.count() - len(with_text)  # still listed
    assert not stubs.first.is_visible()
    folded.first.locator("summary").click()
    expect(stubs.first).to_be_visible()
    assert overflow(page) <= 0


@pytest.mark.parametrize("viewport", LAYOUTS)
def test_japanese_breaks_between_phrases_and_paragraphs_wrap_pretty(live_ipg, new_page, viewport):
    """Japanese has no spaces: where Chromium can tell its phrases apart (word-break: auto-phrase), a line never
    breaks inside one; English and Chinese keep their usual breaks. No paragraph ends on a lone word (text-wrap)."""
    page = new_page(viewport)
    page.goto(live_ipg.url + THREE)
    style = (
        """([selector, property]) => getComputedStyle(document.querySelector(selector)).getPropertyValue(property)"""
    )
    assert page.evaluate("CSS.supports('word-break', 'auto-phrase')")
    assert page.evaluate(style, ["#example-c .text[lang=ja] p", "word-break"]) == "auto-phrase"
    assert page.evaluate(style, ["#example-c .text[lang=en] p", "word-break"]) == "normal"
    assert page.evaluate(style, ["#example-c .text[lang=zh-Hans] p", "word-break"]) == "normal"
    for lang in ("ja", "en", "zh-Hans"):
        assert page.evaluate(style, [f"#example-c .text[lang={lang}] p", "text-wrap-style"]) == "pretty"
    assert overflow(page) <= 0
