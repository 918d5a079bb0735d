"""Served from the edge: the site behind a real Varnish 7, with the VCL that `manage.py varnishvcl` prints.

gunicorn runs the production settings (SQLite in a file, a file cache both workers share) behind two varnishd:
one that the site purges after each change (EDGE_PURGE_URLS, after a cache that is down), one that it does not.
Pages may be kept 300 s (EDGE_MAX_AGE), as a deployment that purges its caches can afford; the bound without
purges is tested with a short s-maxage on a gunicorn of its own.
Requests come as the TLS proxy in front of Varnish passes them on (X-Forwarded-Proto, X-Forwarded-For), with the
cookies readers carry: the interface language, the remembered compare choice (each made as a reader makes it,
through the site), an analytics cookie; and translators sign in through the same Varnish.
"""

import datetime
import gzip
import os
import random
import re
import secrets
import shutil
import sqlite3
import subprocess
import time
from collections import Counter
from http.cookies import SimpleCookie
from urllib.parse import urlencode

import brotli
import pytest

from deployments import set_up
from forms import form_fields
from varnish import ROOT, TLS_PROXY_HEADERS, Gunicorn, Varnish, free_port, manage, request, why_varnish_cannot_run

MISSING = why_varnish_cannot_run()
pytestmark = [pytest.mark.scaleout, pytest.mark.skipif(MISSING is not None, reason=MISSING or "")]

HOST = "ipg.example.org"
PASSWORD = "a long passphrase for the editor"
TRANSLATOR_PASSWORD = "a long passphrase for the translator"
LANGUAGES = ["en", "zh-hans", "ja"]
CHOICES = ["en,zh-hans", "en,ja", "zh-hans,en", "zh-hans,ja", "ja,en", "ja,zh-hans", "en,zh-hans,ja", "ja,en,zh-hans"]
COMPARE = "/en/ipg/2.3/?langs=en,zh-hans,ja"
EDITED = "プレイヤーが《闇の腹心》の誘発型能力を解決した(エッジのテスト)。"
PURGE_TOKEN = secrets.token_urlsafe(32)


def environment(workdir, **overrides):
    return {
        "PATH": os.environ["PATH"],
        "HOME": os.environ.get("HOME", "/"),
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": HOST,
        "DATABASE_URL": f"sqlite:///{workdir}/site.sqlite3",
        "CACHE_URL": f"filecache:///{workdir}/cache?max_entries=100000",
        "STATIC_ROOT": str(workdir / "static"),
        "PREVIEW_IMAGE_DIR": str(workdir / "previews"),
        # The site purges from 127.0.0.1, where the TLS proxy's requests come from too (EDGE_TLS_PROXIES' default):
        # only with the token.
        "EDGE_PURGE_TOKEN": PURGE_TOKEN,
        **overrides,
    }


class Reader:
    """A browser behind the TLS proxy: its own address and cookie jar, and the cookies it arrived with."""

    def __init__(self, name, address="203.0.113.7", **cookies):
        self.name, self.address = name, address
        self.jar = SimpleCookie()
        for cookie, value in cookies.items():
            self.jar[cookie] = value

    def cookie(self, name):
        return self.jar[name].value if name in self.jar else None

    def fetch(self, port, path, method="GET", form=None, referer=None, accept=None):
        headers = {"Host": HOST, **TLS_PROXY_HEADERS, "X-Forwarded-For": self.address, "Accept-Encoding": "br, gzip"}
        if accept:
            headers["Accept"] = accept
        if self.jar:
            headers["Cookie"] = "; ".join(f"{name}={morsel.coded_value}" for name, morsel in self.jar.items())
        body = None
        if form is not None:
            body = urlencode(form, doseq=True)
            origin = f"https://{HOST}"
            headers.update(
                {"Content-Type": "application/x-www-form-urlencoded", "Origin": origin, "Referer": origin + path}
            )
        response = request(port, method, path, headers, body)
        response.set_cookies = response.headers.get_all("Set-Cookie") or []
        for header in response.set_cookies:
            self.jar.load(header)
            for name, morsel in list(self.jar.items()):
                if morsel["max-age"] == "0":
                    del self.jar[name]
        response.text = decoded(response)
        response.edge = response.getheader("X-Edge")
        return response


def decoded(response):
    encoding = response.getheader("Content-Encoding")
    if encoding == "br":
        return brotli.decompress(response.body).decode()
    if encoding == "gzip":
        return gzip.decompress(response.body).decode()
    return response.body.decode(errors="replace")


def shown(html):
    return re.sub(r"<[^>]+>", "", html)


