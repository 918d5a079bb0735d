"""What each public page type reads from its query, and the one spelling of a query that the caches keep.

settings.PAGE_CACHE_VIEWS names each page type (a URL name) with the parameters it reads, in the order the site's
links write them; PAGE_CACHE_REPEATED those that repeat (a reading list's `p`), PAGE_CACHE_PASSED those with which a
page is answered but never kept, PAGE_CACHE_NORMALIZED the function that spells a page type's query as the page
reads it (a search's query as the search cleans it, its filters in their order). Every other parameter (made up,
`fbclid`, `utm_source`) is dropped before the page is looked up or rendered: by the page cache here
(ipgsite/caching/middleware.py) and by the VCL at the edge (ipgsite/caching/vcl.py), so that nobody gets past either
cache by making up a parameter, and a link shared with a tracking parameter is served from the cache. The parameters
a page reads are kept in the order of that list, each with its values in the order given: `?release=…&langs=…` and
`?langs=…&release=…` are one page.
"""

import functools
from dataclasses import dataclass

from django.conf import settings
from django.http import QueryDict
from django.urls import Resolver404, resolve
from django.utils.module_loading import import_string
from django.utils.translation import get_language


@dataclass(frozen=True)
class PageType:
    name: str
    parameters: tuple
    repeated: frozenset = frozenset()
    passed: frozenset = frozenset()
    # A QueryDict -> QueryDict function: the query as the page reads it (settings.PAGE_CACHE_NORMALIZED).
    normalize: object = None
    # With any of these, one page per query: kept apart so that many queries push no other page out
    # (settings.PAGE_CACHE_PER_QUERY, ipgsite/caching/middleware.py).
    per_query: frozenset = frozenset()

    def canonical(self, query):
        """`query` (a QueryDict) with only the parameters this page reads, in their order, spelled as the site
        spells them."""
        kept = QueryDict(mutable=True)
        for name in self.parameters:
            if name in query:
                kept.setlist(name, query.getlist(name))
        if self.normalize is not None:
            kept = self.normalize(kept)
        return kept.urlencode(safe=":,")

    def one_per_query(self, query):
        return any(name in query for name in self.per_query)

    def keeps(self, query):
        """Whether the page for this (canonical) query may be kept: no parameter of a page that is one per query,
        and none given twice that does not repeat (the compare form's `langs`: a redirect of its own)."""
        if any(name in query for name in self.passed):
            return False
        return all(len(values) == 1 or name in self.repeated for name, values in query.lists())


def page_types():
    """{URL name: PageType} of every public page type, from the settings."""
    repeated = getattr(settings, "PAGE_CACHE_REPEATED", {})
    passed = getattr(settings, "PAGE_CACHE_PASSED", {})
    normalized = getattr(settings, "PAGE_CACHE_NORMALIZED", {})
    per_query = getattr(settings, "PAGE_CACHE_PER_QUERY", {})
    return {
        name: PageType(
            name,
            tuple(parameters),
            frozenset(repeated.get(name, ())),
            frozenset(passed.get(name, ())),
            import_string(normalized[name]) if name in normalized else None,
            frozenset(per_query.get(name, ())),
        )
        for name, parameters in settings.PAGE_CACHE_VIEWS.items()
    }


def page_type_of(request, types):
    """The PageType of the page `request` asks for (GET or HEAD), or None."""
    if request.method not in ("GET", "HEAD"):
        return None
    urlconf = getattr(request, "urlconf", None) or settings.ROOT_URLCONF
    path = request.path_info
    # Resolving costs about 0.1 ms, a tenth of a page served from the cache: the view of each of the last paths
    # asked for is kept (short ones only, so that made-up long paths cannot fill this process's memory).
    view_name = _view_name(urlconf, get_language(), path) if len(path) <= 200 else _resolve(urlconf, path)
    return types.get(view_name)


def _resolve(urlconf, path):
    try:
        return resolve(path, urlconf=urlconf).view_name
    except Resolver404:
        return None


@functools.lru_cache(maxsize=2048)
def _view_name(urlconf, language, path):
    """The URL name of `path` in `language` (the language prefixes resolve in the active language only)."""
    return _resolve(urlconf, path)


def only_what_it_reads(request, page_type):
    """Let the page see only what it reads: the canonical query, in request.GET and QUERY_STRING alike (a page that
    writes its own address, or a redirect that keeps the query, writes that one)."""
    query = page_type.canonical(request.GET)
    request.GET = QueryDict(query, encoding=request.encoding)
    request.META["QUERY_STRING"] = query
