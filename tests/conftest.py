import os
from io import StringIO
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


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects anything
def pytest_collection_modifyitems(config, items):
    """Every test in a tests/test_browser_*.py module, or driving Chromium from another module, is `browser`,
    even one whose module forgets its pytestmark line."""
    for item in items:
        drives_chromium = item.path.name.startswith("test_browser_") or "browser" in getattr(item, "fixturenames", ())
        if drives_chromium and not item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session", autouse=True)
def fast_password_hashing():
    """MD5 for the tests' passwords: the site's own hasher spends a good part of a second on each login or new user."""
    from django.test import override_settings

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(autouse=True)
def fresh_page_cache():
    """Every test starts with an empty cache: a rolled-back database sends no signal to invalidate it."""
    from django.core.cache import cache

    cache.clear()


# The content is loaded once per session, not once per test ----------------------------------------------
#
# The test database is created with content/ loaded and committed, so every test starts with exactly content/:
# a `db` test's changes roll back with its transaction; a transactional test (`transactional_db`, `live_server`)
# commits and the database is flushed when it ends, so content/ is loaded again before the next test that uses the
# database (the two hooks below). A test that needs a database without content asks for `empty_db`.

_db_blocker = None
_flushed = False


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database, with content/ loaded into it once."""
    global _db_blocker
    with django_db_blocker.unblock():
        call_command("loadcontent", stdout=StringIO())
    _db_blocker = django_db_blocker
    yield
    _db_blocker = None


def uses_database(item, transactional_only=False):
    """Whether a test uses the database; with transactional_only, whether it commits and so is flushed after."""
    fixtures = set(getattr(item, "fixturenames", ()))
    marker = item.get_closest_marker("django_db")
    marked = marker.kwargs if marker else {}
    transactional = (
        bool(fixtures & {"transactional_db", "live_server", "django_db_reset_sequences"})
        or bool(marked.get("transaction") or marked.get("reset_sequences"))
        or (marker is not None and marker.args[:1] == (True,))
    )
    return transactional or (not transactional_only and (marker is not None or "db" in fixtures))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    """Before the next test that uses the database, content/ is loaded again if a transactional test flushed it."""
    global _flushed
    if _flushed and _db_blocker is not None and uses_database(item):
        with _db_blocker.unblock():
            call_command("loadcontent", stdout=StringIO())
        _flushed = False
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item, nextitem):
    global _flushed
    try:
        return (yield)
    finally:
        _flushed = _flushed or uses_database(item, transactional_only=True)


@pytest.fixture
def ipg(db):
    """The database holding content/, as `make serve` loads it (loaded once per session, see above)."""
    if not Section.objects.exists():  # only if something emptied it without saying so
        call_command("loadcontent", stdout=StringIO())
    return Section.objects


@pytest.fixture
def empty_db(db):
    """A database without content: it is deleted inside the test's transaction, so the next test has it again."""
    from ipgsite.editing import writing
    from ipgsite.ipg.models import Chapter

    with writing.batch(writing.CONTENT_FILES):
        for section in Section.objects.all():
            writing.delete(section, by=writing.CONTENT_FILES)
        for chapter in Chapter.objects.all():
            writing.delete(chapter, by=writing.CONTENT_FILES)
    assert not Section.objects.exists() and not Chapter.objects.exists()


@pytest.fixture
def live_ipg(transactional_db, live_server):
    """A live server whose database holds content/, for the browser tests (restored after each one's flush)."""
    if not Section.objects.exists():
        call_command("loadcontent", stdout=StringIO())
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
