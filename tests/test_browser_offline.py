"""Offline in headless Chromium: one visit online, then every section reads in full with no connection."""

import re
from html import unescape

import pytest
from django.core.signals import request_started
from django.utils.html import strip_tags
from playwright.sync_api import expect

from edits import change, delete, write
from ipgsite.ipg.markup import render_markdown
from ipgsite.ipg.models import Paragraph, Section

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}

SAVING_TIMEOUT = 60_000  # ms: the first visit saves every section in the background


@pytest.fixture
def server_requests():
    """The paths the live server is asked for, from the moment the fixture starts; not the browser's own check of
    the worker's script for an update (/sw.js), which Playwright's offline mode does not stop (microsoft/playwright
    #2311) and which comes when the browser decides, once in a while after a navigation."""
    paths = []

    def record(sender, environ=None, **kwargs):
        path = environ.get("PATH_INFO") if environ else "?"
        if path != "/sw.js":
            paths.append(path)

    request_started.connect(record)
    yield paths
    request_started.disconnect(record)


def words(html):
    return " ".join(unescape(strip_tags(html)).split())


def assert_reads_in_full(page, number, code):
    paragraphs = Paragraph.objects.filter(section__number=number).order_by("order")
    assert paragraphs.exists()
    for paragraph in paragraphs:
        row = page.locator(f"[id='{paragraph.key}']")
        assert words(render_markdown(paragraph.text_in(code))) in " ".join(row.inner_text().split())


def wait_until_saved(page):
    status = page.locator("#offline-status")
    expect(status).to_have_attribute("data-state", "ready", timeout=SAVING_TIMEOUT)
    return status


def test_after_one_visit_every_section_reads_offline(live_ipg, new_page, server_requests):
    page = new_page(service_workers="allow")
    page.goto(f"{live_ipg.url}/en/ipg/2.3/")
    status = wait_until_saved(page)
    page.click(".offline-mark")  # the state is a mark in the header; its words show on a tap
    expect(status).to_be_visible()
    expect(status).to_have_text("Available offline · the IPG of 2024-09-23")

    page.context.set_offline(True)
    server_requests.clear()

    response = page.goto(f"{live_ipg.url}/en/ipg/2.4/")
    assert response.ok and response.from_service_worker
    expect(page.locator("h1")).to_contain_text("Mulligan Procedure Error")
    assert_reads_in_full(page, "2.4", "en")
    expect(status).to_have_attribute("data-state", "offline", timeout=10_000)
    expect(page.locator(".offline-mark")).to_have_attribute("data-state", "offline")
    page.click(".offline-mark")
    expect(status).to_have_text("Offline · every section is saved · the IPG of 2024-09-23")

    response = page.goto(f"{live_ipg.url}/en/")
    assert response.ok and response.from_service_worker
    outline = page.locator("ol.outline a")
    expect(outline).to_have_count(Section.objects.count())
    for section in Section.objects.all():
        expect(page.locator(f"ol.outline a[href='/en/ipg/{section.number}/']")).to_contain_text(section.title_en)

    assert server_requests == [], "offline, yet the server was asked"


def test_the_readers_compare_choice_is_saved_too(live_ipg, new_page):
    page = new_page(service_workers="allow")
    compare = "?langs=en,zh-hans,ja"
    page.goto(f"{live_ipg.url}/ja/ipg/2.3/{compare}")
    wait_until_saved(page)

    page.context.set_offline(True)
    response = page.goto(f"{live_ipg.url}/ja/ipg/2.4/{compare}")
    assert response.ok and response.from_service_worker
    assert_reads_in_full(page, "2.4", "en")
    assert_reads_in_full(page, "2.4", "zh-hans")
    expect(page.locator("html")).to_have_attribute("lang", "ja")


