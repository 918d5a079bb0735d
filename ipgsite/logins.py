"""Admin logins are rate-limited by django-axes: failed attempts are counted per username and address."""

from axes.backends import AxesStandaloneBackend
from django.conf import settings

from ipgsite import proxies


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
    """The address failed logins are counted by, as gunicorn would name the client (ipgsite/proxies.py).

    None when a trusted proxy names no address: such logins for one username are counted together.
    """
    return proxies.client_address(
        request.META.get("REMOTE_ADDR"), request.META.get("HTTP_X_FORWARDED_FOR"), settings.FORWARDED_ALLOW_IPS
    )
