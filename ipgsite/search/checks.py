from django.conf import settings
from django.core.checks import Error, register
from django.core.exceptions import ImproperlyConfigured
from django.db import connection

from . import backends


@register("search")
def search_backend(app_configs, **kwargs):
    """SEARCH_BACKEND names a search backend, for the database in use (its vendor only: no connection is opened).
    The messages are those `backends.backend()` raises at the first search."""
    path = settings.SEARCH_BACKEND
    try:
        backends.backend_class(path)
    except ImproperlyConfigured as error:
        return [Error(str(error), obj="SEARCH_BACKEND", id="search.E001")]
    try:
        backends.load(path, connection.vendor)
    except ImproperlyConfigured as error:
        return [Error(str(error), obj="SEARCH_BACKEND", id="search.E002")]
    return []
