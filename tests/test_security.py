"""Safe to expose: the production settings' headers, secure cookies, the admin login rate limit, check --deploy.

The header tests read ipgsite/settings.py as a deployment does, with production environment variables,
and send real requests through Django's test client over HTTPS (as the TLS proxy in front of gunicorn).
"""

import os
import re
import runpy
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.utils.module_loading import import_string
from whitenoise.storage import CompressedManifestStaticFilesStorage

ROOT = Path(__file__).resolve().parent.parent
LOGIN = "/admin/login/"
PAGES = ["/en/", "/ja/ipg/2.3/", "/en/ipg/2.3/?langs=en,zh-hans,ja", LOGIN]


def production_environment():
    return {
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": "ipg.example.org,testserver",
        "DATABASE_URL": "postgres://ipg@db.example.org:5432/ipg",
        "CACHE_URL": "redis://127.0.0.1:6379/0?key_prefix=ipg",
    }


@pytest.fixture
def production(settings, monkeypatch):
    """The security settings a deployment gets from ipgsite/settings.py, applied to this test's Django."""
    monkeypatch.delenv("DEBUG", raising=False)
    monkeypatch.delenv("HTTPS", raising=False)
    for name, value in production_environment().items():
        monkeypatch.setenv(name, value)
    values = runpy.run_path(str(ROOT / "ipgsite" / "settings.py"))
    assert values["DEPLOYED"] and values["HTTPS"]
    for name, value in values.items():
        if name == "HTTPS" or name.startswith(
            ("SECURE_", "SESSION_COOKIE_", "CSRF_COOKIE_", "LANGUAGE_COOKIE_", "X_FRAME_", "CONTENT_SECURITY_")
        ):
            setattr(settings, name, value)
    return values


def https_get(client, url, **headers):
    response = client.get(url, secure=True, **headers)
    assert response.status_code == 200, url
    return response


