"""The content version: one token, kept in the shared cache, that changes whenever the content does.

Every cached page and every ETag is tied to it, so bumping it invalidates them all at once, in every
process that shares the cache (Redis in production; local memory serves a single process). With Redis, each
process keeps the tokens it read until a notice says they changed (notices.py): no round trip per request.
"""

import time

from django.core.cache import cache
from django.db import connection, transaction

from . import notices, purges

KEY = "content-version"
# Pages of a published release (its changes page, a section as it froze it) are kept under a token of their own,
# which content edits leave alone: a release never changes. It changes when a release is published, loaded, edited
# or deleted, and on every migrate.
RELEASES_KEY = "releases-version"
KEYS = {"content": KEY, "releases": RELEASES_KEY}


def content_version(key=KEY):
    """The current token: nanoseconds since the epoch at the last change (or at the first request after a flush)."""
    version = cache.get(key)
    if version is None:
        if cache.add(key, time.time_ns(), timeout=None):
            notices.announce()  # the cache had lost it: a process still using an older one hears of the new
        version = cache.get(key)
    return version


def read_once_per_version(read, key=KEY):
    """`read` as a function whose answer this process keeps until the version (content, or releases with
    RELEASES_KEY) changes: the same for every request till then. Inside a transaction, whose rows may yet be rolled
    back while the version stays, it reads again each time."""
    kept = {}

    def current():
        version = content_version(key)
        if version in kept:
            return kept[version]
        value = read()
        if not connection.in_atomic_block:
            kept.clear()
            kept[version] = value
        return value

    return current


def current_versions():
    """{scope: token} of both scopes ("content", "releases"): as this process last read them while no notice says
    they changed (with Redis), else read in one round trip."""
    return notices.kept.get(_read_versions)


def _read_versions():
    found = cache.get_many(list(KEYS.values()))
    return {scope: found.get(key) or content_version(key) for scope, key in KEYS.items()}


def modified_at(version):
    """The time of the change a version token stands for, in seconds, for Last-Modified."""
    return version // 1_000_000_000


def bump(key=KEY):
    cache.set(key, time.time_ns(), timeout=None)
    notices.announce()


def content_changed(using=None):
    """Call after changing what public pages show by means that send no signal (QuerySet.update, raw SQL).

    The version changes at once, so this transaction's own next read sees the change, and again when the
    transaction commits, so a page another process rendered from the old rows in between is not kept.
    """
    bump()
    transaction.on_commit(_content_committed, using=using)


def _content_committed():
    bump()
    purges.purge("content")  # the shared caches in front of the site, if settings name them


def releases_changed(using=None):
    """Call after publishing, loading, editing or deleting a release: its pages, kept whatever the content does,
    are rendered again. Like content_changed, at once and at commit."""
    bump(RELEASES_KEY)
    transaction.on_commit(_releases_committed, using=using)


def _releases_committed():
    bump(RELEASES_KEY)
    purges.purge("releases")


def follow(batch):
    """Every batch of writes (an after-write step) makes cached pages and ETags stale; one that published or loaded
    a release, that release's pages too."""
    content_changed()
    if batch.releases_changed:
        releases_changed()
