"""Scale-out: two gunicorn processes share one PostgreSQL database and one Redis, as docs/deploying.md's deployment does.

The processes run the production settings (a SECRET_KEY of their own, hashed static files, HTTPS behind a
proxy: the requests carry X-Forwarded-Proto as the proxy would). An edit made through one process shows
through the other at once, although that one had the page cached.
"""

import http.client
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

import brotli
import pytest

from deployments import set_up
from forms import form_fields

ROOT = Path(__file__).resolve().parent.parent
PG = ("127.0.0.1", 5432)
REDIS = ("127.0.0.1", 6379)
PASSWORD = "a long passphrase for the editor"
HOST = "ipg.example.org"  # the site's name, as the proxy in front of both processes passes it on
PAGE = "/en/ipg/2.3/?langs=en,zh-hans,ja"


def reachable(address):
    try:
        socket.create_connection(address, timeout=1).close()
        return True
    except OSError:
        return False


pytestmark = [
    pytest.mark.scaleout,
    pytest.mark.skipif(
        not (reachable(PG) and reachable(REDIS)),
        reason="needs PostgreSQL on 127.0.0.1:5432 and Redis on 127.0.0.1:6379",
    ),
]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Process:
    """One gunicorn master and its workers, reached over HTTP like a browser behind the TLS proxy."""

    def __init__(self, env, name):
        self.name, self.port = name, free_port()
        self.cookies = SimpleCookie()
        command = [str(Path(sys.executable).parent / "gunicorn"), "-c", "ipgsite/gunicorn.conf.py", "ipgsite.wsgi"]
        self.popen = subprocess.Popen(
            command,
            cwd=ROOT,
            env={**env, "GUNICORN_BIND": f"127.0.0.1:{self.port}", "WEB_CONCURRENCY": "2"},
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while not reachable(("127.0.0.1", self.port)):
            assert self.popen.poll() is None and time.monotonic() < deadline, f"gunicorn {name} did not start"
            time.sleep(0.05)

    def request(self, method, path, form=None, cookies=True):
        origin = f"https://{HOST}"
        headers = {"Host": HOST, "X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.7"}
        if cookies and self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={m.value}" for k, m in self.cookies.items())
        body = None
        if form is not None:
            body = urlencode(form, doseq=True)
            headers.update(
                {"Content-Type": "application/x-www-form-urlencoded", "Origin": origin, "Referer": origin + path}
            )
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        response.text = response.read().decode()
        if cookies:
            for header in response.headers.get_all("Set-Cookie") or []:
                self.cookies.load(header)
        connection.close()
        return response

    def get(self, path, cookies=False):
        return self.request("GET", path, cookies=cookies)

    def stop(self):
        os.killpg(self.popen.pid, signal.SIGTERM)
        self.popen.wait(timeout=30)


@pytest.fixture(scope="module")
def deployment(tmp_path_factory):
    import psycopg
    import redis

    name = f"ipg_scaleout_{os.getpid()}_{secrets.token_hex(3)}"
    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as admin:
        admin.execute(
            f"CREATE DATABASE {name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C.UTF-8' LC_CTYPE 'C.UTF-8'"
        )
    prefix = f"scaleout-{name}"
    env = {
        "PATH": os.environ["PATH"],
        "HOME": os.environ.get("HOME", "/"),
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": HOST,
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{name}",
        "CACHE_URL": f"redis://127.0.0.1:6379/0?key_prefix={prefix}",
        "STATIC_ROOT": str(tmp_path_factory.mktemp("static")),
    }
    processes = []
    try:
        set_up(env, PASSWORD, load_content=True)
        processes = [Process(env, "A"), Process(env, "B")]
        with psycopg.connect(f"postgresql://postgres@127.0.0.1:5432/{name}") as db:
            (paragraph_id,) = db.execute(
                "SELECT p.id FROM ipg_paragraph p JOIN ipg_section s ON p.section_id = s.id "
                "WHERE s.number = '2.3' AND p.key = 'example-c'"
            ).fetchone()
        yield {"a": processes[0], "b": processes[1], "paragraph": paragraph_id}
    finally:
        for process in processes:
            process.stop()
        with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        cache = redis.Redis(*REDIS)
        for key in cache.scan_iter(f"{prefix}:*"):
            cache.delete(key)


def log_in(process, password=PASSWORD):
    process.cookies.clear()
    process.request("GET", "/admin/login/")
    fields = form_fields(process.request("GET", "/admin/login/").text, "login-form")
    form = {**dict(fields), "username": "editor", "password": password, "next": "/admin/"}
    return process.request("POST", "/admin/login/?next=/admin/", form)


def test_a_page_one_process_cached_is_served_by_the_other(deployment):
    a, b = deployment["a"], deployment["b"]
    first = a.get("/ja/ipg/2.3/")
    second = b.get("/ja/ipg/2.3/")
    assert first.status == second.status == 200
    assert (first.getheader("X-Cache"), second.getheader("X-Cache")) == ("miss", "hit")
    assert first.text == second.text


def test_an_edit_through_one_process_shows_through_the_other(deployment):
    a, b = deployment["a"], deployment["b"]
    b.get(PAGE)
    before = b.get(PAGE)
    assert before.getheader("X-Cache") == "hit"

    assert log_in(a).status == 302
    url = f"/admin/ipg/paragraph/{deployment['paragraph']}/change/"
    fields = form_fields(a.request("GET", url).text, "paragraph_form")
    edited = "牌手结算了黑暗亲信的触发(经由另一个进程编辑)。"
    assert any(name == "text_zh_hans" for name, _ in fields)
    form = [(name, edited if name == "text_zh_hans" else value) for name, value in fields] + [("_save", "Save")]
    saved = a.request("POST", url, form)
    assert saved.status == 302, saved.text[:2000]

    after = b.get(PAGE)
    assert after.status == 200
    assert after.getheader("X-Cache") == "miss"
    assert edited in re.sub(r"<[^>]+>", "", after.text)  # as read: a term in it is marked with a link
    assert after.getheader("ETag") != before.getheader("ETag")
    assert b.get(PAGE).getheader("X-Cache") == "hit"


def test_the_login_rate_limit_holds_across_processes(deployment):
    a, b = deployment["a"], deployment["b"]
    for attempt in range(4):
        assert log_in(a if attempt % 2 else b, password=f"wrong {attempt}").status == 200
    assert log_in(a, password="wrong 5").status == 429
    assert log_in(b).status == 429  # the right password, through the other process, is refused too


def test_static_files_are_hashed_compressed_and_kept_for_a_year(deployment):
    html = deployment["a"].get("/en/").text
    stylesheet = re.search(r'href="(/static/css/site\.[0-9a-f]{12}\.css)"', html).group(1)
    connection = http.client.HTTPConnection("127.0.0.1", deployment["b"].port, timeout=30)
    connection.request(
        "GET", stylesheet, headers={"Host": HOST, "X-Forwarded-Proto": "https", "Accept-Encoding": "br, gzip"}
    )
    response = connection.getresponse()
    body = response.read()
    connection.close()
    assert response.status == 200
    assert response.getheader("Content-Encoding") == "br"
    assert "immutable" in response.getheader("Cache-Control") and "max-age=315360000" in response.getheader(
        "Cache-Control"
    )
    stylesheet = brotli.decompress(body).decode()
    assert len(body) < len(stylesheet) and ".offline-status" in stylesheet
