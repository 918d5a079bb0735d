"""Served from the edge, as Django says it: which answers shared caches may keep and for how long, purges sent
after each change commits, and the VCL `manage.py varnishvcl` prints. The same with a real Varnish in front of a
live gunicorn: tests/test_edge_varnish.py."""

import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import StringIO

import pytest
from django.core.checks import run_checks
from django.core.management import CommandError, call_command
from django.core.signals import request_started
from django.db import transaction
from django.test import Client

from edits import write
from ipgsite.caching import edge, purges, vcl
from people import client_for, translator

SHARED = [
    "/en/",
    "/ja/ipg/2.3/",
    "/en/ipg/2.3/?langs=en,zh-hans,ja",
    "/ja/ipg/2.3/example-c/",
    "/zh-hans/penalties/?penalty=warning",
    "/ja/glossary/",
    "/en/finder/",
    "/en/changes/",
    "/en/changes/feed/",
    "/en/list/?p=2.3:example-c&p=2.4:definition-1",
    "/en/ipg/2.3/?langs=en,ja&utm_source=chat",  # a parameter the page does not read: the page itself
    "/en/search/",
    "/en/search/?q=card",  # one page per query, kept under the query as the search reads it
    "/zh-hans/search/?q=%E6%89%8B%E6%9C%AD&language=zh-hans&kind=note",
    "/api/ipg/",
    "/api/ipg/2.3/",
    "/api/releases/",
    "/sitemap.xml",
    "/sw.js",
    "/offline/pages.json?lang=ja&langs=en,ja",
    "/manifest.webmanifest?lang=ja",
]


SHARED_CACHE_CONTROL = {
    "public",
    "max-age=0",
    "must-revalidate",
    "s-maxage=60",
    "stale-while-revalidate=30",
    "stale-if-error=86400",
}


def directives(response):
    return {part.strip() for part in response.get("Cache-Control", "").split(",") if part.strip()}


