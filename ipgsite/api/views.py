"""The IPG as JSON: the outline, and each section's aligned paragraphs by key in every language, with notes."""

from django.http import Http404, JsonResponse
from django.urls import reverse
from django.utils import translation
from django.views.decorators.http import require_safe

from ipgsite.ipg import languages, versions
from ipgsite.ipg.models import Chapter, Paragraph, Section


def _translations(obj, field):
    return {code: languages.translated(obj, field, code) or None for code in languages.CODES}


def _translations_of(texts):
    return {code: texts.get(code) or None for code in languages.CODES}


def _page_urls(request, section):
    urls = {}
    for code in languages.CODES:
        with translation.override(code):
            urls[code] = request.build_absolute_uri(section.get_absolute_url())
    return urls


def _section_summary(request, section, has_text):
    return {
        "number": section.number,
        "title": _translations(section, "title"),
        "penalty": section.penalty or None,
        "has_text": has_text,
        "url": request.build_absolute_uri(reverse("api:section", args=[section.number])),
        "pages": _page_urls(request, section),
    }


@require_safe
def outline(request):
    with_text = set(Paragraph.objects.values_list("section_id", flat=True).distinct())
    sections = Section.objects.in_reading_order()
    chapters = [
        {
            "number": chapter.number,
            "title": _translations(chapter, "title"),
            "sections": [
                _section_summary(request, s, s.pk in with_text) for s in sections if s.chapter_id == chapter.pk
            ],
        }
        for chapter in Chapter.objects.all()
    ]
    return JsonResponse({"languages": languages.CODES, "chapters": chapters}, json_dumps_params={"ensure_ascii": False})


@require_safe
def section(request, number):
    section = Section.objects.select_related("chapter").filter(number=number).first()
    if section is None:
        return JsonResponse({"error": f"There is no section {number!r} in the IPG."}, status=404)
    version = None
    if "release" in request.GET:
        try:
            version = versions.version_of(section, request.GET["release"])
        except Http404:
            return JsonResponse({"error": "There is no release of that date with this section."}, status=404)
    paragraphs = version.paragraphs if version else list(section.paragraphs.order_by("order").prefetch_related("notes"))
    data = _section_summary(request, section, bool(paragraphs))
    data["chapter"] = section.chapter.number
    if version:
        data.update(release=version.name, title=_translations_of(version.title), penalty=version.penalty or None)
    data["paragraphs"] = [
        {
            "key": p.key,
            "part": p.part,
            "bullet": p.bullet,
            "text": _translations(p, "text"),
            "missing": [code for code in languages.CODES if not p.text_in(code)],
            "notes": [
                {"language": n.language, "source": n.source, "body": _translations(n, "body")}
                for n in sorted(p.notes.all(), key=lambda n: getattr(n, "order", 0))
            ],
        }
        for p in paragraphs
    ]
    data["languages"] = [code for code in languages.CODES if any(p["text"][code] for p in data["paragraphs"])]
    return JsonResponse(data, json_dumps_params={"ensure_ascii": False})
