"""A rendered public page as the cache keeps it: compressed once, replayed to every reader who asks for it."""

import copy
import gzip
import hashlib
from dataclasses import dataclass, field
from http.cookies import SimpleCookie

from django.http import HttpResponse

try:
    import brotli
except ImportError:  # brotli comes with whitenoise[brotli]; without it pages are gzipped only
    brotli = None

# Headers set again on every response, from the request and the content version, never replayed.
FRESH_HEADERS = {
    "cache-control",
    "content-encoding",
    "content-length",
    "date",
    "etag",
    "expires",
    "last-modified",
    "vary",
}
# Below this size compression costs more than it saves.
MIN_COMPRESSED_SIZE = 200


def etag_for(content):
    # Weak: the gzip and brotli forms of a page are the same page.
    return f'W/"{hashlib.md5(content, usedforsecurity=False).hexdigest()}"'


def accepted_encodings(request):
    accepted = set()
    for item in request.META.get("HTTP_ACCEPT_ENCODING", "").split(","):
        coding, _, params = item.partition(";")
        quality = params.replace(" ", "").lower().removeprefix("q=")
        if quality and quality.strip("0.") == "":
            continue  # q=0: "not this one"
        accepted.add(coding.strip().lower())
    return accepted


@dataclass
class CachedPage:
    version: int
    status: int
    headers: list
    cookies: SimpleCookie
    etag: str
    gzipped: bytes
    brotli: bytes | None = None
    # Tiny pages are kept as they are.
    plain: bytes | None = field(default=None, repr=False)
    # Which token `version` is of: "content", or "releases" for a published release's page.
    scope: str = "content"
    # The same page in every interface language (edge.any_language): shared caches need not vary it on
    # Accept-Language.
    any_language: bool = False
    # In the shared cache (a page of a query is put there only once asked for again: middleware.py).
    shared: bool = True

    @classmethod
    def from_response(cls, response, version, scope="content"):
        content = response.content
        page = cls(
            version=version,
            scope=scope,
            status=response.status_code,
            headers=[(name, value) for name, value in response.items() if name.lower() not in FRESH_HEADERS],
            cookies=copy.deepcopy(response.cookies),
            etag=etag_for(content),
            gzipped=b"",
        )
        if len(content) < MIN_COMPRESSED_SIZE:
            page.plain = content
        else:
            page.gzipped = gzip.compress(content, compresslevel=9, mtime=0)
            if brotli is not None:
                page.brotli = brotli.compress(content, quality=8)
        return page

    def response(self, request):
        """The page in the best encoding the reader accepts."""
        accepted = accepted_encodings(request)
        if self.plain is not None:
            body, encoding = self.plain, None
        elif self.brotli is not None and "br" in accepted:
            body, encoding = self.brotli, "br"
        elif "gzip" in accepted:
            body, encoding = self.gzipped, "gzip"
        else:
            body, encoding = gzip.decompress(self.gzipped), None
        response = HttpResponse(body, status=self.status)
        for name, value in self.headers:
            response[name] = value
        for name, morsel in self.cookies.items():  # copies: a process keeps this page for many responses
            response.cookies[name] = morsel.copy()
        if encoding:
            response["Content-Encoding"] = encoding
        response["Content-Length"] = str(len(body))
        return response