@pytest.mark.parametrize("url", SHARED)
def test_public_pages_may_be_kept_by_shared_caches_and_browsers_still_ask(client, ipg, url):
    reader = Client()
    for attempt in ("miss", "hit"):
        response = reader.get(url)
        assert response.status_code == 200 and response["X-Cache"] == attempt
        # In Cache-Control, which every shared cache reads (nginx, Varnish's built-in VCL), the stale directives too;
        # must-revalidate keeps browsers from them (test_browsers_ask_again_each_time_and_never_use_a_stale_copy).
        assert directives(response) == SHARED_CACHE_CONTROL
        assert response["CDN-Cache-Control"] == ("public, max-age=60, stale-while-revalidate=30, stale-if-error=86400")
        # Neither Cookie nor, outside the prefixes, Accept-Language; a section's or paragraph's page also answers its
        # Markdown to `Accept: text/markdown` (tests/test_markdown_pages.py), so it varies on Accept.
        negotiable = re.match(r"^/(?:en|zh-hans|ja)/ipg/[^/]+/(?:[a-z0-9-]+/)?(?:\?|$)", url)
        assert response["Vary"] == ("Accept-Encoding, Accept" if negotiable else "Accept-Encoding")
        assert response["Surrogate-Key"] == "ipg-content"
        assert not response.cookies
    # A browser asking again with its ETag gets 304, which a shared cache may keep as long.
    again = Client().get(url, HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304 and directives(again) == SHARED_CACHE_CONTROL


@pytest.mark.parametrize("url", ["/api/ipg/2.3/", "/api/ipg/2.3/example-c/", "/linker.js"])
def test_an_answer_any_site_may_read_is_one_entry_for_every_origin(client, ipg, url):
    """A shared cache keeps one copy for the blog that reads it and for the reader who opens it: the copy kept
    from a request without Origin still lets another site's script read it."""
    for headers in ({}, {"HTTP_ORIGIN": "https://blog.example"}):
        response = client.get(url, **headers)
        assert response.status_code == 200 and "s-maxage=60" in response["Cache-Control"]
        assert response["Access-Control-Allow-Origin"] == "*"
        assert "origin" not in response.get("Vary", "").lower()
    # The near miss: a public page no other site reads says nothing to other origins.
    page = client.get("/en/ipg/2.3/", HTTP_ORIGIN="https://blog.example")
    assert "Access-Control-Allow-Origin" not in page and "s-maxage=60" in page["Cache-Control"]


def test_a_releases_own_pages_carry_the_releases_key(client, ipg):
    for url in ["/en/changes/2024-09-23/", "/ja/ipg/2.3/?release=2024-09-23", "/api/ipg/2.3/?release=2024-09-23"]:
        response = client.get(url)
        assert response["Surrogate-Key"] == "ipg-releases" and "public" in directives(response)


def test_the_settings_set_how_long(client, ipg, settings):
    settings.EDGE_MAX_AGE, settings.EDGE_STALE_WHILE_REVALIDATE, settings.EDGE_STALE_IF_ERROR = 600, 5, 3600
    response = client.get("/en/")
    assert {"s-maxage=600", "stale-while-revalidate=5", "stale-if-error=3600", "must-revalidate"} <= directives(
        response
    )
    assert response["CDN-Cache-Control"] == "public, max-age=600, stale-while-revalidate=5, stale-if-error=3600"


def assert_private(response):
    assert "private" in directives(response) and not any(d.startswith("s-maxage") for d in directives(response))
    assert "public" not in directives(response) and "Surrogate-Key" not in response
    assert "CDN-Cache-Control" not in response


def test_a_signed_in_readers_pages_are_private(client, ipg):
    reader = client_for(translator("ja"))
    for url in ["/ja/ipg/2.3/", "/en/", "/api/ipg/2.3/", "/admin/translate/"]:
        response = reader.get(url)
        assert response.status_code == 200, url
        assert_private(response)


def test_an_answer_that_sets_a_cookie_is_private(client, ipg):
    chosen = client.get("/en/ipg/2.3/", {"langs": ["en", "ja", ""]})  # the compare form, remembered
    assert chosen.status_code == 302 and chosen.cookies["ipg_langs"].value == "en,ja"
    assert_private(chosen)
    switched = client.get("/lang/ja/", {"next": "/en/"})
    assert switched.cookies["django_language"].value == "ja"
    assert_private(switched)


def test_anything_with_a_csrf_token_is_private(client, ipg):
    login = client.get("/admin/login/")
    assert "csrfmiddlewaretoken" in login.content.decode() and login.cookies["csrftoken"]
    assert_private(login)


@pytest.mark.parametrize(
    "url",
    [
        "/en/quiz/",  # a new shuffle for each reader
        "/en/quiz/?seed=7",  # any number of them
        "/en/ipg/9.9/",  # not found (yet)
        "/ipg/2.3/",  # to the reader's language, by their cookie or Accept-Language
        "/manifest.webmanifest",  # in the reader's language, with no `lang` to say which
    ],
)
def test_what_is_not_everyones_is_private(client, ipg, url):
    assert_private(client.get(url))


def test_the_remembered_choice_is_a_redirect_of_its_own_and_the_page_stays_everyones(client, ipg):
    client.cookies["ipg_langs"] = "ja,en"
    redirected = client.get("/en/ipg/2.4/")
    assert (redirected.status_code, redirected["Location"]) == (302, "/en/ipg/2.4/?langs=ja,en")
    assert_private(redirected)
    plain = Client().get("/en/ipg/2.4/")
    assert plain.status_code == 200 and "public" in directives(plain) and plain["Vary"] == "Accept-Encoding, Accept"


FETCH = "url => fetch(url).then(r => r.json()).then(j => j.text.en, e => 'failed: ' + e.message)"


@pytest.mark.writes
@pytest.mark.parametrize("must_revalidate", [True, False])
def test_browsers_ask_again_each_time_and_never_use_a_stale_copy(live_ipg, new_page, monkeypatch, must_revalidate):
    """Chromium honours stale-while-revalidate on fetch() (a service worker's, the linker's), even with max-age=0: it
    answers from its HTTP cache, offline too. must-revalidate keeps it asking, with the ETag, each time; without it
    (the near miss), the edit is not seen and the offline fetch is answered from the copy in hand."""
    if not must_revalidate:
        shared = edge.shared_cache_control
        monkeypatch.setattr(edge, "shared_cache_control", lambda: {**shared(), "must_revalidate": False})
    asked = []

    def seen(environ, **kwargs):
        if environ["PATH_INFO"] == "/api/ipg/2.3/example-c/":
            asked.append(environ.get("HTTP_IF_NONE_MATCH"))

    request_started.connect(seen)
    page = new_page()
    page.goto(live_ipg.url + "/en/")
    url = live_ipg.url + "/api/ipg/2.3/example-c/"
    try:
        first = page.evaluate(FETCH, url)
        assert first.startswith("A player")
        assert page.evaluate(FETCH, url) == first
        page.wait_for_timeout(200)  # a revalidation in the background, without must-revalidate
        assert len(asked) == 2 and asked[0] is None and asked[1]  # asked again, with the ETag
    finally:
        request_started.disconnect(seen)

    write("2.3", "example-c", "en", "An edit the browser must see at once.")
    then = page.evaluate(FETCH, url)
    page.context.set_offline(True)
    offline = page.evaluate(FETCH, url)
    page.context.set_offline(False)
    if must_revalidate:
        assert then == "An edit the browser must see at once."
        assert offline.startswith("failed")  # a service worker asking the network gets no answer, and says so
    else:
        assert then == first and not offline.startswith("failed")


class Purges(BaseHTTPRequestHandler):
    """A cache on loopback that records the purges it is sent."""

    received = []
    tokens = []

    def do_BAN(self):  # noqa: N802 (the method's name)
        self.received.append((self.command, self.path, self.headers.get("Surrogate-Key")))
        self.tokens.append(self.headers.get("X-Purge-Token"))
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def cache_server():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Purges)
    Purges.received, Purges.tokens = [], []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/", Purges.received
    server.shutdown()
    server.server_close()


