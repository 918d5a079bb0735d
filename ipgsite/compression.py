"""Responses compressed for the browsers that accept it: Django's GZipMiddleware, except for pictures."""

from django.middleware.gzip import GZipMiddleware


class GZipExceptPictures(GZipMiddleware):
    """A PNG is compressed already: gzip would cost every request's CPU time for a few percent of its bytes."""

    def process_response(self, request, response):
        if response.get("Content-Type", "").startswith("image/"):
            return response
        return super().process_response(request, response)
