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
if CACHES["default"]["BACKEND"].endswith("LocMemCache"):  # room for every page of content/ (the offline copy: 188)
    CACHES["default"].setdefault("OPTIONS", {})["MAX_ENTRIES"] = 5_000

# Under pytest-xdist (`make test`), each worker draws link pictures in a directory of its own.
if os.environ.get("PYTEST_XDIST_WORKER"):
    PREVIEW_IMAGE_DIR = PREVIEW_IMAGE_DIR / os.environ["PYTEST_XDIST_WORKER"]  # noqa: F405
