"""gunicorn, configured from the environment: `gunicorn -c ipgsite/gunicorn.conf.py ipgsite.wsgi`.

GUNICORN_BIND     address to listen on (default 127.0.0.1:8000; a TLS proxy sits in front)
WEB_CONCURRENCY   worker processes (default: one per core, and one more)
GUNICORN_THREADS  threads per worker (default 1: pages are CPU-bound, and cached ones are quick)
FORWARDED_ALLOW_IPS  proxies whose X-Forwarded-Proto is believed (default 127.0.0.1,::1), shared with Django
GUNICORN_ACCESS_LOG  "-" for stdout; no access log by default
"""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
# Cached pages make the work CPU-bound: more workers than cores would only take turns.
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() + 1))
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
worker_class = "gthread" if threads > 1 else "sync"
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None

# Import Django once in the master; workers fork from it.
preload_app = True
timeout = 30
graceful_timeout = 20
keepalive = 5
# Recycle workers now and then, so that a slow leak never grows.
max_requests = 20000
max_requests_jitter = 2000
