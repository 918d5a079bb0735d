"""The reader's choice of languages for the compare view: `?langs=en,zh-hans,ja`, remembered in a cookie.

The choice is remembered when the reader makes it with the compare form, on the redirect that folds the form's
fields into the URL: a small answer of its own, never shared. The compare page itself sets no cookie, so a
shared cache keeps one copy of it for every reader (docs/deploying.md: "Served from the edge").
"""

from django.conf import settings
from django.http import HttpResponseRedirect

from . import languages

COOKIE = "ipg_langs"
ALIASES = {"zh": "zh-hans", "zh-cn": "zh-hans", "zh-hans-cn": "zh-hans", "jp": "ja", "en-us": "en", "en-gb": "en"}


def parse(raw):
    """The known languages named in `raw`, deduplicated, in the reader's order (at most all three)."""
    chosen = []
    for part in (raw or "").split(","):
        code = part.strip().lower().replace("_", "-")
        code = ALIASES.get(code, code)
        if code in languages.CODES and code not in chosen:
            chosen.append(code)
    return chosen


def serialize(codes):
    return ",".join(codes)


def in_url(request, safe=","):
    """(codes, None): the languages `?langs=` names, [] without it. (None, redirect) when it names them in
    another spelling (a language twice or unknown, capitals, several `langs`): to the URL as the site's links
    spell it, without `langs` when it names no language."""
    given = request.GET.getlist("langs")
    if not given:
        return [], None
    codes = parse(",".join(given))
    if codes and len(given) == 1 and serialize(codes) == given[0]:
        return codes, None
    return None, redirect_to(request, codes, safe=safe)


def chosen(request, safe=","):
    """(codes, None): the languages `?langs=` names, [] when it names none and the reader remembered no compare
    choice. (None, redirect): to `?langs=` as the site spells it, or to the remembered choice."""
    codes, redirect = in_url(request, safe=safe)
    if redirect is None and not codes:
        redirect = remembered(request, safe=safe)
    return (None, redirect) if redirect else (codes, None)


def remember(response, codes):
    """Remember a choice of several languages on `response`; forget the comparison for one language or none."""
    if len(codes) > 1:
        response.set_cookie(COOKIE, serialize(codes), max_age=365 * 24 * 3600, samesite="Lax", secure=settings.HTTPS)
    else:
        response.delete_cookie(COOKIE, samesite="Lax")
    return response


def remembered(request, safe=","):
    """A redirect to the languages the reader compared last (the cookie), when they chose more than one."""
    codes = parse(request.COOKIES.get(COOKIE, ""))
    return redirect_to(request, codes, safe=safe) if len(codes) > 1 else None


def redirect_to(request, codes, safe=","):
    """This page with `?langs=` naming `codes` (or without `langs` when there are none), the rest of its query kept."""
    query = request.GET.copy()
    if codes:
        query["langs"] = serialize(codes)
    else:
        query.pop("langs", None)
    return HttpResponseRedirect(request.path + (f"?{query.urlencode(safe=safe)}" if query else ""))
