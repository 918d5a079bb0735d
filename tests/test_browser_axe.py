"""axe-core (the npm package `make install` fetches into node_modules/) run in headless Chromium on every public
page type, on a phone and at a desk, with every note and every folded part open: no violation at all, of any
impact."""

from pathlib import Path

import pytest
from django.conf import settings

from ipgsite.contentfiles.releases import load_releases

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parent.parent / "node_modules" / "axe-core" / "axe.min.js"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
LAYOUTS = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]

PAGES = [
    "/en/",  # the outline
    "/ja/ipg/2.3/",  # a section, with commentary
    "/zh-hans/ipg/2.4/",  # a section with missing translations
    "/en/ipg/2.1/",  # a section without text in the page's language
    "/en/ipg/3.1/",  # a section without text yet
    "/en/ipg/2.3/?langs=en,zh-hans,ja",  # the compare view
    "/ja/ipg/2.3/?release=2024-09-23",  # a section as a release froze it
    "/ja/penalties/",  # the penalty quick reference
    "/en/penalties/?penalty=warning",
    "/en/search/",  # the empty search form
    "/ja/search/?q=%E5%85%AC%E9%96%8B",  # search results
    "/en/search/?q=zzzzzz-nothing",  # no results
    "/en/changes/",  # the releases
    "/zh-hans/changes/2024-09-23/",  # one release's changes
    "/en/ipg/9.9/",  # the 404 page
    "/ja/glossary/",  # the termbase
    "/ja/ipg/2.3/example-c/",  # one paragraph's share page
    "/zh-hans/list/?p=2.3:example-c&p=2.4:definition-1&p=9.9:x&langs=zh-hans,en",  # a reading list
    "/en/quiz/",  # the quiz's start
    "/ja/quiz/?seed=5&a=2.3",  # a quiz answer
    "/en/finder/",  # the infraction finder, with its worked examples
    "/ja/finder/pre-game/other-error/",  # one of its outcomes
]


def violations(page):
    """Every violation axe-core finds, whatever its impact, with every <details> open (the notes, the filters)."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: `make install` fetches axe-core with npm")
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    page.add_script_tag(path=str(AXE))
    results = page.evaluate("async () => (await axe.run(document, { resultTypes: ['violations'] })).violations")
    return [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}" for v in results]


@pytest.fixture
def released(live_ipg):
    load_releases(settings.CONTENT_DIR)
    return live_ipg


@pytest.mark.parametrize("viewport", LAYOUTS)
def test_every_public_page_type_has_no_violations(released, new_page, viewport):
    # bypass_csp: axe is injected as an inline script, which the site's policy rightly refuses.
    page = new_page(viewport, bypass_csp=True)
    found = {}
    for url in PAGES:
        page.context.clear_cookies()  # no remembered compare choice: each URL is the page it names
        page.goto(released.url + url)
        found_here = violations(page)
        if found_here:
            found[url] = found_here
    assert found == {}


@pytest.mark.parametrize("viewport", LAYOUTS)
def test_the_history_and_comparison_pages_have_no_violations(released, new_page, viewport):
    from io import StringIO

    from django.core.management import call_command

    from edits import write

    write("2.3", "definition-1", "en", "A player makes a TEST error in the game.")
    call_command("publishrelease", "2025-02-10", stdout=StringIO())
    page = new_page(viewport, bypass_csp=True)
    found = {}
    for url in [
        "/ja/ipg/2.3/definition-1/history/?langs=ja,en",
        "/zh-hans/changes/?from=2024-09-23&to=2025-02-10",
        "/en/changes/?from=2024-09-23&to=2024-09-23",
    ]:
        page.goto(released.url + url)
        found_here = violations(page)
        if found_here:
            found[url] = found_here
    assert found == {}


def test_the_tables_controls_have_no_violations(released, new_page):
    """What the script adds: a paragraph in the player's language, the reading settings, show mode, the pins."""
    page = new_page(PHONE, bypass_csp=True)
    page.goto(released.url + "/ja/ipg/2.3/")
    page.click("#definition-1 a.in-other-language")
    page.wait_for_selector("#definition-1 .in-place:not([aria-busy])")
    page.click("#example-c button.pin-paragraph")
    page.click(".reading-settings summary")
    assert violations(page) == []

    page.click("#example-c button.show-paragraph")
    page.wait_for_selector("dialog.show-mode[open]")
    assert violations(page) == []

    page.goto(released.url + "/ja/")
    page.wait_for_selector("#on-this-device:not([hidden])")
    assert violations(page) == []
