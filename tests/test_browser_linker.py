"""/linker.js on a judge's blog served from another origin (a second HTTP server), in headless Chromium: references
become links, the preview shows the paragraph in the host page's language and the reader's, and no cookie is sent."""

import functools
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest

pytestmark = pytest.mark.browser

BLOG = """<!doctype html>
<html lang="{lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>A judge's blog</title></head>
<body>
<article>
<p id="refs">Today: IPG 2.3, then 2.3 Example C, a classic HCE. A Hidden Card Error needs a hidden card.</p>
<p id="ja" lang="ja">違反処置指針 2.4 を参照してください。</p>
<p id="zh" lang="zh-Hans">这是非公开牌张失误。</p>
<p id="near">Not references: HCEs, XHCE, hidden card error, IPG 2.34, IPG 2.3.1, MTR 2.3, section 4.3 of the MTR.</p>
<p id="skipped"><a href="https://example.org/">IPG 2.3 in a link</a> <code>IPG 2.3</code> <input value="IPG 2.3">
<textarea>HCE</textarea></p>
<p id="stub">And IPG 4.8 has no text yet.</p>
<p id="forms">As judges cite it: IPG 2.3, Example C; IPG 2.3, ex. D; 2.3 example E; 違反処置指針 2.3 例(C); IPG 2.3，范例F.</p>
</article>
<script src="{site}/linker.js" defer></script>
</body></html>
"""


class Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture
def blog(tmp_path, live_ipg):
    """A second server, on another port and host name than the site: another origin."""
    for name, lang in (("en", "en"), ("ja", "ja")):
        (tmp_path / f"{name}.html").write_text(BLOG.format(lang=lang, site=live_ipg.url), encoding="utf-8")
    handler = functools.partial(Quiet, directory=str(tmp_path))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    origin = f"http://127.0.0.1:{server.server_address[1]}"
    assert origin.split("//")[1].split(":")[0] != live_ipg.url.split("//")[1].split(":")[0]
    yield origin
    server.shutdown()
    server.server_close()


def closed_by_itself(window, seconds=30):
    """Until the window the linker opened has closed itself. It may have closed before anyone listens for its
    "close" event (a page quick to answer): its state is polled, not the event."""
    deadline = time.monotonic() + seconds
    while not window.is_closed():
        assert time.monotonic() < deadline, f"{window.url} did not close itself"
        window.context.pages[0].wait_for_timeout(50)  # lets Playwright hear of the close meanwhile


def open_blog(new_page, live_ipg, url, **options):
    page = new_page(**options)
    page.context.add_cookies([{"name": "ipg_langs", "value": "en,ja", "url": live_ipg.url}])
    sent = []
    page.on("request", lambda request: sent.append(request))
    page.goto(url)
    page.wait_for_selector("a.ipg-ref")
    return page, sent


def links(page, selector):
    return page.eval_on_selector_all(f"{selector} a.ipg-ref", "as => as.map(a => [a.textContent, a.href])")


def test_references_become_links_and_nothing_else_does(live_ipg, blog, new_page):
    page, sent = open_blog(new_page, live_ipg, blog + "/en.html", viewport={"width": 1280, "height": 800})
    site = live_ipg.url
    assert links(page, "#refs") == [
        ["IPG 2.3", f"{site}/en/ipg/2.3/"],
        ["2.3 Example C", f"{site}/en/ipg/2.3/example-c/"],
        ["HCE", f"{site}/en/ipg/2.3/"],
        ["Hidden Card Error", f"{site}/en/ipg/2.3/"],
    ]
    assert links(page, "#ja") == [["違反処置指針 2.4", f"{site}/ja/ipg/2.4/"]]
    assert links(page, "#zh") == [["非公开牌张失误", f"{site}/zh-hans/ipg/2.3/"]]
    assert links(page, "#near") == []
    assert links(page, "#skipped") == []
    assert page.locator("#skipped code").inner_text() == "IPG 2.3"
    assert links(page, "#stub") == [["IPG 4.8", f"{site}/en/ipg/4.8/"]]
    # a comma, "ex." or "example" between the section and the letter, in any language: the example, not the section
    assert links(page, "#forms") == [
        ["IPG 2.3, Example C", f"{site}/en/ipg/2.3/example-c/"],
        ["IPG 2.3, ex. D", f"{site}/en/ipg/2.3/example-d/"],
        ["2.3 example E", f"{site}/en/ipg/2.3/example-e/"],
        ["違反処置指針 2.3 例(C)", f"{site}/en/ipg/2.3/example-c/"],
        ["IPG 2.3，范例F", f"{site}/en/ipg/2.3/example-f/"],
    ]

    # No cookie goes to the site, though the browser holds one for it; the blog gets none either.
    to_site = [r for r in sent if r.url.startswith(site)]
    assert {r.url.split(site)[1] for r in to_site} >= {"/linker.js", "/api/linker/"}
    for request in to_site:
        assert "cookie" not in request.all_headers(), request.url
    assert page.context.cookies(blog) == []
    assert page.evaluate("document.cookie") == ""


