"""A save that could not have the write lock in time is answered as such (503), never as a server error."""

from django.shortcuts import render

from .writing import WAIT_FOR_WRITES, Busy


class BusyWritesMiddleware:
    """`writing.Busy`: another batch of writes held the write lock for longer than a writer waits. Nothing was
    written; the page says so and asks to save again (Retry-After)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not isinstance(exception, Busy):
            return None
        response = render(request, "editing/busy.html", {"seconds": WAIT_FOR_WRITES}, status=503)
        response["Retry-After"] = "60"
        return response
