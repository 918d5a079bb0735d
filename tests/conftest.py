import os
import re
import threading
import time
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
    """Marks that follow from what a test uses, even where its module forgets them:
    - `browser`: every test in a tests/test_browser_*.py module, or driving Chromium from another module;
    - `database`: every test that commits (`transactional_db`, `django_db(transaction=True)`), but a browser test,
      which commits only to be seen by the live server (docs/tests.md);
    - a browser test marked `writes` commits, unless the live server shares its connection (SQLite in memory)."""
    from django.conf import settings

    shared = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3" and str(
        settings.DATABASES["default"].get("TEST", {}).get("NAME") or ":memory:"
    ) in (":memory:", "")
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        drives_chromium = item.path.name.startswith("test_browser_") or "browser" in fixtures
        if drives_chromium and not item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.browser)
        if not drives_chromium and uses_database(item, transactional_only=True):
            item.add_marker(pytest.mark.database)
        if item.get_closest_marker("writes") and not shared:
            item.add_marker(pytest.mark.django_db(transaction=True))


@pytest.fixture(scope="session", autouse=True)
def fast_password_hashing():
    """MD5 for the tests' passwords: the site's own hasher spends a good part of a second on each login or new user."""
    from django.test import override_settings

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


_cache_holds_content = False  # the cache was last filled by a browser test that read content/ and wrote nothing


@pytest.fixture(autouse=True)
def fresh_page_cache(request):
    """Every test starts with an empty cache: a rolled-back database sends no signal to invalidate it. A browser test
    keeps what the one before it cached if that one only read content/ (which `live_ipg` checks): its pages are
    rendered once, not once per test (the offline copy's 188 of them). A test that writes changes the content
    version as the site does, so what it reads after its write is rendered afresh."""
    from django.core.cache import cache

    global _cache_holds_content
    if not (_cache_holds_content and "live_ipg" in getattr(request.node, "fixturenames", ())):
        cache.clear()
    _cache_holds_content = False  # until live_ipg has seen this test write nothing


@pytest.fixture(autouse=True)
def default_language():
    """Every test starts in the site's default language: a request or an override left active by an earlier test (the
    test client's LocaleMiddleware activates the request's language and leaves it) would change what it reads."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


# The content is loaded once per session, not once per test ----------------------------------------------
#
# The test database is created with content/ loaded and committed, so every test starts with exactly content/:
# a `db` test's changes roll back with its transaction; a transactional test (`transactional_db`, a
# `django_db(transaction=True)` mark) commits and the database is flushed when it ends, so content/ is put back before
# the next test that uses the database (the two hooks below): on SQLite (an in-memory database) by copying back the
# database as the session loaded it, with SQLite's own backup; on another database by loading content/ again. A test
# that needs a database without content asks for `empty_db`.

_db_blocker = None
_flushed = False
_loaded = None  # on SQLite: an in-memory copy of the database as the session loaded it


def in_memory_sqlite():
    from django.db import connection

    return connection.vendor == "sqlite" and connection.is_in_memory_db()


def load_content():
    """content/ into the database, without drawing the link preview pictures: no test reads the pictures of a load
    (a test that asks for one has it drawn then, as the site does when a picture is missing; tests/test_study_previews.py
    checks the drawing at write time in a directory of its own). PREVIEW_FONT naming no font file is the setting the
    drawing step already honours: it draws nothing (ipgsite/study/pictures.py)."""
    from django.test import override_settings

    with override_settings(PREVIEW_FONT=str(Path(__file__).parent / "no-font-while-loading")):
        call_command("loadcontent", stdout=StringIO())


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database, with content/ loaded into it once."""
    global _db_blocker, _loaded
    with django_db_blocker.unblock():
        load_content()
        if in_memory_sqlite():
            import sqlite3

            from django.db import connection

            connection.ensure_connection()
            _loaded = sqlite3.connect(":memory:", check_same_thread=False)
            connection.connection.backup(_loaded)
    _db_blocker = django_db_blocker
    yield
    _db_blocker = None
    if _loaded is not None:
        _loaded.close()
        _loaded = None


def restore_content():
    """The database as the session loaded it, after a transactional test flushed it."""
    from django.contrib.contenttypes.models import ContentType

    if _loaded is not None:
        from django.db import connection

        connection.ensure_connection()
        _loaded.backup(connection.connection)
    else:
        load_content()
    ContentType.objects.clear_cache()  # the flush's post_migrate made content types of other ids


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
    """Before the next test that uses the database, content/ is put back if a transactional test flushed it."""
    global _flushed
    if _flushed and _db_blocker is not None and uses_database(item):
        with _db_blocker.unblock():
            restore_content()
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
        load_content()
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


# The site served to Chromium: one server for the session ------------------------------------------------
#
# The browser tests share one live server, started once over the database the session loaded. Each test runs in a
# transaction of its own (`db`), rolled back when it ends:
# - on SQLite the server shares the test's connection (an in-memory database has no other), so whatever the test or
#   the pages it drives write is rolled back with it;
# - on PostgreSQL the server has connections of its own and sees only what is committed: a test that writes, itself
#   or through the pages, is marked `writes`, runs as a transactional test (committed, then flushed, and content/
#   loaded again before the next test), and the others only read.
# A test not marked `writes` that writes anything, from its own thread or the server's, fails and says to mark it:
# what it wrote would stay in PostgreSQL for the tests after it.

WRITE = re.compile(r"\s*(INSERT|UPDATE|DELETE|REPLACE)\b", re.IGNORECASE)