def test_hovering_shows_the_paragraph_in_the_pages_language_and_the_readers(live_ipg, blog, new_page):
    # The reader's browser asks for Japanese; the blog is in English.
    page, sent = open_blog(
        new_page, live_ipg, blog + "/en.html", locale="ja-JP", viewport={"width": 1280, "height": 800}
    )
    page.hover("#refs a.ipg-ref:nth-of-type(2)")
    tip = page.locator("#ipg-linker-preview")
    tip.wait_for(state="visible")
    page.wait_for_function("document.querySelector('#ipg-linker-preview').textContent.includes('Dark Confidant')")
    assert tip.get_attribute("role") == "tooltip"
    assert page.get_attribute("#refs a.ipg-ref:nth-of-type(2)", "aria-describedby") == "ipg-linker-preview"
    blocks = tip.locator(":scope > div")
    assert [blocks.nth(i).get_attribute("lang") for i in range(blocks.count())] == ["en", "ja"]
    assert "Dark Confidant" in blocks.nth(0).inner_text() and "闇の腹心" in blocks.nth(1).inner_text()
    heading = tip.locator(":scope > p").first.inner_text()
    assert "IPG 2.3" in heading and "Hidden Card Error" in heading and "Example C" in heading
    for request in (r for r in sent if r.url.startswith(live_ipg.url)):
        assert "cookie" not in request.all_headers(), request.url

    page.keyboard.press("Escape")
    assert tip.is_hidden()


def test_a_japanese_page_previews_in_japanese_first_and_says_what_is_missing(live_ipg, blog, new_page):
    page, _ = open_blog(new_page, live_ipg, blog + "/ja.html", locale="en-US", viewport={"width": 1280, "height": 800})
    # Focus reaches the link from the keyboard, and shows the preview too.
    page.focus("#ja a.ipg-ref")
    tip = page.locator("#ipg-linker-preview")
    tip.wait_for(state="visible")
    page.wait_for_function("document.querySelectorAll('#ipg-linker-preview > div').length === 2")
    blocks = tip.locator(":scope > div")
    assert [blocks.nth(i).get_attribute("lang") for i in range(2)] == ["ja", "en"]
    assert "マリガン" in tip.locator(":scope > p").first.inner_text()  # 2.4's title in Japanese
    # 2.4 has no Japanese text: the Japanese block says so, in Japanese; the English follows it, never in its place.
    assert blocks.nth(0).locator("p").inner_text() == "日本語には未翻訳です。"
    assert blocks.nth(1).inner_text().startswith("English") and "player" in blocks.nth(1).inner_text()


def test_a_reference_added_later_and_a_missing_translation(live_ipg, blog, new_page):
    page, _ = open_blog(new_page, live_ipg, blog + "/en.html", locale="ja-JP", viewport={"width": 1280, "height": 800})
    page.evaluate(
        "() => { const p = document.createElement('p'); p.id = 'late'; p.textContent = 'See IPG 2.4 Example A.';"
        " document.body.appendChild(p); window.IPGLinker.link(p); }"
    )
    assert links(page, "#late") == [["IPG 2.4 Example A", f"{live_ipg.url}/en/ipg/2.4/example-a/"]]
    page.hover("#late a.ipg-ref")
    page.wait_for_function("document.querySelectorAll('#ipg-linker-preview > div').length === 2")
    english, japanese = page.locator("#ipg-linker-preview > div").all()
    assert english.get_attribute("lang") == "en" and "draws eight cards" in english.inner_text()
    assert japanese.get_attribute("lang") == "ja"
    # 2.4 example A has no Japanese: said so in the blog's language (English), naming the language in English.
    assert japanese.locator("p").inner_text() == "Not yet translated into Japanese."
    assert japanese.locator("p").get_attribute("lang") == "en"


def test_a_reference_with_a_comma_previews_its_example_not_the_sections_first_paragraph(live_ipg, blog, new_page):
    page, _ = open_blog(new_page, live_ipg, blog + "/en.html", locale="en-US", viewport={"width": 1280, "height": 800})
    page.hover("#forms a.ipg-ref:nth-of-type(1)")  # IPG 2.3, Example C
    tip = page.locator("#ipg-linker-preview")
    tip.wait_for(state="visible")
    page.wait_for_function("document.querySelector('#ipg-linker-preview').textContent.includes('Dark Confidant')")
    assert "Example C" in tip.locator(":scope > p").first.inner_text()
    assert "cannot be corrected" not in tip.inner_text()  # not definition-1, the section's first paragraph


def test_a_tap_shows_the_preview_before_following_the_link(live_ipg, blog, new_page):
    page, _ = open_blog(new_page, live_ipg, blog + "/en.html", has_touch=True, is_mobile=True, locale="en-US")
    page.tap("#refs a.ipg-ref:nth-of-type(3)")  # HCE
    tip = page.locator("#ipg-linker-preview")
    tip.wait_for(state="visible")
    assert page.url == blog + "/en.html"
    page.wait_for_function("document.querySelector('#ipg-linker-preview').textContent.includes('hidden')")
    assert "Hidden Card Error" in tip.inner_text()
    box = tip.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390 + 1  # within a phone's width


