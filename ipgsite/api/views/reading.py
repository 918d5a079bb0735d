"""The IPG as JSON: the outline, each section's aligned paragraphs by key in every language with notes, one
paragraph with its lag marks, and sections found by name."""

import json

from django.http import Http404, HttpResponseRedirect, JsonResponse
from django.urls import reverse
from django.utils import translation
from django.views.decorators.http import require_safe

from ipgsite.ipg import languages, versions
from ipgsite.ipg.markup import render_markdown
from ipgsite.ipg.models import Chapter, Paragraph, Section, paragraph_at
from ipgsite.ipg.reading import paragraphs_with_notes
from ipgsite.releases.lags import lags_in, lags_in_release
from ipgsite.search.finding import SectionNames
from ipgsite.study import citing

from .. import openapi

JSON = {"ensure_ascii": False}


def translations(obj, field):
    return {code: languages.translated(obj, field, code) or None for code in languages.CODES}


def translations_of(texts):
    return {code: texts.get(code) or None for code in languages.CODES}


def _page_urls(request, section, query=""):
    urls = {}
    for code in languages.CODES:
        with translation.override(code):
            urls[code] = request.build_absolute_uri(section.get_absolute_url() + query)
    return urls


def _section_summary(request, section, has_text, release=None):
    """A section's number, title, penalty and addresses (those of a release's text, for `release`)."""
    query = f"?release={release}" if release else ""
    return {
        "number": section.number,
        "title": translations(section, "title"),
        "penalty": section.penalty or None,
        "has_text": has_text,
        "url": request.build_absolute_uri(reverse("api:section", args=[section.number]) + query),
        "pages": _page_urls(request, section, query),
    }


@require_safe
def outline(request):
    with_text = set(Paragraph.objects.values_list("section_id", flat=True).distinct())
    sections = Section.objects.in_reading_order()
    chapters = [
        {
            "number": chapter.number,
            "title": translations(chapter, "title"),
            "sections": [
                _section_summary(request, s, s.pk in with_text) for s in sections if s.chapter_id == chapter.pk
            ],
        }
        for chapter in Chapter.objects.all()
    ]
    return JsonResponse({"languages": languages.CODES, "chapters": chapters}, json_dumps_params=JSON)


@require_safe
def section(request, number):
    version = None
    if "release" in request.GET:
        # Found in the release alone: a section renumbered or removed since answers under the number it had.
        try:
            version = versions.version_of(number, request.GET["release"])
        except Http404:
            return _no_release()
        section = version.section
    else:
        section = Section.objects.select_related("chapter").filter(number=number).first()
        if section is None:
            return _no_section(number)
    paragraphs = version.paragraphs if version else list(section.paragraphs.order_by("order").prefetch_related("notes"))
    data = _section_summary(request, section, bool(paragraphs), version.name if version else None)
    data["chapter"] = section.chapter.number
    if version:
        data.update(release=version.name, title=translations_of(version.title), penalty=version.penalty or None)
    data["paragraphs"] = [
        {
            "key": p.key,
            "part": p.part,
            "bullet": p.bullet,
            "text": translations(p, "text"),
            "missing": [code for code in languages.CODES if not p.text_in(code)],
            "notes": [
                {"language": n.language, "source": n.source, "body": translations(n, "body")}
                for n in sorted(p.notes.all(), key=lambda n: getattr(n, "order", 0))
            ],
        }
        for p in paragraphs
    ]
    data["languages"] = [code for code in languages.CODES if any(p["text"][code] for p in data["paragraphs"])]
    return JsonResponse(data, json_dumps_params=JSON)


def _no_release():
    return JsonResponse({"error": "There is no release of that date with this section."}, status=404)


def _no_section(number):
    return JsonResponse({"error": f"There is no section {number!r} in the IPG."}, status=404)


def _lag_data(lag):
    if lag is None:
        return None
    return {"follows": lag.release or "unknown", "changes": str(lag.diff) or None}


