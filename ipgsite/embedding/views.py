"""What other sites use to show the IPG where it is cited: an oEmbed card of a paragraph, and the linker script.

oEmbed (oembed.com): `/oembed/?url=<a paragraph's page>&format=json` answers a "rich" card, the paragraph's text in
the language of the URL (or the notice that it has none, in that language: never another language's text in its
place), its section and a link; `maxwidth` and `maxheight` bound its size. A URL that is not a paragraph of this
site is a 404; `format=xml` is a 501, as the specification says of a format the provider does not serve; a missing
`url` or a size that is not one is a 400. An error names the parameter and what it may be, never how Python read it.
"""

import functools
import math
import re
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import Resolver404, resolve, reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from ipgsite.ipg import compare, languages, versions
from ipgsite.ipg.markup import render_markdown
from ipgsite.ipg.models import Penalty, Section, paragraph_at
from ipgsite.ipg.reading import paragraphs_with_notes
from ipgsite.releases.lags import lag_html, lag_of
from ipgsite.study import citing, previews

WIDTH = 560  # the card's width when the consumer sets no maxwidth
LINE = 24  # px per line of text
PADDING = 32
LINKER = Path(__file__).resolve().parent / "linker.js"
ORIGIN = re.compile(r"https?://[A-Za-z0-9.\-]+(?::[0-9]{1,5})?|https?://\[[0-9A-Fa-f:.]+\](?::[0-9]{1,5})?")


class NotAParagraph(Exception):
    pass


class BadParameter(Exception):
    """A parameter the consumer got wrong: its message names it and what it may be, and nothing else."""


MAX_DIMENSION = 10_000
DIMENSION = re.compile(r"[0-9]{1,5}")  # ASCII digits only: int() would read "١٢" and choke on "²"


def _dimension(value, name):
    if value in (None, ""):
        return None
    if not DIMENSION.fullmatch(value) or not 0 < int(value) <= MAX_DIMENSION:
        raise BadParameter(_("%(name)s is a whole number of pixels, from 1 to 10000.") % {"name": name})
    return int(value)


def _target(request, url):
    """(code, section, paragraph, version) that a URL of this site names; NotAParagraph otherwise."""
    if "\x00" in url:
        raise NotAParagraph
    try:
        parts = urlsplit(url)
    except ValueError:  # "http://[::1": not an address at all
        raise NotAParagraph from None
    if parts.scheme not in ("http", "https") or parts.netloc.lower() != request.get_host().lower():
        raise NotAParagraph
    code = translation.get_language_from_path(parts.path)
    if code is None:
        raise NotAParagraph
    with translation.override(code):
        try:
            match = resolve(parts.path)
        except Resolver404:
            raise NotAParagraph from None
    if match.view_name == "study:paragraph":
        key = match.kwargs["key"]
    elif match.view_name == "ipg:section" and parts.fragment:
        key = parts.fragment
    else:
        raise NotAParagraph
    release = parse_qs(parts.query).get("release")
    version = None
    if release:
        try:
            version = versions.version_of(match.kwargs["number"], release[0])
        except Http404:
            raise NotAParagraph from None
        section = version.section
        paragraph = citing.frozen_paragraph(version, key)
    else:
        section = Section.objects.filter(number=match.kwargs["number"]).select_related("chapter").first()
        if section is None:
            raise NotAParagraph
        paragraph = paragraph_at(section, key)[0]
    if paragraph is None:
        raise NotAParagraph
    return code, section, paragraph, version