@pytest.mark.writes
def test_an_edit_is_picked_up_when_the_connection_returns(live_ipg, new_page):
    page = new_page(service_workers="allow")
    page.goto(f"{live_ipg.url}/en/ipg/2.3/")
    status = wait_until_saved(page)
    saved_version = status.get_attribute("data-version")

    page.context.set_offline(True)
    expect(status).to_have_attribute("data-state", "offline")
    paragraph = Paragraph.objects.get(section__number="2.4", key="definition-1")
    write(paragraph.section.number, paragraph.key, "en", "Edited while the reader was offline: a new first sentence.")

    page.context.set_offline(False)  # the page hears "online" and the worker fetches what changed
    expect(status).not_to_have_attribute("data-version", saved_version, timeout=SAVING_TIMEOUT)
    expect(status).to_have_attribute("data-state", "ready", timeout=SAVING_TIMEOUT)

    page.context.set_offline(True)
    response = page.goto(f"{live_ipg.url}/en/ipg/2.4/")
    assert response.from_service_worker
    expect(page.locator("#definition-1")).to_contain_text("Edited while the reader was offline: a new first sentence.")


ICON = "/static/offline/icon.svg"  # listed for saving, and loaded by no page itself


def translators_link_to_the_admin():
    paragraph = Paragraph.objects.get(section__number="2.4", key="definition-1")
    write(paragraph.section.number, paragraph.key, "en", paragraph.text_en + " See [the rules](/static/../admin/).")


@pytest.mark.writes
def test_only_the_sites_own_files_are_saved_never_a_link_from_the_text(live_ipg, new_page, server_requests):
    translators_link_to_the_admin()
    page = new_page(service_workers="allow")
    asked = []
    page.context.on("request", lambda request: asked.append(request.url))
    page.goto(f"{live_ipg.url}/en/ipg/2.3/")
    wait_until_saved(page)
    page.goto(f"{live_ipg.url}/en/ipg/2.4/")
    assert page.locator("#definition-1 a[href='/static/../admin/']").count() == 1

    assert not [path for path in server_requests if "/admin" in path]
    assert not [url for url in asked if "/admin" in url]
    saved = page.evaluate(
        "async () => (await (await caches.open('ipg-pages')).keys()).map((r) => new URL(r.url).pathname)"
    )
    assert "/admin/" not in saved and "/static/../admin/" not in saved
    assert {"/static/css/site.css", "/static/js/site.js", "/static/offline/offline.js", ICON} <= set(saved)


def test_a_file_that_fails_does_not_stop_the_pages_being_saved(live_ipg, new_page):
    page = new_page(service_workers="allow")
    page.context.route(f"**{ICON}", lambda route: route.fulfill(status=404, body="missing"))
    page.context.route("**/static/js/site.js", lambda route: route.abort())  # a network error
    page.goto(f"{live_ipg.url}/en/ipg/2.3/")
    wait_until_saved(page)

    page.context.set_offline(True)
    response = page.goto(f"{live_ipg.url}/en/ipg/2.4/")
    assert response.ok and response.from_service_worker
    assert_reads_in_full(page, "2.4", "en")


def test_retries_back_off_and_stop(live_ipg, new_page):
    page = new_page(service_workers="allow")
    failures = []

    def missing(route):
        failures.append(route.request.url)
        route.fulfill(status=404, body="missing")

    page.context.route(f"**{ICON}", missing)
    page.clock.install()
    page.goto(f"{live_ipg.url}/en/ipg/2.3/")
    status = wait_until_saved(page)
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)  # from here, time moves only when the test says

    delays = []
    while (delay := status.get_attribute("data-retry-in")) is not None:
        delays.append(int(delay))
        page.clock.run_for(int(delay))
        if len(delays) < 6:
            expect(status).to_have_attribute("data-retries", str(len(delays) + 1), timeout=SAVING_TIMEOUT)
        else:
            expect(status).not_to_have_attribute("data-retry-in", str(delay), timeout=SAVING_TIMEOUT)
        assert len(delays) <= 6, "the page keeps trying"
    assert delays == [5000, 10000, 20000, 40000, 80000, 160000]
    assert len(failures) == 1 + len(delays)  # the first try and every retry asked once, nothing more
    expect(status).to_have_attribute("data-state", "ready")

    page.clock.run_for(24 * 3600 * 1000)
    assert status.get_attribute("data-retry-in") is None
    # back online, the page tries again
    page.context.set_offline(True)
    page.context.set_offline(False)
    expect(status).to_have_attribute("data-retry-in", "5000", timeout=SAVING_TIMEOUT)
    assert len(failures) == 2 + len(delays)


