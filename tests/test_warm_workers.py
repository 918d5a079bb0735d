"""Warm from the first request: gunicorn's master loads and warms the site before it forks the workers
(ipgsite.wsgi.warm, called from ipgsite/gunicorn.conf.py), so that a new worker, at start or when one is replaced,
does none of Django's lazy first-time work (imports of the URL configuration and views, templates, catalogues) on
a reader's request.

Run as a deployment runs it: production settings in a subprocess, on a database set up with content/. The worker's
first requests (pages other than those the warming asked for) must import no module at all."""

import json
import os
import secrets
import subprocess
import sys

import pytest

from deployments import ROOT, set_up

# What a forked worker does: its first requests, every kind of public page, in every language, through the WSGI
# application; it reports the modules those requests imported, and the status of each answer.
WORKER = """
import io, json, os, sys
from ipgsite import wsgi
if sys.argv[1] == "warm":
    wsgi.warm()
read, write = os.pipe()
if os.fork() == 0:
    wsgi.connect()
    before = set(sys.modules)
    statuses = {}
    for path, query in json.loads(sys.argv[2]):
        environ = {"REQUEST_METHOD": "GET", "PATH_INFO": path, "QUERY_STRING": query, "SERVER_NAME": "localhost",
                   "SERVER_PORT": "443", "SERVER_PROTOCOL": "HTTP/1.1", "HTTP_HOST": "localhost",
                   "HTTP_ACCEPT_ENCODING": "br, gzip", "wsgi.url_scheme": "https", "wsgi.input": io.BytesIO(),
                   "wsgi.errors": sys.stderr}
        status = []
        response = wsgi.application(environ, lambda line, headers, exc_info=None: status.append(line))
        b"".join(response)
        response.close()
        statuses[f"{path}?{query}"] = int(status[0].split()[0])
    os.write(write, json.dumps({"imported": sorted(set(sys.modules) - before), "statuses": statuses}).encode())
    os._exit(0)
os.close(write)
print(os.read(read, 1 << 20).decode())
"""

# Other sections, paragraphs, queries and languages than the warming asks for: what readers ask first.
FIRST_REQUESTS = [
    (f"/{code}/{path}", query)
    for code in ("en", "zh-hans", "ja")
    for path, query in [
        ("", ""),
        ("penalties/", "penalty=warning"),
        ("ipg/2.4/", ""),
        ("ipg/2.4/", "langs=ja,en"),
        ("ipg/2.4/definition-1/", ""),
        ("search/", "q=mulligan"),
        ("search/", "q=%E6%89%8B%E6%9C%AD"),  # 手札
        ("glossary/", ""),
        ("finder/", ""),
        ("list/", "p=2.4:definition-1&p=2.3:example-c"),
        ("changes/", ""),
    ]
] + [
    ("/api/ipg/2.4/", ""),
    ("/api/ipg/2.4/definition-1/", ""),
    ("/oembed/", "url=https://localhost/ja/ipg/2.4/definition-1/&format=json"),
    ("/linker.js", ""),
    ("/sw.js", ""),
    ("/offline/pages.json", "lang=ja"),
    ("/sitemap.xml", ""),
]


@pytest.fixture(scope="module")
def deployment(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("warm")
    env = {
        "PATH": os.environ["PATH"],
        "HOME": os.environ.get("HOME", "/"),
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "localhost",
        "DATABASE_URL": f"sqlite:///{workdir}/db.sqlite3",
        "STATIC_ROOT": str(workdir / "static"),
        "PREVIEW_IMAGE_DIR": str(workdir / "previews"),
        "PYTHONPATH": str(ROOT),
    }
    set_up(env, secrets.token_urlsafe(16), load_content=True)
    return env


def first_requests(env, warm):
    result = subprocess.run(
        [sys.executable, "-c", WORKER, "warm" if warm else "cold", json.dumps(FIRST_REQUESTS)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return json.loads(result.stdout)


def test_a_worker_forked_from_the_warmed_master_imports_nothing_on_its_first_requests(deployment):
    worker = first_requests(deployment, warm=True)
    assert {page: status for page, status in worker["statuses"].items() if status >= 400} == {}
    assert worker["imported"] == []


def test_without_the_warming_the_first_requests_import_the_site(deployment):
    """The near miss: the same requests from a master that only loaded the application import the URL configuration,
    the views and much else."""
    worker = first_requests(deployment, warm=False)
    assert "ipgsite.urls" in worker["imported"] and len(worker["imported"]) > 50