def _size(text, code, maxwidth, maxheight, extra_lines=0):
    """A width and height that hold the card, within the consumer's bounds."""
    width = min(WIDTH, maxwidth) if maxwidth else WIDTH
    per_line = max(8, (width - PADDING) // (16 if code in languages.CJK else 8))
    lines = math.ceil(len(text) / per_line) + 3 + extra_lines  # the title, the section line, the link
    height = lines * LINE + PADDING
    return width, min(height, maxheight) if maxheight else height


@require_safe
def oembed(request):
    """The card of the paragraph `url` names. Errors, as the specification asks: 501 for a format other than json,
    404 for a URL that is no paragraph of this site, 400 for a missing url or a size that is not one; each message
    names the parameter and what it may be."""
    if request.GET.get("format", "json") != "json":
        return HttpResponse(_("Only format=json is served."), status=501, content_type="text/plain; charset=utf-8")
    try:
        maxwidth = _dimension(request.GET.get("maxwidth"), "maxwidth")
        maxheight = _dimension(request.GET.get("maxheight"), "maxheight")
        url = request.GET.get("url", "")
        if not url:
            raise BadParameter(_("url is required: the address of a paragraph's page on this site."))
    except BadParameter as error:
        return JsonResponse({"error": str(error)}, status=400)
    try:
        code, section, paragraph, version = _target(request, url)
    except NotAParagraph:
        return JsonResponse({"error": _("This URL is not a paragraph of this site.")}, status=404)
    with translation.override(code):
        return JsonResponse(_card(request, code, section, paragraph, version, maxwidth, maxheight))


def _card(request, code, section, paragraph, version, maxwidth, maxheight):
    stored = version.paragraphs if version else list(paragraphs_with_notes(section))
    place = citing.place_of(stored, paragraph.key)
    title = (version.title if version else languages.translations(section, "title")).get(code, "")
    penalty = version.penalty if version else section.penalty
    text = paragraph.text_in(code)
    plain = previews.plain_text(text) if text else ""
    missing = "" if text else _("Not yet translated into %(language)s.") % {"language": languages.called(code)}
    lag = lag_of(paragraph, code) if text else None  # a translation that follows an older English says so here too
    release = version.name if version else ""
    url = citing.permanent_url(request, section.number, paragraph.key, code, release)
    width, height = _size(plain or missing, code, maxwidth, maxheight, extra_lines=3 if lag else 0)
    name = citing.paragraph_name(place)
    full_title = f"{section.number} {title or section.title_en} · {name}"
    context = {
        "code": languages.html_lang(code),
        "number": section.number,
        "title": title or section.title_en,
        "title_lang": languages.html_lang(code if title else "en"),
        "name": name,
        "penalty": Penalty(penalty).label if penalty else "",
        "html": render_markdown(text) if text else "",
        "missing": missing,
        "lag": lag_html(lag) if lag else "",
        "release": release,
        "url": url,
        "width": width,
        "height": height,
    }
    data = {
        "version": "1.0",
        "type": "rich",
        "title": full_title,
        "provider_name": f"{_('IPG')} · {_('Infraction Procedure Guide')}",
        "provider_url": request.build_absolute_uri("/"),
        "cache_age": 3600,
        "html": render_to_string("embedding/card.html", context).strip(),
        "width": width,
        "height": height,
    }
    if not version:
        image = reverse("study:preview-image", kwargs={"number": section.number, "key": paragraph.key})
        data.update(thumbnail_url=request.build_absolute_uri(image), thumbnail_width=1200, thumbnail_height=630)
    return data


@functools.lru_cache(maxsize=1)
def _linker_source():
    return LINKER.read_text(encoding="utf-8")


@require_safe
def linker(request):
    """The script other sites include: it links the references in their text and previews the paragraphs."""
    response = HttpResponse(_linker_source(), content_type="text/javascript; charset=utf-8")
    response["Cross-Origin-Resource-Policy"] = "cross-origin"  # pages that require it may still include the script
    return response


@require_safe
def linker_languages(request):
    """The window /linker.js opens when a reader asks for their languages: this site's first party, so its script
    (embedding/languages.js) reads the compare choice the site remembers and posts it to `?origin=`, the page that
    opened it, in the interface language `?lang=`. Nothing here reads a cookie: the page is the same for everyone."""
    code = request.GET.get("lang", "")
    code = code if code in languages.CODES else translation.get_language()
    origin = request.GET.get("origin", "")
    context = {
        "code": code,
        "codes": languages.CODES,
        "languages": languages.CHOICES,
        "cookie": compare.COOKIE,
        "origin": origin if ORIGIN.fullmatch(origin) else "",
    }
    with translation.override(code):
        response = render(request, "embedding/languages.html", context)
    # The opener keeps its handle on this window, to be answered: the site's same-origin policy would cut it.
    response["Cross-Origin-Opener-Policy"] = "unsafe-none"
    return response
