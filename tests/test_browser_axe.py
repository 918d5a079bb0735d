"""axe-core (the npm package `make install` fetches into node_modules/) run in headless Chromium on every public
page type (tests/pages.py), on a phone and at a desk, with every note and every folded part open: no violation at all, of any
impact."""

from pathlib import Path

import pytest

from pages import PAGE_TYPES

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parent.parent / "node_modules" / "axe-core" / "axe.min.js"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}
LAYOUTS = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]


def violations(page):
    """Every violation axe-core finds, whatever its impact, with every <details> open (the notes, the filters)."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: `make install` fetches axe-core with npm")
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    page.add_script_tag(path=str(AXE))
    results = page.evaluate("async () => (await axe.run(document, { resultTypes: ['violations'] })).violations")
    return [f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}" for v in results]


@pytest.mark.parametrize("viewport", LAYOUTS)
def test_every_public_page_type_has_no_violations(live_ipg, new_page, viewport):
    # bypass_csp: axe is injected as an inline script, which the site's policy rightly refuses.
    page = new_page(viewport, bypass_csp=True)
    found = {}
    for page_type in PAGE_TYPES:
        page.context.clear_cookies()  # no remembered compare choice: each URL is the page it names
        response = page.goto(live_ipg.url + page_type.url)
        assert response.status == page_type.status, page_type.url
        found_here = violations(page)
        if found_here:
            found[page_type.url] = found_here
    assert found == {}


@pytest.mark.parametrize("viewport", LAYOUTS)
@pytest.mark.writes
def test_the_history_and_comparison_pages_have_no_violations(live_ipg, new_page, viewport):
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
        page.goto(live_ipg.url + url)
        found_here = violations(page)
        if found_here:
            found[url] = found_here
    assert found == {}


def test_the_tables_controls_have_no_violations(live_ipg, new_page):
    """What the script adds: a paragraph in the player's language, the reading settings, show mode, the pins."""
    page = new_page(PHONE, bypass_csp=True)
    page.goto(live_ipg.url + "/ja/ipg/2.3/")
    page.click("#definition-1 a.in-other-language")
    page.wait_for_selector("#definition-1 .in-place:not([aria-busy])")
    page.click("#example-c button.pin-paragraph")
    page.click(".reading-settings summary")
    assert violations(page) == []

    page.click("#example-c button.show-paragraph")
    page.wait_for_selector("dialog.show-mode[open]")
    assert violations(page) == []

    page.goto(live_ipg.url + "/ja/")
    page.wait_for_selector("#on-this-device:not([hidden])")
    assert violations(page) == []


@pytest.mark.parametrize("viewport", LAYOUTS)
@pytest.mark.writes
def test_the_translators_pages_have_no_violations(live_ipg, new_page, viewport):
    """The workspace as a Chinese translator meets it: the admin's index with its link, the dashboard, the translate
    page with an outdated paragraph's diff and one whose English is unknown, the filtered page, the history, the
    import page and the interface language."""
    from django.contrib.auth.models import Group, User

    from edits import paragraph, write
    from ipgsite.editing.models import Translator

    write("2.3", "example-b", "en", paragraph("2.3", "example-b").text_en.replace("two cards", "three cards"))
    user = User.objects.create_user("lihua", password="a-long-test-password", is_staff=True)
    user.groups.add(Group.objects.get(name="translators-zh-hans"))
    Translator.objects.create(user=user, interface_language="zh-hans")
    page = new_page(viewport, bypass_csp=True)
    page.goto(live_ipg.url + "/admin/login/")
    page.fill("#id_username", "lihua")
    page.fill("#id_password", "a-long-test-password")
    page.click("input[type=submit]")
    page.wait_for_url("**/admin/translate/")
    found = {}
    for url in [
        "/admin/",
        "/admin/translate/",
        "/admin/translate/2.3/zh-hans/",
        "/admin/translate/2.3/zh-hans/?status=outdated",
        "/admin/translate/2.3/history/example-b/",
        "/admin/translate/2.3/import/",
        "/admin/translate/language/",
    ]:
        response = page.goto(live_ipg.url + url)
        assert response.status == 200, url
        found_here = violations(page)
        if found_here:
            found[url] = found_here
    assert found == {}, "\n".join(f"{url}: {v}" for url, found_here in found.items() for v in found_here)
