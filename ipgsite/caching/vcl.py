"""A VCL for Varnish 7 that follows the site's settings and URLs (`manage.py varnishvcl --backend HOST:PORT`).

What it keeps, passes and drops is read from the settings that decide it on the site's side: the public pages and
the query parameters each reads (PAGE_CACHE_VIEWS, PAGE_CACHE_REPEATED, PAGE_CACHE_PASSED and EDGE_ANY_LANGUAGE,
found in the URLconf: ipgsite/caching/queries.py), the cookies that make a request someone's own (the session, CSRF
and messages cookies), the remembered compare choice (EDGE_REMEMBERED_CHOICE), the admin's path, STATIC_URL,
MAX_URL_LENGTH, and who may purge (EDGE_PURGE_TOKEN, EDGE_PURGERS) or say a request came over HTTPS
(EDGE_TLS_PROXIES).
"""

import ipaddress
import itertools
import re
from dataclasses import dataclass

from django.conf import settings
from django.contrib.messages.storage.cookie import CookieStorage
from django.template.loader import render_to_string
from django.urls import URLResolver, get_resolver, reverse
from django.urls.resolvers import LocalePrefixPattern

from . import queries
from .purges import KEYS, TOKEN_HEADER

NAMED_GROUP = re.compile(r"\(\?P<\w+>")


@dataclass(frozen=True)
class Backend:
    host: str
    port: int

    @classmethod
    def parse(cls, value):
        """HOST:PORT, or [IPv6]:PORT."""
        host, separator, port = value.rpartition(":")
        host = host.removeprefix("[").removesuffix("]")
        if not separator or not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise ValueError(f"{value!r} is not HOST:PORT (e.g. 127.0.0.1:8000 or [::1]:8000)")
        return cls(host, int(port))


def view_paths():
    """{view name: (regex of its path, under a language prefix?)} for every named view of the URLconf."""
    found = {}
    languages = "(?:" + "|".join(re.escape(code) for code, _name in settings.LANGUAGES) + ")/"

    def walk(patterns, prefix, namespace, localized):
        for entry in patterns:
            if isinstance(entry, URLResolver):
                if isinstance(entry.pattern, LocalePrefixPattern):
                    walk(entry.url_patterns, prefix + languages, namespace, True)
                    continue
                inner = f"{namespace}:{entry.namespace}" if namespace and entry.namespace else entry.namespace
                walk(entry.url_patterns, prefix + _path_regex(entry.pattern), inner or namespace, localized)
            elif entry.name:
                name = f"{namespace}:{entry.name}" if namespace else entry.name
                found.setdefault(name, (prefix + _path_regex(entry.pattern), localized))

    walk(get_resolver().url_patterns, "", None, False)
    return found


def _path_regex(pattern):
    """A pattern's regex without its anchors, its named groups made plain (PCRE refuses a name used twice)."""
    regex = pattern.regex.pattern.removeprefix("^")
    regex = regex.removesuffix(r"\Z").removesuffix("$")
    return NAMED_GROUP.sub("(?:", regex)


@dataclass(frozen=True)
class PageGroup:
    """Public page types that read the same query parameters: the VCL keeps only those, in their order."""

    paths: str  # the regex of their URLs' paths
    parameters: tuple
    passed: tuple  # with any of these, a page is answered but never kept (PAGE_CACHE_PASSED)
    needs: str | None  # outside the language prefixes: the parameter that names the language (EDGE_ANY_LANGUAGE)
    names: tuple = ()  # of the page types

    @property
    def filters(self):
        """For each parameter in order, the regex that drops every other one from the query written `&a=1&b=2`."""
        return [r"&(?!" + re.escape(name) + r"(?:[=&]|$))[^&]*+" for name in self.parameters]

    @property
    def passing(self):
        return _any_parameter(self.passed) if self.passed else ""

    @property
    def needing(self):
        return _any_parameter([self.needs]) if self.needs else ""


def _any_parameter(names):
    return r"[?&](?:" + "|".join(re.escape(name) for name in names) + r")(?:[=&]|$)"


def page_groups():
    """The public pages a shared cache may keep, grouped by what they read: those of the page cache under the language
    prefixes, and those outside them that are the same in every language (EDGE_ANY_LANGUAGE)."""
    paths = view_paths()
    groups = {}
    for page_type in queries.page_types().values():
        path, localized = paths[page_type.name]
        if not localized and page_type.name not in settings.EDGE_ANY_LANGUAGE:
            continue  # it varies on the reader's Accept-Language: not looked up
        needs = None if localized else settings.EDGE_ANY_LANGUAGE[page_type.name]
        passed = tuple(name for name in page_type.parameters if name in page_type.passed)
        groups.setdefault((page_type.parameters, passed, needs), []).append((page_type.name, path))
    return [
        PageGroup(
            "^/(?:" + "|".join(path for _name, path in found) + r")(?:\?|$)",
            parameters,
            passed,
            needs,
            tuple(name for name, _path in found),
        )
        for (parameters, passed, needs), found in groups.items()
    ]


def looked_up(url):
    """Whether the VCL looks `url` up in the cache (a public page, with what makes it everyone's), as page_groups()
    says; after it has dropped the parameters the page does not read."""
    for group in page_groups():
        if re.search(group.paths, url):
            if group.passed and re.search(group.passing, url):
                return False
            return not group.needs or re.search(group.needing, url) is not None
    return False