def dead_url():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/"  # nothing listens there any more


def sent_purges():
    if purges._sender is not None:
        purges._sender.join(timeout=30)


def test_a_change_is_purged_only_once_it_has_committed_even_with_a_cache_down(
    ipg, settings, cache_server, django_capture_on_commit_callbacks
):
    url, received = cache_server
    settings.EDGE_PURGE_URLS = [dead_url(), url]
    settings.EDGE_PURGE_AGAIN_AFTER = 0.1
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        with transaction.atomic():
            write("2.3", "example-c", "en", "A player draws four cards.")
        sent_purges()
        assert received == []  # not yet committed: nothing is sent
    for callback in callbacks:  # the commit
        callback()
    sent_purges()
    assert received == [("BAN", "/", "ipg-content")] * 2  # at once, and once more for a page then in flight


def test_publishing_a_release_purges_both_keys(ipg, settings, cache_server, django_capture_on_commit_callbacks):
    url, received = cache_server
    settings.EDGE_PURGE_URLS = [url]
    settings.EDGE_PURGE_AGAIN_AFTER = 0
    with django_capture_on_commit_callbacks(execute=True):
        call_command("publishrelease", "2025-02-10", stdout=StringIO())
    sent_purges()
    assert {key for _method, _path, keys in received for key in keys.split()} == {"ipg-content", "ipg-releases"}


def test_a_cache_that_refuses_or_is_down_is_logged_not_raised(settings, caplog):
    settings.EDGE_PURGE_URLS, settings.EDGE_PURGE_TIMEOUT = [dead_url()], 1
    assert purges.send("ipg-content") == [False]
    assert "was not purged of ipg-content" in caplog.text


