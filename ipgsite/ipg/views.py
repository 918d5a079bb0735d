from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.templatetags.static import static
from django.urls import translate_url
from django.utils import translation
from django.utils.html import strip_tags
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.text import Truncator
from django.utils.translation import get_language
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from . import compare, languages, layers, versions
from .markup import render_markdown
from .models import Chapter, Paragraph, Penalty, Section
from .reading import languages_of, read_section


@require_safe
def outline(request):
    sections = Section.objects.in_reading_order().select_related("chapter")
    with_text = set(Paragraph.objects.values_list("section_id", flat=True).distinct())
    chapters = []
    for chapter in Chapter.objects.all():
        items = [s for s in sections if s.chapter_id == chapter.pk]
        # The sections with text first; those without, still listed, folded under them.
        chapters.append((chapter, [s for s in items if s.pk in with_text], [s for s in items if s.pk not in with_text]))
    return render(request, "ipg/outline.html", {"chapters": chapters})


@require_safe
def section(request, number):
    # `?release=`: the section as that release froze it, found in the release alone (whatever the working text did to
    # its number since), between the sections that release has before and after it.
    version = versions.version_of(number, request.GET["release"]) if "release" in request.GET else None
    if version:
        section = version.section
    else:
        section = get_object_or_404(Section.objects.select_related("chapter"), number=number)
    chosen, redirect = compare.chosen(request)
    if redirect:
        folded = compare.parse(",".join(request.GET.getlist("langs")))
        if folded:  # the compare form's fields, folded into the URL: the reader chose these languages
            compare.remember(redirect, folded)
        return redirect
    return render(request, "ipg/section.html", section_context(request, number, section, version, chosen))


def section_context(request, number, section, version, chosen):
    """What a section page shows: `section` (as `version` froze it, if given) in the languages `chosen` (already
    normalized; [] for the page's language alone). The shared paragraph's page (ipgsite/study) is this page too."""
    page_lang = get_language()
    codes = chosen or [page_lang]
    comparing = len(codes) > 1
    parts = read_section(section, codes, fallback=not comparing, paragraphs=version.paragraphs if version else None)
    has = languages_of(parts)
    missing = [code for code in codes if code not in has]
    langs = [("langs", compare.serialize(codes))] if chosen else []
    query = f"?langs={compare.serialize(codes)}" if chosen else ""
    if version:
        previous, following = version.previous, version.next
        query = "?" + urlencode([*langs, *version.kept_parameters], safe=",")
        # The working text's page of the same number, if it has one: "Read the current text".
        current = Section.objects.filter(number=number).exists()
    else:
        neighbours = list(Section.objects.in_reading_order())
        index = next(i for i, s in enumerate(neighbours) if s.pk == section.pk)
        previous = neighbours[index - 1] if index > 0 else None
        following = neighbours[index + 1] if index + 1 < len(neighbours) else None
        current = True
    # A section the working text no longer has is at home at its release's address only.
    at_home = "" if current else f"?release={version.name}"
    title = (version.title.get(page_lang) if version else section.title_in(page_lang)) or ""
    context = {
        "section": section,
        "title": title or (version.title.get("en") if version else section.title_en),
        "penalty": version.penalty if version else section.penalty,
        "version": version,
        "current_url": _section_url(section, page_lang) + (f"?{urlencode(langs, safe=',')}" if langs else "")
        if current
        else None,
        "title_lang": languages.html_lang(page_lang if title else "en"),
        "parts": parts,
        "codes": codes,
        # The languages this page does not show: the per-paragraph control shows one of them in place.
        "other_codes": [code for code in languages.CODES if code not in codes],
        "columns": [(code, languages.html_lang(code), languages.name(code)) for code in codes],
        "comparing": comparing,
        "label_missing": comparing or page_lang not in missing,
        "has_text": bool(has),
        "missing_languages": missing,
        "read_in": [
            (code, languages.name(code), _section_url(section, code) + (f"?release={version.name}" if version else ""))
            for code in has
        ],
        "slots": codes + [""] * (len(languages.CODES) - len(codes)),
        "all_languages": settings.LANGUAGES,
        "query": query,
        "previous": previous,
        "next": following,
        "notes_count": sum(len(row.notes) for part in parts for row in part.rows),
        "description": _description(section, parts, page_lang),
        "canonical_url": request.build_absolute_uri(_section_url(section, page_lang) + at_home),
        "alternates": [
            (code, request.build_absolute_uri(_section_url(section, code) + at_home)) for code in languages.CODES
        ],
        "og_locale": languages.OPEN_GRAPH_LOCALES[page_lang],
        "reading_page": {},
        **layers.section_context(section, version),
    }
    return context


def _section_url(section, code):
    with translation.override(code):
        return section.get_absolute_url()


def _description(section, parts, code):
    """The first paragraph in the page's language, as plain text, for search engines and link previews."""
    for part in parts:
        for row in part.rows:
            text = row.paragraph.text_in(code)
            if text:
                return Truncator(strip_tags(render_markdown(text))).chars(200)
    penalty = f" {Penalty(section.penalty).label}." if section.penalty else ""
    return f"{section.number} {section.title_in(code) or section.title_en}.{penalty}"


@require_safe
def switch_language(request, code):
    """Remember the reader's interface language and go to `next` in it; the browser keeps the #fragment."""
    if code not in languages.CODES:
        raise Http404("Unknown language")
    target = request.GET.get("next", "/")
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = "/"
    response = HttpResponseRedirect(translate_path(target, code))
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        code,
        max_age=365 * 24 * 3600,
        samesite="Lax",
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
    )
    return response


def translate_path(path, code):
    """`/ja/ipg/2.3/?langs=en,ja` in another interface language: `/en/ipg/2.3/?langs=en,ja`.

    Django resolves a path only in the active language's prefix, so the path is read in its own language.
    A path the URLs don't know (`/`, `/ja/gone/`) gets `code` as its prefix, to land on the page (or the
    404 page) in the chosen language.
    """
    source = translation.get_language_from_path(urlsplit(path).path)
    with translation.override(source or code):
        translated = translate_url(path, code)
    if translated != path:
        return translated
    rest = path.lstrip("/")
    if source:
        rest = rest.partition("/")[2]
    return f"/{code}/{rest}"


@require_safe
def penalties(request):
    """Every infraction with its penalty, grouped by chapter and filterable by penalty, like Appendix A."""
    chosen = request.GET.get("penalty", "")
    if chosen and chosen not in Penalty.values:
        raise Http404("Unknown penalty")
    infractions = Section.objects.infractions().in_reading_order().select_related("chapter")
    if chosen:
        infractions = infractions.filter(penalty=chosen)
    groups = {}
    for section in infractions:
        groups.setdefault(section.chapter, []).append(section)
    context = {
        "groups": list(groups.items()),
        "penalties": Penalty.choices,
        "chosen": chosen,
        "chosen_label": Penalty(chosen).label if chosen else "",
    }
    return render(request, "ipg/penalties.html", context)


@require_safe
@cache_control(public=True, max_age=24 * 3600)
def favicon(request):
    """/favicon.ico, which browsers ask for unprompted: the site's icon among the static files."""
    return HttpResponseRedirect(static("favicon.ico"))