def sign_in(reader, port, username, password):
    reader.fetch(port, "/admin/login/")
    fields = form_fields(reader.fetch(port, "/admin/login/").text, "login-form")
    form = {**dict(fields), "username": username, "password": password, "next": "/admin/"}
    response = reader.fetch(port, "/admin/login/?next=/admin/", method="POST", form=form)
    assert response.status == 302 and reader.cookie("sessionid"), response.text[:500]
    return reader


class Site:
    def __init__(self, env, workdir):
        self.env, self.workdir = env, workdir
        self.dead_port, purged_port = free_port(), free_port()
        self.env["EDGE_PURGE_URLS"] = f"http://127.0.0.1:{self.dead_port}/,http://127.0.0.1:{purged_port}/"
        self.gunicorn = Gunicorn(env)
        backend = f"127.0.0.1:{self.gunicorn.port}"
        self.purged = Varnish(env, backend, workdir / "purged", port=purged_port)
        self.unpurged = Varnish(env, backend, workdir / "unpurged")

    def stop(self):
        for server in (self.purged, self.unpurged, self.gunicorn):
            server.stop()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("edge")
    env = environment(workdir)
    set_up(env, PASSWORD, load_content=True)
    manage(
        env,
        "shell",
        "-c",
        "from django.contrib.auth.models import Group, User; "
        f"u = User.objects.create_user('translator-ja', password='{TRANSLATOR_PASSWORD}', is_staff=True); "
        "u.groups.add(Group.objects.get(name='translators-ja'))",
    )
    site = Site({**env, "EDGE_MAX_AGE": "300", "EDGE_PURGE_AGAIN_AFTER": "1"}, workdir)
    try:
        yield site
    finally:
        site.stop()


def test_the_vcl_is_the_one_the_command_prints_and_varnish_compiles_it(site):
    vcl = site.purged.vcl.read_text()
    assert vcl.startswith("vcl 4.1;") and f'.port = "{site.gunicorn.port}";' in vcl
    deadline = time.monotonic() + 30
    while not site.purged.healthy():  # the probe reaches gunicorn, and Django answers it
        assert time.monotonic() < deadline, site.purged.admin("backend.list")
        time.sleep(0.05)


@pytest.mark.parametrize(
    "path",
    [
        "/en/",
        COMPARE,
        "/ja/ipg/2.3/example-c/?langs=en,ja",
        "/zh-hans/penalties/?penalty=warning",
        "/ja/glossary/",
        "/en/finder/",
        "/en/changes/",
        "/en/changes/feed/",
        "/en/list/?p=2.3:example-c&p=2.4:definition-1&langs=en,ja",
        "/api/ipg/2.3/",
        "/sitemap.xml",
        "/offline/pages.json?lang=ja&langs=en,ja",
    ],
)
def test_a_cached_page_is_what_django_serves(site, path):
    reader = Reader("reader", _ga="GA1.2.1.2", django_language="zh-hans")
    reader.fetch(site.purged.port, path)
    cached = reader.fetch(site.purged.port, path)
    direct = Reader("direct").fetch(site.gunicorn.port, path)
    assert cached.edge == "hit" and cached.status == direct.status == 200
    assert cached.text == direct.text
    for header in ("Content-Type", "ETag", "Content-Language", "Content-Security-Policy", "Cache-Control", "Vary"):
        assert cached.getheader(header) == direct.getheader(header), header
    # The stale directives are in Cache-Control, the header this cache reads (and Varnish's built-in VCL, and nginx).
    assert set(cached.getheader("Cache-Control").split(", ")) == {
        "public",
        "max-age=0",
        "must-revalidate",
        "s-maxage=300",
        "stale-while-revalidate=30",
        "stale-if-error=86400",
    }
    assert cached.getheader("Surrogate-Key") is None  # Varnish's own business
    # A browser revalidates with the ETag and gets 304 from the cache.
    again = request(
        site.purged.port,
        "GET",
        path,
        {"Host": HOST, **TLS_PROXY_HEADERS, "Accept-Encoding": "br", "If-None-Match": cached.getheader("ETag")},
    )
    assert again.status == 304 and again.getheader("X-Edge") == "hit"