def csp_directives(response):
    policy = response["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.strip()}


def test_production_settings_come_from_the_environment(production):
    assert production["DEBUG"] is False
    assert production["ALLOWED_HOSTS"] == ["ipg.example.org", "testserver"]
    assert production["DATABASES"]["default"]["ENGINE"] == "django.db.backends.postgresql"
    assert production["DATABASES"]["default"]["HOST"] == "db.example.org"
    cache = production["CACHES"]["default"]
    assert cache["BACKEND"] == "django_redis.cache.RedisCache"
    assert cache["KEY_PREFIX"] == "ipg"
    # Hashed names and compressed copies, as whitenoise serves them for a year; the site's own files minified first.
    storage = import_string(production["STORAGES"]["staticfiles"]["BACKEND"])
    assert issubclass(storage, CompressedManifestStaticFilesStorage)


@pytest.mark.parametrize("url", PAGES)
def test_content_security_policy_allows_no_inline_script_or_style(client, ipg, production, url):
    directives = csp_directives(https_get(client, url))
    assert directives["default-src"] == ["'self'"]
    assert directives["script-src"] == ["'self'"]
    assert directives["style-src"] == ["'self'"]
    assert directives["object-src"] == ["'none'"]
    assert "upgrade-insecure-requests" in directives
    assert "'unsafe-inline'" not in https_get(client, url)["Content-Security-Policy"]


@pytest.mark.parametrize("url", PAGES)
def test_strict_transport_security(client, ipg, production, url):
    hsts = https_get(client, url)["Strict-Transport-Security"]
    max_age = int(re.search(r"max-age=(\d+)", hsts).group(1))
    assert max_age >= 365 * 24 * 3600
    assert "includeSubDomains" in hsts and "preload" in hsts


def test_plain_http_is_redirected_to_https(client, ipg, production):
    response = client.get("/en/ipg/2.3/")
    assert response.status_code == 301
    assert response["Location"] == "https://testserver/en/ipg/2.3/"


@pytest.mark.parametrize("url", PAGES + ["/static/offline/offline.js", "/api/ipg/2.3/"])
def test_nosniff(client, ipg, production, url):
    assert https_get(client, url)["X-Content-Type-Options"] == "nosniff"


@pytest.mark.parametrize("url", PAGES)
def test_referrer_policy(client, ipg, production, url):
    assert https_get(client, url)["Referrer-Policy"] == "same-origin"


@pytest.mark.parametrize("url", PAGES)
def test_no_framing(client, ipg, production, url):
    response = https_get(client, url)
    assert response["X-Frame-Options"] == "DENY"
    assert csp_directives(response)["frame-ancestors"] == ["'none'"]


def test_cookies_are_https_only(client, ipg, production):
    get_user_model().objects.create_user("editor", password="correct horse battery", is_staff=True)
    form = https_get(client, LOGIN)
    assert form.cookies["csrftoken"]["secure"]
    response = client.post(LOGIN, {"username": "editor", "password": "correct horse battery"}, secure=True)
    assert response.status_code == 302
    session = response.cookies["sessionid"]
    assert session["secure"] and session["httponly"]


def test_the_compare_choice_is_https_only(client, ipg, production):
    # As the compare form submits it: one `langs` per column.
    compared = client.get("/en/ipg/2.3/", {"langs": ["en", "ja", ""]}, secure=True)
    assert compared["Location"] == "/en/ipg/2.3/?langs=en,ja"
    assert compared.cookies["ipg_langs"].value == "en,ja"
    assert compared.cookies["ipg_langs"]["secure"]
    remembered = client.get("/en/ipg/2.4/", secure=True)
    assert remembered["Location"] == "/en/ipg/2.4/?langs=en,ja"

    forgotten = client.get("/en/ipg/2.3/", {"langs": ["en", "", ""]}, secure=True)
    assert forgotten.cookies["ipg_langs"].value == "" and forgotten.cookies["ipg_langs"]["max-age"] == 0


def test_the_interface_language_is_https_only(client, ipg, production):
    switched = client.get("/lang/ja/", {"next": "/en/ipg/2.3/"}, secure=True)
    assert switched.status_code == 302
    assert switched.cookies["django_language"].value == "ja"
    assert switched.cookies["django_language"]["secure"]
    assert client.get("/ipg/2.4/", secure=True)["Location"] == "/ja/ipg/2.4/"


def test_on_plain_http_development_the_readers_cookies_still_work(client, ipg, settings):
    assert settings.HTTPS is False
    compared = client.get("/en/ipg/2.3/", {"langs": ["zh-hans", "ja", ""]})
    assert compared.cookies["ipg_langs"].value == "zh-hans,ja" and not compared.cookies["ipg_langs"]["secure"]
    assert client.get("/en/ipg/2.4/")["Location"] == "/en/ipg/2.4/?langs=zh-hans,ja"
    switched = client.get("/lang/zh-hans/", {"next": "/en/ipg/2.3/"})
    assert switched.cookies["django_language"].value == "zh-hans" and not switched.cookies["django_language"]["secure"]
    assert client.get("/ipg/2.4/")["Location"] == "/zh-hans/ipg/2.4/"


@pytest.mark.parametrize(
    "url",
    [
        "/en/",
        "/ja/ipg/2.3/",
        "/en/ipg/2.3/?langs=en,zh-hans,ja",
        "/ja/penalties/",
        "/ja/ipg/2.3/example-c/",
        "/en/list/?p=2.3:example-c&p=9.9:x&langs=en,ja",
        "/zh-hans/quiz/",
        "/en/quiz/?seed=1&a=2.3",
        "/en/quiz/?seed=x",
    ],
)
def test_pages_carry_no_inline_script_or_style(client, ipg, url):
    """What the policy would block: the pages must not need it."""
    html = client.get(url).content.decode()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)
    assert not re.search(r"<style\b", html)
    assert not re.search(r"""\sstyle=["']""", html)
    assert not re.search(r"""\son[a-z]+=["']""", html)