@pytest.mark.writes
def test_files_of_an_older_deploy_are_dropped(live_ipg, new_page):
    page = new_page(service_workers="allow")
    page.goto(f"{live_ipg.url}/en/ipg/2.3/")
    status = wait_until_saved(page)
    saved_version = status.get_attribute("data-version")
    # what an earlier release listed, under its hashed name
    page.evaluate(
        "async () => (await caches.open('ipg-pages')).put('/static/css/site.0123456789ab.css', new Response('old'))"
    )
    paragraph = Paragraph.objects.get(section__number="2.4", key="definition-1")
    write(paragraph.section.number, paragraph.key, "en", paragraph.text_en + " (edited)")

    page.reload()
    expect(status).not_to_have_attribute("data-version", saved_version, timeout=SAVING_TIMEOUT)
    expect(status).to_have_attribute("data-state", "ready", timeout=SAVING_TIMEOUT)
    saved = page.evaluate(
        "async () => (await (await caches.open('ipg-pages')).keys()).map((r) => new URL(r.url).pathname)"
    )
    assert "/static/css/site.0123456789ab.css" not in saved
    assert "/static/css/site.css" in saved


@pytest.mark.writes
def test_a_new_release_replaces_the_offline_copy_on_the_next_visit_and_says_so(live_ipg, new_page):
    from django.utils import timezone

    from ipgsite.releases.publishing import publish

    page = new_page(service_workers="allow")
    page.goto(f"{live_ipg.url}/ja/ipg/2.3/")
    status = wait_until_saved(page)
    expect(status).to_have_attribute("data-release", "2024-09-23")
    expect(status).to_contain_text("2024-09-23")

    write("2.3", "example-b", "ja", "新しい版の日本語(テスト)。")
    today = timezone.localdate()
    publish(today)
    page.reload()
    expect(status).to_have_attribute("data-release", today.isoformat(), timeout=SAVING_TIMEOUT)
    expect(status).to_have_attribute("data-state", "ready", timeout=SAVING_TIMEOUT)
    expect(status).to_contain_text(today.isoformat())

    page.context.set_offline(True)
    response = page.goto(f"{live_ipg.url}/ja/ipg/2.3/")
    assert response.from_service_worker
    expect(page.locator("[id='example-b']")).to_contain_text("新しい版の日本語(テスト)。")


# A section removed from the IPG: once the worker has heard of it, its saved pages are gone.

SAVED = "async () => (await (await caches.open('ipg-pages')).keys()).map((r) => r.url.slice(location.origin.length))"
RECORDS = "async () => (await (await caches.open('ipg-records')).keys()).map((r) => new URL(r.url).search)"
RECORDED = """async (key) => {
  const record = await caches.match(location.origin + key, { cacheName: 'ipg-records' });
  return record ? (await record.json()).version : null;
}"""


def saved(page):
    """What the worker holds: paths with their query."""
    return page.evaluate(SAVED)


def records(page):
    """The reading modes the worker keeps a record of: the query of each one's list."""
    return page.evaluate(RECORDS)