def _lags(lags, obj, codes):
    """{code: lag} of the translations of a paragraph or note that follow an older original; {} for none."""
    found = {code: _lag_data(lags.of(obj, code)) for code in codes} if lags else {}
    return {code: lag for code, lag in found.items() if lag}


@require_safe
def paragraph(request, number, key):
    """One paragraph: its text in every language (`null` where missing), as stored and as pages show it, its notes,
    and which translations follow an older original (`lags`; in a release, those the release froze beside a newer
    original than they follow: `releases.lags.lags_in_release`)."""
    version = None
    if "release" in request.GET:
        try:
            version = versions.version_of(number, request.GET["release"])
        except Http404:
            return _no_release()
        section = version.section
        found = citing.frozen_paragraph(version, key)
        stored = version.paragraphs
    else:
        section = Section.objects.select_related("chapter").filter(number=number).first()
        if section is None:
            return _no_section(number)
        found, current = paragraph_at(section, key)
        if found is not None and not current:  # a key it had before a rename: its address is kept
            url = reverse("api:paragraph", kwargs={"number": number, "key": found.key})
            query = request.META.get("QUERY_STRING", "")
            return HttpResponseRedirect(url + (f"?{query}" if query else ""), status=301)
        stored = list(paragraphs_with_notes(section))
    if found is None:
        message = f"Section {number} has no paragraph {key!r}" + (
            f" in the release of {version.name}." if version else "."
        )
        return JsonResponse({"error": message}, status=404)
    lags = lags_in_release(version.name, section.number) if version else lags_in(section)
    place = citing.place_of(stored, found.key)
    release = version.name if version else None
    data = {
        "section": section.number,
        "key": found.key,
        "part": found.part,
        "label": place.letter or None,
        "bullet": found.bullet,
        "release": release,
        "title": translations_of(version.title) if version else translations(section, "title"),
        "penalty": (version.penalty if version else section.penalty) or None,
        "text": translations(found, "text"),
        "html": {code: str(render_markdown(t)) if t else None for code, t in translations(found, "text").items()},
        "missing": [code for code in languages.CODES if not found.text_in(code)],
        "lags": _lags(lags, found, languages.CODES),
        "notes": [
            {
                "language": n.language,
                "source": n.source,
                "body": translations(n, "body"),
                "lags": _lags(lags, n, languages.CODES),
            }
            for n in found.notes.all()
        ],
        "former_keys": [] if version else list(found.former_keys.values_list("key", flat=True)),
        "citation": {},
        "url": request.build_absolute_uri(reverse("api:paragraph", kwargs={"number": number, "key": found.key})),
        "section_url": request.build_absolute_uri(reverse("api:section", args=[section.number])),
        "pages": {},
    }
    for code in languages.CODES:
        with translation.override(code):
            cited = release if version else citing.release_quoted(section, found, code)
            data["citation"][code] = citing.citation(section.number, place, cited)
            data["pages"][code] = citing.permanent_url(request, section.number, found.key, code, release)
    return JsonResponse(data, json_dumps_params=JSON)


def _by_name(request, name, key=None):
    section = SectionNames().named_by(name)
    if section is None:
        message = f"No section of the IPG is named {name!r} (or several are)."
        return JsonResponse({"error": message}, status=404)
    if key is None:
        url = reverse("api:section", args=[section.number])
    else:
        url = reverse("api:paragraph", kwargs={"number": section.number, "key": key})
    query = request.META.get("QUERY_STRING", "")
    url += f"?{query}" if query else ""
    # Found by name: the redirect names the section in its body too, for a client that does not follow it.
    body = json.dumps({"section": section.number, "url": request.build_absolute_uri(url)}, ensure_ascii=False)
    return HttpResponseRedirect(url, content=body, content_type="application/json")


@require_safe
def section_named(request, name):
    """A section by its name or alias, in any language, case, dash or traditional characters: a redirect to its
    number's address (302: which section a name means is data, and may change)."""
    return _by_name(request, name)


@require_safe
def paragraph_named(request, name, key):
    return _by_name(request, name, key)


@require_safe
def openapi_document(request):
    return JsonResponse(openapi.document(), json_dumps_params=JSON)
