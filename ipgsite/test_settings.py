"""The test suite's settings (pytest-django, pyproject.toml): development settings without a SECRET_KEY,
read as `make serve` reads them (DEBUG=1), then with DEBUG off as in production.

The tests of a deployment read ipgsite/settings.py afresh with production variables (tests/test_settings.py).
"""

import os

_debug = os.environ.get("DEBUG")
os.environ["DEBUG"] = "1"
try:
    from ipgsite.settings import *  # noqa: F403
finally:
    if _debug is None:
        del os.environ["DEBUG"]
    else:
        os.environ["DEBUG"] = _debug

DEBUG = False
# The tests' cache is the process's own memory (or CACHE_URL), not development's cache in files (`make serve`).
CACHES = {"default": env.cache("CACHE_URL", default="locmemcache://")}  # noqa: F405
