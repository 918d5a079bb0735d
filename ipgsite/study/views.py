from urllib.parse import urlencode

from django.conf import settings
from django.http import FileResponse, Http404, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language, gettext
from django.views.decorators.http import require_safe

from ipgsite.ipg import compare, languages, versions
from ipgsite.ipg.models import Section, paragraph_at
from ipgsite.ipg.views import section_context

from . import cards, citing, lists, pictures, previews


def section_url(section, code):
    with translation.override(code):
        return section.get_absolute_url()


def share_url(section, key, code):
    with translation.override(code):
        return reverse("study:paragraph", kwargs={"number": section.number, "key": key})


def _paragraph(number, key):
    """The section and the paragraph whose key is `key`; Http404 if it has none. A key the paragraph had before a
    rename raises Renamed: its addresses redirect to the new key."""
    section = get_object_or_404(Section.objects.select_related("chapter"), number=number)
    paragraph, current = paragraph_at(section, key)
    if paragraph is None:
        raise Http404(gettext("This section has no paragraph %(key)s.") % {"key": key})
    if not current:
        raise Renamed(paragraph.key)
    return section, paragraph


class Renamed(Exception):
    def __init__(self, key):
        self.key = key

    def redirect(self, request, number, name="study:paragraph"):
        url = reverse(name, kwargs={"number": number, "key": self.key})
        query = request.META.get("QUERY_STRING", "")
        return HttpResponsePermanentRedirect(url + (f"?{query}" if query else ""))


@require_safe
def paragraph(request, number, key):
    """The section opened at one paragraph, with a link preview of that paragraph for chat apps.

    `?langs=` shows the section in those languages, as on its own page; the preview stays in the page's.
    `?release=` shows the section as that release froze it, at this paragraph, marked as such."""
    if "release" in request.GET:
        # Found in the release alone: a section renumbered or removed since answers under the number it had.
        version = versions.version_of(number, request.GET["release"])
        section = version.section
        paragraph = citing.frozen_paragraph(version, key)
        if paragraph is None:
            raise Http404(gettext("This paragraph was not in that release."))
    else:
        version = None
        try:
            section, paragraph = _paragraph(number, key)
        except Renamed as renamed:
            return renamed.redirect(request, number)
    chosen, redirect = compare.in_url(request)
    if redirect:
        return redirect
    code = get_language()
    codes = chosen or [code]
    # The section's own page, with this paragraph highlighted: the same tools, bar and compare choice.
    context = section_context(request, number, section, version, chosen)
    parts = context["parts"]
    row = next(row for part in parts for row in part.rows if row.paragraph.key == paragraph.key)
    if version:
        title = version.title.get(code) or ""
    else:
        title = section.title_in(code)
    text = paragraph.text_in(code)
    if text:
        description = previews.shorten(previews.plain_text(text), code)
    else:
        description = gettext("Not yet translated into %(language)s.") % {"language": languages.called(code)}
    if version:
        image_url = ""  # the picture shows the current text
    else:
        card = pictures.card_for(section, paragraph, code)
        image = reverse("study:preview-image", kwargs={"number": number, "key": paragraph.key})
        image_url = request.build_absolute_uri(f"{image}?v={card.digest}")
    share_path = share_url(section, paragraph.key, code)
    cited = version.name if version else citing.release_quoted(section, paragraph, code)
    place = citing.place_of([r.paragraph for part in parts for r in part.rows], paragraph.key)
    permanent = citing.permanent_url(request, section.number, paragraph.key, code, cited)
    context |= {
        "paragraph": paragraph,
        "highlight": paragraph.key,
        "row": row,
        "title": title or (version.title.get("en") if version else section.title_en),
        "title_lang": languages.html_lang(code if title else "en"),
        "paragraph_name": citing.paragraph_name(place),
        "description": description,
        "description_lang": languages.html_lang(code),
        "section_url": section_url(section, code)
        + (
            "?" + urlencode(_langs(compare.serialize(codes) if chosen else "") + _release(version), safe=",")
            if chosen or version
            else ""
        ),
        "paragraph_current_url": share_path + (f"?langs={compare.serialize(codes)}" if chosen else ""),
        "history_url": reverse("history:paragraph", kwargs={"number": section.number, "key": paragraph.key})
        + (f"?langs={compare.serialize(codes)}" if chosen else ""),
        "canonical_url": request.build_absolute_uri(
            f"{section_url(section, code)}{_at_home(version, section)}#{paragraph.key}"
        ),
        "share_url": request.build_absolute_uri(share_path + (f"?release={version.name}" if version else "")),
        "image_url": image_url,
        "alternates": [
            (other, request.build_absolute_uri(share_url(section, paragraph.key, other))) for other in languages.CODES
        ],
        "citation": citing.citation(section.number, place, cited),
        "permanent_url": permanent,
        "oembed_url": request.build_absolute_uri(reverse("embedding:oembed"))
        + "?"
        + urlencode({"url": permanent, "format": "json"}),
    }
    return render(request, "study/paragraph.html", context)


