"""The content version across processes sharing Redis: each keeps the version it read until a notice says it changed
(ipgsite/caching/notices.py), so a page from the cache costs no round trip, and a change made by any process is
still seen on the very next request everywhere. The other process here is a real one (a subprocess with the same
Redis and key prefix)."""

import os
import re
import secrets
import socket
import subprocess
import sys

import pytest
from django.test import Client

from deployments import ROOT
from edits import write
from ipgsite.caching import notices, versions

pytestmark = pytest.mark.django_db


def redis_running():
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=1).close()
        return True
    except OSError:
        return False


@pytest.fixture
def redis_cache(settings):
    if not redis_running():
        pytest.skip("Redis is not running on 127.0.0.1:6379")
    import redis

    prefix = f"test-notices-{secrets.token_hex(4)}"
    url = f"redis://127.0.0.1:6379/0?key_prefix={prefix}"
    settings.CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": "redis://127.0.0.1:6379/0",
            "KEY_PREFIX": prefix,
        }
    }
    yield url
    notices.kept.close()
    client = redis.Redis.from_url("redis://127.0.0.1:6379/0")
    for key in client.scan_iter(f"{prefix}:*"):
        client.delete(key)


def another_process_changes_the_content(url):
    """What a load or an edit in another process does to the version, after its transaction commits."""
    script = "import django; django.setup(); from ipgsite.caching import versions; versions.bump(); " + (
        "print(versions.content_version())"
    )
    env = {**os.environ, "CACHE_URL": url, "DJANGO_SETTINGS_MODULE": "ipgsite.test_settings"}
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return int(done.stdout.split()[-1])


def test_a_change_in_another_process_is_seen_on_the_next_request(redis_cache):
    before = versions.current_versions()["content"]
    assert versions.current_versions()["content"] == before  # kept: no notice came
    changed = another_process_changes_the_content(redis_cache)
    assert changed != before
    assert versions.current_versions()["content"] == changed


def test_a_page_cached_before_a_change_elsewhere_is_not_served_after_it(client, ipg, redis_cache):
    client.get("/en/ipg/2.3/")
    assert client.get("/en/ipg/2.3/")["X-Cache"] == "hit"
    another_process_changes_the_content(redis_cache)
    assert Client().get("/en/ipg/2.3/")["X-Cache"] == "miss"


def test_this_process_sees_its_own_change_at_once(client, ipg, redis_cache):
    client.get("/en/ipg/2.3/")
    before = client.get("/en/ipg/2.3/")
    write("2.3", "example-c", "en", "A player draws four cards.")
    after = client.get("/en/ipg/2.3/")
    assert after["X-Cache"] == "miss" and after["ETag"] != before["ETag"]
    assert "A player draws four cards." in re.sub(r"<[^>]+>", "", after.content.decode())  # terms are marked


def test_a_lost_subscription_loses_no_change(redis_cache):
    """Redis drops the subscription's connection (a restart, a network cut) and a change is made before this process
    connects again: the notice never reaches it, yet it reads the new version on its next request."""
    import redis

    versions.current_versions()
    port = notices.kept.subscription.connection._sock.getsockname()[1]
    assert redis.Redis.from_url("redis://127.0.0.1:6379/0").client_kill(f"127.0.0.1:{port}")
    changed = another_process_changes_the_content(redis_cache)
    assert versions.current_versions()["content"] == changed
    assert versions.current_versions()["content"] == changed  # and listens again
    assert notices.kept.subscription is not None
