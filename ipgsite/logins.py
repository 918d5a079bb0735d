"""Admin logins are rate-limited by django-axes: failed attempts are counted per username and address."""

from axes.backends import AxesStandaloneBackend
from django.conf import settings


class LoginAttemptsBackend(AxesStandaloneBackend):
    """Refuses a login while its username and address are locked out, before any password is checked.

    Only logins over HTTP are counted: `authenticate()` without a request (a shell, a test client's
    `login()`) is not a login form and passes through to the next backend.
    """

    def authenticate(self, request=None, username=None, password=None, **kwargs):
        if request is None:
            return None
        return super().authenticate(request, username=username, password=password, **kwargs)


def client_ip(request):
    """The reader's address. Behind a trusted proxy it is the last one the proxy added to X-Forwarded-For."""
    remote = request.META.get("REMOTE_ADDR")
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    trusted = settings.FORWARDED_ALLOW_IPS
    if forwarded and ("*" in trusted or remote in trusted):
        return forwarded.split(",")[-1].strip()
    return remote
