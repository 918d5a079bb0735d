import os
from pathlib import Path

import pytest
from django.core.management import call_command

from ipgsite.ipg.models import Section

# Playwright's sync API runs an event loop in the test thread; the database calls the tests make
# from that thread are still ordinary synchronous ones.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture(autouse=True)
def fresh_page_cache():
    """Every test starts with an empty cache: a rolled-back database sends no signal to invalidate it."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def ipg(db):
    """The database holding content/, as `make serve` loads it."""
    if not Section.objects.exists():
        call_command("loadcontent", verbosity=0)
    return Section.objects


@pytest.fixture
def live_ipg(transactional_db, live_server):
    """A live server whose database holds content/, for the browser tests."""
    call_command("loadcontent", verbosity=0)
    return live_server


@pytest.fixture(scope="session")
def browser():
    """Debian's headless Chromium, driven by Playwright (never `playwright install`)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        )
        yield browser
        browser.close()


@pytest.fixture
def new_page(browser, request):
    """Opens pages at a viewport; each page's final screenshot is saved under artifacts/."""
    contexts = []

    def open_page(viewport=PHONE, **options):
        # The service worker saves every section in the background: only the offline tests ask for it.
        options.setdefault("service_workers", "block")
        context = browser.new_context(viewport=viewport, **options)
        contexts.append(context)
        return context.new_page()

    yield open_page
    ARTIFACTS.mkdir(exist_ok=True)
    for index, context in enumerate(contexts):
        for number, page in enumerate(context.pages):
            name = f"{request.node.name}-{index}-{number}".replace("/", "_").replace("[", "-").replace("]", "")
            try:
                page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
            except Exception:  # a page that is already closed or crashed has nothing to show
                pass
        context.close()