class Writes:
    """An execute wrapper noting every statement that changes rows, from any thread."""

    def __init__(self):
        self.seen = []

    def __call__(self, execute, sql, params, many, context):
        if WRITE.match(sql):
            self.seen.append(" ".join(sql.split())[:90])
        return execute(sql, params, many, context)

    def watch(self, sender=None, connection=None, **kwargs):
        if self not in connection.execute_wrappers:
            connection.execute_wrappers.append(self)

    def __enter__(self):
        from django.db import connections
        from django.db.backends.signals import connection_created

        for connection in connections.all(initialized_only=True):
            self.watch(connection=connection)
        connection_created.connect(self.watch)  # the server's own connections, on PostgreSQL
        return self

    def __exit__(self, *exc):
        from django.db import connections
        from django.db.backends.signals import connection_created

        connection_created.disconnect(self.watch)
        for connection in connections.all(initialized_only=True):
            if self in connection.execute_wrappers:
                connection.execute_wrappers.remove(self)


class Served:
    """The session's live server, and the requests its threads are answering now."""

    def __init__(self, server):
        self.server, self.url, self.answering, self.lock = server, server.url, {}, threading.Lock()

    def started(self, **kwargs):
        thread = threading.current_thread()
        if thread is not threading.main_thread():  # not Django's test client, which runs in the tests' thread
            with self.lock:
                self.answering[thread.ident] = thread

    def finished(self, **kwargs):
        with self.lock:
            self.answering.pop(threading.get_ident(), None)

    def wait_until_idle(self, bound=10.0):
        """Until no request is being answered (one still in flight would write outside the test's transaction)."""
        deadline = time.monotonic() + bound
        while time.monotonic() < deadline:
            with self.lock:
                busy = [thread for thread in self.answering.values() if thread.is_alive()]
                if not busy:
                    self.answering.clear()
                    return
            time.sleep(0.01)


@pytest.fixture(scope="session")
def served_site(django_db_setup, django_db_blocker):
    """Django's live server thread (as pytest-django's `live_server` starts it), once per session."""
    from django.core.signals import request_finished, request_started
    from pytest_django.live_server_helper import LiveServer

    with django_db_blocker.unblock():
        server = LiveServer(os.environ.get("DJANGO_LIVE_TEST_SERVER_ADDRESS", "localhost"))
    served = Served(server)
    request_started.connect(served.started)
    request_finished.connect(served.finished)
    server._live_server_modified_settings.enable()  # its host in ALLOWED_HOSTS
    yield served
    server._live_server_modified_settings.disable()
    request_started.disconnect(served.started)
    request_finished.disconnect(served.finished)
    server.stop()


@pytest.fixture
def live_ipg(request, db, served_site):
    """The site served over content/ to a browser, for this test (see above); `.url` is its address."""
    _open_contexts.clear()
    if request.node.get_closest_marker("writes"):
        yield served_site
    else:
        with Writes() as writes:
            yield served_site
            close_contexts()
            served_site.wait_until_idle()
        assert writes.seen == [], (
            "this test writes, which the tests after it would see on PostgreSQL: mark it @pytest.mark.writes "
            f"({writes.seen[:3]})"
        )
        global _cache_holds_content
        _cache_holds_content = True
    close_contexts()
    served_site.wait_until_idle()


# Chromium ---------------------------------------------------------------------------------------------------

_open_contexts = []


def close_contexts():
    while _open_contexts:
        context = _open_contexts.pop()
        try:
            context.close()
        except Exception:  # already closed, or the browser is gone
            pass


def pytest_addoption(parser):
    parser.addoption(
        "--screenshots",
        action="store_true",
        help="browser tests save a screenshot of every page they opened under artifacts/ (by default: only when failing)",
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.failed:
        item.stash[FAILED] = True
    return report


FAILED = pytest.StashKey[bool]()


@pytest.fixture(scope="session")
def browser():
    """Debian's headless Chromium, driven by Playwright (never `playwright install`)."""
    from django.db import connections
    from playwright.sync_api import sync_playwright

    # Playwright's sync API leaves an event loop running in this thread, and from then on Django keeps this thread's
    # connections per context rather than per thread: the same connections are carried over, so that the tests, their
    # transactions and the live server (which shares them on SQLite) go on using one connection.
    kept = {alias: connections[alias] for alias in connections}
    with sync_playwright() as playwright:
        for alias, connection in kept.items():
            connections[alias] = connection
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
        )
        yield browser
        browser.close()


@pytest.fixture
def keep_screenshot(request):
    """keep(page, name): a screenshot of the page as it is now, as artifacts/<name>, with --screenshots."""

    def keep(page, name):
        if request.config.getoption("--screenshots"):
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / name))

    return keep


@pytest.fixture
def new_page(browser, request):
    """Opens pages at a viewport, each in a fresh browser context (no cookies, storage or service worker of another
    test). A failing test's pages are saved as screenshots under artifacts/ (every test's, with --screenshots)."""
    contexts = []

    def open_page(viewport=PHONE, **options):
        # The service worker saves every section in the background: only the offline tests ask for it.
        options.setdefault("service_workers", "block")
        context = browser.new_context(viewport=viewport, **options)
        contexts.append(context)
        _open_contexts.append(context)
        return context.new_page()

    yield open_page
    if request.node.stash.get(FAILED, False) or request.config.getoption("--screenshots"):
        ARTIFACTS.mkdir(exist_ok=True)
        for index, context in enumerate(contexts):
            for number, page in enumerate(context.pages):
                name = f"{request.node.name}-{index}-{number}".replace("/", "_").replace("[", "-").replace("]", "")
                try:
                    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
                except Exception:  # a page that is already closed or crashed has nothing to show
                    pass
    for context in contexts:
        if context in _open_contexts:
            _open_contexts.remove(context)
        try:
            context.close()
        except Exception:
            pass
