"""The IPG as JSON: the outline, each section's aligned paragraphs by key in every language with notes, one
paragraph with its lag marks, sections found by name, and the names the linker looks for. Read-only and public:
other sites' pages read it (CORS, settings.CORS_URLS_REGEX), never with cookies. Described in `openapi.py`."""

import json

from django.http import Http404, HttpResponseRedirect, JsonResponse
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from ipgsite.crosslinks.matching import MTR_NAMES, canonical
from ipgsite.ipg import languages, versions
from ipgsite.ipg.markup import render_markdown
from ipgsite.ipg.models import Alias, Chapter, Paragraph, Part, Penalty, Section, paragraph_at
from ipgsite.ipg.reading import paragraphs_with_notes
from ipgsite.releases import comparisons, history
from ipgsite.releases.comparisons import BadComparison, releases_compared
from ipgsite.releases.lags import lags_in, lags_in_release
from ipgsite.releases.models import Release
from ipgsite.releases.views import paragraph_or_redirect
from ipgsite.search.finding import SectionNames
from ipgsite.study import citing

from . import openapi

JSON = {"ensure_ascii": False}


def _translations(obj, field):
    return {code: languages.translated(obj, field, code) or None for code in languages.CODES}


def _translations_of(texts):
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
        "title": _translations(section, "title"),
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
            "title": _translations(chapter, "title"),
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
            return JsonResponse({"error": f"There is no section {number!r} in the IPG."}, status=404)
    paragraphs = version.paragraphs if version else list(section.paragraphs.order_by("order").prefetch_related("notes"))
    data = _section_summary(request, section, bool(paragraphs), version.name if version else None)
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
        "title": _translations_of(version.title) if version else _translations(section, "title"),
        "penalty": (version.penalty if version else section.penalty) or None,
        "text": _translations(found, "text"),
        "html": {code: str(render_markdown(t)) if t else None for code, t in _translations(found, "text").items()},
        "missing": [code for code in languages.CODES if not found.text_in(code)],
        "lags": _lags(lags, found, languages.CODES),
        "notes": [
            {
                "language": n.language,
                "source": n.source,
                "body": _translations(n, "body"),
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


def _names(sections, aliases):
    """Every section's names (titles in each language, aliases, former names), less those two sections share."""
    owners = {}
    for section in sections:
        for code in languages.CODES:
            title = section.title_in(code)
            if title:
                owners.setdefault(canonical(title), set()).add(section.number)
    for number, name in aliases:
        owners.setdefault(canonical(name), set()).add(number)
    names = {}
    for name, numbers in owners.items():
        if len(numbers) == 1:
            names.setdefault(numbers.pop(), []).append(name)
    return names


@require_safe
def linker_data(request):
    """What /linker.js needs to find references in other sites' text, and to say what it shows, in each language."""
    sections = list(Section.objects.in_reading_order())
    aliases = Alias.objects.select_related("section").values_list("section__number", "name")
    names = _names(sections, aliases)
    keys = {}
    for section_id, key, part in Paragraph.objects.in_reading_order().values_list("section_id", "key", "part"):
        keys.setdefault(section_id, []).append((key, part))
    words, messages = {}, {}
    for code in languages.CODES:
        with translation.override(code):
            words[code] = [_("IPG"), _("Infraction Procedure Guide")]
            messages[code] = {
                "missing": _("Not yet translated into %(language)s."),
                "no_text": _("The text of this section is not available yet."),
                "loading": _("Loading…"),
                "failed": _("The text could not be loaded."),
                "example": str(_("Example %(letter)s")),
                # The preview's button that asks the site for the languages the reader compares there (the
                # compare view: "Languages side by side"), and what it says when they chose none.
                "mine": _("Show in the languages I read side by side on the IPG site"),
                "none": _("You have not chosen languages to read side by side on the IPG site yet."),
                "penalties": {value: str(label) for value, label in Penalty.choices},
                # each language as this one calls it, for "missing" ("Not yet translated into 英文" is wrong)
                "languages": {other: languages.called(other) for other in languages.CODES},
            }
    data = {
        "site": request.build_absolute_uri("/"),
        "languages": {code: languages.name(code) for code in languages.CODES},
        "document": sorted({w for ws in words.values() for w in ws}, key=lambda w: (-len(w), w)),
        "prefixes": ["section", "Section", "§"],
        "suffixes": ["節", "节"],
        # what judges write between a section and an example's letter ("2.3, Example C", "2.3 ex. C", "2.3 例(C)")
        "examples": ["Examples", "Example", "examples", "example", "Ex.", "ex.", "范例", "例"],
        "mtr": [n.replace("(?<![A-Za-z])", "") for n in MTR_NAMES.split("|")],
        "messages": messages,
        "sections": [
            {
                "number": section.number,
                "title": _translations(section, "title"),
                "penalty": section.penalty or None,
                "names": sorted(names.get(section.number, []), key=lambda n: (-len(n), n)),
                "examples": [key for key, part in keys.get(section.pk, []) if part == Part.EXAMPLE],
                "lead": keys[section.pk][0][0] if section.pk in keys else None,
            }
            for section in sections
        ],
    }
    return JsonResponse(data, json_dumps_params=JSON)


@require_safe
def openapi_document(request):
    return JsonResponse(openapi.document(), json_dumps_params=JSON)


def _cells_data(cells):
    """{code: {"unchanged", "diff"}} of a text's stored cells: the diff as HTML (escaped, <del> and <ins>)."""
    return {code: {"unchanged": c["unchanged"], "diff": c["html"] or None} for code, c in cells.items()}


def _following_data(following):
    return {"state": following.state, "release": following.release or None}


@require_safe
def paragraph_history(request, number, key):
    """A paragraph across the releases in effect, newest first: each release in which it or its notes changed, the
    key it had then, its diffs in every language, and what each translation followed then."""
    try:
        section, paragraph, redirect = paragraph_or_redirect(request, number, key, "api:paragraph-history")
    except Http404:
        return JsonResponse({"error": f"Section {number} has no paragraph {key!r}."}, status=404)
    if redirect:
        return redirect
    entries = []
    for entry in history.history_of(paragraph):
        with translation.override("en"):
            changes_url = request.build_absolute_uri(entry.release.get_absolute_url())
        entries.append(
            {
                "release": entry.release.date.isoformat(),
                "previous": entry.previous.date.isoformat() if entry.previous else None,
                "status": entry.status,
                "key": entry.key,
                "renamed_from": entry.renamed_from or None,
                "part": entry.part,
                "part_change": list(entry.part_change) if entry.part_change else None,
                "bullet_change": list(entry.bullet_change) if entry.bullet_change else None,
                "moved": entry.moved,
                "text": _cells_data(entry.cells) if entry.cells else None,
                "notes": [
                    {
                        "place": note.place,
                        "status": note.status,
                        "language": note.language,
                        "source": note.source,
                        "body": _cells_data(note.cells),
                    }
                    for note in entry.notes
                ],
                "following": {code: _following_data(f) for code, f in entry.following.items()},
                "changes": changes_url,
            }
        )
    pages = {}
    for code in languages.CODES:
        with translation.override(code):
            pages[code] = request.build_absolute_uri(
                reverse("history:paragraph", kwargs={"number": section.number, "key": paragraph.key})
            )
    data = {
        "section": section.number,
        "key": paragraph.key,
        "former_keys": list(paragraph.former_keys.values_list("key", flat=True)),
        "url": request.build_absolute_uri(reverse("api:paragraph", kwargs={"number": number, "key": paragraph.key})),
        "pages": pages,
        "history": entries,
    }
    return JsonResponse(data, json_dumps_params=JSON)


def _changed_section_data(request, compared, existing):
    stored = compared.changes
    page = None
    if compared.number in existing:
        page = request.build_absolute_uri(reverse("api:section", args=[compared.number]))
    return {
        "number": compared.number,
        "status": stored["status"],
        "title": _translations_of(stored["title"]),
        "title_change": _cells_data(stored["title_cells"]) if stored["title_cells"] else None,
        "penalty_change": stored["penalty_change"],
        "changes": [
            {
                "key": item["key"],
                "note": item["note"],
                "status": item["status"],
                "moved": item["moved"],
                "part": item.get("part"),
                "part_change": item.get("part_change"),
                "bullet_change": item.get("bullet_change"),
                "language": item.get("language"),
                "source": item.get("source"),
                "changed_in": item["changed_in"],
                "text": _cells_data(item["cells"]),
            }
            for item in stored["items"]
        ],
        "url": page,
    }


@require_safe
def changes(request):
    """What changed between any two releases in effect (`?from=DATE&to=DATE`), section by section, with the diffs the
    changes pages show; computed once per pair and kept."""
    try:
        older, newer, redirect = releases_compared(request)
    except BadComparison as bad:
        return JsonResponse({"error": str(bad)}, status=400)
    except Http404:
        return JsonResponse({"error": "There is no release of that date."}, status=404)
    if redirect:
        return redirect
    existing = set(Section.objects.values_list("number", flat=True))
    pages = {}
    query = f"?from={older.date.isoformat()}&to={newer.date.isoformat()}"
    for code in languages.CODES:
        with translation.override(code):
            pages[code] = request.build_absolute_uri(reverse("releases:changes") + query)
    data = {
        "from": older.date.isoformat(),
        "to": newer.date.isoformat(),
        "releases": [
            r.date.isoformat()
            for r in Release.objects.in_effect().filter(date__gt=older.date, date__lte=newer.date).order_by("date")
        ],
        "sections": [
            _changed_section_data(request, compared, existing)
            for compared in comparisons.compared_sections(older, newer)
        ],
        "pages": pages,
    }
    return JsonResponse(data, json_dumps_params=JSON)