def _at_home(version, section):
    """The query of a section's own address: a release's section that the working text no longer has is at home at
    its release's address only."""
    if version is None or Section.objects.filter(number=section.number).exists():
        return ""
    return f"?release={version.name}"


def _release(version):
    return [("release", version.name)] if version else []


@require_safe
def preview_image(request, number, key):
    """The link preview picture: the file its URL names (`?v=`, the digest of what it shows), read without the
    database; else the picture of the paragraph's current text."""
    stored = cards.open_drawn(number, key, get_language(), request.GET.get("v"))
    if stored is not None:
        return _picture_response(stored)
    try:
        section, paragraph = _paragraph(number, key)
    except Renamed as renamed:
        return renamed.redirect(request, number, "study:preview-image")
    try:
        # Drawn the first time it is asked for, by one request; the others asking meanwhile wait for it.
        file = cards.open_picture(pictures.card_for(section, paragraph, get_language()))
    except cards.FontMissing:
        # Said at start-up by the system check study.W001; the page's text preview still works.
        return HttpResponse(gettext("The preview picture is not available."), status=503, content_type="text/plain")
    except cards.Busy:
        response = HttpResponse(
            gettext("The preview picture is being drawn: ask again in a moment."), status=503, content_type="text/plain"
        )
        response["Retry-After"] = str(cards.RETRY_AFTER)
        return response
    return _picture_response(file)


def _picture_response(file):
    response = FileResponse(file, content_type="image/png")
    response["Cache-Control"] = "public, max-age=3600"
    return response


@require_safe
def reading_list(request):
    """The paragraphs named by `p`, in order, in the reader's languages, to read or print as a handout.

    The languages are chosen as on section pages: `?langs=`, else a redirect to the reader's remembered
    choice (the cookie), so that the URL always says what the page shows."""
    chosen, redirect = compare.chosen(request, safe=":,")
    if redirect:
        patch_vary_headers(redirect, ["Cookie"])  # the same URL without the cookie is the list itself
        return redirect
    references = [r for r in request.GET.getlist("p") if r.strip()]
    over = len(references) > lists.MAX_PARAGRAPHS
    codes = chosen or [get_language()]
    comparing = len(codes) > 1
    entries = lists.read_list(references[: lists.MAX_PARAGRAPHS], codes, fallback=not comparing)
    langs = compare.serialize(codes) if chosen else ""
    context = {
        "reading_page": {},  # what the text layers read once per page (ipgsite.ipg.layers)
        "entries": entries,
        "count": len(references),
        "over": over,
        "limit": lists.MAX_PARAGRAPHS,
        "codes": codes,
        "comparing": comparing,
        "columns": [(code, languages.html_lang(code), languages.name(code)) for code in codes],
        "slots": codes + [""] * (len(languages.CODES) - len(codes)),
        "all_languages": settings.LANGUAGES,
        "keep": [("p", e.reference) for e in entries],
        "langs": langs,
        "list_url": request.build_absolute_uri(
            reverse("study:list") + "?" + urlencode([("p", e.reference) for e in entries] + _langs(langs), safe=":,")
        ),
    }
    # Kept in the page cache once per URL and remembered choice, which answers Vary: Cookie (a reader with a
    # remembered choice is redirected from this URL).
    return render(request, "study/list.html", context)


def _langs(langs):
    return [("langs", langs)] if langs else []
