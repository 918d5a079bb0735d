import gc
import io
import logging
import os
import sys
import time

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "ipgsite.settings")

try:
    settings.INSTALLED_APPS  # noqa: B018 — a deployment missing what it needs stops here, saying what (ipgsite/settings.py)
except ImproperlyConfigured as error:
    sys.exit(f"Refusing to start: {error}")

application = get_wsgi_application()

logger = logging.getLogger(__name__)


def warm():
    """Do once, before gunicorn forks its workers (ipgsite/gunicorn.conf.py), what Django otherwise does lazily on each
    worker's first requests: import the URL configuration and every view, compile the site's templates, read each
    language's translation catalogues, build each language's URL patterns, connect to the cache, and read what the
    pages keep in memory (search's entries). A worker forked afterwards, at start or when one is recycled, answers its
    first request as fast as its thousandth.

    It asks for the public pages through the application itself, as someone signed in would (a session cookie), so
    that the page cache neither answers nor keeps them. Nothing it does is needed: a page that fails is logged and the
    rest goes on. The database connections are closed before the fork; the objects made so far are left out of the
    garbage collector's passes (gc.freeze), so that the workers do not copy the memory they share by touching it."""
    started = time.perf_counter()
    warmed = 0
    try:
        pages = _pages()
    except Exception:
        logger.warning("Warming found no pages to ask for", exc_info=True)
        pages = []
    for path, query in pages:
        try:
            warmed += _ask(path, query) < 500
        except Exception:
            logger.warning("Warming %s?%s failed", path, query, exc_info=True)
    try:
        _compile_templates()
        from ipgsite.caching import versions

        versions.current_versions()
    except Exception:
        logger.warning("Warming the templates or the cache failed", exc_info=True)
    finally:
        from django.db import connections

        from ipgsite.caching import notices

        connections.close_all()
        notices.kept.close()
    gc.collect()
    gc.freeze()
    logger.info("Warmed %d pages in %.0f ms before the workers fork", warmed, (time.perf_counter() - started) * 1000)


def connect():
    """What each worker opens for itself before its first request (a fork shares no connection): its connection to
    the cache, which every request reads, and whose making costs a new process some milliseconds."""
    try:
        from ipgsite.caching import versions

        versions.current_versions()
    except Exception:
        logger.warning("Connecting to the cache failed", exc_info=True)


def _pages():
    """Every kind of public page, in every language: (path, query)."""
    from django.db import connections

    from ipgsite.ipg.models import Paragraph

    codes = [code for code, _name in settings.LANGUAGES]
    try:
        first = Paragraph.objects.select_related("section").order_by("section__order", "order").first()
    except Exception:
        logger.warning("Warming found no content to read", exc_info=True)
        first = None
    finally:
        connections.close_all()
    section, key = (first.section.number, first.key) if first else ("1.1", "")
    pages = []
    for code in codes:
        pages += [
            (f"/{code}/", ""),
            (f"/{code}/penalties/", ""),
            (f"/{code}/ipg/{section}/", ""),
            (f"/{code}/ipg/{section}/", f"langs={','.join(codes)}"),
            (f"/{code}/search/", "q=card"),
            (f"/{code}/search/", "q=%E8%AD%A6%E5%91%8A"),  # 警告: Han, so converted from traditional characters
            (f"/{code}/glossary/", ""),
            (f"/{code}/finder/", ""),
            (f"/{code}/changes/", ""),
            (f"/{code}/quiz/", ""),
        ]
        if key:
            pages += [(f"/{code}/ipg/{section}/{key}/", ""), (f"/{code}/list/", f"p={section}:{key}")]
    return pages + [
        ("/api/ipg/", ""),
        (f"/api/ipg/{section}/", ""),
        (f"/api/ipg/{section}/{key}/", "") if key else ("/api/openapi.json", ""),
        ("/oembed/", f"url=https://{allowed_host()}/{codes[0]}/ipg/{section}/{key}/&format=json"),
        ("/api/linker/", ""),
        ("/linker.js", ""),
        ("/sw.js", ""),
        ("/manifest.webmanifest", ""),
        ("/offline/pages.json", ""),
        ("/sitemap.xml", ""),
        (f"/{codes[0]}/changes/feed/", ""),
    ]


def allowed_host():
    """A host name the settings allow."""
    return next((h.lstrip(".") for h in settings.ALLOWED_HOSTS if h.lstrip(".") and "*" not in h), "localhost")


def _ask(path, query):
    host = allowed_host()
    environ = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_NAME": host,
        "SERVER_PORT": "443",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": host,
        "HTTP_ACCEPT_ENCODING": "br, gzip",
        "HTTP_COOKIE": f"{settings.SESSION_COOKIE_NAME}=warming",
        "wsgi.url_scheme": "https",
        "wsgi.input": io.BytesIO(),
        "wsgi.errors": sys.stderr,
    }
    status = []
    response = application(environ, lambda line, headers, exc_info=None: status.append(line))
    try:
        for _chunk in response:
            pass
    finally:
        response.close()
    return int(status[0].split()[0])


def _compile_templates():
    """Every template of the site's own (not the admin's), as the cached loader keeps them."""
    from pathlib import Path

    from django.template import engines

    for engine in engines.all():
        for directory in engine.template_dirs:
            directory = Path(directory)
            if not directory.is_relative_to(settings.BASE_DIR) or ".venv" in directory.parts:
                continue
            for template in directory.rglob("*.html"):
                try:
                    engine.get_template(template.relative_to(directory).as_posix())
                except Exception:
                    logger.warning("Warming could not compile %s", template, exc_info=True)