def remembering_pages():
    """The regex of the pages the remembered compare choice redirects from."""
    paths = view_paths()
    return "^/(?:" + "|".join(paths[view][0] for view in settings.EDGE_REMEMBERED_CHOICE["views"]) + ")(?:\\?|$)"


def remembered_choices():
    """Every choice of two or three languages, spelled as the site writes it (`en,ja`)."""
    codes = [code for code, _name in settings.LANGUAGES]
    choices = [",".join(p) for n in (2, 3) for p in itertools.permutations(codes, n)]
    return "^(?:" + "|".join(re.escape(choice) for choice in choices) + ")$"


def acl_entries(setting):
    """VCL ACL lines from the addresses and networks of a setting: "10.0.0.0"/24; for a network, "::1"; for an
    address."""
    return [
        f'"{network.network_address}";'
        if network.num_addresses == 1
        else f'"{network.network_address}"/{network.prefixlen};'
        for network in networks(setting)
    ]


def networks(setting):
    found = []
    for address in getattr(settings, setting):
        try:
            found.append(ipaddress.ip_network(address.strip(), strict=True))
        except ValueError as error:
            raise ValueError(f"{setting}: {address!r} is not an address or a network ({error}).") from None
    return found


PURGE_TOKEN = re.compile(r"[A-Za-z0-9._~+/=-]{32,}")


def purge_token():
    """EDGE_PURGE_TOKEN, if set; ValueError for one too short, or with characters a header cannot carry as they are."""
    token = settings.EDGE_PURGE_TOKEN
    if token and not PURGE_TOKEN.fullmatch(token):
        raise ValueError(
            "EDGE_PURGE_TOKEN must be 32 or more letters, digits or ._~+/=- characters: "
            "python -c 'import secrets; print(secrets.token_urlsafe(32))'."
        )
    return token


def purgers_behind_tls_proxies():
    """The addresses of EDGE_PURGERS that are also a TLS proxy's (EDGE_TLS_PROXIES), as "a, b": what reaches the cache
    from there may be any reader's request, passed on. Without EDGE_PURGE_TOKEN the VCL refuses purges from them."""
    proxies = networks("EDGE_TLS_PROXIES")
    shared = [
        str(purger.network_address if purger.num_addresses == 1 else purger)
        for purger in networks("EDGE_PURGERS")
        if any(purger.version == proxy.version and purger.overlaps(proxy) for proxy in proxies)
    ]
    return ", ".join(shared)


def purge_warnings():
    """What an operator should hear about who may purge the cache, as the settings stand."""
    if purge_token():
        return []
    if not settings.EDGE_PURGERS:
        return [
            "Nobody may purge this cache: neither EDGE_PURGE_TOKEN nor EDGE_PURGERS is set, so pages reach readers "
            "within EDGE_MAX_AGE + EDGE_STALE_WHILE_REVALIDATE seconds of a change. Set EDGE_PURGE_TOKEN here and on "
            "the gunicorn hosts for changes to show at once."
        ]
    shared = purgers_behind_tls_proxies()
    if shared:
        return [
            f"EDGE_PURGERS includes the address of a TLS proxy ({shared}, in EDGE_TLS_PROXIES): a purge from there "
            "could be any reader's, passed on by the proxy, so without EDGE_PURGE_TOKEN the VCL refuses purges from "
            "it. Set EDGE_PURGE_TOKEN (the same on the gunicorn hosts), or list only the gunicorn hosts in "
            "EDGE_PURGERS."
        ]
    return []


def cookie_regex(names):
    return r"(^|;\s*)(" + "|".join(re.escape(name) for name in names) + ")="


def probe_host():
    named = [host for host in settings.ALLOWED_HOSTS if host != "*" and not host.startswith(".")]
    return named[0] if named else "localhost"


def render(backends, command="manage.py varnishvcl"):
    choice = settings.EDGE_REMEMBERED_CHOICE
    personal = [settings.SESSION_COOKIE_NAME, settings.CSRF_COOKIE_NAME, CookieStorage.cookie_name]
    context = {
        "command": command,
        "backends": backends,
        "probe_host": probe_host(),
        "probe_path": reverse("favicon"),  # a redirect answered without the database
        "purgers": acl_entries("EDGE_PURGERS"),
        "tls_proxies": acl_entries("EDGE_TLS_PROXIES"),
        "purge_token": purge_token(),
        "purge_token_header": TOKEN_HEADER,
        "too_long": f"^.{{{settings.MAX_URL_LENGTH + 1}}}",
        "max_url_length": settings.MAX_URL_LENGTH,
        "admin": "^" + re.escape(reverse("admin:index")),
        "static": "^" + re.escape(settings.STATIC_URL),
        "personal_cookies": cookie_regex(personal),
        "personal_names": ", ".join(personal),
        "page_groups": page_groups(),
        "remembering_pages": remembering_pages(),
        "remembered_cookie": choice["cookie"],
        "remembered_parameter": choice["parameter"],
        "remembered_choices": remembered_choices(),
        "surrogate_keys": "^(?:" + "|".join(KEYS.values()) + ")(?: (?:" + "|".join(KEYS.values()) + "))*$",
        "stale_while_revalidate": settings.EDGE_STALE_WHILE_REVALIDATE,
        "stale_if_error": settings.EDGE_STALE_IF_ERROR,
    }
    return render_to_string("caching/varnish.vcl", context)