def test_admin_logins_are_rate_limited(client, ipg, settings):
    users = get_user_model().objects
    users.create_user("translator", password="the right passphrase", is_staff=True)
    users.create_user("reviewer", password="another passphrase", is_staff=True)
    limit = settings.AXES_FAILURE_LIMIT

    for attempt in range(1, limit):
        response = client.post(LOGIN, {"username": "translator", "password": f"guess {attempt}"})
        assert response.status_code == 200  # the form again, with its error
    locked = client.post(LOGIN, {"username": "translator", "password": f"guess {limit}"})
    assert locked.status_code == 429
    assert "Too many failed logins" in locked.content.decode()

    # Locked out means refused even with the right password ...
    refused = client.post(LOGIN, {"username": "translator", "password": "the right passphrase"})
    assert refused.status_code == 429
    assert "_auth_user_id" not in client.session
    # ... for that username only: someone else at the same address still logs in.
    assert client.post(LOGIN, {"username": "reviewer", "password": "another passphrase"}).status_code == 302


def test_a_forged_forwarded_for_does_not_escape_the_limit(client, ipg, settings):
    """Only the proxies in FORWARDED_ALLOW_IPS say who the client is; anyone else's X-Forwarded-For is ignored."""
    settings.FORWARDED_ALLOW_IPS = ["10.0.0.2"]
    get_user_model().objects.create_user("translator", password="the right passphrase", is_staff=True)
    statuses = [
        client.post(
            LOGIN, {"username": "translator", "password": "guess"}, HTTP_X_FORWARDED_FOR=f"198.51.100.{n}"
        ).status_code
        for n in range(settings.AXES_FAILURE_LIMIT)
    ]
    assert statuses[-1] == 429
    behind_proxy = client.post(
        LOGIN,
        {"username": "translator", "password": "the right passphrase"},
        REMOTE_ADDR="10.0.0.2",
        HTTP_X_FORWARDED_FOR="198.51.100.200",
    )
    assert behind_proxy.status_code == 302  # a different reader, as the trusted proxy says


def test_check_deploy_reports_nothing():
    env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/"), **production_environment()}
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_chromium_reports_no_policy_violation(live_ipg, new_page):
    """The policy above is live in tests too: a page that needed an inline script or style would say so here."""
    page = new_page()
    violations = []
    page.on("console", lambda message: "Content Security Policy" in message.text and violations.append(message.text))
    study = ["/ja/ipg/2.3/example-c/", "/en/list/?p=2.3:example-c&langs=en,ja", "/en/quiz/?seed=1&a=2.3"]
    for url in ["/en/", "/ja/ipg/2.3/?langs=en,zh-hans,ja", "/zh-hans/ipg/2.4/", "/en/penalties/", LOGIN, *study]:
        response = page.goto(live_ipg.url + url)
        assert "'unsafe-inline'" not in response.headers["content-security-policy"]
        page.wait_for_load_state("networkidle")
    assert violations == []


@pytest.mark.parametrize(
    "url",
    [
        "/en/ipg/2.3/?langs=en,ja&x=" + "a" * 5_000,
        "/en/list/?" + "p=2.3:example-c&" * 400,
        "/en/search/?q=" + "%E3%81%82" * 600,
        "/admin/login/?next=/" + "a" * 20_000,  # was a redirect too long to make (400)
        "/oembed/?url=http://testserver/en/ipg/2.3/example-c/&maxwidth=" + "9" * 5_000,
        "/en/" + "a" * 100_000 + "/",
    ],
)
def test_an_address_too_long_for_any_page_is_a_clear_414(client, ipg, url):
    response = client.get(url)
    assert response.status_code == 414
    assert response.content.decode().endswith("the site reads addresses of at most 4000 characters.")
    assert response["Cache-Control"] == "no-store"


def test_the_414_is_in_the_language_of_the_address_and_4000_characters_are_read(client, ipg):
    response = client.get("/ja/ipg/2.3/?x=" + "a" * 5_000)
    assert response.status_code == 414 and "4000文字まで" in response.content.decode()
    # The near miss: at the bound, the page itself (its own parameters only: ipgsite/caching/queries.py).
    url = "/ja/ipg/2.3/?x="
    assert client.get(url + "a" * (4_000 - len(url))).status_code == 200
