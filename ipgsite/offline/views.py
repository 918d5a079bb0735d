"""What a reader's browser needs to keep the IPG for reading without a connection."""

from django.conf import settings
from django.http import JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from ipgsite.caching.versions import content_version
from ipgsite.finder.graph import finder_urls
from ipgsite.ipg import compare, languages
from ipgsite.ipg.models import Section
from ipgsite.releases.models import Release

ICON = "offline/icon.svg"
# The static files the saved pages use (templates/base.html), and nothing else: the service worker saves
# exactly these, never a link it could find in a page, where translators' Markdown may have put it.
ASSETS = (
    "css/site.css",
    "css/pages.css",
    "js/site.js",
    "offline/offline.js",
    ICON,
    "study/study.css",
    "terms/glossary.css",
)
# Saved in the reading language, and in the other languages (a switch of interface language lands on them).
READING_PAGES = ("ipg:outline", "ipg:penalties", "terms:glossary", "study:quiz", "study:quiz-offline", "offline-page")
OTHER_LANGUAGE_PAGES = ("ipg:outline", "ipg:penalties", "terms:glossary", "offline-page")


@require_safe
def service_worker(request):
    context = {
        "pages_url": reverse("offline:pages"),
        "static_url": settings.STATIC_URL,
        "manifest_url": reverse("offline:manifest"),
    }
    response = render(request, "offline/sw.js", context, content_type="text/javascript")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_safe
def web_manifest(request):
    """The installable app, opening in the reader's language (`?lang=`, else the interface language)."""
    code = _language(request.GET.get("lang"))
    with translation.override(code):
        manifest = {
            "name": f"{gettext('IPG')} · {gettext('Infraction Procedure Guide')}",
            "short_name": gettext("IPG"),
            "lang": languages.html_lang(code),
            "start_url": reverse("ipg:outline"),
            "scope": "/",
            "display": "standalone",
            "background_color": "#ffffff",
            "theme_color": "#1d3557",
            "icons": [{"src": static(ICON), "sizes": "any", "type": "image/svg+xml", "purpose": "any"}],
        }
    response = JsonResponse(
        manifest, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False}
    )
    return _kept_only_as_spelled(request, response, lang=code)


@require_safe
def pages(request):
    """Every page a reader needs offline in one interface language and, if any, one compare choice.

    The reading language's pages (outline, penalties, glossary, quiz, finder, every section), each section
    compared with each other language (the page's language first, as ⇄ and the compare form ask for it) and
    in the compare choice; in the other languages, the pages a switch of interface language or ⇄ in place
    opens (every section, the outline, penalties, glossary). `scopes` name the (language, `langs`) pairs the
    list covers: the worker drops a saved page of a scope that the list no longer names.
    `version` changes whenever the content does: the service worker downloads the pages again then.
    `assets` are the site's own files those pages use, at their deployed (hashed) URLs, and the manifest.
    """
    code = _language(request.GET.get("lang"))
    choice = compare.parse(request.GET.get("langs", ""))
    langs = compare.serialize(choice) if len(choice) > 1 else ""
    others = [other for other in languages.CODES if other != code]
    pairs = [f"{code},{other}" for other in others]
    compared = pairs + ([langs] if langs and langs not in pairs else [])
    sections = list(Section.objects.in_reading_order())
    with translation.override(code):
        urls = [reverse(name) for name in READING_PAGES]
        for section in sections:
            url = section.get_absolute_url()
            urls += [url] + [f"{url}?langs={value}" for value in compared]
        for url in finder_urls():  # every step of the infraction finder, so it works offline too
            urls.append(url)
            if langs:
                urls.append(f"{url}?langs={langs}")
    for other in others:
        with translation.override(other):
            urls += [reverse(name) for name in OTHER_LANGUAGE_PAGES]
            urls += [section.get_absolute_url() for section in sections]
    scopes = [[code, ""]] + [[code, value] for value in compared] + [[other, ""] for other in others]
    response = JsonResponse(
        {
            "version": str(content_version()),
            "release": _newest_release(),
            "language": code,
            "langs": langs,
            "scopes": scopes,
            "pages": urls,
            "assets": [static(name) for name in ASSETS]
            + [f"{reverse('offline:manifest')}?lang={each}" for each in [code, *others]],
        }
    )
    return _kept_only_as_spelled(request, response, lang=code, langs=langs)


@require_safe
def offline_page(request):
    """What the service worker shows offline for a page it did not save: in the page's language, styled like
    every page, linking to the outline of that language (saved, so the link reads offline)."""
    return render(request, "offline/offline.html")


def _newest_release():
    """The date of the newest release in effect: what a reader's offline copy holds once saved."""
    release = Release.objects.in_effect().newest_first().first()
    return release.date.isoformat() if release else ""


def _kept_only_as_spelled(request, response, **spelled):
    """Any other spelling of a parameter (`lang=xx`, `lang=EN`, `langs=zz`) is answered but not kept by the
    page cache: each would be one more entry that anyone could add."""
    if any(name in request.GET and request.GET[name] != value for name, value in spelled.items()):
        patch_cache_control(response, private=True)
    return response


def _language(code):
    code = (code or "").lower()
    return code if code in languages.CODES else translation.get_language()
