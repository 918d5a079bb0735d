"""The fast lane: a public page the page cache served is answered again, to a request that asks for it in the same
words, before the rest of the middleware runs.

The middleware between it and the page cache (security headers, compression, what shared caches may keep, CORS,
the language, Markdown negotiation) costs more than the page cache's own lookup: measured under gunicorn, the cached
compare page ran at 0.75x a static file of the same bytes (docs/benchmarks.md). The first middleware after the
414 keeps the answer that whole stack gave to a page served from the page cache, headers and body as they left, and
gives it again to a request with the same method, address, host, scheme and every header that stack reads
(`KEYED`): the same answer by construction, while the version it was rendered under is current. Anything else,
and every request that differs in one of those headers, takes the usual path.
"""

import threading
from collections import OrderedDict
from dataclasses import dataclass

from django.conf import settings
from django.http import HttpResponse

from . import versions

# What the middleware below reads of a request for a page the page cache serves: the address and scheme (security
# redirects, the page cache's key), the language (LocaleMiddleware), Accept (Markdown), Accept-Encoding (the
# cached page's encoding), Origin (CORS), the cookies (the session, the compare choice), the conditional headers.
KEYED = (
    "REQUEST_METHOD",
    "wsgi.url_scheme",
    "HTTP_X_FORWARDED_PROTO",
    "HTTP_HOST",
    "HTTP_X_FORWARDED_HOST",
    "SERVER_NAME",
    "SERVER_PORT",
    "SCRIPT_NAME",
    "PATH_INFO",
    "QUERY_STRING",
    "HTTP_ACCEPT",
    "HTTP_ACCEPT_ENCODING",
    "HTTP_ACCEPT_LANGUAGE",
    "HTTP_ORIGIN",
    "HTTP_COOKIE",
    "HTTP_IF_MATCH",
    "HTTP_IF_NONE_MATCH",
    "HTTP_IF_MODIFIED_SINCE",
    "HTTP_IF_UNMODIFIED_SINCE",
)


@dataclass(frozen=True)
class Answer:
    scope: str
    version: int
    status: int
    headers: tuple
    body: bytes

    def response(self):
        response = HttpResponse(self.body, status=self.status)
        for name, value in self.headers:
            response[name] = value
        return response


class FastLaneMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.size = settings.PAGE_CACHE_FAST_LANE
        self.answers = OrderedDict()
        self.lock = threading.Lock()

    def __call__(self, request):
        if request.method not in ("GET", "HEAD") or not self.size:
            return self.get_response(request)
        meta = request.META
        key = tuple(meta.get(name) for name in KEYED)
        with self.lock:
            answer = self.answers.get(key)
        if answer is not None and versions.current_versions().get(answer.scope) == answer.version:
            with self.lock:
                if key in self.answers:
                    self.answers.move_to_end(key)
            return answer.response()
        response = self.get_response(request)
        page = getattr(request, "edge_page", None)
        if (
            page is not None
            and not page.rendered  # from the page cache: rendered pages are left to it
            and response.status_code in (200, 304)
            and not response.streaming
            and not response.cookies
        ):
            answer = Answer(page.scope, page.version, response.status_code, tuple(response.items()), response.content)
            with self.lock:
                self.answers[key] = answer
                self.answers.move_to_end(key)
                while len(self.answers) > self.size:
                    self.answers.popitem(last=False)
        return response