# The VCL -----------------------------------------------------------------------------------------------------


def test_the_vcl_names_every_backend_and_the_settings_addresses(settings):
    settings.EDGE_PURGERS = ["10.0.0.0/24", "::1"]
    settings.EDGE_TLS_PROXIES = ["192.0.2.10"]
    out = StringIO()
    call_command("varnishvcl", "--backend", "10.0.0.11:8000", "--backend", "[fd00::12]:8000", stdout=out)
    text = out.getvalue()
    assert text.startswith("vcl 4.1;")
    assert '.host = "10.0.0.11";' in text and '.host = "fd00::12";' in text
    assert "site.add_backend(site1);" in text and "site.add_backend(site2);" in text
    purgers = text.split("acl purgers {", 1)[1].split("}", 1)[0]
    assert '"10.0.0.0"/24;' in purgers and '"::1";' in purgers
    assert '"192.0.2.10";' in text.split("acl tls_proxies {", 1)[1].split("}", 1)[0]
    assert "set req.grace = 30s;" in text and "set req.grace = 86400s;" in text
    # stale-if-error, which Varnish does not read itself, is read from the header every shared cache reads.
    assert 'regsub(beresp.http.Cache-Control, {"^.*stale-if-error=' in text and "http.CDN-Cache-Control ~" not in text


@pytest.mark.parametrize("backend", ["localhost", "10.0.0.1:", ":8000", "10.0.0.1:99999", "10.0.0.1:http"])
def test_a_backend_that_is_not_host_and_port_is_refused(backend):
    with pytest.raises(CommandError, match="HOST:PORT"):
        call_command("varnishvcl", "--backend", backend, stdout=StringIO())


TOKEN = "k7Vq2mZp9xT4rW8nB3cF6hJ1sD5gL0aE"


def vcl_text(**options):
    out, err = StringIO(), StringIO()
    call_command("varnishvcl", "--backend", "127.0.0.1:8000", stdout=out, stderr=err, **options)
    return out.getvalue(), err.getvalue()


def ban_block(text):
    return text.split('if (req.method == "BAN") {', 1)[1].split("\n    }\n", 1)[0]


def test_by_default_nobody_may_purge_and_the_command_says_so(settings):
    """The defaults are safe: no token, no purger address, so no reader behind the TLS proxy on this host (the
    default EDGE_TLS_PROXIES) can empty the cache."""
    assert settings.EDGE_PURGE_TOKEN == "" and settings.EDGE_PURGERS == []
    text, warned = vcl_text()
    assert 'return (synth(403, "Not allowed to purge"));' in ban_block(text) and "ban(" not in ban_block(text)
    assert "acl purgers" not in text
    assert "Nobody may purge this cache" in warned


def test_purgers_that_are_also_tls_proxies_need_the_token_and_the_command_warns(settings):
    settings.EDGE_PURGERS = ["127.0.0.1", "10.0.0.0/24"]
    settings.EDGE_TLS_PROXIES = ["127.0.0.1", "::1", "10.0.0.2"]
    text, warned = vcl_text()
    assert "client.ip !~ purgers || client.ip ~ tls_proxies" in ban_block(text)
    assert "EDGE_PURGERS includes the address of a TLS proxy (127.0.0.1, 10.0.0.0/24" in warned
    ids = [m.id for m in run_checks(include_deployment_checks=True)]
    assert "caching.W003" in ids
    # The near miss: purgers apart from the proxies, or a token, and nothing is said.
    settings.EDGE_PURGERS = ["10.0.0.11", "10.0.0.12"]
    assert vcl_text()[1] == "" and "caching.W003" not in [m.id for m in run_checks(include_deployment_checks=True)]
    settings.EDGE_PURGERS, settings.EDGE_PURGE_TOKEN = ["127.0.0.1"], TOKEN
    text, warned = vcl_text()
    assert warned == "" and "caching.W003" not in [m.id for m in run_checks(include_deployment_checks=True)]
    assert f'req.http.X-Purge-Token != "{TOKEN}" || client.ip !~ purgers' in ban_block(text)


