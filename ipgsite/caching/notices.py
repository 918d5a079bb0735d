"""The version tokens as this process last read them, kept until Redis gives notice that one changed.

Every request of a public page needs both tokens (versions.current_versions): read from Redis each time, that is a
round trip and most of the cost of a page served from the cache. With Redis (django-redis), every change of a token is
also published on a channel of the cache's own (`announce`), and each process subscribes to it: it keeps the tokens it
read, and reads them again only when a notice has come (looked for on each request, without waiting: a few
microseconds), when its subscription was lost or made again, or TRUST seconds after it read them, which bounds what
a change that sent no notice can cost (a process of an older release, a flushed cache). A change this process makes
forgets its own copy at once. A notice is published before the change's request answers, and Redis writes it to every
subscriber at once: the next request anywhere sees the change.

With other caches (local memory, files) the tokens are read on every request, as before.
"""

import logging
import os
import threading
import time

from django.core.cache import cache
from django.core.signals import setting_changed
from django.dispatch import receiver

logger = logging.getLogger(__name__)

CHANNEL = "versions-changed"
TRUST = 1.0  # seconds a copy is used without a notice
RETRY = 5.0  # seconds between attempts to subscribe when Redis refused


def _client():
    """The cache's Redis client, if the cache is django-redis; else None."""
    client = getattr(cache, "client", None)
    get_client = getattr(client, "get_client", None)
    return get_client(write=True) if get_client else None


def announce():
    """Tell every process that a token changed (after it changed in the cache)."""
    kept.forget()
    client = _client()
    if client is not None:
        try:
            client.publish(cache.make_key(CHANNEL), b"1")
        except Exception:  # the change itself is in the cache: others see it within TRUST seconds
            logger.warning("Could not announce a new content version", exc_info=True)


class Kept:
    """The tokens this process read last, and its subscription to the notices."""

    def __init__(self):
        self.lock = threading.RLock()  # a read may add a lost token, and announce it
        self.pid = None
        self.subscription = None
        self.connections = None  # the subscription's connections, counted (a reconnection may have lost notices)
        self.confirmed = 0  # their count when the subscription was last known whole
        self.tokens = None
        self.read_at = 0.0
        self.failed_at = None

    def forget(self):
        with self.lock:
            self.tokens = None

    def close(self):
        """Unsubscribe and forget (gunicorn's master before it forks: it serves no request, and would only gather
        notices; or the cache changed)."""
        with self.lock:
            if self.subscription is not None:
                self._drop()
            self.tokens, self.failed_at = None, None

    def get(self, read):
        """The tokens: this process's copy while no notice has come, else `read()` now (and kept)."""
        with self.lock:
            if not self._listening():
                return read()
            if self._heard() or self.tokens is None or time.monotonic() - self.read_at > TRUST:
                self.tokens = read()
                self.read_at = time.monotonic()
            return self.tokens

    def _listening(self):
        if self.pid != os.getpid():  # a new process (a forked worker): the master's subscription is not its own
            self.pid, self.subscription, self.tokens, self.failed_at = os.getpid(), None, None, None
        if self.subscription is not None:
            return True
        if self.failed_at is not None and time.monotonic() - self.failed_at < RETRY:
            return False
        client = _client()
        if client is None:
            return False
        try:
            subscription = client.pubsub()
            connections = Connections(subscription.on_connect)
            subscription.on_connect = connections.on_connect
            subscription.subscribe(cache.make_key(CHANNEL))
            confirmed = subscription.get_message(timeout=2.0)
            if not confirmed or confirmed["type"] != "subscribe":
                raise ConnectionError("no confirmation of the subscription")
        except Exception:
            logger.warning("Could not subscribe to the content version's notices", exc_info=True)
            self.failed_at = time.monotonic()
            return False
        self.subscription, self.connections, self.tokens, self.failed_at = subscription, connections, None, None
        self.confirmed = connections.count
        return True

    def _heard(self):
        """Whether a notice came (or may have been lost) since the tokens were read."""
        heard = False
        try:
            while self.subscription.get_message(timeout=0) is not None:
                heard = True  # a notice, or the confirmation of a subscription made again
        except Exception:
            logger.warning("Lost the subscription to the content version's notices", exc_info=True)
            self._drop()
            self.failed_at = None  # subscribe again on the next request
            return True
        if self.connections.count != self.confirmed:  # connected again: notices sent in between are lost
            self.confirmed = self.connections.count
            heard = True
        return heard

    def _drop(self):
        try:
            self.subscription.close()
        except Exception:
            pass
        self.subscription, self.tokens, self.failed_at = None, None, time.monotonic()


class Connections:
    """Counts the connections a subscription makes (redis-py keeps its callback as a weak bound method)."""

    def __init__(self, on_connect):
        self.count = 0
        self.subscribe_again = on_connect

    def on_connect(self, connection):
        self.count += 1
        return self.subscribe_again(connection)


kept = Kept()


@receiver(setting_changed)
def _another_cache(setting, **kwargs):
    if setting == "CACHES":
        kept.close()
