"""Production fails closed: with DEBUG off, ipgsite/settings.py needs a SECRET_KEY of its own, or nothing starts.

The commands run in a subprocess with only the variables given here, as a deployment's shell has them.
"""

import os
import re
import runpy
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
YEAR = 365 * 24 * 3600


def run(command, **variables):
    env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/"), **variables}
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=False)


MANAGE_CHECK = [sys.executable, "manage.py", "check"]
IMPORT_WSGI = [sys.executable, "-c", "import ipgsite.wsgi"]
GUNICORN = [
    str(Path(sys.executable).parent / "gunicorn"),
    "-c",
    "ipgsite/gunicorn.conf.py",
    "--bind",
    "127.0.0.1:0",
    "ipgsite.wsgi",
]
WITHOUT_A_KEY = [
    {},
    {"DEBUG": "0"},
    {"DEBUG": "off", "SECRET_KEY": ""},
    {"SECRET_KEY": "insecure-development-key-never-use-in-production"},
]


@pytest.mark.parametrize("command", [MANAGE_CHECK, IMPORT_WSGI, GUNICORN], ids=["manage.py", "wsgi", "gunicorn"])
@pytest.mark.parametrize("variables", WITHOUT_A_KEY)
def test_a_deployment_without_a_secret_key_refuses_to_start(command, variables):
    result = run(command, **variables)
    assert result.returncode != 0
    assert "Refusing to start" in result.stderr and "SECRET_KEY" in result.stderr
    assert "Traceback" not in result.stderr, result.stderr


@pytest.mark.parametrize("command", [MANAGE_CHECK, IMPORT_WSGI, GUNICORN], ids=["manage.py", "wsgi", "gunicorn"])
def test_a_deployment_with_a_short_secret_key_refuses_to_start(command):
    result = run(command, SECRET_KEY="x" * 49)
    assert result.returncode != 0
    assert "Refusing to start" in result.stderr and "SECRET_KEY has 49 characters" in result.stderr
    assert "Traceback" not in result.stderr, result.stderr


def test_a_short_secret_key_is_refused_and_fifty_characters_are_enough(read_settings):
    from django.core.exceptions import ImproperlyConfigured

    with pytest.raises(ImproperlyConfigured, match="at least 50"):
        read_settings(SECRET_KEY="k" * 49)
    fifty = secrets.token_urlsafe(50)[:50]
    assert read_settings(SECRET_KEY=fifty)["SECRET_KEY"] == fifty
    assert read_settings(DEBUG="1", SECRET_KEY="short")["SECRET_KEY"] == "short"  # development


WEAK_KEYS = [
    (" " * 60, "SECRET_KEY has 1 different characters"),
    ("a" * 50, "SECRET_KEY has 1 different characters"),
    ("abcd" * 20, "SECRET_KEY has 4 different characters"),
    ("django-insecure-" + secrets.token_urlsafe(50), "SECRET_KEY starts with 'django-insecure-'"),
]


@pytest.mark.parametrize("key,said", WEAK_KEYS, ids=["spaces", "one letter", "four letters", "django-insecure"])
def test_a_key_check_deploy_calls_weak_is_refused_with_why(read_settings, key, said):
    """What Django's own check --deploy calls weak (security.W009: fewer than 50 characters, fewer than 5 different
    ones, or startproject's development prefix) does not start at all."""
    from django.core.exceptions import ImproperlyConfigured

    with pytest.raises(ImproperlyConfigured, match=re.escape(said)) as refused:
        read_settings(SECRET_KEY=key)
    assert "secrets.token_urlsafe(50)" in str(refused.value)
    assert read_settings(DEBUG="1", SECRET_KEY=key)["SECRET_KEY"] == key  # development


def test_the_keys_check_deploy_calls_weak_are_exactly_those_refused(read_settings):
    """Django's own test of a key (its security check), run on each: none the settings accept fails it."""
    from django.core.checks.security.base import _check_secret_key

    for key, _said in WEAK_KEYS:
        assert not _check_secret_key(key)
    good = secrets.token_urlsafe(50)
    assert _check_secret_key(good) and read_settings(SECRET_KEY=good)["SECRET_KEY"] == good
    five = "abcde" * 10  # the near miss: five different characters, fifty in all, is what Django lets pass
    assert _check_secret_key(five) and read_settings(SECRET_KEY=five)["SECRET_KEY"] == five


@pytest.mark.parametrize("command", [MANAGE_CHECK, GUNICORN], ids=["manage.py", "gunicorn"])
def test_a_deployment_with_a_weak_key_refuses_to_start_and_says_why(command):
    result = run(command, SECRET_KEY="a" * 60)
    assert result.returncode != 0
    assert "Refusing to start" in result.stderr and "SECRET_KEY has 1 different characters" in result.stderr
    assert "Traceback" not in result.stderr, result.stderr


@pytest.mark.parametrize("command", [MANAGE_CHECK, IMPORT_WSGI], ids=["manage.py", "wsgi"])
def test_development_needs_no_secret_key(command):
    result = run(command, DEBUG="1")
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("command", [MANAGE_CHECK, IMPORT_WSGI], ids=["manage.py", "wsgi"])
def test_a_deployment_with_its_key_starts(command):
    result = run(command, SECRET_KEY=secrets.token_urlsafe(50))
    assert result.returncode == 0, result.stderr


@pytest.fixture
def read_settings(monkeypatch):
    def read(**variables):
        for name in ("DEBUG", "HTTPS", "SECRET_KEY"):
            monkeypatch.delenv(name, raising=False)
        for name, value in variables.items():
            monkeypatch.setenv(name, value)
        return runpy.run_path(str(ROOT / "ipgsite" / "settings.py"))

    return read


def test_a_deployment_is_https_only_with_secure_cookies(read_settings):
    key = secrets.token_urlsafe(50)
    deployed = read_settings(SECRET_KEY=key)
    assert deployed["SECRET_KEY"] == key
    assert deployed["DEBUG"] is False and deployed["HTTPS"] is True
    assert deployed["SECURE_SSL_REDIRECT"] is True
    assert deployed["SECURE_HSTS_SECONDS"] >= YEAR
    assert deployed["SESSION_COOKIE_SECURE"] and deployed["CSRF_COOKIE_SECURE"] and deployed["LANGUAGE_COOKIE_SECURE"]


def test_development_is_plain_http(read_settings):
    development = read_settings(DEBUG="1")
    assert development["HTTPS"] is False and development["SECURE_SSL_REDIRECT"] is False
    assert development["SECURE_HSTS_SECONDS"] == 0
    assert not development["SESSION_COOKIE_SECURE"] and not development["LANGUAGE_COOKIE_SECURE"]


def test_the_tests_run_as_development_with_debug_off():
    from django.conf import settings

    assert settings.DEBUG is False
    assert settings.HTTPS is False
    assert settings.SECRET_KEY == "insecure-development-key-never-use-in-production"
