from django.conf import settings
from django.core.checks import Tags, Warning, register

from . import vcl

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


@register(Tags.security, deploy=True)
def purges_not_open_to_readers(app_configs, **kwargs):
    """A purge empties the edge cache: one from a TLS proxy's address may be any reader's, passed on."""
    try:
        vcl.purge_token()
        shared = vcl.purgers_behind_tls_proxies()
    except ValueError as error:
        return [Warning(str(error), id="caching.W004")]
    if shared and not settings.EDGE_PURGE_TOKEN:
        return [
            Warning(
                f"EDGE_PURGERS includes the address of a TLS proxy ({shared}, in EDGE_TLS_PROXIES): a purge from "
                "there could be any reader's request, passed on by the proxy, so the VCL of `manage.py varnishvcl` "
                "refuses purges from it without EDGE_PURGE_TOKEN.",
                hint="Set EDGE_PURGE_TOKEN (python -c 'import secrets; print(secrets.token_urlsafe(32))'), the same "
                "where the site runs and where the VCL is made, or list only the gunicorn hosts in EDGE_PURGERS.",
                id="caching.W003",
            )
        ]
    return []
