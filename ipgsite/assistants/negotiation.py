"""A section's or paragraph's page asked for with `Accept: text/markdown` is answered with its Markdown version.

Placed before the page cache: the request is sent on as the Markdown page's own address (`…/index.md`), so the page
cache keeps the two answers apart as it keeps any two pages, and whichever answer leaves says `Vary: Accept`, so
that a shared cache in front of the site keeps them apart too (the VCL lets an Accept through only when it names
text/markdown, so all browsers share one copy). The HTML stays the answer for `*/*`, for no Accept, and for
anything that prefers text/html.
"""

import re

from django.conf import settings
from django.utils.cache import patch_vary_headers

from ipgsite.ipg.models import KEY_PATTERN, NUMBER_PATTERN

SAFE_METHODS = {"GET", "HEAD"}
LANGUAGE = "|".join(re.escape(code) for code, _name in settings.LANGUAGES)
NEGOTIABLE = re.compile(rf"^/(?:{LANGUAGE})/ipg/{NUMBER_PATTERN.strip('^$')}/(?:{KEY_PATTERN.strip('^$')}/)?$")


def wants_markdown(request):
    return request.get_preferred_type(["text/html", "text/markdown"]) == "text/markdown"


class MarkdownNegotiation:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        negotiable = request.method in SAFE_METHODS and NEGOTIABLE.match(request.path_info) is not None
        if negotiable and wants_markdown(request):
            request.path_info += "index.md"
            request.path += "index.md"
        response = self.get_response(request)
        if negotiable:
            patch_vary_headers(response, ("Accept",))
        return response
