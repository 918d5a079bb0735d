"""Served from the edge: which answers a shared cache (Varnish, a CDN) in front of the site may keep, and for how long.

A public page the page cache keeps (ipgsite/caching/middleware.py marks the request with its EdgePage) tells shared
caches, in Cache-Control (which nginx and Varnish read) and in CDN-Cache-Control (RFC 9213, which some CDNs read
instead), that they may keep it for settings.EDGE_MAX_AGE seconds (`s-maxage`), serve it stale for
EDGE_STALE_WHILE_REVALIDATE more while they ask again, and for EDGE_STALE_IF_ERROR while the site answers with an
error (RFC 5861). Browsers get `max-age=0, must-revalidate`: they ask again each time, with the ETag, and get a 304
when nothing changed. must-revalidate is what keeps a browser from the stale directives: Chromium honours
stale-while-revalidate on fetch() (a service worker's, the linker's) even with max-age=0, and would answer from its
HTTP cache, offline too, instead of the service worker; nginx and Varnish do not read must-revalidate.
It names its scope in `Surrogate-Key` (ipgsite/caching/purges.py purges by it), and varies only on
Accept-Encoding: no public page depends on a cookie (the remembered compare choice is a redirect of its own, and
the compare form's choice is remembered on a redirect too).

Everything else is `private`: signed-in readers' pages, answers that set a cookie, anything that varies on the
session, pages rendered while the content changed under them, and every answer that says nothing of caching.
"""

import re
from dataclasses import dataclass

from django.conf import settings
from django.utils.cache import cc_delim_re, patch_cache_control

from . import versions
from .purges import KEYS

SAFE_METHODS = {"GET", "HEAD"}


@dataclass(frozen=True)
class EdgePage:
    """A public page as the page cache served it: its scope and the version it was rendered under."""

    scope: str
    version: int
    # Whether its answer is the same whatever the reader's language (a page outside the language prefixes that
    # does not vary on Accept-Language: settings.EDGE_ANY_LANGUAGE).
    any_language: bool
    # Rendered for this request (not served from the page cache).
    rendered: bool


def any_language(view_name, request):
    """Whether the page of `view_name` is the same in every interface language, as requested."""
    if view_name not in settings.EDGE_ANY_LANGUAGE:
        return False
    parameter = settings.EDGE_ANY_LANGUAGE[view_name]
    return parameter is None or parameter in request.GET


def shared_cache_control():
    """Cache-Control of a public page: the stale directives for every shared cache, must-revalidate for browsers."""
    return {
        "public": True,
        "max_age": 0,
        "must_revalidate": True,
        "s_maxage": settings.EDGE_MAX_AGE,
        "stale_while_revalidate": settings.EDGE_STALE_WHILE_REVALIDATE,
        "stale_if_error": settings.EDGE_STALE_IF_ERROR,
    }


def cdn_cache_control():
    """For the CDNs that read RFC 9213's CDN-Cache-Control instead of Cache-Control: the same, without
    must-revalidate, which speaks to browsers and which a cache that follows it strictly would read as no stale."""
    return (
        f"public, max-age={settings.EDGE_MAX_AGE}, stale-while-revalidate={settings.EDGE_STALE_WHILE_REVALIDATE}, "
        f"stale-if-error={settings.EDGE_STALE_IF_ERROR}"
    )


class EdgeMiddleware:
    """Outside the session and locale middleware, so that it sees the answer as it leaves: its cookies and Vary."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if request.method not in SAFE_METHODS:
            return response
        page = getattr(request, "edge_page", None)
        if page is not None and response.status_code in (200, 304):
            if self.shareable(response, page):
                return share(response, page, request)
            return keep_private(response)
        if not response.has_header("Cache-Control"):
            patch_cache_control(response, private=True)
        return response

    def shareable(self, response, page):
        if response.cookies:
            return False
        vary = varied(response)
        if "accept-language" in vary and not page.any_language:
            return False  # outside the language prefixes, chosen by the reader's Accept-Language or cookie
        if page.rendered and versions.current_versions()[page.scope] != page.version:
            return False  # the content changed while it was rendered: it may show the old text
        return True


def share(response, page, request):
    # The session middleware says Vary: Cookie when anything read request.user; a page the page cache keeps is
    # never asked for with a session, and depends on no cookie.
    names = [name for name in varied(response, keep_case=True) if name.lower() not in IGNORED_VARY]
    if readable_from_any_origin(request):
        # One entry for every origin: what CORS would say to one (`*`) is said to all, so Origin decides nothing.
        response["Access-Control-Allow-Origin"] = "*"
        names = [name for name in names if name.lower() != "origin"]
    set_vary(response, names)
    response.headers.pop("Cache-Control", None)
    patch_cache_control(response, **shared_cache_control())
    response["CDN-Cache-Control"] = cdn_cache_control()
    response["Surrogate-Key"] = KEYS[page.scope]
    return response


def keep_private(response):
    response.headers.pop("Cache-Control", None)
    response.headers.pop("CDN-Cache-Control", None)
    patch_cache_control(response, private=True, no_cache=True)
    return response


IGNORED_VARY = {"cookie", "accept-language"}


def readable_from_any_origin(request):
    """Whether CORS lets every origin read this URL alike (`*`, never with credentials: corsheaders' settings)."""
    return (
        getattr(settings, "CORS_ALLOW_ALL_ORIGINS", False)
        and not getattr(settings, "CORS_ALLOW_CREDENTIALS", False)
        and re.match(getattr(settings, "CORS_URLS_REGEX", r"^$"), request.path_info) is not None
    )


def varied(response, keep_case=False):
    names = [name.strip() for name in cc_delim_re.split(response.get("Vary", "")) if name.strip()]
    return names if keep_case else {name.lower() for name in names}


def set_vary(response, names):
    if names:
        response["Vary"] = ", ".join(names)
    else:
        response.headers.pop("Vary", None)