@pytest.mark.parametrize(
    "path",
    [
        "/en/ipg/2.4/",
        "/ja/ipg/2.4/?release=2024-09-23",
        "/en/list/?p=2.3:example-c",
        "/en/ipg/2.4/?utm_source=chat&release=2024-09-23",  # the redirect drops what the page does not read
    ],
)
def test_the_remembered_choice_redirects_at_the_edge_as_django_does(site, path):
    reader = Reader("remembering")
    chosen = reader.fetch(site.purged.port, "/en/ipg/2.3/?" + urlencode({"langs": ["ja", "en", ""]}, doseq=True))
    assert chosen.status == 302 and chosen.edge in ("miss", "pass") and reader.cookie("ipg_langs") == "ja,en"
    at_the_edge = reader.fetch(site.purged.port, path)
    direct = reader.fetch(site.gunicorn.port, path)
    assert at_the_edge.edge == "synth" and at_the_edge.status == direct.status == 302
    assert at_the_edge.getheader("Location") == direct.getheader("Location")
    assert "langs=ja,en" in at_the_edge.getheader("Location")
    assert "private" in at_the_edge.getheader("Cache-Control")
    # Without the cookie, the same URL is the page itself, shared.
    plain = Reader("plain", _ga="GA1.2.3.4").fetch(site.purged.port, path)
    assert plain.status == 200 and plain.edge in ("hit", "miss")


def kept(varnish):
    """How Varnish kept what it fetched, from its log: (how it was decided, TTL, grace) for each object, as the
    TTL records say (RFC: read from the answer's headers; VCL: as the VCL then set them)."""
    log = subprocess.run(
        ["varnishlog", "-n", varnish.name, "-d", "-g", "raw", "-i", "TTL"], capture_output=True, text=True, check=True
    ).stdout
    found = []
    for line in log.splitlines():
        fields = line.split()
        if "TTL" in fields and fields[fields.index("TTL") + 2] in ("RFC", "VCL"):
            source, ttl, grace = fields[fields.index("TTL") + 2 : fields.index("TTL") + 5]
            found.append((source, int(float(ttl)), int(float(grace))))
    return found


def test_varnish_with_its_built_in_vcl_keeps_public_pages_and_reads_how_long_to_serve_them_stale(site, tmp_path):
    """The issue's measure: stock Varnish, with no VCL of the site's (its built-in one only), in front of the site.
    It reads Cache-Control: s-maxage for how long to keep a page, stale-while-revalidate for how long to serve it
    stale while it asks again; anonymous readers are served from it, a signed-in translator never."""
    stock = f'vcl 4.1;\nbackend default {{ .host = "127.0.0.1"; .port = "{site.gunicorn.port}"; }}\n'
    varnish = Varnish(site.env, None, tmp_path / "stock", vcl=stock)
    try:
        reader = Reader("reader")  # no cookie: the built-in VCL passes any request with one
        for path in ("/ja/ipg/2.3/", "/api/ipg/2.3/", COMPARE):
            first = reader.fetch(varnish.port, path)
            again = reader.fetch(varnish.port, path)
            assert first.status == again.status == 200
            assert len(again.getheader("X-Varnish").split()) == 2, path  # a hit: this request's id and the object's
            assert again.text == first.text
        assert kept(varnish) == [("RFC", 300, 30)] * 3  # s-maxage, stale-while-revalidate
        translator = sign_in(
            Reader("translator", address="192.0.2.70"), varnish.port, "translator-ja", TRANSLATOR_PASSWORD
        )
        own = translator.fetch(varnish.port, "/ja/ipg/2.3/")
        assert (
            own.status == 200
            and len(own.getheader("X-Varnish").split()) == 1
            and "private" in own.getheader("Cache-Control")
        )
    finally:
        varnish.stop()


def test_the_sites_vcl_keeps_the_copy_for_stale_if_error_from_cache_control(site):
    reader = Reader("reader", _ga="GA1.2.3.3")
    path = "/zh-hans/ipg/2.4/?langs=ja,zh-hans"  # a page no other test asks this cache for
    assert reader.fetch(site.unpurged.port, path).edge == "miss"
    assert reader.fetch(site.unpurged.port, path).edge == "hit"
    # RFC: 300 s and 30 s, read by Varnish; VCL: the grace set to stale-if-error, read from Cache-Control.
    assert ("RFC", 300, 30) in kept(site.unpurged) and ("VCL", 300, 86400) in kept(site.unpurged)


