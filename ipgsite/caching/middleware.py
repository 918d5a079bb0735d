"""Public pages: served from the shared cache until the content changes, with validators for browsers.

The pages are the views named in settings.PAGE_CACHE_VIEWS, each with the query parameters that choose
what it shows (the compare choice `langs`, a penalty filter, a reading list's paragraphs `p`, which repeat).
Every other parameter is dropped before the page is looked up or rendered, and those it reads are put in one order
(ipgsite/caching/queries.py): a made-up parameter, a link shared with `fbclid` or `utm_source`, `?&` or
`%77arning` for `warning` are the same page, served from the cache. A search's page is kept under its query as the
search reads it (settings.PAGE_CACHE_NORMALIZED: `?q=+card&kind=note` and `?kind=note&q=card` are one page). Anyone
can ask for any number of distinct queries: such pages (settings.PAGE_CACHE_PER_QUERY) are kept apart, in each
process's memory, and in the shared cache only once this process is asked for one again, so that they push no
other page out.
A page is kept per scheme, host, language, path and query, and the cookies in settings.PAGE_CACHE_COOKIES as
the pages read them (the compare choice a page may redirect to). Every public page carries an ETag,
a Last-Modified and Cache-Control, and a conditional request whose copy is current gets 304 Not Modified.
The request is marked with an edge.EdgePage, so that edge.EdgeMiddleware lets shared caches in front of the site
keep the page too.

Not kept: requests from someone signed in (a session or messages cookie), a parameter given twice that does not
repeat (the compare form's columns: a redirect), answers other than 200, and answers that set any other cookie,
vary by cookie or ask not to be cached.

A published release's pages (settings.PAGE_CACHE_RELEASE_PAGES: its changes page, a section as it froze it)
are kept under the releases' token instead of the content version, so edits of the working text leave them
cached: a release never changes.

Each request asks the shared cache for both tokens (one small read); the pages themselves are also held in
each process's memory, so a page this process has served before needs nothing more.
"""

import hashlib
import threading
from collections import OrderedDict

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse
from django.utils import translation
from django.utils.cache import get_conditional_response, has_vary_header, patch_cache_control, patch_vary_headers
from django.utils.http import http_date
from django.utils.module_loading import import_string
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from . import edge, queries, versions
from .pages import CachedPage, etag_for


class RecentPages:
    """The pages this process served last, newest kept, at most `size` of them."""

    def __init__(self, size):
        self.size = size
        self.pages = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key, versions):
        with self.lock:
            page = self.pages.get(key)
            if page is None or page.version != versions.get(page.scope):
                return None
            self.pages.move_to_end(key)
            return page

    def put(self, key, page):
        with self.lock:
            self.pages[key] = page
            self.pages.move_to_end(key)
            while len(self.pages) > self.size:
                self.pages.popitem(last=False)


class PageCacheMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.page_types = queries.page_types()
        self.release_pages = settings.PAGE_CACHE_RELEASE_PAGES
        self.page_cookies = {name: import_string(read) for name, read in settings.PAGE_CACHE_COOKIES.items()}
        self.personal_cookies = {settings.SESSION_COOKIE_NAME, getattr(settings, "MESSAGE_COOKIE_NAME", "messages")}
        self.timeout = settings.PAGE_CACHE_SECONDS
        self.recent = RecentPages(settings.PAGE_CACHE_IN_MEMORY)
        self.queries = RecentPages(settings.PAGE_CACHE_QUERIES_IN_MEMORY)
        self.query_timeout = settings.PAGE_CACHE_QUERY_SECONDS

    def __call__(self, request):
        page_type, key = self.page_of(request)
        if page_type is None:
            return self.get_response(request)
        tokens = None
        per_query = key is not None and page_type.one_per_query(request.GET)
        if key:
            tokens = versions.current_versions()
            cached = self.cached(key, tokens, per_query)
            if cached:
                # Everything below this middleware is skipped: the page as it was rendered, headers and all.
                response = cached.response(request)
                response["X-Cache"] = "hit"
                request.edge_page = edge.EdgePage(cached.scope, tokens[cached.scope], cached.any_language, False)
                return self.validated(request, response, cached.etag, shared=True, version=tokens[cached.scope])

        response = self.get_response(request)
        if response.status_code != 200 or response.streaming:
            return response
        if key and self.keepable(response):
            scope = self.scope(request, page_type.name)
            stored = CachedPage.from_response(response, tokens[scope], scope)
            stored.any_language = edge.any_language(page_type.name, request)
            stored.shared = not per_query
            if per_query:
                self.queries.put(key, stored)  # in the shared cache when asked for again (self.cached)
            else:
                cache.set(key, stored, self.timeout)
                self.recent.put(key, stored)
            response = stored.response(request)
            response["X-Cache"] = "miss"
            request.edge_page = edge.EdgePage(scope, tokens[scope], stored.any_language, True)
            return self.validated(request, response, stored.etag, shared=True, version=tokens[scope])
        return self.validated(request, response, etag_for(response.content), shared=False)

    def scope(self, request, view_name):
        """ "releases" for a published release's page, kept while the release exists; else "content"."""
        if view_name not in self.release_pages:
            return "content"
        parameter = self.release_pages[view_name]
        return "releases" if parameter is None or parameter in request.GET else "content"

    def page_of(self, request):
        """(page type, key) of the public page `request` asks for, the key None when it is not kept; (None, None)
        for anything else. Whoever asks, the page then sees only the parameters it reads, in their order."""
        page_type = queries.page_type_of(request, self.page_types)
        if page_type is None:
            return None, None
        queries.only_what_it_reads(request, page_type)
        return page_type, self.key(request) if page_type.keeps(request.GET) else None

    def key(self, request):
        """Where the page of this request (its query made canonical) is kept: None for a page that is someone's
        own."""
        if any(name in request.COOKIES for name in self.personal_cookies):
            return None
        parts = [
            request.scheme,
            request.get_host(),
            request.path,
            request.META.get("QUERY_STRING", ""),
            repr(
                [
                    read(request.COOKIES[name]) if name in request.COOKIES else None
                    for name, read in self.page_cookies.items()
                ]
            ),
        ]
        digest = hashlib.md5("\n".join(parts).encode(), usedforsecurity=False).hexdigest()
        return f"page:{get_language()}:{digest}"

    def cached(self, key, tokens, per_query=False):
        """The current copy of a page: from this process's memory, else from the shared cache. A page of a query
        this process kept is shared the second time it is asked for."""
        memory = self.queries if per_query else self.recent
        page = memory.get(key, tokens)
        if page is None:
            page = cache.get(key)
            if page is None or page.version != tokens.get(getattr(page, "scope", "content")):
                return None
            page.shared = True
            memory.put(key, page)
        elif per_query and not getattr(page, "shared", True):
            page.shared = True
            cache.set(key, page, self.query_timeout)
        return page

    def keepable(self, response):
        if not set(response.cookies) <= set(self.page_cookies):
            return False
        if has_vary_header(response, "Cookie"):
            return False  # it read the session or the CSRF token: it is someone's own page
        cache_control = response.get("Cache-Control", "").lower()
        return "private" not in cache_control and "no-store" not in cache_control

    def validated(self, request, response, etag, shared, version=None):
        """Validators and Cache-Control; 304 when the reader's copy is current."""
        response["ETag"] = etag
        last_modified = None
        if version is not None:
            last_modified = versions.modified_at(version)
            response["Last-Modified"] = http_date(last_modified)
        # Browsers may keep a page but ask each time whether it changed: an edit shows on the next visit. How long
        # shared caches keep a public page is said on its way out (edge.EdgeMiddleware).
        if shared and not response.cookies:
            patch_cache_control(response, public=True, max_age=0)
            patch_vary_headers(response, ("Accept-Encoding",))
        else:
            patch_cache_control(response, private=True, no_cache=True)
            patch_vary_headers(response, ("Accept-Encoding", "Cookie"))
        return get_conditional_response(request, etag=etag, last_modified=last_modified, response=response)


class LongUrlMiddleware:
    """An address longer than settings.MAX_URL_LENGTH is answered 414 before anything reads it: no page of the site
    has one (a reading list of 50 paragraphs, a search of 200 characters are far shorter), and the VCL answers the
    same at the edge. First of all the middleware, so that no redirect echoes it."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        length = len(request.get_full_path())
        if length <= settings.MAX_URL_LENGTH:
            return self.get_response(request)
        code = translation.get_language_from_path(request.path_info) or settings.LANGUAGE_CODE
        with translation.override(code):
            message = _(
                "This address is %(length)s characters long: the site reads addresses of at most %(most)s characters."
            )
            response = HttpResponse(
                message % {"length": length, "most": settings.MAX_URL_LENGTH},
                status=414,
                content_type="text/plain; charset=utf-8",
            )
        response["Content-Language"] = code
        response["Cache-Control"] = "no-store"
        response["X-Content-Type-Options"] = "nosniff"
        return response
