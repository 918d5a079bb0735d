"""A VCL for Varnish 7 that follows the site's settings and URLs (`manage.py varnishvcl --backend HOST:PORT`).

What it keeps, passes and drops is read from the settings that decide it on the site's side: the public pages
(PAGE_CACHE_VIEWS and EDGE_ANY_LANGUAGE, found in the URLconf), the cookies that make a request someone's own
(the session, CSRF and messages cookies), the remembered compare choice (EDGE_REMEMBERED_CHOICE), the admin's
path, STATIC_URL, and who may purge (EDGE_PURGERS) or say a request came over HTTPS (EDGE_TLS_PROXIES).
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

from .purges import KEYS

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


def public_pages():
    """The regex of every URL whose answer a shared cache may keep: the page cache's public pages under the language
    prefixes, and those outside them that are the same in every language (EDGE_ANY_LANGUAGE)."""
    paths = view_paths()
    alternatives = []
    for view in settings.PAGE_CACHE_VIEWS:
        path, localized = paths[view]
        if localized:
            alternatives.append(f"{path}(?:\\?|$)")
        elif view in settings.EDGE_ANY_LANGUAGE:
            parameter = settings.EDGE_ANY_LANGUAGE[view]
            alternatives.append(f"{path}(?:\\?|$)" if parameter is None else f"{path}\\?(?:[^#]*&)?{parameter}=")
    return "^/(?:" + "|".join(alternatives) + ")"


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
    lines = []
    for address in getattr(settings, setting):
        try:
            network = ipaddress.ip_network(address.strip(), strict=True)
        except ValueError as error:
            raise ValueError(f"{setting}: {address!r} is not an address or a network ({error}).") from None
        if network.num_addresses == 1:
            lines.append(f'"{network.network_address}";')
        else:
            lines.append(f'"{network.network_address}"/{network.prefixlen};')
    return lines


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
        "admin": "^" + re.escape(reverse("admin:index")),
        "static": "^" + re.escape(settings.STATIC_URL),
        "personal_cookies": cookie_regex(personal),
        "personal_names": ", ".join(personal),
        "public_pages": public_pages(),
        "remembering_pages": remembering_pages(),
        "remembered_cookie": choice["cookie"],
        "remembered_parameter": choice["parameter"],
        "remembered_choices": remembered_choices(),
        "surrogate_keys": "^(?:" + "|".join(KEYS.values()) + ")(?: (?:" + "|".join(KEYS.values()) + "))*$",
        "stale_while_revalidate": settings.EDGE_STALE_WHILE_REVALIDATE,
        "stale_if_error": settings.EDGE_STALE_IF_ERROR,
    }
    return render_to_string("caching/varnish.vcl", context)