def urls_to_read(site):
    """The workload's pages: each page type of the issue, in the three languages."""
    api = Reader("api")
    sections = [s["number"] for c in api_json(api, site, "/api/ipg/")["chapters"] for s in c["sections"]]
    with_text = ["2.1", "2.3", "2.4"]
    keys = {n: [p["key"] for p in api_json(api, site, f"/api/ipg/{n}/")["paragraphs"]] for n in with_text}
    release = api_json(api, site, "/api/releases/")["releases"][0]["date"]
    pages = {"section": [], "compare": [], "share": [], "other": [], "unprefixed": []}
    for code in LANGUAGES:
        pages["section"] += [f"/{code}/ipg/{n}/" for n in sections]
        pages["compare"] += [f"/{code}/ipg/{n}/?langs={choice}" for n in with_text for choice in CHOICES[:4]]
        pages["share"] += [f"/{code}/ipg/{n}/{key}/" for n in with_text for key in keys[n][:6]]
        pages["other"] += [
            f"/{code}/",
            f"/{code}/penalties/",
            f"/{code}/penalties/?penalty=warning",
            f"/{code}/glossary/",
            f"/{code}/finder/",
            f"/{code}/changes/",
            f"/{code}/changes/{release}/",
            f"/{code}/changes/feed/",
            f"/{code}/search/",
            f"/{code}/search/?q=card",  # a search's page, kept like any other
            f"/{code}/search/?q=%E6%89%8B%E6%9C%AD&language=ja&kind=note",
            f"/{code}/list/?p=2.3:example-c&p=2.4:definition-1&p=2.1:definition-1",
            f"/{code}/list/?p=2.3:example-c&p=2.3:example-a&langs=en,ja",
        ]
        pages["unprefixed"] += [f"/offline/pages.json?lang={code}&langs=", f"/manifest.webmanifest?lang={code}"]
    pages["unprefixed"] += ["/api/ipg/", "/api/releases/", "/sitemap.xml", "/sw.js"]
    pages["unprefixed"] += [f"/api/ipg/{n}/" for n in sections]
    return pages


def api_json(reader, site, path):
    import json

    return json.loads(reader.fetch(site.purged.port, path).text)


