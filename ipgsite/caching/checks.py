from django.conf import settings
from django.core.checks import Tags, Warning, register

PROCESS_LOCAL = {"django.core.cache.backends.locmem.LocMemCache", "django.core.cache.backends.dummy.DummyCache"}


@register(Tags.caches, deploy=True)
def shared_cache(app_configs, **kwargs):
    """Under gunicorn several processes serve the site: the content version must live where all of them look."""
    if settings.CACHES["default"]["BACKEND"] in PROCESS_LOCAL:
        return [
            Warning(
                "The page cache and its content version live in each process's own memory: an edit made through "
                "one gunicorn worker would not reach the pages the others have cached.",
                hint="Set CACHE_URL to a Redis shared by every process, e.g. redis://127.0.0.1:6379/0?key_prefix=ipg",
                id="caching.W001",
            )
        ]
    return []


@register(Tags.caches, deploy=True)
def bounded_hosts(app_configs, **kwargs):
    """Pages are kept per host: with a wildcard, anyone could fill the cache by making up host names."""
    wildcards = [host for host in settings.ALLOWED_HOSTS if host == "*" or host.startswith(".")]
    if wildcards:
        return [
            Warning(
                f"ALLOWED_HOSTS accepts any host name ({', '.join(wildcards)}): the page cache keeps a copy of "
                "every page for each one, so made-up Host headers could push the real pages out.",
                hint="List the site's host names exactly, e.g. ALLOWED_HOSTS=ipg.example.org",
                id="caching.W002",
            )
        ]
    return []
