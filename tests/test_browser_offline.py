"""Offline in headless Chromium: one visit online, then every section reads in full with no connection."""

from html import unescape

import pytest
from django.core.signals import request_started
from django.utils.html import strip_tags
from playwright.sync_api import expect

from ipgsite.ipg.markup import render_markdown
from ipgsite.ipg.models import Paragraph, Section

pytestmark = pytest.mark.browser

SAVING_TIMEOUT = 60_000  # ms: the first visit saves every section in the background


@pytest.fixture
def server_requests():
    """The paths the live server is asked for, from the moment the fixture starts."""
    paths = []

    def record(sender, environ=None, **kwargs):
        paths.append(environ.get("PATH_INFO") if environ else "?")

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
    expect(status).to_be_visible()
    expect(status).to_have_text("Available offline")

    page.context.set_offline(True)
    server_requests.clear()

    response = page.goto(f"{live_ipg.url}/en/ipg/2.4/")
    assert response.ok and response.from_service_worker
    expect(page.locator("h1")).to_contain_text("Mulligan Procedure Error")
    assert_reads_in_full(page, "2.4", "en")
    expect(status).to_have_attribute("data-state", "offline", timeout=10_000)
    expect(status).to_have_text("Offline · every section is saved")

    response = page.goto(f"{live_ipg.url}/en/")
    assert response.ok and response.from_service_worker
    outline = page.locator("ol.outline a")
    expect(outline).to_have_count(Section.objects.count())
    for section in Section.objects.all():
        expect(page.locator(f"a[href='/en/ipg/{section.number}/']")).to_contain_text(section.title_en)

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


def test_an_edit_is_picked_up_when_the_connection_returns(live_ipg, new_page):
    page = new_page(service_workers="allow")
    page.goto(f"{live_ipg.url}/en/ipg/2.3/")
    status = wait_until_saved(page)
    saved_version = status.get_attribute("data-version")

    page.context.set_offline(True)
    expect(status).to_have_attribute("data-state", "offline")
    paragraph = Paragraph.objects.get(section__number="2.4", key="definition-1")
    paragraph.text_en = "Edited while the reader was offline: a new first sentence."
    paragraph.save()

    page.context.set_offline(False)  # the page hears "online" and the worker fetches what changed
    expect(status).not_to_have_attribute("data-version", saved_version, timeout=SAVING_TIMEOUT)
    expect(status).to_have_attribute("data-state", "ready", timeout=SAVING_TIMEOUT)

    page.context.set_offline(True)
    response = page.goto(f"{live_ipg.url}/en/ipg/2.4/")
    assert response.from_service_worker
    expect(page.locator("#definition-1")).to_contain_text("Edited while the reader was offline: a new first sentence.")
