"""gunicorn, configured from the environment: `gunicorn -c ipgsite/gunicorn.conf.py ipgsite.wsgi`.

GUNICORN_BIND     address to listen on (default 127.0.0.1:8000; a TLS proxy sits in front)
WEB_CONCURRENCY   worker processes (default: one per core, and one more)
GUNICORN_THREADS  threads per worker (default 1: pages are CPU-bound, and cached ones are quick)
FORWARDED_ALLOW_IPS  proxies whose X-Forwarded-Proto and -For are believed: addresses and networks (default
                     127.0.0.1,::1), read by ipgsite/proxies.py for gunicorn and Django alike. A unix socket's
                     peer is always believed: the proxy on it must append the client to X-Forwarded-For.
GUNICORN_ACCESS_LOG  "-" for stdout; no access log by default
GUNICORN_MAX_REQUESTS  requests after which a worker is replaced (default 100000, each worker a random number of up to
                       half as many more, so that they are not replaced together); 0: never
"""

import multiprocessing
import os
import sys
from pathlib import Path

# The project, importable before gunicorn adds its working directory to the path.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ipgsite import proxies  # noqa: E402

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
# Cached pages make the work CPU-bound: more workers than cores would only take turns.
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() + 1))
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
worker_class = "gthread" if threads > 1 else "sync"
try:
    trusted_proxies = proxies.trusted_proxies(os.environ.get(proxies.VARIABLE, proxies.DEFAULT))
    proxies.check_binding([bind], trusted_proxies)
except proxies.Ambiguous as error:
    sys.exit(f"Refusing to start: {error}")
forwarded_allow_ips = ",".join(trusted_proxies)
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None

# Import Django once in the master, and warm it there (ipgsite.wsgi.warm, in on_starting): workers fork from it ready,
# so that a worker's first request, at start or after a replacement, is as quick as any other.
preload_app = True
warm_workers = True  # not a gunicorn setting: read by the hooks below (bench/load_bench.py measures without it)
timeout = 30
graceful_timeout = 20
keepalive = 5
# Replace a worker now and then, so that a slow leak could never grow. Nothing is known to leak (every cache a worker
# keeps is bounded), and a replacement forks warm from the master: this is a safety net, rare and spread out. With
# 50% jitter the workers' turns fall at random over a range half the period wide, so they do not line up.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "100000"))
max_requests_jitter = max_requests // 2


def on_starting(server):
    """What gunicorn will use, after the command line: the same trusted proxies as Django, and a bind they fit; then
    the site warmed in the master, before it forks the workers."""
    from django.conf import settings

    trusted = server.cfg.forwarded_allow_ips
    try:
        if sorted(trusted) != sorted(settings.FORWARDED_ALLOW_IPS):
            raise proxies.Ambiguous(
                f"gunicorn trusts {','.join(trusted) or 'no proxy'} but Django {proxies.VARIABLE}="
                f"{','.join(settings.FORWARDED_ALLOW_IPS)}: set {proxies.VARIABLE} alone, not --forwarded-allow-ips."
            )
        proxies.check_binding(server.cfg.bind, trusted)
    except proxies.Ambiguous as error:
        sys.exit(f"Refusing to start: {error}")
    if server.cfg.preload_app and warm_workers:
        from ipgsite.wsgi import warm

        warm()


def post_worker_init(worker):
    """Before a worker takes its first request: its own connection to the cache, and a rehearsal; without
    preload_app (`--no-preload`) it warms itself first."""
    if not warm_workers:
        return
    from ipgsite.wsgi import connect, warm

    if not worker.cfg.preload_app:
        warm()
    connect()
    rehearse(worker)


def rehearse(worker, times=3):
    """Answer a reader's request for the outline a few times through the worker's own request handling, on a socket
    pair, before it takes any. A forked worker shares the master's memory until it writes to it, and the first
    request it answers writes some 2 MB of it (gunicorn's parsing, Django's handler, the page cache: reference counts
    and allocations), which made that request cost 3 times the next one in CPU time; now the rehearsal pays it."""
    import socket

    from gunicorn.workers.sync import SyncWorker

    from ipgsite.wsgi import allowed_host

    if not isinstance(worker, SyncWorker) or not worker.sockets:
        return
    from django.conf import settings

    request = (
        f"GET /{settings.LANGUAGE_CODE}/ HTTP/1.1\r\nHost: {allowed_host()}\r\nX-Forwarded-Proto: https\r\n"
        "Accept-Encoding: br, gzip\r\nConnection: close\r\n\r\n"
    ).encode()
    for _ in range(times):
        ours, theirs = socket.socketpair()  # a peer on a unix socket is a trusted proxy: its https is believed
        try:
            theirs.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
            theirs.sendall(request)
            theirs.shutdown(socket.SHUT_WR)  # as a client that closes: gunicorn's lingering close ends at once
            worker.handle(worker.sockets[0], ours, "")  # answers, then closes `ours`
            while theirs.recv(1 << 16):
                pass
        except Exception:
            worker.log.warning("The rehearsal before the first request failed", exc_info=True)
            return
        finally:
            ours.close()
            theirs.close()
