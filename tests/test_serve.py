"""`make serve` as a developer runs it: the real Makefile target, as a subprocess on a free port, against a temporary
SQLite database. A restart keeps what was edited in the database since the last load, and says so; a load or a
release published in another terminal is seen by the next request, a page it had cached included."""

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(settings.BASE_DIR)
PYTHON = str(Path(sys.executable))
STARTUP_SECONDS = 600  # a fresh database is migrated and loaded first; the machine may be busy
EDITED_JA = "TEST サーバーの再起動を越えて残る訳文(このテストのための作り事)。"
EDITED_EN = "TEST example B as a load in another terminal made it, made up for this test."

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Site:
    """`make serve` on a port of its own, with the environment a developer's terminal has (no test settings)."""

    def __init__(self, tmp_path, content=None):
        self.port = free_port()
        self.env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE", "CACHE_URL", "DEBUG")}
        self.env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'db.sqlite3'}"
        if content:
            self.env["CONTENT_DIR"] = str(content)
        self.log = tmp_path / "serve.log"
        self.process = None

    def start(self):
        self.log.write_text("")
        with self.log.open("a") as log:
            self.process = subprocess.Popen(
                ["make", "--no-print-directory", "serve", f"PORT={self.port}", "HOST=127.0.0.1"],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # make, runserver and its reloader: stopped together
            )
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log.read_text()
            try:
                if self.get("/en/")[0] == 200:
                    return self
            except OSError:
                time.sleep(0.5)
        raise AssertionError(f"make serve did not answer:\n{self.log.read_text()}")

    def stop(self):
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()

    def get(self, path):
        """(status, X-Cache, body) of a GET as a reader's browser sends it."""
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", headers={"Accept-Language": "en"})
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, response.headers.get("X-Cache"), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, None, ""

    def manage(self, *args, code=None):
        """A management command in another process, as in a second terminal (DEBUG=1, as the Makefile runs them)."""
        command = [PYTHON, "manage.py", *args] if code is None else [PYTHON, "manage.py", "shell", "-c", code]
        result = subprocess.run(
            command, cwd=ROOT, env={**self.env, "DEBUG": "1"}, capture_output=True, text=True, timeout=600
        )
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout + result.stderr


@pytest.fixture
def site(tmp_path):
    caches = set((ROOT / ".cache").glob("pages-*"))
    content = tmp_path / "content"
    shutil.copytree(settings.CONTENT_DIR, content)
    running = Site(tmp_path, content)
    yield running
    running.stop()
    for made in set((ROOT / ".cache").glob("pages-*")) - caches:  # the development cache of this database
        shutil.rmtree(made, ignore_errors=True)


# What a translator's save in the admin does (`ipgsite.editing.admin`): the one write path, as that person.
SAVE_IN_THE_ADMIN = f"""
from django.contrib.auth.models import User
from ipgsite.editing import writing
from ipgsite.ipg.models import Paragraph
hanako = User.objects.create_user("hanako", password="a-long-test-password", is_staff=True, is_superuser=True)
paragraph = Paragraph.objects.get(section__number="2.3", key="example-b")
writing.write_text(paragraph, "ja", {EDITED_JA!r}, by=hanako, base_revision=paragraph.revision)
"""


def test_a_restart_keeps_an_edit_made_in_the_database_and_says_so(site):
    site.start()
    assert "Loaded 5 chapters and 30 sections" in site.log.read_text()
    site.manage(code=SAVE_IN_THE_ADMIN)
    assert EDITED_JA in site.get("/ja/ipg/2.3/")[2]
    site.stop()

    site.start()
    log = site.log.read_text()
    assert "The database holds edits made since the last load" in log
    assert "section 2.3, paragraph example-b [ja]: edited by hanako" in log
    assert "Nothing was loaded from" in log and "exportcontent" in log
    assert "Loaded 5 chapters" not in log
    status, _cache, page = site.get("/ja/ipg/2.3/")
    assert status == 200 and EDITED_JA in page  # the edit survived, and the site is served


def test_a_load_and_a_release_made_in_another_terminal_are_seen_by_the_next_request(site):
    site.start()
    assert site.get("/en/ipg/2.3/")[1] == "miss"
    status, cache, page = site.get("/en/ipg/2.3/")
    assert (status, cache) == (200, "hit") and EDITED_EN not in page
    assert site.get("/en/changes/")[1] in ("miss", "hit") and site.get("/en/changes/")[1] == "hit"

    path = Path(site.env["CONTENT_DIR"]) / "sections" / "2.3.toml"
    old = "A player scries two cards when they should only have scried one."
    assert path.read_text().count(old) == 1
    path.write_text(path.read_text().replace(old, EDITED_EN))
    assert "1 updated" in site.manage("loadcontent")

    status, cache, page = site.get("/en/ipg/2.3/")  # the page this server had kept
    assert status == 200 and EDITED_EN in page and cache == "miss"

    site.manage("publishrelease", "2025-06-01")
    changes = site.get("/en/changes/")[2]
    assert "/en/changes/2025-06-01/" in changes
    release = site.get("/en/changes/2025-06-01/")[2]
    assert "Since the release of 2024-09-23, 1 section changed." in release and "example-b" in release