def test_anonymous_readers_with_their_cookies_are_served_from_the_cache(site):
    """After one request for each page of the workload, a mixed workload of readers carrying the interface
    language, a remembered compare choice and an analytics cookie is answered from the cache at least 95% of the
    time, and no reader ever gets another's session, CSRF token or choice."""
    port = site.unpurged.port
    rng = random.Random(25)
    pages = urls_to_read(site)
    for path in sorted({p for group in pages.values() for p in group}):  # warm-up: each page once, by anyone
        assert Reader("warm-up").fetch(port, path).status == 200, path

    readers = []
    for number in range(40):
        reader = Reader(f"reader-{number}", address=f"198.51.100.{number + 1}", _ga=f"GA1.2.{rng.randrange(10**9)}.1")
        if number % 2:  # the interface language, as the site sets it
            code = LANGUAGES[number % 3]
            assert reader.fetch(port, f"/lang/{code}/?next=/{code}/").status == 302
        if number % 3 == 0:  # a compare choice, made with the compare form (the site remembers it)
            reader.choice = CHOICES[number % len(CHOICES)]
            form = {"langs": [*reader.choice.split(","), ""][:3]}
            chosen = reader.fetch(port, "/en/ipg/2.3/?" + urlencode(form, doseq=True))
            assert chosen.status == 302 and reader.cookie("ipg_langs") == reader.choice
        else:
            reader.choice = None
        readers.append(reader)
    translators = [
        sign_in(Reader(f"translator-{n}", address=f"192.0.2.{n + 1}"), port, "translator-ja", TRANSLATOR_PASSWORD)
        for n in range(2)
    ]
    secrets_of = {t.name: {t.cookie("sessionid"), t.cookie("csrftoken")} for t in translators}

    weights = {"section": 30, "compare": 15, "share": 12, "other": 28, "unprefixed": 15}
    kinds, shares = zip(*weights.items(), strict=True)
    before = site.unpurged.counters()
    seen, violations, statics, translated, missed = Counter(), [], Counter(), 0, []
    for turn in range(1500):
        reader = rng.choice(readers)
        kind = rng.choices(kinds, shares)[0]
        group = pages[kind]
        path = group[min(int(rng.paretovariate(1.2)) - 1, len(group) - 1)] if kind == "section" else rng.choice(group)
        response = reader.fetch(port, path)
        seen[response.edge] += 1
        if response.edge == "miss":
            missed.append(path)
        violations += leaks(reader, path, response, secrets_of)
        if response.status == 302 and response.edge == "synth":  # the reader follows it
            followed = reader.fetch(port, response.getheader("Location"))
            seen[followed.edge] += 1
            if followed.edge == "miss":
                missed.append(response.getheader("Location"))
            violations += leaks(reader, response.getheader("Location"), followed, secrets_of)
        if turn % 50 == 0:  # a page's own files, as a browser asks for them
            for asset in re.findall(r'(?:href|src)="(/static/[^"]+)"', response.text)[:3]:
                statics[reader.fetch(port, asset).edge] += 1
        if turn % 25 == 0:  # translators at work meanwhile, through the same cache
            translator = translators[turn // 25 % 2]
            for own in ("/admin/translate/", rng.choice(pages["section"]), COMPARE):
                answer = translator.fetch(port, own)
                translated += 1
                assert answer.edge == "pass" and "private" in answer.getheader("Cache-Control", ""), own
                assert answer.status == 200, own
    after = site.unpurged.counters()

    hits = seen["hit"] + seen["stale"]
    ratio = hits / (hits + seen["miss"] + seen["pass"])
    at_the_edge = (hits + seen["synth"]) / sum(seen.values())
    # Varnish's own count, less the static files' and the translators' requests
    counted = {name: after[name] - before[name] for name in ("cache_hit", "cache_miss", "s_pass", "s_synth")}
    varnish_hits = counted["cache_hit"] - statics["hit"] - statics["stale"]
    varnish_ratio = varnish_hits / (
        varnish_hits + counted["cache_miss"] - statics["miss"] + counted["s_pass"] - translated
    )
    print(
        f"\n{sum(seen.values())} anonymous requests: {dict(seen)}; hit ratio {ratio:.1%}, answered at the edge "
        f"{at_the_edge:.1%}; varnishstat {counted}, hit ratio {varnish_ratio:.1%}; static files {dict(statics)}; "
        f"{len(violations)} leaks; misses: {len(missed) - len(set(missed))} of pages asked for before in the run"
    )
    assert violations == []
    assert ratio >= 0.95 and varnish_ratio >= 0.95 and at_the_edge >= 0.95


def leaks(reader, path, response, secrets_of):
    """What in `response` belongs to someone else: a translator's session or CSRF token, a CSRF form field,
    a cookie the reader did not ask for, or a compare choice that is not the reader's."""
    found = []
    everything = response.text + "".join(f"{name}: {value}" for name, value in response.getheaders())
    for owner, values in secrets_of.items():
        if any(value and value in everything for value in values):
            found.append(f"{path}: {owner}'s session or CSRF token, served to {reader.name}")
    if "csrfmiddlewaretoken" in response.text or any(c.startswith("csrftoken=") for c in response.set_cookies):
        found.append(f"{path}: a CSRF token, served to {reader.name}")
    if response.set_cookies and response.edge != "pass":
        found.append(f"{path}: {response.set_cookies} from the cache, served to {reader.name}")
    location = response.getheader("Location") or ""
    if response.status == 302 and "langs=" in location and "langs=" not in path:
        if location.split("langs=")[-1] != reader.choice:
            found.append(f"{path}: redirected to {location}, served to {reader.name} (choice {reader.choice})")
    if (
        response.status == 200
        and "langs=" not in path
        and reader.choice
        and re.match(r"^/(en|zh-hans|ja)/(ipg/[^/]+|list)/", path)
    ):
        if not re.search(r"/ipg/[^/]+/[^/?]+/", path):  # a paragraph's own page reads no choice
            found.append(f"{path}: the plain page, served to {reader.name}, who chose {reader.choice}")
    return found


def test_a_signed_in_translator_is_never_served_a_cached_page_nor_has_one_stored(site):
    port = site.purged.port
    translator = sign_in(Reader("translator", address="192.0.2.50"), port, "translator-ja", TRANSLATOR_PASSWORD)
    anonymous = Reader("anonymous", _ga="GA1.2.9.9")
    assert anonymous.fetch(port, "/ja/ipg/2.4/").edge in ("hit", "miss")
    assert anonymous.fetch(port, "/ja/ipg/2.4/").edge == "hit"
    for path in ["/ja/ipg/2.4/", "/ja/", "/ja/ipg/4.8/?langs=ja,zh-hans", "/admin/translate/", "/admin/"]:
        response = translator.fetch(port, path)
        assert response.status == 200 and response.edge == "pass", path
        assert "private" in response.getheader("Cache-Control") and "s-maxage" not in response.getheader(
            "Cache-Control"
        )
    # Nothing the translator was served was stored: the first reader to ask for that page after them misses.
    assert anonymous.fetch(port, "/ja/ipg/4.8/?langs=ja,zh-hans").edge == "miss"
    assert anonymous.fetch(port, "/ja/ipg/4.8/?langs=ja,zh-hans").edge == "hit"
    # Signed out, they share the public pages again, but their CSRF cookie still sends them to the site.
    assert translator.cookie("csrftoken")
    del translator.jar["sessionid"]
    assert translator.fetch(port, "/ja/ipg/2.4/").edge == "pass"


def test_login_attempts_are_counted_per_reader_behind_the_cache(site):
    """Varnish passes the address the TLS proxy saw: one reader's wrong passwords do not lock out another."""
    port = site.purged.port
    for attempt in range(5):
        guesser = Reader("guesser", address="198.51.100.200")
        guesser.fetch(port, "/admin/login/")
        fields = form_fields(guesser.fetch(port, "/admin/login/").text, "login-form")
        form = {**dict(fields), "username": "editor", "password": f"wrong {attempt}", "next": "/admin/"}
        guesser.fetch(port, "/admin/login/?next=/admin/", method="POST", form=form)
    guesser = Reader("guesser", address="198.51.100.200")
    guesser.fetch(port, "/admin/login/")
    fields = form_fields(guesser.fetch(port, "/admin/login/").text, "login-form")
    form = {**dict(fields), "username": "editor", "password": PASSWORD, "next": "/admin/"}
    assert guesser.fetch(port, "/admin/login/?next=/admin/", method="POST", form=form).status == 429
    assert sign_in(Reader("editor", address="198.51.100.201"), port, "editor", PASSWORD).cookie("sessionid")


def wait_for_ban(varnish, key, deadline=30):
    stop = time.monotonic() + deadline
    while time.monotonic() < stop:
        if key in varnish.admin("ban.list"):
            return True
        time.sleep(0.05)
    return False


def test_a_change_is_purged_from_the_cache_at_once_even_with_another_cache_down(site):
    reader = Reader("reader", _ga="GA1.2.5.6")
    for varnish in (site.purged, site.unpurged):
        reader.fetch(varnish.port, COMPARE)
        assert reader.fetch(varnish.port, COMPARE).edge == "hit"
    primed = time.monotonic()

    # A translator edits the Japanese of 2.3 example-c in the admin, through the cache.
    translator = sign_in(
        Reader("translator", address="192.0.2.60"), site.purged.port, "translator-ja", TRANSLATOR_PASSWORD
    )
    url = f"/admin/ipg/paragraph/{paragraph_id(site, '2.3', 'example-c')}/change/"
    fields = form_fields(translator.fetch(site.purged.port, url).text, "paragraph_form")
    assert any(name == "text_ja" for name, _ in fields)
    form = [(name, EDITED if name == "text_ja" else value) for name, value in fields] + [("_save", "Save")]
    bans = site.purged.counters()["bans_added"]
    saved = translator.fetch(site.purged.port, url, method="POST", form=form)
    assert saved.status == 302, saved.text[:2000]  # the first cache in EDGE_PURGE_URLS is down: no matter

    assert wait_for_ban(site.purged, "ipg-content")
    fresh = reader.fetch(site.purged.port, COMPARE)
    assert fresh.edge == "miss" and EDITED in shown(fresh.text)
    if time.monotonic() - primed < 250:  # the other cache keeps its copy until its s-maxage (300 s) runs out
        kept = reader.fetch(site.unpurged.port, COMPARE)
        assert kept.edge == "hit" and EDITED not in shown(kept.text)
    assert "ipg-content" not in site.unpurged.admin("ban.list")
    # The purge is sent once more, 1 s later (EDGE_PURGE_AGAIN_AFTER), for a page then in flight: wait for it.
    deadline = time.monotonic() + 30
    while site.purged.counters()["bans_added"] < bans + 2:
        assert time.monotonic() < deadline, "the purge was not sent again"
        time.sleep(0.05)

    # A published release: its changes list, and the section pages that name the newest release.
    changes = "/en/changes/"
    reader.fetch(site.purged.port, changes)
    assert reader.fetch(site.purged.port, changes).edge == "hit"
    today = datetime.datetime.now(datetime.UTC).date().isoformat()
    manage(site.env, "publishrelease", today)
    assert wait_for_ban(site.purged, "ipg-releases")
    assert today in reader.fetch(site.purged.port, changes).text


def paragraph_id(site, number, key):
    with sqlite3.connect(site.workdir / "site.sqlite3") as db:
        (found,) = db.execute(
            "SELECT p.id FROM ipg_paragraph p JOIN ipg_section s ON p.section_id = s.id WHERE s.number = ? AND p.key = ?",
            (number, key),
        ).fetchone()
    return found


def test_a_page_and_its_markdown_are_kept_apart_at_the_edge(site):
    """The same address answers Markdown to an assistant asking for it and HTML to browsers, whatever Accept each
    browser sends, each from the cache after its first request."""
    path = "/en/ipg/2.4/example-b/"
    browsers = [
        "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
        "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
        "*/*",
        None,
    ]
    assistant = Reader("assistant", address="198.51.100.9")
    answers = [assistant.fetch(site.purged.port, path, accept="text/markdown") for _ in range(2)]
    answers += [
        Reader(f"browser-{n}").fetch(site.purged.port, path, accept=accept) for n, accept in enumerate(browsers)
    ]
    kinds = [a.getheader("Content-Type").split(";")[0] for a in answers]
    assert kinds == ["text/markdown"] * 2 + ["text/html"] * len(browsers)
    assert [a.edge for a in answers] == ["miss", "hit", "miss", "hit", "hit", "hit"]
    assert answers[1].text.startswith("# IPG 2.4 Example B") and "<html" in answers[2].text
    assert all(a.getheader("Vary") == "Accept-Encoding, Accept" for a in answers)


@pytest.fixture
def short_lived(site, tmp_path):
    """The same site with a short s-maxage and stale-while-revalidate and no purges, behind a cache of its own."""
    env = {**site.env, "EDGE_MAX_AGE": "4", "EDGE_STALE_WHILE_REVALIDATE": "2", "EDGE_PURGE_URLS": ""}
    gunicorn = Gunicorn(env, workers=1)
    varnish = Varnish(env, f"127.0.0.1:{gunicorn.port}", tmp_path / "varnish")
    try:
        yield env, gunicorn, varnish
    finally:
        varnish.stop()
        gunicorn.stop()


def test_a_change_reaches_every_reader_within_the_bound_and_errors_get_the_copy_in_hand(site, short_lived, tmp_path):
    env, gunicorn, varnish = short_lived
    bound = int(env["EDGE_MAX_AGE"]) + int(env["EDGE_STALE_WHILE_REVALIDATE"])
    reader = Reader("reader", _ga="GA1.2.7.8", django_language="ja")
    page = "/ja/ipg/2.3/"
    reader.fetch(varnish.port, page)
    before = reader.fetch(varnish.port, page)
    assert before.edge == "hit"

    content = tmp_path / "content"
    shutil.copytree(ROOT / "content", content)
    section = content / "sections" / "2.3.toml"
    original = before.text
    title = 'ja = "ゲーム上の誤り ─ 非公開カードに関する誤り"'
    section.write_text(section.read_text().replace(title, title[:-1] + '(再読込)"', 1))
    assert "(再読込)" in section.read_text()
    loaded = time.monotonic()
    manage(env, "loadcontent", str(content), "--discard-edits")  # the module's translators edited

    if time.monotonic() - loaded < int(env["EDGE_MAX_AGE"]) - 1:
        still = reader.fetch(varnish.port, page)
        assert still.edge in ("hit", "stale") and "(再読込)" not in still.text  # kept, as s-maxage allows
    while (after := reader.fetch(varnish.port, page)).text == original and time.monotonic() < loaded + bound + 0.5:
        time.sleep(0.05)  # until the change reaches the reader, within the bound
    assert "(再読込)" in after.text and after.text != original

    # The site down: the cache answers with what it holds, however stale, up to stale-if-error.
    cached = reader.fetch(varnish.port, page)
    assert cached.status == 200
    gunicorn.stop()
    time.sleep(bound + 1)  # past s-maxage and stale-while-revalidate: only stale-if-error serves it now
    down = reader.fetch(varnish.port, page)
    assert down.status == 200 and down.edge == "stale-if-error" and "(再読込)" in down.text
    assert reader.fetch(varnish.port, "/ja/ipg/4.1/").status == 503  # never cached: nothing to serve


# Nobody gets past the cache, nor empties it -----------------------------------------------------------------------


def backend_requests(varnish):
    return varnish.counters()["backend_req"]


@pytest.mark.parametrize(
    "extra",
    [
        pytest.param(f"x={secrets.token_hex(8)}", id="x=made-up"),  # a new one each time
        "fbclid=IwAR2x7QkVbT1Z",  # a link shared on Facebook
        "utm_source=chat&utm_medium=share&utm_campaign=ipg",  # a link with a campaign's tracking
    ],
)
def test_a_parameter_the_page_does_not_read_is_served_from_the_cache_and_never_reaches_the_site(site, extra):
    """The reviewer's attack: /ja/ipg/2.3/?langs=ja,zh-hans,en&x=<random> rendered a 0.9 s page every time. Now
    Varnish drops what the page does not read before it looks the page up: a hit, and no request to gunicorn."""
    port = site.unpurged.port
    page = "/ja/ipg/2.3/?langs=ja,zh-hans,en"
    reader = Reader("sharer", _ga="GA1.2.11.12")
    reader.fetch(port, page)
    cached = reader.fetch(port, page)
    assert cached.edge == "hit"
    before = backend_requests(site.unpurged)
    for url in [f"{page}&{extra}", f"/ja/ipg/2.3/?{extra}&langs=ja,zh-hans,en", f"{page}&{extra}&{extra}&&"]:
        shared = reader.fetch(port, url)
        assert (shared.status, shared.edge) == (200, "hit"), url
        assert shared.text == cached.text and shared.getheader("ETag") == cached.getheader("ETag")
    assert backend_requests(site.unpurged) == before


def test_the_order_of_a_pages_parameters_does_not_split_the_cache(site):
    port = site.unpurged.port
    reader = Reader("orderly")
    first = reader.fetch(port, "/en/ipg/2.3/?release=2024-09-23&langs=en,ja")
    assert first.status == 200 and first.edge in ("miss", "hit")
    before = backend_requests(site.unpurged)
    for url in [
        "/en/ipg/2.3/?langs=en,ja&release=2024-09-23",
        "/en/ipg/2.3/?x=1&langs=en,ja&utm_id=2&release=2024-09-23",
    ]:
        again = reader.fetch(port, url)
        assert (again.status, again.edge, again.text) == (200, "hit", first.text), url
    # A reading list keeps its paragraphs in the order the URL names them: a different list, not a different order.
    listed = reader.fetch(port, "/en/list/?p=2.3:example-c&p=2.4:definition-1")
    reordered = reader.fetch(port, "/en/list/?p=2.4:definition-1&p=2.3:example-c")
    assert listed.text.index("example-c") < listed.text.index("definition-1")
    assert reordered.text.index("definition-1") < reordered.text.index("example-c")
    assert backend_requests(site.unpurged) - before <= 2  # the two lists, at most once each


@pytest.mark.parametrize("length", [4_001, 12_000, 20_000])
def test_a_url_too_long_for_any_page_is_414_at_the_edge(site, length):
    """Over MAX_URL_LENGTH (4,000), before any regex of the VCL reads it: it was a "503 VCL failed" over 12 KB."""
    for path in ["/ja/ipg/2.3/?langs=ja,zh-hans,en&x=", "/manifest.webmanifest?x=", "/offline/pages.json?"]:
        url = path + "a&" * ((length - len(path)) // 2) + "a" * ((length - len(path)) % 2)
        assert len(url) == length
        response = Reader("long").fetch(site.unpurged.port, url)
        assert (response.status, response.edge) == (414, "synth"), path
        assert "at most 4000 characters" in response.text


def test_a_url_just_short_enough_with_thousands_of_parameters_is_answered(site):
    before = backend_requests(site.unpurged)
    for path in ["/manifest.webmanifest?lang=ja&", "/offline/pages.json?lang=ja&langs=en,ja&", "/en/ipg/2.3/?"]:
        url = path + "a&" * ((3_990 - len(path)) // 2)
        response = Reader("many").fetch(site.unpurged.port, url)
        assert response.status == 200 and response.edge in ("hit", "miss"), path
    assert backend_requests(site.unpurged) - before <= 3


def test_django_itself_answers_a_url_too_long_with_414(site):
    """Straight to gunicorn (which refuses a request line over 4094 bytes itself): Django's own 414, not a 500."""
    url = "/ja/ipg/2.3/?langs=ja,zh-hans,en&x=" + "a" * 4_010
    response = Reader("long").fetch(site.gunicorn.port, url)
    assert response.status == 414 and "4000" in response.text


@pytest.fixture
def own_cache(site, tmp_path):
    """A Varnish of its own in front of the site, so that a purge here empties no other test's cache."""
    varnish = Varnish(site.env, f"127.0.0.1:{site.gunicorn.port}", tmp_path / "own")
    try:
        yield varnish
    finally:
        varnish.stop()


def ban(varnish, **headers):
    return request(varnish.port, "BAN", "/", {"Host": HOST, "Surrogate-Key": "ipg-content", **headers})


def test_a_purge_through_the_tls_proxy_is_refused_and_the_sites_token_is_accepted(site, own_cache):
    """127.0.0.1 is a TLS proxy's address here (EDGE_TLS_PROXIES' default): what comes from there may be any
    reader's. `BAN /` without the token, or with another, empties nothing; with EDGE_PURGE_TOKEN it does."""
    reader = Reader("reader")
    reader.fetch(own_cache.port, COMPARE)
    assert reader.fetch(own_cache.port, COMPARE).edge == "hit"
    for headers in ({}, {**TLS_PROXY_HEADERS}, {"X-Purge-Token": "guess"}, {"X-Purge-Token": PURGE_TOKEN[:-1]}):
        refused = ban(own_cache, **headers)
        assert refused.status == 403 and refused.body == b"Not allowed to purge", headers
    assert "ipg-content" not in own_cache.admin("ban.list")
    assert reader.fetch(own_cache.port, COMPARE).edge == "hit"

    accepted = ban(own_cache, **{"X-Purge-Token": PURGE_TOKEN})
    assert accepted.status == 200 and "ipg-content" in own_cache.admin("ban.list")
    assert reader.fetch(own_cache.port, COMPARE).edge == "miss"
