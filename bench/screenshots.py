"""Screenshots of every page type, at a phone's width (390×844) and a desk's (1280×900), for a designer's pass.

Writes artifacts/screenshots/<width>/<page>.png (SCREENSHOTS_DIR to write elsewhere): the page from its top, down to
at most three screens. Prints, for each page, the height of the whole page and any sideways scrolling, which a phone
must never have. The pages are served by Django's development server (DEBUG=1) from a fresh SQLite database with
content/ loaded, on 127.0.0.1; the translators' pages are seen signed in as an editor, and the 404 page as a
deployment sends it (rendered with DEBUG off, where the development server would show Django's debugging page).
Chromium is Debian's (/usr/bin/chromium, or CHROMIUM), driven by Playwright.

Run: `make screenshots`.
"""

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
workdir = tempfile.mkdtemp(prefix="ipg-screenshots-")
os.environ["DATABASE_URL"] = f"sqlite:///{workdir}/screenshots.sqlite3"
os.environ.setdefault("DEBUG", "1")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ipgsite.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth.models import Group, User  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import override_settings  # noqa: E402

from pages import PAGE_TYPES  # noqa: E402  (tests/pages.py)

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
OUT = Path(os.environ.get("SCREENSHOTS_DIR", ROOT / "artifacts" / "screenshots"))
VIEWPORTS = {390: {"width": 390, "height": 844}, 1280: {"width": 1280, "height": 900}}
SCREENS = 3  # how far down a page is kept
NOT_FOUND = next(page.url for page in PAGE_TYPES if page.status == 404)


def pages():
    """Every public page type (tests/pages.py, the list the tests walk), then the translators' two main pages."""
    return [(page.name, page.url) for page in PAGE_TYPES] + [
        ("dashboard", "/admin/translate/"),
        ("translate", "/admin/translate/2.4/ja/"),
    ]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(port):
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload", "--nothreading"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(100):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/en/", timeout=5)
            return server
        except OSError:
            time.sleep(0.2)
    server.terminate()
    raise SystemExit("the development server did not start")


def signed_in_cookie():
    """A session for an editor (every language), made through Django's test client on the same database."""
    user = User.objects.create_user("screenshots", password="a-long-screenshot-password", is_staff=True)
    user.groups.add(Group.objects.get(name="editors"))
    client = Client()
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client.cookies["sessionid"].value


def main():
    from playwright.sync_api import sync_playwright

    call_command("migrate", verbosity=0)
    call_command("loadcontent", verbosity=0)
    session = signed_in_cookie()
    with override_settings(DEBUG=False):
        not_found = Client().get(NOT_FOUND, HTTP_HOST="127.0.0.1")
    port = free_port()
    server = serve(port)
    base = f"http://127.0.0.1:{port}"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--disable-gpu"])
            for width, viewport in VIEWPORTS.items():
                (OUT / str(width)).mkdir(parents=True, exist_ok=True)
                context = browser.new_context(viewport=viewport, service_workers="block")
                context.add_cookies([{"name": "sessionid", "value": session, "url": base}])
                page = context.new_page()
                page.route(
                    base + NOT_FOUND,
                    lambda route: route.fulfill(
                        status=404, body=not_found.content, content_type=not_found["Content-Type"]
                    ),
                )
                for name, url in pages():
                    response = page.goto(base + url, wait_until="networkidle")
                    size = page.evaluate(
                        "[document.documentElement.scrollWidth - document.documentElement.clientWidth,"
                        " document.documentElement.scrollHeight]"
                    )
                    sideways = f"  SCROLLS SIDEWAYS by {size[0]} px" if size[0] > 0 else ""
                    height = min(size[1], viewport["height"] * SCREENS)
                    path = OUT / str(width) / f"{name}.png"
                    page.screenshot(
                        path=str(path), full_page=True, clip={"x": 0, "y": 0, "width": width, "height": height}
                    )
                    print(f"{width:>5} {name:14} {response.status} {size[1]:>6} px high{sideways}")
                context.close()
            browser.close()
    finally:
        server.terminate()
        server.wait()
    print(f"Written to {OUT}/<width>/<page>.png")


if __name__ == "__main__":
    main()
