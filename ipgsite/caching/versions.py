"""The content version: one token, kept in the shared cache, that changes whenever the content does.

Every cached page and every ETag is tied to it, so bumping it invalidates them all at once, in every
process that shares the cache (Redis in production; local memory serves a single process).
"""

import time

from django.core.cache import cache
from django.db import transaction

KEY = "content-version"


def content_version():
    """The current token: nanoseconds since the epoch at the last change (or at the first request after a flush)."""
    version = cache.get(KEY)
    if version is None:
        cache.add(KEY, time.time_ns(), timeout=None)
        version = cache.get(KEY)
    return version


def modified_at(version):
    """The time of the change a version token stands for, in seconds, for Last-Modified."""
    return version // 1_000_000_000


def bump():
    cache.set(KEY, time.time_ns(), timeout=None)


def content_changed(using=None):
    """Call after changing what public pages show by means that send no signal (QuerySet.update, raw SQL).

    The version changes at once, so this transaction's own next read sees the change, and again when the
    transaction commits, so a page another process rendered from the old rows in between is not kept.
    """
    bump()
    transaction.on_commit(bump, using=using)


def follow(batch):
    """Every write of content (ipgsite.derived) makes cached pages and ETags stale."""
    content_changed()