def test_with_a_token_a_purge_must_carry_it_from_wherever_it_comes(settings):
    settings.EDGE_PURGE_TOKEN = TOKEN
    text, warned = vcl_text()
    assert f'if (req.http.X-Purge-Token != "{TOKEN}") {{' in ban_block(text) and warned == ""
    assert "unset req.http.X-Purge-Token;" in text  # never passed on to the site


@pytest.mark.parametrize("token", ["short", TOKEN + '"; }', TOKEN + " x", TOKEN + "\n"])
def test_a_token_a_header_cannot_carry_or_too_short_is_refused(settings, token):
    settings.EDGE_PURGE_TOKEN = token
    with pytest.raises(CommandError, match="EDGE_PURGE_TOKEN must be 32 or more"):
        vcl_text()
    assert "caching.W004" in [m.id for m in run_checks(include_deployment_checks=True)]


def test_the_site_sends_its_token_with_each_purge(settings, cache_server):
    url, received = cache_server
    settings.EDGE_PURGE_URLS, settings.EDGE_PURGE_TOKEN = [url], TOKEN
    assert purges.send("ipg-content") == [True]
    assert Purges.tokens == [TOKEN]


def test_an_address_that_is_not_one_is_refused(settings):
    settings.EDGE_PURGERS = ["10.0.0.1/8"]
    with pytest.raises(CommandError, match="EDGE_PURGERS"):
        call_command("varnishvcl", "--backend", "127.0.0.1:8000", stdout=StringIO())


@pytest.mark.parametrize(
    "url,public",
    [
        ("/en/", True),
        ("/zh-hans/ipg/2.3/?langs=zh-hans,en", True),
        ("/ja/ipg/A/", True),
        ("/ja/ipg/2.3/example-c/", True),
        ("/en/finder/in-game/no-trigger/", True),
        ("/en/changes/feed/", True),
        ("/en/search/", True),
        ("/api/ipg/2.3/", True),
        ("/offline/pages.json?lang=en&langs=", True),
        ("/manifest.webmanifest?lang=ja", True),
        ("/sitemap.xml", True),
        ("/", False),  # the language redirect
        ("/ipg/2.3/", False),
        ("/lang/ja/?next=/", False),
        ("/admin/", False),
        ("/admin/translate/2.3/ja/", False),
        ("/en/quiz/", False),
        ("/en/search/?q=card", True),  # one page per query
        ("/ja/search/?kind=note&q=%E6%89%8B%E6%9C%AD&page=2", True),
        ("/manifest.webmanifest", False),  # the reader's language
        ("/en/ipg/2.3/preview.png", False),
        ("/fr/ipg/2.3/", False),
        ("/en/ipg/2.3", False),
    ],
)
def test_the_vcl_looks_up_exactly_the_public_pages(url, public):
    assert vcl.looked_up(url) is public


def test_the_vcl_keeps_the_query_parameters_of_each_page_type_as_the_page_cache_does(settings):
    """One list for both: every page type of PAGE_CACHE_VIEWS is in a group of the VCL, with its parameters in the
    same order (a search page too, whose queries it keeps too)."""
    grouped = {name: group for group in vcl.page_groups() for name in group.names}
    assert set(grouped) == set(settings.PAGE_CACHE_VIEWS)
    for name, parameters in settings.PAGE_CACHE_VIEWS.items():
        assert list(grouped[name].parameters) == parameters, name
    assert grouped["search:search"].passed == ()


@pytest.mark.parametrize(
    "cookie,canonical",
    [("en,ja", True), ("ja,zh-hans,en", True), ("en,en", False), ("EN,ja", False), ("ja", False), ("en,jp", False)],
)
def test_the_vcl_redirects_only_choices_spelled_as_the_site_writes_them(cookie, canonical):
    assert bool(re.search(vcl.remembered_choices(), cookie)) is canonical