def wait_until_recorded(page, lang, version):
    """Until the worker has saved the reading mode of `lang` (no compare) at `version`, in the background."""
    key = f"/offline/pages.json?lang={lang}&langs="
    for _ in range(SAVING_TIMEOUT // 500):  # wait_for_function would not wait for the promise
        if page.evaluate(RECORDED, key) == version:
            return
        page.wait_for_timeout(500)
    raise AssertionError(f"the {lang} pages were not saved at {version}")


def update_after(page, edit):
    """Makes `edit` on the server, then lets the worker hear the content changed (a page load) and save it."""
    status = page.locator("#offline-status")
    saved_version = status.get_attribute("data-version")
    edit()
    page.reload()
    expect(status).not_to_have_attribute("data-version", saved_version, timeout=SAVING_TIMEOUT)
    expect(status).to_have_attribute("data-state", "ready", timeout=SAVING_TIMEOUT)
    return status.get_attribute("data-version")


OFFLINE_PAGE = {  # what the worker shows for any page it has not saved, in the page's language
    "en": ("Offline", "This page was not saved for offline reading."),
    "ja": ("オフライン", "このページはオフラインで読めるように保存されていません。"),
}


def assert_not_saved(page, url):
    response = page.goto(url)
    assert response.status == 503 and response.from_service_worker
    title, words = OFFLINE_PAGE[url.split("/")[3]]
    expect(page.locator("h1")).to_have_text(title)
    expect(page.locator("main")).to_contain_text(words)


@pytest.mark.writes
@pytest.mark.parametrize("compare", ["", "?langs=en,ja"])
def test_a_deleted_section_is_not_read_offline_once_the_worker_has_updated(live_ipg, new_page, compare):
    page = new_page(service_workers="allow")
    page.goto(f"{live_ipg.url}/ja/ipg/2.3/{compare}")
    wait_until_saved(page)
    step = "/ja/finder/pre-game/other-error/"  # the finder's step that leads only to 2.4
    assert {"/ja/ipg/2.4/", f"/ja/ipg/2.4/{compare}", step} <= set(saved(page))
    title = Section.objects.get(number="2.4").title_ja
    text = Paragraph.objects.get(section__number="2.4", key="definition-1").text_en  # shown, untranslated

    update_after(page, lambda: delete(Section.objects.get(number="2.4")))
    assert not [path for path in saved(page) if path.startswith(("/ja/ipg/2.4/", step))]
    assert records(page) == ["?lang=ja&langs=" + ("en%2Cja" if compare else "")]

    page.context.set_offline(True)
    for url in {"/ja/ipg/2.4/", f"/ja/ipg/2.4/{compare}"}:
        assert_not_saved(page, live_ipg.url + url)
        assert title not in page.content() and text[:40] not in page.content()
    response = page.goto(f"{live_ipg.url}/ja/")
    assert response.ok and response.from_service_worker
    expect(page.locator("ol.outline a[href^='/ja/ipg/2.4/']")).to_have_count(0)  # the saved outline is the new one


@pytest.mark.writes
def test_after_the_update_the_sections_still_in_the_ipg_and_the_readers_list_read_offline(live_ipg, new_page):
    page = new_page(service_workers="allow")
    reading_list = f"{live_ipg.url}/en/list/?p=2.3:example-c"  # the reader's own, kept as they opened it
    page.goto(reading_list)
    wait_until_saved(page)
    page.goto(f"{live_ipg.url}/ja/ipg/2.3/")  # a second reading mode, saved as well
    wait_until_saved(page)
    assert {"/en/ipg/2.4/", "/ja/ipg/2.4/", "/en/list/?p=2.3:example-c"} <= set(saved(page))

    version = update_after(page, lambda: delete(Section.objects.get(number="2.4")))
    wait_until_recorded(page, "en", version)  # the other mode, updated after this page's
    assert not [path for path in saved(page) if "/ipg/2.4/" in path]
    assert sorted(records(page)) == ["?lang=en&langs=", "?lang=ja&langs="]  # one record per mode

    page.context.set_offline(True)
    assert_not_saved(page, f"{live_ipg.url}/en/ipg/2.4/")
    for code in ("en", "ja"):
        response = page.goto(f"{live_ipg.url}/{code}/ipg/2.3/")
        assert response.ok and response.from_service_worker
        assert_reads_in_full(page, "2.3", code)
        response = page.goto(f"{live_ipg.url}/{code}/ipg/2.1/")
        assert response.ok and response.from_service_worker
        assert_reads_in_full(page, "2.1", code)
    response = page.goto(reading_list)
    assert response.ok and response.from_service_worker
    expect(page.locator("section.list-entry")).to_have_count(1)


@pytest.mark.writes
def test_a_new_section_is_saved_with_the_update(live_ipg, new_page):
    page = new_page(service_workers="allow")
    page.goto(f"{live_ipg.url}/en/ipg/2.3/")
    wait_until_saved(page)
    following = Section.objects.get(number="2.6")
    added = Section(chapter=following.chapter)
    update_after(page, lambda: change(added, number="2.7", order=following.order + 1, title_en="TEST section"))

    page.context.set_offline(True)
    response = page.goto(f"{live_ipg.url}/en/ipg/2.7/")
    assert response.ok and response.from_service_worker
    expect(page.locator("h1")).to_contain_text("TEST section")


def test_records_an_earlier_worker_spelled_from_a_whole_record_are_dropped(live_ipg, new_page):
    page = new_page(service_workers="allow")
    page.goto(f"{live_ipg.url}/en/ipg/2.3/")
    wait_until_saved(page)
    # It saved the other modes under their whole record as a query: one more record on every update.
    page.evaluate(
        """async () => {
          const key = '/offline/pages.json?lang=en&langs=&version=1&release=2024-09-23&pages=70&complete=true';
          const body = JSON.stringify({ lang: 'en', langs: '', version: '1', release: '2024-09-23', pages: 70 });
          await (await caches.open('ipg-records')).put(key, new Response(body));
        }"""
    )
    assert len(records(page)) == 2
    page.reload()
    for _ in range(SAVING_TIMEOUT // 500):
        if len(records(page)) == 1:
            break
        page.wait_for_timeout(500)
    assert records(page) == ["?lang=en&langs="]


# Everything a reader opens from a page works offline after the first visit: every test below asks the server
# nothing once the browser is offline.


def offline_after_one_visit(live_ipg, new_page, viewport, server_requests, url="/ja/ipg/2.3/", **options):
    page = new_page(viewport, service_workers="allow", **options)
    page.goto(live_ipg.url + url)
    wait_until_saved(page)
    page.context.set_offline(True)
    server_requests.clear()
    return page


def read_offline(page, url):
    response = page.goto(url)
    assert response.ok and response.from_service_worker, url
    return response


def in_the_menu(page, selector):
    """A link of the header's menu: in a panel behind ☰ on a phone, in the header at a desk."""
    if not page.locator(selector).is_visible():
        page.click(".menu-button")
    return page.locator(selector)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_offline_the_player_language_shows_in_place_the_first_time(live_ipg, new_page, viewport, server_requests):
    # A phone set to Japanese, then Chinese: the player's language, never chosen, is Chinese.
    page = offline_after_one_visit(live_ipg, new_page, viewport, server_requests, locale="ja-JP")
    page.add_init_script("Object.defineProperty(navigator, 'languages', { get: () => ['ja-JP', 'zh-CN', 'en'] })")
    read_offline(page, f"{live_ipg.url}/ja/ipg/2.4/")
    toggle = page.locator("[id='definition-1'] a.in-other-language")
    expect(toggle.locator(".language-name")).to_have_text("简体中文")
    toggle.click()
    box = page.locator("[id='definition-1'] > .in-place")
    expect(box).to_have_attribute("lang", "zh-Hans")
    expect(box).not_to_contain_text("This translation could not be loaded")
    text = Paragraph.objects.get(section__number="2.4", key="definition-1").text_zh_hans
    expect(box).to_contain_text(words(render_markdown(text))[:20])
    # Another player's language, chosen offline, shows as well.
    if not page.locator(".player-language select").is_visible():
        page.click(".reading-settings > summary")
    page.select_option(".player-language select", "en")
    english = Paragraph.objects.get(section__number="2.4", key="definition-1").text_en
    expect(box).to_contain_text(words(render_markdown(english))[:20])
    assert server_requests == [], "offline, yet the server was asked"


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_offline_every_page_a_reader_opens_after_one_visit(live_ipg, new_page, viewport, server_requests):
    """One visit saves the copy (which takes the longest); then, in order: a page not saved, paragraph pages, the
    glossary, the quiz, another language, and last the compare view (which the reader's choice then remembers)."""
    page = offline_after_one_visit(live_ipg, new_page, viewport, server_requests)
    # A page not saved says so in the page's language, styled, with a way back.
    assert_not_saved(page, f"{live_ipg.url}/ja/search/?q=%E6%89%8B%E6%9C%AD")
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    # Styled as every page: the site's stylesheet, saved, applies (the skip link is off screen until focused).
    assert page.evaluate("getComputedStyle(document.querySelector('.skip')).position") == "absolute"
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    page.click("a.offline-outline")
    expect(page).to_have_url(f"{live_ipg.url}/ja/")
    expect(page.locator("ol.outline a")).to_have_count(Section.objects.count())
    # The site's root: the saved outline, not the offline page.
    read_offline(page, f"{live_ipg.url}/")
    expect(page).to_have_url(re.compile(r"/(en|zh-hans|ja)/$"))
    expect(page.locator("ol.outline a[href$='/ipg/2.3/']")).to_be_visible()  # a section with text
    assert_not_saved(page, f"{live_ipg.url}/en/search/?q=drew")  # and in English under /en/
    # A paragraph's page: its section, opened at that paragraph.
    read_offline(page, f"{live_ipg.url}/ja/ipg/2.3/example-c/")
    expect(page).to_have_url(f"{live_ipg.url}/ja/ipg/2.3/#example-c")
    expect(page.locator("[id='example-c']")).to_be_in_viewport()
    # The glossary, as a term card links to it.
    read_offline(page, f"{live_ipg.url}/ja/glossary/")
    expect(page.locator("article.term-entry").first).to_be_visible()
    # The quiz: a chapter's quiz opens the quiz's offline page at that chapter; a choice says whether it is right.
    in_the_menu(page, "a.quiz-link").click()
    expect(page).to_have_url(f"{live_ipg.url}/ja/quiz/")
    expect(page.locator("h1")).to_contain_text("クイズ")
    page.click("a.start-quiz")
    expect(page).to_have_url(f"{live_ipg.url}/ja/quiz/offline/")
    question = page.locator(".quiz-question").first
    choices = question.locator("details.quiz-choice")
    for index in range(choices.count()):
        choices.nth(index).locator("summary").click()
    expect(question.locator(".quiz-result.right")).to_have_count(1)
    expect(question.locator(".quiz-result.right")).to_contain_text("正解です。")
    expect(question.locator(".quiz-result.wrong").first).to_have_text("違います。")
    read_offline(page, f"{live_ipg.url}/ja/quiz/?seed=5&chapter=2&a=2.3")  # a chapter's quiz, answered once
    expect(page).to_have_url(f"{live_ipg.url}/ja/quiz/offline/#chapter-2")
    expect(page.locator("#chapter-2 .quiz-question").first).to_be_visible()
    # Another interface language, from the menu of a section page.
    read_offline(page, f"{live_ipg.url}/ja/ipg/2.4/")
    in_the_menu(page, "a.switch-language[hreflang='en']").click()
    expect(page).to_have_url(f"{live_ipg.url}/en/ipg/2.4/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    assert_reads_in_full(page, "2.4", "en")
    read_offline(page, f"{live_ipg.url}/en/")
    expect(page.locator("ol.outline a")).to_have_count(Section.objects.count())
    # The compare view, chosen with the compare form, as a reader would: the browser asks for ?langs=ja&langs=en&langs=.
    read_offline(page, f"{live_ipg.url}/ja/ipg/2.4/")
    if not page.locator("#compare-choice").is_visible():
        page.click(".compare-button")
    page.locator("#compare-choice select[name='langs']").nth(1).select_option("en")
    page.click("#compare-choice button[type='submit']")
    expect(page).to_have_url(f"{live_ipg.url}/ja/ipg/2.4/?langs=ja,en")
    assert_reads_in_full(page, "2.4", "en")
    expect(page.locator(".column-heads span")).to_have_count(2)
    for langs in ("ja,zh-hans", "ja,en"):
        read_offline(page, f"{live_ipg.url}/ja/ipg/2.3/?langs={langs}")
        for code in langs.split(","):
            assert_reads_in_full(page, "2.3", code)
    assert server_requests == [], "offline, yet the server was asked"