def compare_on_the_site(page, live_ipg, first, second):
    """The reader chooses two languages with a section page's compare form, as on the site: it remembers them."""
    page.goto(f"{live_ipg.url}/en/ipg/2.4/")
    form = page.locator("form.compare")
    form.locator("select[name=langs]").nth(0).select_option(first)
    form.locator("select[name=langs]").nth(1).select_option(second)
    form.locator("button[type=submit]").click()
    page.wait_for_url(f"**/en/ipg/2.4/?langs={first},{second}")
    assert {c["name"]: c["value"] for c in page.context.cookies(live_ipg.url)}["ipg_langs"] in (
        f"{first},{second}",
        f'"{first}\\054{second}"',
    )


def preview_languages(page):
    return page.eval_on_selector_all("#ipg-linker-preview > div", "ds => ds.map(d => d.lang)")


def test_a_reader_who_compared_languages_on_the_site_sees_the_preview_in_them_on_another_site(live_ipg, blog, new_page):
    """The choice the site remembers is asked of the site's own page, in a window of its own (the site's first party:
    a frame would be a third party, whose cookies and storage the browser keeps apart or refuses), on the reader's
    click; the linker's own requests still carry no cookie, and the page keeps the answer for the next visit."""
    page = new_page(locale="en-US", viewport={"width": 1280, "height": 800})
    compare_on_the_site(page, live_ipg, "en", "ja")
    sent = []
    page.on("request", lambda request: sent.append(request))
    page.goto(blog + "/en.html")
    page.wait_for_selector("a.ipg-ref")
    page.hover("#refs a.ipg-ref:nth-of-type(2)")  # 2.3 Example C
    page.wait_for_function("document.querySelector('#ipg-linker-preview').textContent.includes('Dark Confidant')")
    assert preview_languages(page) == ["en"]  # an English browser: nothing asked of the site yet
    ask = page.locator("#ipg-linker-preview button")
    assert ask.inner_text() == "Show in the languages I read side by side on the IPG site"

    with page.expect_popup() as opened:
        ask.click()
    window = opened.value
    assert window.url.startswith(f"{live_ipg.url}/linker/languages/?lang=en&origin=")
    closed_by_itself(window)  # it answered, and closed itself
    page.wait_for_function("document.querySelectorAll('#ipg-linker-preview > div').length === 2")
    assert preview_languages(page) == ["en", "ja"]
    blocks = page.locator("#ipg-linker-preview > div")
    assert "Dark Confidant" in blocks.nth(0).inner_text() and "闇の腹心" in blocks.nth(1).inner_text()
    assert blocks.nth(1).inner_text().startswith("日本語")

    # The next visit to the blog previews in them at once; a Japanese page shows Japanese first, then English.
    page.goto(blog + "/ja.html")
    page.wait_for_selector("a.ipg-ref")
    page.hover("#ja a.ipg-ref")
    page.wait_for_function("document.querySelectorAll('#ipg-linker-preview > div').length === 2")
    assert preview_languages(page) == ["ja", "en"]

    to_site = [r for r in sent if r.url.startswith(live_ipg.url)]
    assert {r.url.split(live_ipg.url)[1].split("?")[0] for r in to_site} >= {"/linker.js", "/api/linker/"}
    for request in to_site:
        assert "cookie" not in request.all_headers(), request.url
    assert page.evaluate("document.cookie") == ""
    assert page.evaluate("localStorage.getItem('ipg-linker-langs')") == "en,ja"


def test_a_reader_who_never_compared_sees_the_pages_language_and_is_told_so(live_ipg, blog, new_page):
    page = new_page(locale="en-US", viewport={"width": 1280, "height": 800})
    page.goto(blog + "/en.html")
    page.wait_for_selector("a.ipg-ref")
    # From the keyboard: the link, then the preview's button, which asks the site.
    page.focus("#refs a.ipg-ref:nth-of-type(2)")
    page.wait_for_function("document.querySelector('#ipg-linker-preview').textContent.includes('Dark Confidant')")
    assert preview_languages(page) == ["en"]
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "ipg-mine"
    page.keyboard.press("Shift+Tab")  # back to the link, the preview still open
    assert page.evaluate("document.activeElement.textContent") == "2.3 Example C"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.className") == "ipg-mine"
    assert page.locator("#ipg-linker-preview").is_visible()
    with page.expect_popup() as opened:
        page.keyboard.press("Enter")
    closed_by_itself(opened.value)
    note = page.locator("#ipg-linker-preview > p").last
    note.wait_for()
    page.wait_for_function("!document.querySelector('#ipg-linker-preview button')")
    assert note.inner_text() == "You have not chosen languages to read side by side on the IPG site yet."
    assert preview_languages(page) == ["en"]
    assert page.evaluate("localStorage.getItem('ipg-linker-langs')") is None
    # The button it was on is gone: the focus is back on the link, and Tab goes on to the next one.
    assert page.evaluate("document.activeElement.textContent") == "2.3 Example C"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "HCE"
