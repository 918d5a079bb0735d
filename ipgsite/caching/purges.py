"""Purges: after a change of the content has committed, the shared caches in front of the site
(settings.EDGE_PURGE_URLS) drop every page of its scope at once, instead of keeping them until their s-maxage runs out.

Each cache is sent `BAN <url>` with `Surrogate-Key: ipg-content` (or `ipg-releases`), the key every page of that
scope carries (ipgsite/caching/edge.py), and `X-Purge-Token` when settings.EDGE_PURGE_TOKEN is set; the VCL of
`manage.py varnishvcl` bans the objects that carry the key, for a purge with the token (or from EDGE_PURGERS). The
requests go out from a thread of their own, after the commit, with a short timeout: a cache that is down or slow
delays no write and fails none, it is only logged. Each purge is sent twice, the second time
settings.EDGE_PURGE_AGAIN_AFTER seconds later, for a page another process was sending to the cache while the change
committed. Without EDGE_PURGE_URLS nothing is sent, and pages reach the caches again within their s-maxage and
stale-while-revalidate.
"""

import http.client
import logging
import threading
import time
from urllib.parse import urlsplit

from django.conf import settings

logger = logging.getLogger(__name__)

KEYS = {"content": "ipg-content", "releases": "ipg-releases"}
# The header that carries settings.EDGE_PURGE_TOKEN, which the VCL asks of every purge when it is set.
TOKEN_HEADER = "X-Purge-Token"

_lock = threading.Lock()
_pending = set()
_sender = None
# How often the sender looks for purges to send: those asked for by one commit go out together.
_TICK = 0.05


def purge(*scopes):
    """Purge the pages of `scopes` ("content", "releases") from every cache in EDGE_PURGE_URLS, soon, in the
    background. Call it once the change has committed (transaction.on_commit)."""
    global _sender
    if not settings.EDGE_PURGE_URLS:
        return
    with _lock:
        _pending.update(scopes)
        if _sender is None:
            # Not a daemon: `loadcontent` waits for its purges before it exits.
            _sender = threading.Thread(target=_send_pending, name="edge-purges")
            _sender.start()


def _send_pending():
    global _sender
    again = {}  # keys: when to send them once more
    while True:
        time.sleep(_TICK)
        with _lock:
            scopes = sorted(_pending)
            _pending.clear()
            if not scopes and not again:
                _sender = None
                return
        now = time.monotonic()
        if scopes:
            keys = " ".join(KEYS[scope] for scope in scopes)
            send(keys)
            again[keys] = now + settings.EDGE_PURGE_AGAIN_AFTER
        for keys in [keys for keys, when in again.items() if when <= now]:
            send(keys)
            del again[keys]


def send(keys):
    """One BAN of `keys` to each cache; True for each that accepted it."""
    accepted = []
    for url in settings.EDGE_PURGE_URLS:
        accepted.append(_ban(url, keys))
    return accepted


def _ban(url, keys):
    parts = urlsplit(url)
    connection_class = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    try:
        connection = connection_class(parts.hostname, parts.port, timeout=settings.EDGE_PURGE_TIMEOUT)
        try:
            headers = {"Surrogate-Key": keys}
            if settings.EDGE_PURGE_TOKEN:
                headers[TOKEN_HEADER] = settings.EDGE_PURGE_TOKEN
            connection.request("BAN", parts.path or "/", headers=headers)
            response = connection.getresponse()
            response.read()
        finally:
            connection.close()
    except (OSError, http.client.HTTPException) as error:
        logger.warning("The cache at %s was not purged of %s: %s", url, keys, error)
        return False
    if response.status != 200:
        logger.warning("The cache at %s refused to purge %s: HTTP %s", url, keys, response.status)
        return False
    return True
